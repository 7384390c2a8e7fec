package rangeset

import (
	"fmt"
	"slices"
	"sort"
)

// System load as Hariharan et al. define it (§III-A; spec
// apq-rangeset-molding §3.1): over an interval I, the processor-seconds used
// by executing jobs during I divided by |I|·P.

// Execution is one job's use of the machine: Procs processors over
// [Start, End).
type Execution struct {
	Start, End, Procs int64
}

// LoadProfile is the number of busy processors as a step function of time,
// with its running integral, so that the usage of any interval costs
// O(log n). It is built from a whole trace (NewLoadProfile) or online,
// event by event, while a simulation runs (NewLoadProfile(P, nil), then Add). Not safe for concurrent
// use while it is being added to.
type LoadProfile struct {
	p     int64
	times []int64   // change points, strictly increasing
	busy  []int64   // busy processors on [times[i], times[i+1])
	cum   []float64 // processor-seconds on [times[0], times[i])
}

// NewLoadProfile builds the profile of a machine of P processors from
// executions (in any order). Executions with End ≤ Start or Procs ≤ 0 use
// nothing and are ignored. With no executions it is an empty profile to be
// fed with Add as jobs start (+procs) and end (−procs), in time order.
func NewLoadProfile(P int64, ex []Execution) (*LoadProfile, error) {
	if P <= 0 {
		return nil, fmt.Errorf("rangeset: LoadProfile machine size P = %d, need > 0", P)
	}
	type ev struct{ t, d int64 }
	evs := make([]ev, 0, 2*len(ex))
	for i, e := range ex {
		if e.End <= e.Start || e.Procs <= 0 {
			continue
		}
		if e.Start < -maxTime || e.End > maxTime || e.Procs > maxTime {
			return nil, fmt.Errorf("rangeset: execution %d [%d, %d) on %d processors: need times and processors within ±2^40",
				i, e.Start, e.End, e.Procs)
		}
		evs = append(evs, ev{e.Start, e.Procs}, ev{e.End, -e.Procs})
	}
	sort.Slice(evs, func(i, j int) bool { return evs[i].t < evs[j].t })
	lp := &LoadProfile{p: P}
	for _, e := range evs {
		lp.Add(e.t, e.d)
	}
	return lp, nil
}

// P is the machine size.
func (lp *LoadProfile) P() int64 { return lp.p }

// Add changes the busy processors by delta from time t on. Times must not
// decrease: an earlier t is an error, since the past is already integrated.
func (lp *LoadProfile) Add(t, delta int64) error {
	if t < -maxTime || t > maxTime || delta < -maxTime || delta > maxTime {
		return fmt.Errorf("rangeset: LoadProfile.Add(%d, %d): need a time and a delta within ±2^40", t, delta)
	}
	n := len(lp.times)
	if n > 0 && t < lp.times[n-1] {
		return fmt.Errorf("rangeset: LoadProfile.Add at %d before the last change %d", t, lp.times[n-1])
	}
	if n > 0 && t == lp.times[n-1] {
		lp.busy[n-1] += delta
		return nil
	}
	var cum float64
	var cur int64
	if n > 0 {
		cur = lp.busy[n-1]
		cum = lp.cum[n-1] + float64(cur)*float64(t-lp.times[n-1])
	}
	lp.times = append(lp.times, t)
	lp.busy = append(lp.busy, cur+delta)
	lp.cum = append(lp.cum, cum)
	return nil
}

// step is the index of the last change point at or before t, −1 when t
// is before the first.
func (lp *LoadProfile) step(t int64) int {
	return sort.Search(len(lp.times), func(i int) bool { return lp.times[i] > t }) - 1
}

// integral is the processor-seconds on (−∞, t): the busy level after the
// last change extends to the right.
func (lp *LoadProfile) integral(t int64) float64 {
	i := lp.step(t)
	if i < 0 {
		return 0
	}
	return lp.cum[i] + float64(lp.busy[i])*(float64(t)-float64(lp.times[i]))
}

// Usage is the processor-seconds used during [a, b).
func (lp *LoadProfile) Usage(a, b int64) float64 {
	if b <= a {
		return 0
	}
	return lp.integral(b) - lp.integral(a)
}

// Load is the load over [a, b): Usage / ((b−a)·P). An empty interval has
// load 0.
func (lp *LoadProfile) Load(a, b int64) float64 {
	if b <= a {
		return 0
	}
	return lp.Usage(a, b) / ((float64(b) - float64(a)) * float64(lp.p)) // b−a may overflow int64
}

// maxTime bounds the times and processor counts of a LoadProfile, as
// sanitize.MaxTime bounds a sane job's times (2^40 s, 35,000 years):
// differences never overflow, nor busy counts over millions of changes.
const maxTime = 1 << 40

// Busy is the number of busy processors at t.
func (lp *LoadProfile) Busy(t int64) int64 {
	i := lp.step(t)
	if i < 0 {
		return 0
	}
	return lp.busy[i]
}

// JobLoad is the actual load of a finished job: the load due to the other
// jobs executing during its own run (spec H11: its own usage is excluded).
// A zero-length run takes the instantaneous load of the others at Start.
func (lp *LoadProfile) JobLoad(e Execution) float64 {
	if e.End <= e.Start {
		return float64(lp.Busy(e.Start)) / float64(lp.p)
	}
	d := float64(e.End) - float64(e.Start) // e.End−e.Start may overflow int64
	u := lp.Usage(e.Start, e.End) - float64(e.Procs)*d
	return max(u, 0) / (d * float64(lp.p))
}

// LoadWindow is how a target's load is predicted (§3.1): the mean of the
// loads of Slots-long intervals covering the Window before the submit time.
// The zero value is the paper's: one week in 30-minute intervals (336).
type LoadWindow struct {
	Window, Slot int64 // seconds
}

// Validate reports a negative window or slot, or a slot longer than the
// window.
func (w LoadWindow) Validate() error {
	if w.Window < 0 {
		return fmt.Errorf("rangeset: LoadWindow.Window = %d, need ≥ 0", w.Window)
	}
	if w.Slot < 0 {
		return fmt.Errorf("rangeset: LoadWindow.Slot = %d, need ≥ 0", w.Slot)
	}
	if w.Window > 0 && w.Slot > w.Window {
		return fmt.Errorf("rangeset: LoadWindow.Slot %d longer than Window %d", w.Slot, w.Window)
	}
	return nil
}

func (w LoadWindow) withDefaults() LoadWindow {
	if w.Window == 0 {
		w.Window = 7 * 24 * 3600
	}
	if w.Slot == 0 {
		w.Slot = 1800
	}
	return w
}

// PredictedLoad is the predicted load of a job submitted at t: the mean
// load of the slots of the window before t. Slots before the profile's
// first change (the start of the log) are left out, so that the log's
// empty prehistory does not pull the prediction down; with no slot left
// the answer is the instantaneous load at t.
func (lp *LoadProfile) PredictedLoad(t int64, w LoadWindow) float64 {
	w = w.withDefaults()
	first := t
	if len(lp.times) > 0 {
		first = lp.times[0]
	}
	// The slots have equal length, so the mean of their loads is the load
	// of their union: one integral instead of 336. The slots since first
	// are counted in uint64, where t − first is exact: in int64 it wrapped
	// for t near 2^63 − 1 and a profile starting before 0, and the window
	// shrank to the instantaneous load.
	n := uint64(w.Window / w.Slot)
	switch {
	case t < first:
		n = 0
	case (uint64(t)-uint64(first))/uint64(w.Slot) < n:
		n = (uint64(t) - uint64(first)) / uint64(w.Slot)
	}
	if n == 0 {
		return float64(lp.Busy(t)) / float64(lp.p)
	}
	return lp.Load(int64(uint64(t)-n*uint64(w.Slot)), t) // (≥ first: no wrap)
}

// Trim drops the change points before t, keeping what is needed to
// integrate from t on; long online simulations call it to bound memory.
func (lp *LoadProfile) Trim(t int64) {
	i := lp.step(t)
	if i <= 0 {
		return
	}
	lp.times = slices.Delete(lp.times, 0, i)
	lp.busy = slices.Delete(lp.busy, 0, i)
	lp.cum = slices.Delete(lp.cum, 0, i)
}
