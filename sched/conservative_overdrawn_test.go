package sched

import (
	"context"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestConservativeOverdrawnRapid: a pass whose profile is overdrawn at
// its start (jobs that outlive their estimates, S3, on a small machine
// with a long queue) places again from now only the jobs whose slot
// meets the overdrawn span (consOverdrawn) and keeps the memo's reasoning
// for the others; it gives the records of the plain pass, which places
// every job from now at every pass. Marking no job, or only those whose
// slot starts in the span, fails this at the default 100 checks, as it
// fails TestConservativeEqualsPlainRapid and TestConservativeMeddledRapid
// (each tried, 2026-11-30).
func TestConservativeOverdrawnRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(2, 8).Draw(t, "P")
		n := rapid.IntRange(5, 40).Draw(t, "n")
		jobs := make([]swf.Job, n)
		var sub int64
		for i := range jobs {
			sub += rapid.SampledFrom([]int64{0, 0, 1, 3, 10}).Draw(t, "gap")
			e := rapid.SampledFrom([]int64{1, 5, 10, 30}).Draw(t, "estimate")
			r := max(e+rapid.SampledFrom([]int64{-20, -5, 0, 3, 15}).Draw(t, "over"), 0)
			j := swf.NewJob()
			j.ID, j.Submit, j.RunTime, j.ReqTime = int64(i+1), sub, r, e
			j.AllocProcs = rapid.Int64Range(1, P).Draw(t, "size")
			j.ReqProcs, j.User = j.AllocProcs, 1
			jobs[i] = j
		}
		perEvent := rapid.Bool().Draw(t, "perEvent")
		run := func(s Scheduler) *Result {
			res, err := Run(context.Background(), Config{MachineSize: P, Scheduler: s, PerEventPass: perEvent}, jobs)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		samePlainRecords(t, run(plainConservative{}), run(conservativeScheduler{}))
	})
}
