package molding

import (
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// constWait is an inner predictor that always says w.
type constWait float64

func (c constWait) PredictWait(swf.Job, sched.QueueState) (float64, error) { return float64(c), nil }

// handState, P = 10 at Now = 100, worked by hand:
//
//	running A: 4 procs, started 0, estimate 150 → released at 150
//	running B: 3 procs, started 50, estimate 30 → 80 is past: released now
//	free now 3, so the running-only profile is 100: 6, 150: 10.
//	waiting W1: 8 procs for 100 s → 8 free only from 150: [150, 250)
//	waiting W2: 5 procs for 20 s → fits now, before W1: [100, 120)
//	waiting W3: 2 procs for 1000 s → 1 free at 100; from 120 there are
//	  6, then 2 beside W1, then 10: [120, 1120)
//	profile with the queue: 100: 1, 120: 4, 150: 0, 250: 8, 1120: 10.
func handState() sched.QueueState {
	return sched.QueueState{Now: 100, Free: 3,
		Running: []sched.JobView{
			{ID: 1, Size: 4, Start: 0, Estimate: 150},
			{ID: 2, Size: 3, Start: 50, Estimate: 30},
		},
		Waiting: []sched.JobView{
			{ID: 3, Size: 8, Estimate: 100, Start: -1},
			{ID: 4, Size: 5, Estimate: 20, Start: -1},
			{ID: 5, Size: 2, Estimate: 1000, Start: -1},
		}}
}

func floorJob(size, est int64) swf.Job {
	return swf.Job{ID: 99, Submit: 100, ReqProcs: size, AllocProcs: size, ReqTime: est}
}

func TestProfileFloorHand(t *testing.T) {
	st := handState()
	for _, c := range []struct {
		size, est      int64
		queue, running int64
		why            string
	}{
		{1, 10, 0, 0, "1 free in [100, 120)"},
		{4, 10, 20, 0, "4 free in [120, 150)"},
		{4, 50, 150, 0, "[120, 170) crosses W1's 0 free at 150; next 8 free at 250"},
		{6, 10, 150, 0, "6 free only from 250 (running-only: now)"},
		{9, 10, 1020, 50, "9 free only after W3 ends at 1120 (running-only: A ends at 150)"},
		{10, 0, 1020, 50, "no estimate: placed for 1 s"},
	} {
		for _, runningOnly := range []bool{false, true} {
			f := &ProfileFloor{Inner: constWait(0), P: 10, RunningOnly: runningOnly}
			want := c.queue
			if runningOnly {
				want = c.running
			}
			got, err := f.Floor(floorJob(c.size, c.est), st)
			if err != nil || got != want {
				t.Errorf("size %d est %d running-only %v: floor %d, %v; want %d (%s)", c.size, c.est, runningOnly, got, err, want, c.why)
			}
		}
	}
	// A later submission counts from itself: the 9-processor job
	// submitted at 1000 waits until 1120.
	j := floorJob(9, 10)
	j.Submit = 1000
	if got, err := (&ProfileFloor{Inner: constWait(0), P: 10}).Floor(j, st); err != nil || got != 120 {
		t.Errorf("submitted at 1000: floor %d, %v; want 120", got, err)
	}
}

// The wrapper returns the inner prediction when it is above the floor and
// the floor otherwise; the cached profile follows state changes.
func TestProfileFloorMax(t *testing.T) {
	f := &ProfileFloor{Inner: constWait(500), P: 10}
	st := handState()
	for _, c := range []struct {
		size int64
		want float64
	}{{4, 500}, {9, 1020}, {1, 500}} {
		if got, err := f.PredictWait(floorJob(c.size, 10), st); err != nil || got != c.want {
			t.Errorf("size %d: %v, %v; want %v", c.size, got, err, c.want)
		}
	}
	// Drop W3 (the same slices otherwise): 9 free from 250, when W1 ends.
	st.Waiting = st.Waiting[:2]
	if got, err := f.PredictWait(floorJob(9, 10), st); err != nil || got != 500 {
		t.Errorf("without W3: %v, %v; want 500 (floor 150)", got, err)
	}
	if got, _ := f.Floor(floorJob(9, 10), st); got != 150 {
		t.Errorf("without W3: floor %d, want 150", got)
	}
}

func TestProfileFloorErrors(t *testing.T) {
	st := handState()
	for _, c := range []struct {
		f    *ProfileFloor
		j    swf.Job
		st   sched.QueueState
		want string
	}{
		{&ProfileFloor{P: 10}, floorJob(4, 10), st, "Inner"},
		{&ProfileFloor{Inner: constWait(0)}, floorJob(4, 10), st, "P = 0"},
		{&ProfileFloor{Inner: constWait(0), P: 10}, floorJob(0, 10), st, "ReqProcs 0"},
		{&ProfileFloor{Inner: constWait(0), P: 10}, floorJob(-3, 10), st, "ReqProcs -3"},
		{&ProfileFloor{Inner: constWait(0), P: 10}, floorJob(11, 10), st, "size 11"},
		{&ProfileFloor{Inner: constWait(0), P: 12}, floorJob(4, 10), st, "QueueState.Free 3 + running 7"},
		{&ProfileFloor{Inner: constWait(0), P: 10}, floorJob(4, 10), func() sched.QueueState {
			s := handState()
			s.Waiting[1].Size = 11
			return s
		}(), "QueueState.Waiting[1]"},
		{&ProfileFloor{Inner: constWait(0), P: 10}, floorJob(4, 10), func() sched.QueueState {
			s := handState()
			s.Running[0].Size = 0
			return s
		}(), "QueueState.Running[0]"},
		{&ProfileFloor{Inner: constWait(0), P: 10}, floorJob(4, 10), sched.QueueState{Now: 100, Free: -1}, "QueueState.Free = -1"},
	} {
		_, err := c.f.PredictWait(c.j, c.st)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error naming %q, got %v", c.want, err)
		}
	}
}

// Properties on random states: the floor is non-decreasing in the size
// (for one estimate), the queue-aware floor is at least the running-only
// one, and the reported start has the job's processors free for its
// estimate in the profile.
func TestProfileFloorProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 64).Draw(t, "P")
		now := rapid.Int64Range(0, 1000).Draw(t, "now")
		st := sched.QueueState{Now: now, Free: P}
		for i := range rapid.IntRange(0, 8).Draw(t, "running") {
			if st.Free == 0 {
				break
			}
			n := rapid.Int64Range(1, st.Free).Draw(t, "rsize")
			st.Free -= n
			st.Running = append(st.Running, sched.JobView{ID: int64(i), Size: n,
				Start: rapid.Int64Range(0, now).Draw(t, "rstart"), Estimate: rapid.Int64Range(0, 2000).Draw(t, "rest")})
		}
		for i := range rapid.IntRange(0, 8).Draw(t, "waiting") {
			st.Waiting = append(st.Waiting, sched.JobView{ID: int64(100 + i), Size: rapid.Int64Range(1, P).Draw(t, "wsize"),
				Estimate: rapid.Int64Range(0, 2000).Draw(t, "west"), Start: -1})
		}
		est := rapid.Int64Range(0, 3000).Draw(t, "est")
		q := &ProfileFloor{Inner: constWait(0), P: P}
		r := &ProfileFloor{Inner: constWait(0), P: P, RunningOnly: true}
		prev := int64(0)
		for s := int64(1); s <= P; s++ {
			j := swf.Job{ID: 1000, Submit: now, ReqProcs: s, AllocProcs: s, ReqTime: est}
			fq, err := q.Floor(j, st)
			if err != nil {
				t.Fatal(err)
			}
			fr, err := r.Floor(j, st)
			if err != nil {
				t.Fatal(err)
			}
			if fq < prev {
				t.Fatalf("size %d floor %d < size %d's %d", s, fq, s-1, prev)
			}
			if fq < fr || fr < 0 {
				t.Fatalf("size %d: queue-aware floor %d < running-only %d", s, fq, fr)
			}
			// The slot is free for the whole estimate, with no negative
			// free anywhere (the queue placement never overbooks).
			// sched.Profile's own test checks Fit against a per-second
			// array.
			if at, ok := q.prof.Fit(0, 1<<40, now); !ok || at != now {
				t.Fatalf("size %d: the queue profile is overbooked after %d", s, at)
			}
			if at, ok := q.prof.Fit(s, est, now+fq); !ok || at != now+fq {
				t.Fatalf("size %d placed at %d, but the profile fits it at %d, %v", s, now+fq, at, ok)
			}
			prev = fq
		}
	})
}

// learningWait is a WaitPredictor that counts the simulation events it sees.
type learningWait struct {
	sizeWait
	submits, starts, ends int
}

func (w *learningWait) OnSubmit(int64, *swf.Job)             { w.submits++ }
func (w *learningWait) OnStart(int64, *swf.Job, bool)        { w.starts++ }
func (w *learningWait) OnEnd(int64, *swf.Job, bool)          { w.ends++ }
func (w *learningWait) OnReservation(int64, *swf.Job, int64) {}

// A predictor wrapped in ProfileFloor still learns from RunStrategy's
// simulation (through Unwrap), as it does unwrapped.
func TestProfileFloorInnerLearns(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 1000, 1, 2000, 1),
		job(2, 2000, 100, 10, 200, 1),
		job(3, 5000, 1000, 1, 2000, 1),
	}
	for _, wrap := range []bool{false, true} {
		inner := &learningWait{sizeWait: sizeWait{}}
		var wait WaitPredictor = inner
		if wrap {
			wait = &ProfileFloor{Inner: inner, P: 10}
		}
		if _, err := RunStrategy(context.Background(), sched.EASY(10), jobs, wait, StrategyConfig{Strategy: "molding", History: 2}); err != nil {
			t.Fatal(err)
		}
		if inner.submits != 3 || inner.starts != 3 || inner.ends != 3 {
			t.Errorf("wrapped %v: inner saw %d submits, %d starts, %d ends; want 3 each", wrap, inner.submits, inner.starts, inner.ends)
		}
	}
}
