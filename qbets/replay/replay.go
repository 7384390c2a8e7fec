package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/swf"
)

// Event is what happens to a job during a replay.
type Event uint8

const (
	// Arrive: the job is submitted (at Submit). Its wait is still hidden.
	Arrive Event = iota
	// Start: the job starts (at Submit + Wait); its wait is now known.
	Start
	// End: the job ends (at Submit + Wait + RunTime). Jobs whose RunTime
	// is unknown (negative) never end.
	End
)

func (e Event) String() string {
	switch e {
	case Arrive:
		return "arrive"
	case Start:
		return "start"
	case End:
		return "end"
	}
	return fmt.Sprintf("Event(%d)", int(e))
}

// Predictor is a wait predictor the replay drives: Observe is told every
// arrival, start and end in causal order; Predict is asked for the wait of
// a job at its arrival (now = j.Submit, after Observe(Arrive, j)) and,
// with Options.Snapshot, again at the first snapshot that finds it waiting
// (now > j.Submit; the wait asked for is then Start − now). The job is
// read only and must not be kept. An error from either ends the replay.
type Predictor interface {
	Observe(ev Event, j *swf.Job) error
	Predict(j *swf.Job, now int64) (Prediction, error)
}

// Prediction is a predictor's answer, in seconds. A point predictor sets
// Point (and Lower = Upper = NaN unless it gives an interval); a bound
// predictor sets Upper (Lower 0 for a one-sided bound, Point NaN); an
// interval predictor sets all three. NaN means "not given", ±Inf an
// unbounded end.
type Prediction struct {
	OK     bool   // false: the predictor declines (too little history, machine down, …)
	Reason string // why, when !OK
	Point  float64
	Lower  float64
	Upper  float64
}

// bound is a one-sided upper bound b, as QBETS gives.
func bound(b float64) Prediction { return Prediction{OK: true, Point: math.NaN(), Upper: b} }

// Options select the scored jobs and hook into a Run. The zero value
// scores every job after the first 10% (the thesis's training period).
type Options struct {
	// Train is the fraction of jobs (in submit order) that only train: they
	// are replayed but not scored. 0 means 0.10 (Nurmi §5.1 and Q12 in docs/decisions.md, after Brevik et al.).
	Train float64
	// From and To, when To > 0, select the scored jobs by position in
	// submit order instead: [From, To). Jobs from To on are not replayed
	// (they cannot change what a scored job meets).
	From, To int
	// PredictAll asks every predictor for every job, training jobs
	// included (OnPredict sees them; they are not scored). By default only
	// scored jobs are predicted.
	PredictAll bool
	// Snapshot, when > 0, takes a queue snapshot every Snapshot seconds
	// (at multiples of it, the first after the first arrival): a snapshot
	// at s sees every event at times ≤ s, and each job submitted before s
	// (and since the previous snapshot) that is still waiting is predicted
	// again at s and scored in Score.Queued against its remaining wait
	// Start − s (Karnak's "queued" predictions, spec karnak-ibl-service
	// §5.1). A job submitted at s is left to the next snapshot.
	Snapshot int64
	// BeforeArrival, when not nil, is called at each arrival after every
	// start and end up to then has been observed and before the job is
	// announced; i is the job's position in submit order. Its error ends
	// the replay.
	BeforeArrival func(i int, j *swf.Job) error
	// OnPredict, when not nil, is called after every prediction round with
	// the job, the time and each predictor's answer (in the order given
	// to Run). It sees the job's true wait; the answers were made without it.
	OnPredict func(i int, j *swf.Job, now int64, p []Prediction)
	// Progress, when not nil, is called every 1024 arrivals and at the end.
	Progress func(done, total int)
}

// Validate checks the ranges.
func (o Options) Validate() error {
	if o.Train < 0 || o.Train >= 1 || math.IsNaN(o.Train) {
		return fmt.Errorf("replay: Train %v must be in [0, 1)", o.Train)
	}
	if o.From < 0 || o.To < 0 || (o.To > 0 && o.From >= o.To) {
		return fmt.Errorf("replay: scored range [%d, %d) is empty", o.From, o.To)
	}
	if o.Snapshot < 0 {
		return fmt.Errorf("replay: Snapshot %d must be ≥ 0", o.Snapshot)
	}
	return nil
}

// errNoJobs is returned for an empty replay.
var errNoJobs = errors.New("replay: no jobs")

// Run replays jobs causally through every predictor and scores each (one
// Score per predictor, in order). The jobs need Submit ≥ 0 and Wait ≥ 0
// (SWF's unknown −1 is an error: drop those first, as Queues does), and a
// start and end within 2^63 − 1 s;
// RunTime < 0 means the job never ends. They are taken in submit order
// (sorted stably, so equal submit times keep their input order). A
// cancelled ctx ends the replay, with ctx's error, within 64 arrivals.
//
// Every job is replayed under its own number: a job without one (ID below
// 1: SWF's -1, or 0) is handed to the predictors and hooks as a copy
// numbered 10^18 + n, n its position in jobs (1 for the first), as sched
// numbers the n-th line of a log (rule id_made_up), and counted in every
// Score's MadeUpIDs; jobs itself is not written. A log without numbers is
// then predicted as the same log numbered in line order. Two jobs under
// one number (a real one repeated while the first is live, or a real
// number at or above 10^18 that a made-up one takes) stop a predictor
// that keys by number (APQ, IBL) with an error naming it.
//
// The causal order is the thesis's (spec qbets-varq-coalloc §5.1 and its
// tie rule): before the arrival of a job at t, every start and end at a
// time ≤ t is observed, in time order — ends before starts at equal times,
// starts in start order — so a job that started at t (even one submitted
// at t just before) is visible to an arrival at t. Then the job arrives
// (Observe(Arrive)), is predicted, and its own start and end stay hidden
// until their time. The replay ends after the last arrival (nothing later
// is scored), or with Snapshot once no snapshot can be due. Jobs with equal start times are released in the order of
// a binary heap on start time (deterministic, not necessarily input order).
func Run(ctx context.Context, jobs []swf.Job, opt Options, ps ...Predictor) ([]Score, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, errNoJobs
	}
	for i := range jobs {
		if j := &jobs[i]; j.Wait < 0 || j.Submit < 0 {
			return nil, fmt.Errorf("replay: job %d (index %d): unknown submit %d or wait %d", j.ID, i, j.Submit, j.Wait)
		} else if j.Wait > math.MaxInt64-j.Submit || j.RunTime > math.MaxInt64-j.Submit-j.Wait {
			// Its start or end wrapped to near −2^63: released at the
			// next arrival, long before its time.
			return nil, fmt.Errorf("replay: job %d (index %d): submit %d + wait %d + run time %d is past 2^63 − 1 s", j.ID, i, j.Submit, j.Wait, j.RunTime)
		}
	}
	order := make([]int, len(jobs)) // positions in jobs, in submit order
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].Submit, jobs[b].Submit) })
	from, to := opt.From, opt.To
	if to == 0 {
		to = len(order)
		from = int(float64(len(order)) * cmp.Or(opt.Train, 0.10))
	}
	if to > len(order) {
		return nil, fmt.Errorf("replay: scored range [%d, %d) outside the %d jobs", from, to, len(order))
	}
	js, madeUp := numbered(jobs, order[:to])
	r := runner{js: js, ps: ps, opt: opt, scores: make([]Score, len(ps)), ans: make([]Prediction, len(ps))}
	for k := range r.scores {
		r.scores[k].MadeUpIDs = madeUp
	}
	if opt.Snapshot > 0 {
		for k := range r.scores {
			r.scores[k].Queued = &Score{MadeUpIDs: madeUp} // (the same jobs, replayed)
		}
		t := js[0].Submit
		r.nextSnap = min(t-t%opt.Snapshot, math.MaxInt64-opt.Snapshot) + opt.Snapshot // (held, not wrapped)
	}
	for i := range js {
		// Every 64 arrivals, not 1024: a prediction may be a forward
		// simulation of the whole queue (sched/forecast), and 1024 of
		// them took examples/forecast 4.6 s on SDSC-SP2 to notice a ^C.
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if i&1023 == 0 && opt.Progress != nil && i > 0 {
			opt.Progress(i, len(js))
		}
		j := js[i]
		if err := r.advance(j.Submit); err != nil {
			return nil, err
		}
		if opt.BeforeArrival != nil {
			if err := opt.BeforeArrival(i, j); err != nil {
				return nil, err
			}
		}
		for _, p := range ps {
			if err := p.Observe(Arrive, j); err != nil {
				return nil, err
			}
		}
		if i >= from || opt.PredictAll {
			if err := r.predict(i, j, j.Submit, i >= from); err != nil {
				return nil, err
			}
		}
		if opt.Snapshot > 0 {
			r.fresh = append(r.fresh, int32(i))
		}
		r.starts.push(int32(i), j.Submit+j.Wait)
	}
	if opt.Snapshot > 0 { // queued predictions may still be due
		if err := r.advance(math.MaxInt64); err != nil {
			return nil, err
		}
	}
	if opt.Progress != nil {
		opt.Progress(len(js), len(js))
	}
	return r.scores, nil
}

// numbered returns the jobs at positions order of jobs: the caller's
// jobs, not copies, except that a job without a number (ID below 1: SWF's
// -1, "missing", or 0) is a copy numbered 10^18 + n, n its position in
// jobs (1 for the first), as sched numbers a log's lines (its rule
// id_made_up, internal/jobid), and how many it numbered. The predictors
// key jobs by number (APQ's and IBL's queues): under one -1 every such
// job was the same job, and the replay failed or mixed them up; numbered
// alike, a log without numbers is predicted as the same log numbered in
// line order, and a command that numbered its log with the same rule
// (cli.MadeUpIDs) names each job as sched and Run do.
func numbered(jobs []swf.Job, order []int) ([]*swf.Job, int) {
	js := make([]*swf.Job, len(order))
	var made []swf.Job
	for i, k := range order {
		js[i] = &jobs[k]
		if !jobid.Missing(jobs[k].ID) {
			continue
		}
		if made == nil {
			n := 0
			for _, k := range order[i:] {
				if jobid.Missing(jobs[k].ID) {
					n++
				}
			}
			made = make([]swf.Job, 0, n) // (never grown: the pointers into it stay valid)
		}
		made = append(made, jobs[k])
		c := &made[len(made)-1]
		c.ID = jobid.MadeUp(int64(k) + 1)
		js[i] = c
	}
	return js, len(made)
}

// runner is one Run's state.
type runner struct {
	js       []*swf.Job
	ps       []Predictor
	opt      Options
	scores   []Score
	ans      []Prediction
	starts   heap // pending jobs on start time
	ends     heap // running jobs on end time
	fresh    []int32
	nextSnap int64
}

// advance observes every end and start at times ≤ t, taking the
// snapshots due before t on the way. After the last arrival (t =
// MaxInt64) a snapshot is taken only while some event is still to come.
//
// A snapshot with no job to ask about (none submitted since the last one)
// does nothing but release: the snapshots up to t are then skipped, rather
// than taken every Snapshot seconds over the log's span (Snapshot 1 between
// two jobs 2^33 s apart did not return), and the next one is the first
// multiple at or after t, held at 2^63 − 1 (it wrapped near the end of time
// to a negative instant, and the loop never ended).
func (r *runner) advance(t int64) error {
	for r.opt.Snapshot > 0 && r.nextSnap < t {
		if len(r.fresh) == 0 {
			k := (t - r.nextSnap - 1) / r.opt.Snapshot // snapshots before t after this one
			if k >= (math.MaxInt64-r.nextSnap)/r.opt.Snapshot {
				r.nextSnap = math.MaxInt64
			} else {
				r.nextSnap += (k + 1) * r.opt.Snapshot
			}
			break
		}
		s := r.nextSnap
		if err := r.release(s); err != nil {
			return err
		}
		if t == math.MaxInt64 && len(r.starts) == 0 && len(r.ends) == 0 {
			break
		}
		if err := r.snapshot(s); err != nil {
			return err
		}
		r.nextSnap = min(r.nextSnap, math.MaxInt64-r.opt.Snapshot) + r.opt.Snapshot
	}
	return r.release(t)
}

// release observes every end and start at times ≤ t, in time order, ends
// before starts at equal times.
func (r *runner) release(t int64) error {
	for {
		s, e := r.starts.min(), r.ends.min()
		if min(s, e) > t || len(r.starts)+len(r.ends) == 0 {
			return nil
		}
		// (An empty heap's minimum is 2^63 − 1, a time a job may have:
		// ends are taken when there are some.)
		if len(r.ends) > 0 && (e <= s || len(r.starts) == 0) {
			i, _ := r.ends.pop()
			if err := r.observe(End, r.js[i]); err != nil {
				return err
			}
			continue
		}
		i, _ := r.starts.pop()
		j := r.js[i]
		if err := r.observe(Start, j); err != nil {
			return err
		}
		if j.RunTime >= 0 {
			r.ends.push(i, j.Submit+j.Wait+j.RunTime)
		}
	}
}

func (r *runner) observe(ev Event, j *swf.Job) error {
	for _, p := range r.ps {
		if err := p.Observe(ev, j); err != nil {
			return err
		}
	}
	return nil
}

// snapshot predicts, at s, every job submitted before s (and since the
// last snapshot) that is still waiting. A job submitted at s waits for the
// next snapshot, so that a question at now > Submit is always a queued one.
func (r *runner) snapshot(s int64) error {
	keep := r.fresh[:0]
	for _, i := range r.fresh {
		j := r.js[i]
		switch {
		case j.Submit >= s:
			keep = append(keep, i)
		case j.Submit+j.Wait <= s:
			// started before any snapshot saw it waiting
		default:
			if err := r.predict(int(i), j, s, true); err != nil {
				return err
			}
		}
	}
	r.fresh = keep
	return nil
}

// predict asks every predictor about job i at now and scores the answers
// when scored is set.
func (r *runner) predict(i int, j *swf.Job, now int64, scored bool) error {
	for k, p := range r.ps {
		a, err := p.Predict(j, now)
		if err != nil {
			return err
		}
		r.ans[k] = a
		if !scored {
			continue
		}
		s := &r.scores[k]
		if now != j.Submit {
			s = s.Queued
		}
		s.Add(a, j.Submit+j.Wait-now, j.RunTime)
	}
	if r.opt.OnPredict != nil {
		r.opt.OnPredict(i, j, now, r.ans)
	}
	return nil
}

// heap is a binary min-heap of job indexes on a time, written out rather
// than through container/heap so a push does not box.
type heap []heapItem

type heapItem struct {
	t int64
	i int32
}

func (h heap) min() int64 {
	if len(h) == 0 {
		return math.MaxInt64
	}
	return h[0].t
}

func (h *heap) push(i int32, t int64) {
	*h = append(*h, heapItem{t, i})
	a := *h
	for k := len(a) - 1; k > 0; {
		p := (k - 1) / 2
		if a[p].t <= a[k].t {
			break
		}
		a[p], a[k] = a[k], a[p]
		k = p
	}
}

func (h *heap) pop() (int32, int64) {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for k := 0; ; {
		l, m := 2*k+1, k
		if l < n && a[l].t < a[m].t {
			m = l
		}
		if l+1 < n && a[l+1].t < a[m].t {
			m = l + 1
		}
		if m == k {
			break
		}
		a[k], a[m] = a[m], a[k]
		k = m
	}
	*h = a
	return top.i, top.t
}
