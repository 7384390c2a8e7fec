package load_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/sched/load"
	"github.com/batchq/batchq/swf"
)

func oj(id, submit, wait, run int64) swf.Job {
	return swf.Job{ID: id, Submit: submit, Wait: wait, RunTime: run, AllocProcs: 1}
}

// A job running past the window's end adds the same whether it ends at
// 2^40 or at 2^63 − 1 and beyond: its end used to wrap to a negative time,
// sort first in termination order and start the window near −2^63 (load
// about 0 instead of 1).
func TestOfferedHugeEndNoWrap(t *testing.T) {
	for _, run := range []int64{math.MaxInt64 - 5, math.MaxInt64, 1 << 62} {
		for _, wait := range []int64{0, 1 << 62} {
			var jobs, ref []swf.Job
			for i := range int64(99) {
				jobs = append(jobs, oj(i+1, 10*i, 0, 10))
			}
			ref = append(append(ref, jobs...), oj(100, 5, 0, 1<<40))
			jobs = append(jobs, oj(100, 5, wait, run))
			if wait > 0 { // never starts within the window
				ref[99].Wait, ref[99].RunTime = 1<<40, 1
			}
			got, skipped := load.Offered(jobs, 2)
			want, _ := load.Offered(ref, 2)
			if got != want || skipped != 0 || math.IsNaN(got) {
				t.Errorf("wait %d run %d: load %v (%d skipped), want %v as with an end at 2^40", wait, run, got, skipped, want)
			}
		}
	}
}

// The window starts at the first arrival whatever the jobs' order: it
// started at the first job's, so two jobs listed latest first read as
// load 0 (an empty window) instead of 1.
func TestOfferedUnsorted(t *testing.T) {
	sorted := []swf.Job{oj(1, 0, 0, 100), oj(2, 50, 0, 50)}
	want, _ := load.Offered(sorted, 1)
	if want != 1 {
		t.Fatalf("sorted: load %v, want 1", want)
	}
	rev := []swf.Job{sorted[1], sorted[0]}
	if got, _ := load.Offered(rev, 1); got != want {
		t.Errorf("latest first: load %v, want %v", got, want)
	}
	var jobs []swf.Job
	r := rand.New(rand.NewPCG(1, 2))
	for i := range int64(50) {
		jobs = append(jobs, oj(i+1, r.Int64N(1000), r.Int64N(100), r.Int64N(500)))
	}
	want, _ = load.Offered(jobs, 4)
	for k := range 5 {
		r.Shuffle(len(jobs), func(i, j int) { jobs[i], jobs[j] = jobs[j], jobs[i] })
		if got, _ := load.Offered(jobs, 4); got != want {
			t.Errorf("shuffle %d: load %v, want %v", k, got, want)
		}
	}
}
