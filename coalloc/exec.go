package coalloc

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/batchq/batchq/varq"
)

// Site is a resource CO-VARQ executes on: its name and forecaster (as in
// Resource) and the machine to submit to. In simulation, the sites' machines
// are separate simulations advanced together on one time axis.
//
// A Forecaster that also has a method Version() uint64 says when its
// answers may change: while Version returns the same value, ProbWithin
// answers the same question the same way. Re-boosting (Config.Reboost)
// then asks such a site only what it did not ask at this version. A
// qbets.Predictor changes only when it is fed: its Stats().Arrivals +
// Stats().Releases, which every Submit or Observe raises, is a version
// (examples/coalloc does that).
type Site struct {
	Name       string
	Forecaster varq.Forecaster
	Machine    varq.Machine
}

// Executor launches CO-VARQ plans on sites and watches their jobs: as soon
// as one VARQ job of a reservation is running by the reservation's start,
// the reservation's other requests are cancelled, queued or not yet
// submitted (§4 step 4). The driver reports every job start with Started.
// Not safe for concurrent use.
type Executor struct {
	sites []Site
	jobs  map[siteJob]*execJob
	err   error
}

type siteJob struct {
	site int
	id   int64
}

// jobState is where one VARQ request of an execution stands.
type jobState int

const (
	pending jobState = iota // waiting for its submission time
	queued                  // submitted, not started
	running                 // started by its reservation's start: it serves it
	gone                    // cancelled (queued or not yet submitted), or late
)

type execJob struct {
	x        *Execution
	res      int
	site     int
	plan     varq.Plan // the VARQ plan it was launched with
	id       int64
	walltime int64 // as submitted
	state    jobState
	live     float64 // latest re-forecast (Reboost), else the plan's
}

// Execution is one co-allocation being carried out.
type Execution struct {
	e         *Executor
	plan      Plan
	reqs      []varq.Request
	satisfied []bool
	jobs      [][]*execJob
	taken     []bool   // resources drawn so far, for sampling without replacement
	memos     [][]memo // per reservation and site: re-boosting's answers (memo.go)
	rec       recorder // re-boosting's scratch trajectory
	submitted int
	reboosts  int // requests added while executing
	dropped   int // requests given up for a live probability of 0
	used      int64
}

// Result is the outcome of one executed co-allocation.
type Result struct {
	Plan      Plan   // what was executed; Plan.PExpected is its promise
	Success   bool   // every reservation had a job running by its start
	Satisfied []bool // per reservation
	Planned   int    // VARQ requests in the plan, Σ|S_i|
	Reboosts  int    // redundant requests added while executing (Config.Reboost)
	Dropped   int    // requests cancelled because their live probability fell to 0
	Submitted int    // requests actually submitted (redundant ones may be cancelled first)
	Required  int64  // Σ N·W node-seconds
	Used      int64  // node-seconds occupied by the plan's jobs, spinning included
}

// OverAllocation is Used/Required.
func (r Result) OverAllocation() float64 { return overAllocation(r.Used, r.Required) }

// addNodeSeconds is sum + nodes·secs (each ≥ 0), held at 2^63 − 1: a
// request may ask up to 2^40 s of any number of nodes, and 2^40 nodes for
// 2^40 s wrapped Required and Used to 0.
func addNodeSeconds(sum int64, nodes int, secs int64) int64 {
	hi, lo := bits.Mul64(uint64(max(nodes, 0)), uint64(max(secs, 0)))
	if hi != 0 || lo > math.MaxInt64-uint64(sum) {
		return math.MaxInt64
	}
	return sum + int64(lo)
}

// overAllocation is used/required, 0 when nothing was required.
func overAllocation(used, required int64) float64 {
	if required == 0 {
		return 0
	}
	return float64(used) / float64(required)
}

// NewExecutor checks the sites.
func NewExecutor(sites []Site) (*Executor, error) {
	if len(sites) == 0 {
		return nil, errors.New("coalloc: no sites")
	}
	for i, s := range sites {
		if s.Forecaster == nil || s.Machine == nil {
			return nil, fmt.Errorf("coalloc: site %d (%s) lacks a forecaster or a machine", i, s.Name)
		}
	}
	return &Executor{sites: sites, jobs: map[siteJob]*execJob{}}, nil
}

// Resources lists the sites as planning resources, in order.
func (e *Executor) Resources() []Resource {
	rs := make([]Resource, len(e.sites))
	for i, s := range e.sites {
		rs[i] = Resource{Name: s.Name, Forecaster: s.Forecaster}
	}
	return rs
}

// Err returns the first error a machine returned during execution.
func (e *Executor) Err() error { return e.err }

func (e *Executor) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// Execute launches plan p, made for reqs over e.Resources(): each VARQ
// request is submitted at its planned time on its site unless its
// reservation is already served. With p.Config.Reboost the execution also
// re-boosts reservations whose live forecasts fall (reboost.go), on the
// clock of the first site's machine. A plan that is not OK is not
// executed.
func (e *Executor) Execute(p Plan, reqs []varq.Request) (*Execution, error) {
	if !p.OK {
		return nil, errors.New("coalloc: executing a plan that is not possible")
	}
	if len(reqs) != len(p.Launch) {
		return nil, fmt.Errorf("coalloc: plan has %d reservations, %d requests given", len(p.Launch), len(reqs))
	}
	x := &Execution{e: e, plan: p, reqs: reqs, satisfied: make([]bool, len(reqs)),
		jobs: make([][]*execJob, len(reqs)), taken: make([]bool, len(e.sites))}
	// Check the whole plan first: a bad resource must not leave the
	// reservations before it launched on the machines.
	for _, launch := range p.Launch {
		for _, a := range launch {
			if a.Resource < 0 || a.Resource >= len(e.sites) {
				return nil, fmt.Errorf("coalloc: plan uses resource %d of %d", a.Resource, len(e.sites))
			}
		}
	}
	for i, launch := range p.Launch {
		for _, a := range launch {
			x.launch(i, a.Resource, a.VARQ)
		}
	}
	if p.Config.Reboost {
		x.memos = make([][]memo, len(reqs))
		x.watchFrom(e.sites[0].Machine.Now())
	}
	return x, nil
}

// launch adds a VARQ request for reservation i on site s, to be submitted
// at its planned time. The first request of i on s also schedules the
// drop: after the start time a reservation still unserved has failed and
// its requests are useless. The drop runs one second after the start,
// since timers fire before a second's scheduling pass and a job starting
// at the start time itself is a success (start ≤ D).
func (x *Execution) launch(i, s int, v varq.Plan) {
	first := true
	for _, o := range x.jobs[i] {
		first = first && o.site != s
	}
	j := &execJob{x: x, res: i, site: s, plan: v, live: v.Prob}
	x.jobs[i] = append(x.jobs[i], j)
	x.taken[s] = true
	m := x.e.sites[s].Machine
	m.At(max(v.Submit, m.Now()), func() { x.submit(j) })
	if first {
		m.At(max(x.reqs[i].Start+1, m.Now()), func() { x.drop(i, s) })
	}
}

func (x *Execution) submit(j *execJob) {
	if x.satisfied[j.res] || j.state != pending {
		if j.state == pending {
			j.state = gone
		}
		return
	}
	m := x.e.sites[j.site].Machine
	r := x.reqs[j.res]
	if m.Now() >= r.Start {
		j.state = gone
		return
	}
	// The walltime is padded for the actual submission instant.
	w := r.Padded(m.Now())
	id, err := m.Submit(r.Nodes, w, w)
	if err != nil {
		x.e.fail(err)
		return
	}
	j.id, j.walltime, j.state = id, w, queued
	x.submitted++
	x.e.jobs[siteJob{j.site, id}] = j
}

// drop cancels reservation i's requests on site s at its start time if
// the reservation is still unserved.
func (x *Execution) drop(i, s int) {
	if x.satisfied[i] {
		return
	}
	for _, j := range x.jobs[i] {
		if j.site == s {
			x.cancel(j)
		}
	}
}

// cancel gives up a request that is pending or queued; a running or gone
// one is left alone.
func (x *Execution) cancel(j *execJob) {
	switch j.state {
	case pending:
		j.state = gone
		return
	case running, gone:
		return
	}
	j.state = gone
	delete(x.e.jobs, siteJob{j.site, j.id})
	if err := x.e.sites[j.site].Machine.Cancel(j.id); err != nil {
		x.e.fail(err)
	}
}

// Started reports that job id started on site at t. Jobs that are not
// part of an execution are ignored.
func (e *Executor) Started(site int, id int64, t int64) {
	j, ok := e.jobs[siteJob{site, id}]
	if !ok {
		return
	}
	x, r := j.x, j.x.reqs[j.res]
	if x.satisfied[j.res] || t > r.Start {
		// Redundant (a sibling started at the same instant) or late:
		// cancelled at once, it occupied nothing.
		x.cancel(j)
		return
	}
	j.state = running
	delete(e.jobs, siteJob{site, id})
	x.satisfied[j.res] = true
	end := r.Start + r.Walltime
	x.used = addNodeSeconds(x.used, r.Nodes, end-t)
	if end < t+j.walltime { // else the walltime limit ends it
		m := e.sites[site].Machine
		m.At(end, func() {
			if err := m.Cancel(id); err != nil {
				e.fail(err)
			}
		})
	}
	for _, o := range x.jobs[j.res] {
		if o != j {
			x.cancel(o)
		}
	}
}

// Result reports the execution's outcome; it is final once every
// reservation's start time has passed.
func (x *Execution) Result() Result {
	res := Result{
		Plan:      x.plan,
		Success:   true,
		Satisfied: append([]bool(nil), x.satisfied...),
		Planned:   x.plan.Requests(),
		Reboosts:  x.reboosts,
		Dropped:   x.dropped,
		Submitted: x.submitted,
		Used:      x.used,
	}
	for i, r := range x.reqs {
		res.Required = addNodeSeconds(res.Required, r.Nodes, r.Walltime)
		res.Success = res.Success && x.satisfied[i]
	}
	return res
}
