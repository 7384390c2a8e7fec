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
		jobs := drawOverrunJobs(t, P, rapid.IntRange(5, 40).Draw(t, "n"))
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

// drawOverrunJobs draws n jobs of one user for a machine of P
// processors, many of which outlive their estimates (S3's reservations
// held at now overdraw the profile) or end long before them.
func drawOverrunJobs(t *rapid.T, P int64, n int) []swf.Job {
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
	return jobs
}

// TestConservativeOverdrawnMixedRapid: consOverdrawn's passes among
// everything else that overdraws or gains in the same pass, on machines
// of 1-6 processors with up to 80 jobs: overruns (S3's reservations held
// at now), predictors that correct (an estimate extended while its job
// runs) and re-predict, cancellations between passes and by an observer
// at a reservation or a start, submissions by that observer, and passes
// of the built-in EASY between conservative ones (a reservation of the
// head taken again by the next conservative pass). The records are the
// plain pass's, which places every job from now at every pass.
func TestConservativeOverdrawnMixedRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 6).Draw(t, "P")
		n := rapid.IntRange(10, 80).Draw(t, "n")
		jobs := make([]swf.Job, n)
		var sub int64
		for i := range jobs {
			sub += rapid.SampledFrom([]int64{0, 0, 0, 1, 2, 7}).Draw(t, "gap")
			e := rapid.SampledFrom([]int64{1, 2, 4, 9, 20}).Draw(t, "estimate")
			r := max(e+rapid.SampledFrom([]int64{-8, -1, 0, 0, 1, 6}).Draw(t, "over"), 0)
			j := swf.NewJob()
			j.ID, j.Submit, j.RunTime, j.ReqTime = int64(i+1), sub, r, e
			j.AllocProcs = rapid.Int64Range(1, P).Draw(t, "size")
			j.ReqProcs, j.User = j.AllocProcs, rapid.Int64Range(1, 2).Draw(t, "user")
			jobs[i] = j
		}
		pred := rapid.IntRange(0, 3).Draw(t, "predictor")
		kill := rapid.Bool().Draw(t, "kill")
		perEvent := rapid.Bool().Draw(t, "perEvent")
		easy := rapid.SliceOfN(rapid.SampledFrom([]bool{false, false, false, true}), 1, 6).Draw(t, "easy")
		obs := rapid.SliceOfN(rapid.SampledFrom([]int{0, 0, 0, 0, 0, 0, 1, 2}), 1, 12).Draw(t, "obs")
		ids := rapid.SliceOfN(rapid.Int64Range(1, int64(n)), 1, 12).Draw(t, "ids")
		cancels := drawCancels(t, 3, sub+30, n)
		run := func(inner Scheduler) *Result {
			cfg := Config{MachineSize: P, Scheduler: &alternator{inner: inner, act: easy}, KillAtEstimate: kill, PerEventPass: perEvent}
			withPredictor(t, &cfg, pred)
			return runCancelled(t, cfg, jobs, cancels, func(sim *Sim) { meddle(sim, jobs, obs, ids) })
		}
		samePlainRecords(t, run(plainConservative{}), run(conservativeScheduler{}))
	})
}

// TestConsOverdrawnBounds: consOverdrawn's span is half-open at both
// ends, [the first overdrawn point, the end of the last overdrawn step),
// never past the last point when that one is overdrawn, and it marks a
// slot between two overdrawn steps (the hull's) but no job without a
// slot.
func TestConsOverdrawnBounds(t *testing.T) {
	pts := []point{{0, 2}, {10, -1}, {20, 1}, {30, -2}, {40, 0}}
	cases := []struct {
		res, d int64
		want   bool
	}{
		{0, 10, false},  // ends where the span begins
		{0, 11, true},   // its last second is overdrawn
		{40, 5, false},  // begins where the span ends
		{39, 1, true},   // the last overdrawn second
		{20, 5, true},   // between the overdrawn steps: in the hull
		{-1, 50, false}, // no slot
	}
	list := make([]consEntry, len(cases))
	for k, c := range cases {
		list[k] = consEntry{res: c.res, d: c.d}
	}
	consOverdrawn(pts, list)
	for k, c := range cases {
		if list[k].fresh != c.want {
			t.Errorf("slot [%d, %d): fresh %v, want %v", c.res, c.res+c.d, list[k].fresh, c.want)
		}
	}
	list = []consEntry{{res: 1000, d: 1}, {res: 5, d: 5}}
	consOverdrawn([]point{{0, 1}, {10, 0}, {50, -1}}, list)
	if !list[0].fresh || list[1].fresh {
		t.Errorf("last point overdrawn: fresh %v %v, want true false", list[0].fresh, list[1].fresh)
	}
}

// TestConsOverdrawnRapid: what consMemo's reasoning needs of every job
// consOverdrawn leaves unmarked, on random profiles and slots: no point
// of its slot is overdrawn.
func TestConsOverdrawnRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var pts []point
		var at int64
		for k := range rapid.IntRange(1, 8).Draw(t, "points") {
			if k > 0 {
				at += rapid.Int64Range(1, 5).Draw(t, "step")
			}
			pts = append(pts, point{at, rapid.Int64Range(-2, 2).Draw(t, "free")})
		}
		list := make([]consEntry, rapid.IntRange(0, 8).Draw(t, "jobs"))
		for k := range list {
			list[k] = consEntry{res: rapid.Int64Range(0, at+5).Draw(t, "res"), d: rapid.Int64Range(1, 8).Draw(t, "d")}
		}
		consOverdrawn(pts, list)
		for _, e := range list {
			if e.fresh {
				continue
			}
			for i, q := range pts {
				end := never
				if i+1 < len(pts) {
					end = pts[i+1].t
				}
				if q.free < 0 && q.t < e.res+e.d && e.res < end {
					t.Fatalf("slot [%d, %d) unmarked, overdrawn at [%d, %d)", e.res, e.res+e.d, q.t, end)
				}
			}
		}
	})
}
