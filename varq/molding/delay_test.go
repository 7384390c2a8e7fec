package molding

import (
	"context"
	"testing"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Ends 100, 104, 110, 300 s ahead with a 5% horizon: t = 100, then 104
// (within 105), then 110 is beyond 104·1.05 = 109.2 → 104. Ends in the
// past are skipped.
func TestFutureDelayHand(t *testing.T) {
	if d, ok := futureDelay(1000, []int64{1300, 1110, 1100, 1104, 900}, 0.05); !ok || d != 104 {
		t.Errorf("futureDelay = %d, %v; want 104", d, ok)
	}
	if _, ok := futureDelay(1000, []int64{1000, 10}, 0.05); ok {
		t.Error("no future end, but a delay")
	}
	if l := futureLoad(0.8, 100, 25); l != 0.2 {
		t.Errorf("futureLoad = %v, want 0.2", l)
	}
	if l := futureLoad(0.8, 0, 0); l != 0.8 {
		t.Errorf("futureLoad with nothing running = %v", l)
	}
	st := sched.QueueState{Now: 0, Free: 2, Running: []sched.JobView{{ID: 1, Size: 4}, {ID: 2, Size: 4}}}
	fs := futureState(st, 50, func(id int64) (int64, bool) { return 40, id == 1 })
	if fs.Now != 50 || fs.Free != 6 || len(fs.Running) != 1 || fs.Running[0].ID != 2 {
		t.Errorf("futureState = %+v", fs)
	}
	if err := (DelayConfig{Threshold: 1}).Validate(); err == nil {
		t.Error("Threshold 1 accepted")
	}
}

// busyWait predicts a long wait while anything runs, none on an idle
// machine.
type busyWait struct{}

func (busyWait) PredictWait(_ swf.Job, st sched.QueueState) (float64, error) {
	if len(st.Running) > 0 {
		return 5000, nil
	}
	return 0, nil
}

// User 2's full-machine job runs 1000 s (so the one started at 2000 is
// predicted to end at 3000); user 1's job arriving at 2500 is predicted
// 5000 + 100 s now, 500 + 0 + 100 s at 3000 → held until 3000. The
// baseline job waits for the same machine, so the response is 600 either
// way: the hold costs nothing here.
func TestRunStrategyDelayed(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 1000, 10, 2000, 2),
		job(2, 1000, 100, 10, 200, 1),
		job(3, 2000, 1000, 10, 2000, 2),
		job(4, 2500, 100, 10, 200, 1),
		job(5, 2600, 100, 10, 200, 1),
	}
	for _, s := range []string{"baseline", "delayed"} {
		res, err := RunStrategy(context.Background(), sched.EASY(10), jobs, busyWait{}, StrategyConfig{Strategy: s, History: 3})
		if err != nil {
			t.Fatal(err)
		}
		// Job 4: response 600. Job 5 (baseline): starts at 3100 → 600.
		// Job 5 (delayed): held, released at 3000 + 100 → 600.
		if res.Jobs != 2 || res.MeanResp != 600 {
			t.Errorf("%v: %d jobs, response %v, want 600", s, res.Jobs, res.MeanResp)
		}
		if s == "delayed" && (res.Delayed != 1 || res.Held != 1) {
			t.Errorf("delayed %d held %d, want 1 and 1", res.Delayed, res.Held)
		}
		// Job 4 is held 2500 → 3000; job 5, held behind it, responds in 600.
		if s == "delayed" && (res.MeanHold != 500 || res.HeldResp != 600) {
			t.Errorf("mean hold %v, held jobs' response %v; want 500 and 600", res.MeanHold, res.HeldResp)
		}
		held := 0
		for _, tj := range res.Treated {
			if tj.End-tj.Arrival != 600 {
				t.Errorf("%v: job %d arrived %d, ended %d; want a 600 s response", s, tj.ID, tj.Arrival, tj.End)
			}
			if tj.Held {
				held++
			}
		}
		if len(res.Treated) != 2 || (s == "delayed") != (held == 1) {
			t.Errorf("%v: %d treated jobs, %d held", s, len(res.Treated), held)
		}
	}
}

// Jobs without a number (-1, SWF's "missing"), history and treated alike,
// all run and are told apart: the treated ones numbered by their line as
// sched numbers them, counted in Numbered, the caller's jobs unchanged.
// Keyed by -1, the treated jobs were matched to the history's job sched
// numbered for line 1: one treated job, with that job's start and end.
func TestRunStrategyNoJobNumbers(t *testing.T) {
	jobs := []swf.Job{
		job(-1, 0, 1000, 10, 2000, 2),
		job(-1, 1000, 100, 10, 200, 1),
		job(-1, 2000, 1000, 10, 2000, 2),
		job(-1, 2500, 100, 10, 200, 1),
		job(-1, 2600, 100, 10, 200, 1),
	}
	for _, s := range []string{"baseline", "molding", "delayed"} {
		res, err := RunStrategy(context.Background(), sched.EASY(10), jobs, busyWait{}, StrategyConfig{Strategy: s, History: 3})
		if err != nil {
			t.Fatal(err)
		}
		if res.Jobs != 2 || res.Numbered != 2 || res.Rejected != 0 || len(res.Treated) != 2 ||
			res.Treated[0].ID != jobid.MadeUp(4) || res.Treated[1].ID != jobid.MadeUp(5) || res.Treated[1].Arrival != 2600 {
			t.Errorf("%s: %d jobs ran, %d numbered, %d rejected, treated %+v; want 2, 2, 0, lines 4 and 5", s, res.Jobs, res.Numbered, res.Rejected, res.Treated)
		}
	}
	for i := range jobs {
		if jobs[i].ID != -1 {
			t.Fatalf("the caller's job %d now numbered %d", i, jobs[i].ID)
		}
	}
}
