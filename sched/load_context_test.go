package sched

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
)

// lateCtx is a context that becomes done (its deadline passed) at its
// after+1-th look: a deadline that passes at a point of the load that
// the test names, whatever the machine's speed.
type lateCtx struct {
	context.Context
	looks, after int
}

func (c *lateCtx) Err() error {
	c.looks++
	if c.looks > c.after {
		return context.DeadlineExceeded
	}
	return nil
}

func loadJobs(n int) []swf.Job {
	jobs := make([]swf.Job, n)
	for i := range jobs {
		jobs[i] = swf.Job{ID: -1, Submit: int64(i), RunTime: 10, AllocProcs: 1, ReqProcs: 1, ReqTime: 10, Status: 1}
	}
	return jobs
}

// A deadline that passes while Run loads the jobs is heard within
// loadEvery jobs, not after the whole load. The jobs have no number, so
// that each one loaded is a copy (madeUpID): the allocations count the
// jobs loaded. Checked: fails without the looks in load (100k
// allocations, the whole load, then the error from the first instant).
func TestRunDeadlineDuringLoad(t *testing.T) {
	jobs := loadJobs(100000)
	// Run's look before the load, load's first, then done at its second:
	// after loadEvery jobs.
	ctx := &lateCtx{Context: context.Background(), after: 2}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := Run(ctx, EASY(8), jobs)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, context.DeadlineExceeded) || res != nil {
		t.Fatalf("Run with a deadline during the load: %v, result %v; want DeadlineExceeded and none", err, res != nil)
	}
	if n := after.Mallocs - before.Mallocs; n > 2*loadEvery {
		t.Errorf("Run with a deadline during the load made %d allocations: it loaded about that many of the %d jobs, want at most %d", n, len(jobs), 2*loadEvery)
	}
}

// A LoadContext that stops leaves a Sim that says so: every later Load,
// RunUntil and Finish returns an error that wraps ctx's, and nothing
// half-loaded is simulated. One whose ctx is done before it starts
// loads nothing and leaves the Sim able to go on.
func TestLoadContextStopped(t *testing.T) {
	s, err := New(EASY(8))
	if err != nil {
		t.Fatal(err)
	}
	jobs := loadJobs(3 * loadEvery)
	if err := s.LoadContext(&lateCtx{Context: context.Background()}, jobs); !errors.Is(err, context.DeadlineExceeded) || len(s.recs) != 0 || s.cut {
		t.Fatalf("LoadContext on a done context: %v, %d records, cut %v; want DeadlineExceeded, none and a live Sim", err, len(s.recs), s.cut)
	}
	if err := s.LoadContext(&lateCtx{Context: context.Background(), after: 2}, jobs); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("LoadContext with a deadline during it: %v; want DeadlineExceeded", err)
	}
	if len(s.recs) != 2*loadEvery {
		t.Errorf("LoadContext stopped after %d jobs, want %d (two pieces of loadEvery)", len(s.recs), 2*loadEvery)
	}
	if err := s.Load(jobs[:1]); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Load after a stopped LoadContext: %v; want an error wrapping DeadlineExceeded", err)
	}
	if err := s.RunUntil(100); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("RunUntil after a stopped LoadContext: %v; want an error wrapping DeadlineExceeded", err)
	}
	if res, err := s.Finish(); !errors.Is(err, context.DeadlineExceeded) || res != nil {
		t.Errorf("Finish after a stopped LoadContext: %v, result %v; want an error wrapping DeadlineExceeded and none", err, res != nil)
	}
}

// A deadline that passes while Load sorts a log out of order is heard
// within a piece of the sort (sortArrivals), not after it. Checked: fails
// with the one SortFunc of before (LoadContext returns nil, the Sim not
// done).
func TestLoadContextDuringSort(t *testing.T) {
	jobs := loadJobs(100000)
	for i := range jobs {
		jobs[i].ID, jobs[i].Submit = int64(i+1), int64(len(jobs)-i) // latest first
	}
	s, err := New(EASY(8))
	if err != nil {
		t.Fatal(err)
	}
	// load's first look and one between each two pieces of loadEvery
	// jobs; then done at the sort's first look.
	pieces := (len(jobs) + loadEvery - 1) / loadEvery
	ctx := &lateCtx{Context: context.Background(), after: pieces}
	if err := s.LoadContext(ctx, jobs); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("LoadContext with a deadline during the sort: %v; want DeadlineExceeded", err)
	}
	if ctx.looks != pieces+1 {
		t.Errorf("LoadContext looked at its context %d times, want %d (the sort stops at its first look that finds it done)", ctx.looks, pieces+1)
	}
	if err := s.RunUntil(100); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("RunUntil after a sort stopped: %v; want an error wrapping DeadlineExceeded", err)
	}
	// The same jobs without a deadline load and sort.
	s, err = New(EASY(8))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadContext(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
}

// sortArrivals sorts as one SortFunc does (the order is total): in one
// piece, in pieces merged pairwise, and in an odd number of them of
// which the last is short.
func TestSortArrivals(t *testing.T) {
	cmp := func(a, b arrival) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return int(a.k - b.k)
	}
	for _, n := range []int{0, 1, 100, sortPiece, sortPiece + 1, 2 * sortPiece, 3*sortPiece + 7, 5*sortPiece - 1} {
		a := make([]arrival, n)
		for i := range a {
			a[i] = arrival{at: int64((i * 7919) % 1000), k: int32(i)}
		}
		want := slices.Clone(a)
		slices.SortFunc(want, cmp)
		if err := sortArrivals(context.Background(), a, cmp); err != nil || !slices.Equal(a, want) {
			t.Errorf("%d arrivals: %v, sorted as SortFunc sorts them %v", n, err, slices.Equal(a, want))
		}
	}
}
