package molding

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// floorKey is what a cached profile depends on besides the state.
type floorKey struct {
	p           int64
	runningOnly bool
}

// ProfileFloor is a size-aware wait for molding (NOT the paper's): it
// returns max(Inner's wait, the profile wait), where the profile wait is
// how long job j would wait for a place in a conservative-backfilling
// schedule built from what the resource manager sees in the QueueState.
//
// Why: APQ (the paper's predictor) sees request size as one nominal term
// of its distance, so a hypothetical larger request gets nearly the same
// predicted wait as the original and the molder sees growing as free
// (examples/apq README, Tables VIII–IX). The profile knows that a job of s
// processors cannot start before s processors are free.
//
// The profile: the free processors now; each running job releases its
// processors at Start + Estimate (its kill time; Now if that is past);
// unless RunningOnly, the waiting jobs in arrival order then each take the
// earliest slot where they fit for their estimates without moving an
// earlier one (conservative backfilling); then j, for its own estimate,
// from max(Now, j.Submit). A job without an estimate (ReqTime ≤ 0, e.g.
// every SDSC Paragon job) is placed for 1 s: the earliest moment its
// processors are free at all.
//
// The default places the queue because the queue is part of what size
// costs: a job that arrives behind waiting jobs starts early only by
// backfilling into a hole of s processors, and a grown job rarely finds
// one, so it waits until the jobs ahead of it have started and s
// processors are free. APQ misses that for the same reason it misses the
// rest (size is one nominal term), and a running-only profile leaves it
// out. The queue profile's error is a different one: every job is assumed
// to run to its estimate, and conservative backfilling lets no job delay
// any waiting job's reservation while EASY protects only the head's, so
// where estimates are far above runtimes (SDSC SP2, Blue) it overpredicts. RunningOnly is the
// cheaper, lower floor: the time until the running jobs, at their kill
// times, leave s processors free.
//
// Neither is a strict lower bound (running jobs usually end before their
// estimates), but a job never starts while fewer processors than it asks
// for are free, which is the cost the inner predictor misses.
//
// The profile is sched.Profile, the one conservative backfilling plans
// with. Cost per new state: O(r log r) for r running jobs, plus
// O(q·(r + q)) to place q waiting jobs (BenchmarkProfileFloor, quiet 2-core
// machine: 24 µs for q = 200, 0.60 ms for q = 1000); each further
// candidate size in the same state is one O(r + q) scan.
//
// If Inner is a sched.Observer, RunStrategy registers it through Unwrap,
// so that Inner still learns from the simulation. Not safe for
// concurrent use (it caches the last state's profile: molder.Decide asks
// about every candidate size in the same state).
type ProfileFloor struct {
	Inner WaitPredictor
	// P is the machine's processor count.
	P int64
	// RunningOnly leaves the waiting jobs out: a cheaper, lower floor.
	RunningOnly bool

	prof   sched.Profile
	cached sched.QueueState // the state prof was built for (copied slices)
	key    floorKey         // and the settings it was built with
	valid  bool
	rel    []release
}

// release is a running job's processors, freed at its kill time.
type release struct{ t, n int64 }

// PredictWait returns max(Inner's wait, the profile wait) in seconds. A
// job of size ≤ 0 or > P, or a state inconsistent with P, is an error
// naming the field.
func (f *ProfileFloor) PredictWait(j swf.Job, st sched.QueueState) (float64, error) {
	floor, err := f.Floor(j, st)
	if err != nil {
		return 0, err
	}
	w, err := f.Inner.PredictWait(j, st)
	if err != nil {
		return 0, err
	}
	return max(w, float64(floor)), nil
}

// Floor is the profile wait alone (seconds from max(st.Now, j.Submit)).
func (f *ProfileFloor) Floor(j swf.Job, st sched.QueueState) (int64, error) {
	if f.Inner == nil {
		return 0, errors.New("molding: ProfileFloor.Inner is nil")
	}
	if f.P <= 0 {
		return 0, fmt.Errorf("molding: ProfileFloor.P = %d, need > 0", f.P)
	}
	n := j.Size()
	if n <= 0 || n > f.P {
		return 0, fmt.Errorf("molding: ProfileFloor: job %d size %d (ReqProcs %d, AllocProcs %d), need 1..P = %d", j.ID, n, j.ReqProcs, j.AllocProcs, f.P)
	}
	if err := f.build(st); err != nil {
		return 0, err
	}
	from := max(st.Now, j.Submit)
	t, ok := f.prof.Fit(n, max(j.ReqTime, 1), from)
	if !ok { // cannot happen: build checked that the profile ends with P free
		return 0, fmt.Errorf("molding: ProfileFloor: job %d of %d processors never fits", j.ID, n)
	}
	return t - from, nil
}

// build makes the profile of st (running jobs, then the queue unless
// RunningOnly), reusing the last one when st is the same state.
func (f *ProfileFloor) build(st sched.QueueState) error {
	key := floorKey{f.P, f.RunningOnly}
	if f.valid && f.key == key && f.cached.Now == st.Now && f.cached.Free == st.Free &&
		slices.Equal(f.cached.Running, st.Running) && (f.RunningOnly || slices.Equal(f.cached.Waiting, st.Waiting)) {
		return nil
	}
	f.valid = false
	if st.Free < 0 {
		return fmt.Errorf("molding: ProfileFloor: QueueState.Free = %d, need ≥ 0", st.Free)
	}
	busy := int64(0)
	f.rel = f.rel[:0]
	for i, r := range st.Running {
		if r.Size <= 0 {
			return fmt.Errorf("molding: ProfileFloor: QueueState.Running[%d] (job %d) Size = %d, need > 0", i, r.ID, r.Size)
		}
		busy += r.Size
		f.rel = append(f.rel, release{r.Start + max(r.Estimate, 0), r.Size})
	}
	if st.Free+busy != f.P {
		return fmt.Errorf("molding: ProfileFloor: QueueState.Free %d + running %d = %d processors, P = %d", st.Free, busy, st.Free+busy, f.P)
	}
	// Kill times already past count as now: the scheduler kills a job at
	// its estimate (sched, planning with predictions, releases a stale one
	// at now+1 instead).
	slices.SortFunc(f.rel, func(a, b release) int { return cmp.Compare(a.t, b.t) })
	f.prof.Reset(st.Now, st.Free)
	for _, r := range f.rel {
		f.prof.Release(max(r.t, st.Now), r.n)
	}
	if !f.RunningOnly {
		for i, w := range st.Waiting {
			if w.Size <= 0 || w.Size > f.P {
				return fmt.Errorf("molding: ProfileFloor: QueueState.Waiting[%d] (job %d) Size = %d, need 1..P = %d", i, w.ID, w.Size, f.P)
			}
			d := max(w.Estimate, 1)
			t, _ := f.prof.Fit(w.Size, d, st.Now) // fits: the profile ends with P free
			f.prof.Allocate(t, d, w.Size)
		}
	}
	f.cached = sched.QueueState{Now: st.Now, Free: st.Free,
		Running: append(f.cached.Running[:0], st.Running...), Waiting: f.cached.Waiting[:0]}
	if !f.RunningOnly {
		f.cached.Waiting = append(f.cached.Waiting, st.Waiting...)
	}
	f.key, f.valid = key, true
	return nil
}

// Unwrap returns Inner: RunStrategy registers every sched.Observer along a
// chain of wrappers, so that Inner still learns from the simulation.
func (f *ProfileFloor) Unwrap() WaitPredictor { return f.Inner }
