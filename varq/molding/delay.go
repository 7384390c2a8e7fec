package molding

import (
	"fmt"
	"slices"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Delayed submission (Hariharan et al. §IV-B; spec §5, H22): hold a job
// until running jobs are predicted to have finished if its predicted
// response, counted from now, gets at least 30% better.

// DelayConfig holds the delayed-submission parameters. The zero value is
// the paper's: a 30% improvement threshold and a 5% grouping horizon.
type DelayConfig struct {
	Threshold float64 // required relative improvement (0: 0.3)
	Horizon   float64 // completions within (t, t+Horizon·t] move t (0: 0.05)
	// HoldOnlyHead is NOT the paper's: RunStrategy holds only the delayed
	// job itself, and jobs arriving meanwhile are decided on their own,
	// instead of queueing behind it (spec §5 step 5).
	HoldOnlyHead bool
}

// Validate names the first parameter out of range.
func (c DelayConfig) Validate() error {
	if !(c.Threshold >= 0 && c.Threshold < 1) {
		return fmt.Errorf("molding: DelayConfig.Threshold = %v, need in [0, 1)", c.Threshold)
	}
	if !(c.Horizon >= 0 && c.Horizon <= 10) {
		return fmt.Errorf("molding: DelayConfig.Horizon = %v, need in [0, 10]", c.Horizon)
	}
	return nil
}

func (c DelayConfig) withDefaults() DelayConfig {
	if c.Threshold == 0 {
		c.Threshold = 0.3
	}
	if c.Horizon == 0 {
		c.Horizon = 0.05
	}
	return c
}

// futureDelay is the delay t (seconds from now) of §IV-B: the earliest
// predicted completion of a running job, then repeatedly the next one if
// it falls within (t, t + horizon·t]. Predicted ends at or before now are
// jobs already past their prediction: they give no future moment and are
// skipped (a delay of 0 would mean "now"). ok is false when no running
// job is predicted to end after now.
func futureDelay(now int64, predEnds []int64, horizon float64) (t int64, ok bool) {
	var ds []int64
	for _, e := range predEnds {
		if e > now {
			ds = append(ds, e-now)
		}
	}
	if len(ds) == 0 {
		return 0, false
	}
	slices.Sort(ds)
	t = ds[0]
	for _, d := range ds[1:] {
		if d > t && float64(d) <= float64(t)*(1+horizon) {
			t = d
		} else if d > t {
			break
		}
	}
	return t, true
}

// futureLoad scales the current predicted load by the projected busy
// processors (H22): futureLoad = cur · busyThen/busyNow (cur when nothing
// runs now).
func futureLoad(cur float64, busyNow, busyThen int64) float64 {
	if busyNow <= 0 {
		return cur
	}
	return cur * float64(busyThen) / float64(busyNow)
}

// futureState projects st to time at (H22): running jobs predicted to have
// ended by then are removed and their processors freed, the waiting jobs
// stay, and the clock moves (so elapsed times grow by at − st.Now).
// predEnd gives a running job's predicted end; a job it does not know is
// kept.
func futureState(st sched.QueueState, at int64, predEnd func(id int64) (int64, bool)) sched.QueueState {
	out := sched.QueueState{Now: at, Free: st.Free, Waiting: st.Waiting}
	for _, r := range st.Running {
		if e, ok := predEnd(r.ID); ok && e <= at {
			out.Free += r.Size
			continue
		}
		out.Running = append(out.Running, r)
	}
	return out
}

// delayDecision is what delayed submission chose for one job.
type delayDecision struct {
	Now     moldDecision // molded for submission now
	Future  moldDecision // molded for submission at At (valid when Delay)
	At      int64        // the future submission time
	Delay   bool
	CurResp float64 // predicted response submitting now (s)
	FutResp float64 // predicted response submitting at At, counted from now (s)
}

// DecideDelay decides whether to hold j (arriving now, j.Submit) until a
// future moment (§IV-B, spec §5): molded now its predicted response is
// CurResp; at the moment t when running jobs are predicted to finish, with
// the load and state projected there and the size re-molded, it is
// (t − now) + the future response. It is delayed iff that is at most
// (1 − Threshold)·CurResp. The molder must have TrackRunning set. ok is
// false when molding has no opinion (no history for j's key); j is then
// submitted now, unchanged.
func (m *molder) DecideDelay(j swf.Job, st sched.QueueState, cfg DelayConfig) (dd delayDecision, ok bool, err error) {
	if err := cfg.Validate(); err != nil {
		return dd, false, err
	}
	if !m.TrackRunning {
		return dd, false, fmt.Errorf("molding: DecideDelay needs molder.TrackRunning")
	}
	cfg = cfg.withDefaults()
	now := j.Submit
	load := m.PredictedLoad(now)
	cur, ok, err := m.Decide(j, st, load)
	if err != nil || !ok {
		return delayDecision{Now: cur}, ok, err
	}
	dd = delayDecision{Now: cur, CurResp: cur.Point()}
	ends := make([]int64, 0, len(st.Running))
	for _, r := range st.Running {
		if e, ok := m.ends[r.ID]; ok {
			ends = append(ends, e)
		}
	}
	t, ok := futureDelay(now, ends, cfg.Horizon)
	if !ok {
		return dd, true, nil
	}
	at := now + t
	fst := futureState(st, at, m.PredictedEnd)
	busyNow, busyThen := busy(st), busy(fst)
	jf := j
	jf.Submit = at
	fut, ok, err := m.Decide(jf, fst, futureLoad(load, busyNow, busyThen))
	if err != nil || !ok {
		return dd, true, err
	}
	dd.Future, dd.At = fut, at
	dd.FutResp = float64(t) + fut.Point()
	dd.Delay = dd.FutResp <= (1-cfg.Threshold)*dd.CurResp
	return dd, true, nil
}

func busy(st sched.QueueState) int64 {
	var b int64
	for _, r := range st.Running {
		b += r.Size
	}
	return b
}
