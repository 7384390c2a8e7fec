package molding

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/batchq/batchq/estmodel/rangeset"
	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// StrategyConfig configures RunStrategy. The zero value plus Strategy is
// the paper's evaluation (§V): the first 10,000 jobs run as they are and
// build the history, the next 20,000 (molding) or 6,000 (delayed) are
// treated.
type StrategyConfig struct {
	// Strategy is how the jobs of the treated window are submitted:
	// "baseline" (or "") every job as the trace has it; "molding" molds
	// every treated job at its arrival (§IV-A); "delayed" molds and may
	// hold treated jobs (§IV-B): a held job and the jobs arriving while it
	// is held are submitted later, keeping their relative offsets.
	Strategy string
	History  int // jobs before the treated window (0: 10000)
	Window   int // treated jobs (0: 20000 for baseline and molding, 6000 for delayed)
	Mold     Config
	Delay    DelayConfig
	Funcs    []rangeset.LoadFunc
}

// Validate names the first parameter out of range.
func (c StrategyConfig) Validate() error {
	switch c.Strategy {
	case "", "baseline", "molding", "delayed":
	default:
		return fmt.Errorf("molding: StrategyConfig.Strategy %q, want baseline, molding or delayed", c.Strategy)
	}
	if c.History < 0 || c.Window < 0 {
		return fmt.Errorf("molding: StrategyConfig History %d / Window %d, need ≥ 0", c.History, c.Window)
	}
	for i, f := range c.Funcs {
		if math.IsNaN(f.A) || math.IsInf(f.A, 0) || math.IsNaN(f.B) || math.IsInf(f.B, 0) {
			return fmt.Errorf("molding: StrategyConfig.Funcs[%d] = %+v is not finite", i, f)
		}
	}
	if err := c.Mold.Validate(); err != nil {
		return err
	}
	return c.Delay.Validate()
}

func (c StrategyConfig) withDefaults() StrategyConfig {
	if c.Strategy == "" {
		c.Strategy = "baseline"
	}
	if c.History == 0 {
		c.History = 10000
	}
	if c.Window == 0 {
		c.Window = 20000
		if c.Strategy == "delayed" {
			c.Window = 6000
		}
	}
	return c
}

// StrategyResult summarises the treated window. Times are seconds; waits
// and responses count from each job's original arrival, so a held job's
// holding time is part of its wait (spec §5 [R]).
type StrategyResult struct {
	Jobs                            int // treated jobs that ran
	MeanWait, MeanExec, MeanResp    float64
	Utilization                     float64 // sched.Result.Utilization over the window's arrivals
	Molded, Grown, Shrunk, Unmolded int     // decisions (Unmolded: no history for the key)
	Delayed, Held                   int     // head jobs delayed; jobs held behind them
	// MeanHold is the mean hold of the delayed head jobs (s); HeldResp
	// the mean response, from arrival, of the jobs held behind them: what
	// the paper's hold queue costs the jobs that did not ask for it.
	MeanHold, HeldResp float64
	Rejected           int // treated jobs the simulator refused (not sane)
	// Numbered counts the treated jobs without a number (ID below 1,
	// SWF's -1), numbered 10^18 + n by their position n in jobs, as sched
	// numbers a log's (the rule id_made_up), so that their fate is told
	// apart (TreatedJob.ID): keyed by -1 they were matched to the
	// history's job that sched numbered for line 1.
	Numbered int
	// For the molded jobs, by outcome (0 same size, 1 grown, 2 shrunk):
	// how many, and the means of the predicted wait (at the chosen size,
	// from submission), the simulated wait from submission, and the
	// response from arrival.
	ByOutcome [3]struct {
		N                           int
		PredWait, SimWait, MeanResp float64
	}
	// Treated is every treated job that ran, in the simulator's record
	// order: for comparing strategies job by job (the means above hide
	// where in the window a change comes from).
	Treated []TreatedJob
}

// TreatedJob is one treated job's fate in a RunStrategy simulation.
type TreatedJob struct {
	ID       int64
	OrigSize int64 // the trace's size
	Size     int64 // as submitted (molded)
	// Arrival is the trace's submit time; Start and End are simulated.
	// Wait and response count from Arrival.
	Arrival, Start, End int64
	// Molded: molding chose its size (Size against OrigSize tells whether
	// it kept, grew or shrank it); false under baseline or without
	// history for its key.
	Molded bool
	Held   bool // held behind a delayed job (paper's hold queue)
}

// RunStrategy simulates jobs (sorted by submit time) on the scheduler sc
// with the strategy of cfg applied to the treated window, and summarises
// the window. wait is asked about hypothetical jobs; if it, or a predictor
// it wraps (Unwrap() WaitPredictor, as ProfileFloor), is a sched.Observer,
// it is registered with the simulation so that it learns from it.
func RunStrategy(ctx context.Context, sc sched.Config, jobs []swf.Job, wait WaitPredictor, cfg StrategyConfig) (*StrategyResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if len(jobs) <= cfg.History { // (History+1 may overflow)
		return nil, fmt.Errorf("molding: RunStrategy: %d jobs, need more than the %d history jobs", len(jobs), cfg.History)
	}
	end := cfg.History + min(cfg.Window, len(jobs)-cfg.History)
	hist, treated := jobs[:cfg.History], jobs[cfg.History:end]
	treated, numbered := numberTreated(treated, cfg.History)
	sim, err := sched.New(sc)
	if err != nil {
		return nil, err
	}
	m, err := newMolder(sc.MachineSize, cfg.Funcs, wait, cfg.Mold)
	if err != nil {
		return nil, err
	}
	m.TrackRunning = cfg.Strategy == "delayed"
	m.Estimate = sim.EstimateFor
	r := &runner{ctx: ctx, sim: sim, m: m, cfg: cfg, res: &StrategyResult{Numbered: numbered}, arrival: map[int64]arrival{}, pred: map[int64]outcomePred{}, held: map[int64]bool{}}
	for p := wait; p != nil; {
		if o, ok := p.(sched.Observer); ok {
			sim.Observe(o)
		}
		u, ok := p.(interface{ Unwrap() WaitPredictor })
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	sim.Observe(r)
	if err := sim.Load(hist); err != nil {
		return nil, err
	}
	for i := range treated {
		j := treated[i]
		if i > 0 && j.Submit < treated[i-1].Submit {
			return nil, fmt.Errorf("molding: RunStrategy: job %d submitted before its predecessor", j.ID)
		}
		if j.Submit < sim.Now() {
			return nil, fmt.Errorf("molding: RunStrategy: job %d submitted at %d, before the history's start", j.ID, j.Submit)
		}
		sim.At(j.Submit, func(now int64) { r.arrive(j, now) })
	}
	res, err := sim.Finish()
	if err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, r.err
	}
	out := r.res
	var sw, se float64
	nHeld := 0
	for _, rec := range res.Records {
		ar, ok := r.arrival[rec.Job.ID]
		a := ar.at
		if !ok || rec.Start < 0 || rec.Cancelled {
			continue
		}
		sw += float64(rec.Start - a)
		se += float64(rec.End - rec.Start)
		out.Jobs++
		tj := TreatedJob{ID: rec.Job.ID, OrigSize: ar.size, Size: rec.Size, Arrival: a,
			Start: rec.Start, End: rec.End, Held: r.held[rec.Job.ID]}
		if r.held[rec.Job.ID] {
			nHeld++
			out.HeldResp += float64(rec.End - a)
		}
		if p, ok := r.pred[rec.Job.ID]; ok {
			tj.Molded = true
			b := &out.ByOutcome[p.class]
			b.N++
			b.PredWait += p.wait
			b.SimWait += float64(rec.Start - rec.Job.Submit)
			b.MeanResp += float64(rec.End - a)
		}
		out.Treated = append(out.Treated, tj)
	}
	for i := range out.ByOutcome {
		if b := &out.ByOutcome[i]; b.N > 0 {
			n := float64(b.N)
			b.PredWait, b.SimWait, b.MeanResp = b.PredWait/n, b.SimWait/n, b.MeanResp/n
		}
	}
	if nHeld > 0 {
		out.HeldResp /= float64(nHeld)
	}
	if out.Delayed > 0 {
		out.MeanHold /= float64(out.Delayed)
	}
	if out.Jobs == 0 {
		return nil, errors.New("molding: RunStrategy: no treated job ran")
	}
	n := float64(out.Jobs)
	out.MeanWait, out.MeanExec = sw/n, se/n
	out.MeanResp = out.MeanWait + out.MeanExec
	if len(treated) > 1 {
		out.Utilization = res.Utilization(sc.MachineSize, treated[0].Submit, treated[len(treated)-1].Submit)
	}
	return out, nil
}

// outcomePred is a molded job's outcome class and predicted wait.
type outcomePred struct {
	class int
	wait  float64
}

// arrival is a treated job's submit time and size in the trace.
type arrival struct{ at, size int64 }

// runner is the agent between the trace and the simulation.
type runner struct {
	ctx     context.Context
	sim     *sched.Sim
	m       *molder
	cfg     StrategyConfig
	res     *StrategyResult
	arrival map[int64]arrival // treated job → its arrival as in the trace
	pred    map[int64]outcomePred
	held    map[int64]bool // jobs held behind a delayed one
	// The hold queue: jobs arriving in (holdFrom, holdTo) are held and
	// released at holdTo + (arrival − holdFrom).
	holdFrom, holdTo int64
	holding          bool
	err              error
}

// numberTreated returns treated, jobs[from:], with each job without a
// number (ID below 1) numbered by its position in jobs as sched numbers
// the lines of a log (10^18 + n, internal/jobid), and how many; a copy if
// any is, the caller's jobs unchanged. sched keeps these numbers, so the
// window finds its jobs among the records.
func numberTreated(treated []swf.Job, from int) ([]swf.Job, int) {
	if !slices.ContainsFunc(treated, func(j swf.Job) bool { return jobid.Missing(j.ID) }) {
		return treated, 0
	}
	treated = slices.Clone(treated)
	n := 0
	for i := range treated {
		if jobid.Missing(treated[i].ID) {
			treated[i].ID = jobid.MadeUp(int64(from + i + 1))
			n++
		}
	}
	return treated, n
}

func (r *runner) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *runner) arrive(j swf.Job, now int64) {
	if r.err != nil {
		return
	}
	if r.err = r.ctx.Err(); r.err != nil {
		return
	}
	r.arrival[j.ID] = arrival{now, j.Size()}
	j.Submit = now
	switch r.cfg.Strategy {
	case "baseline":
		r.submit(j)
	case "molding":
		r.submit(r.mold(j))
	case "delayed":
		if r.holding && !r.cfg.Delay.HoldOnlyHead && now > r.holdFrom && now < r.holdTo {
			r.res.Held++
			r.held[j.ID] = true
			at := r.holdTo + (now - r.holdFrom)
			r.sim.At(at, func(t int64) {
				j.Submit = t
				r.submit(r.mold(j))
			})
			return
		}
		dd, ok, err := r.m.DecideDelay(j, r.sim.Queue(), r.cfg.Delay)
		if err != nil {
			r.fail(err)
			return
		}
		if !ok {
			r.res.Unmolded++
			r.submit(j)
			return
		}
		if !dd.Delay {
			r.count(dd.Now, j)
			r.submit(dd.Now.Job)
			return
		}
		r.res.Delayed++
		r.res.MeanHold += float64(dd.At - now) // a sum until RunStrategy divides
		r.count(dd.Future, j)
		r.holding, r.holdFrom, r.holdTo = true, now, dd.At
		fj := dd.Future.Job
		r.sim.At(dd.At, func(t int64) {
			fj.Submit = t
			r.submit(fj)
		})
	}
}

// mold molds j at the current time and counts the decision.
func (r *runner) mold(j swf.Job) swf.Job {
	d, ok, err := r.m.Decide(j, r.sim.Queue(), r.m.PredictedLoad(j.Submit))
	if err != nil {
		r.fail(err)
		return j
	}
	if !ok {
		r.res.Unmolded++
		return j
	}
	r.count(d, j)
	return d.Job
}

func (r *runner) count(d moldDecision, orig swf.Job) {
	r.res.Molded++
	c := 0
	switch {
	case d.Job.Size() > orig.Size():
		r.res.Grown++
		c = 1
	case d.Job.Size() < orig.Size():
		r.res.Shrunk++
		c = 2
	}
	r.pred[orig.ID] = outcomePred{c, d.Wait}
}

func (r *runner) submit(j swf.Job) {
	if !r.sim.Submit(j) {
		r.res.Rejected++
		delete(r.arrival, j.ID)
	}
}

// OnSubmit is part of sched.Observer.
func (r *runner) OnSubmit(int64, *swf.Job) {}

// OnStart feeds the molder.
func (r *runner) OnStart(now int64, j *swf.Job, _ bool) {
	if err := r.m.Started(j, now); err != nil {
		r.fail(err)
	}
}

// OnEnd feeds the molder.
func (r *runner) OnEnd(now int64, j *swf.Job, cancelled bool) {
	if err := r.m.Ended(j, now); err != nil {
		r.fail(err)
	}
}

// OnReservation is part of sched.Observer.
func (r *runner) OnReservation(int64, *swf.Job, int64) {}
