package coalloc

import (
	"fmt"

	"github.com/batchq/batchq/varq"
)

// Re-boosting (Config.Reboost) carries VARQ's re-planning (Q16: "VARQ
// continually generates new probability trajectories while waiting to
// submit") over to CO-VARQ. The thesis makes its promise at request time,
// up to 12 h before the submissions, and executes the plan unchanged, so
// any drift of the queues in between goes straight into the outcome.
// While a reservation is unserved and before its start time, every
// ReboostEvery seconds the Executor
//
//  1. re-forecasts each of its live requests with its site's forecaster as
//     it stands now: a request not yet submitted at its planned submission
//     time (bounds stability, §3), a queued one as the same padded job
//     submitted now with the time left until the start;
//  2. if 1 − Π(1 − p) over them has fallen below P_indep, boosts the
//     reservation again: it plans a new request on each resource no
//     reservation of this co-allocation has drawn (sampling without
//     replacement; with AllowReuse, each one this reservation does not
//     hold) by the plan's point rule, and draws them best first until the
//     reservation is back at P_indep (the stop rule) or none is left. A
//     site whose forecaster is versioned (versionedForecaster) and
//     unchanged since the last review is not asked again about the same
//     submissions (memo.go);
//  3. with DropDead, cancels a request whose live probability is 0 if
//     another of the reservation's live requests has a chance (a
//     replacement exists); otherwise it keeps it, since a forecaster that
//     is silent (QBETS during an outage) is not evidence that the job will
//     not start.
//
// DropDead is off by default because measured it costs successes and
// saves nothing. A queued job's live forecast reaches 0 as the start
// nears simply because the window D − now becomes shorter than any wait
// QBETS can bound, yet such jobs often still start in time (dropping them
// took the 60-day trials (16, 1 h, 12 h) and (48, 1 h, 12 h) from 1.000 and
// 0.867 achieved to 0.776 and 0.541). And keeping a request costs no
// allocation: only the first of a reservation's jobs to start runs, the
// others are cancelled then, queued or not.
//
// A queued job is re-forecast as a fresh job rather than conditioned on
// the wait it has already had: QBETS gives upper confidence bounds on
// quantiles, not a distribution, so the conditional ratio
// (F(D−s) − F(now−s)) / (1 − F(now−s)) of two bounds is not a calibrated
// probability, while "a job of this shape submitted now starts within
// D − now" is exactly what the forecaster answers.

// watchFrom schedules the first review one period after now.
func (x *Execution) watchFrom(now int64) {
	every := x.plan.Config.ReboostEvery
	if every == 0 {
		every = x.plan.Config.Step
	}
	if every == 0 {
		every = varq.DefaultStep
	}
	m := x.e.sites[0].Machine
	var tick func()
	tick = func() {
		t := m.Now()
		active := false
		for i, r := range x.reqs {
			if x.satisfied[i] || t >= r.Start {
				x.memos[i] = nil // never re-boosted again
				continue
			}
			active = true
			if err := x.review(i, t); err != nil {
				x.e.fail(err)
				return
			}
		}
		if active {
			m.At(t+every, tick)
		} else {
			x.rec = recorder{}
		}
	}
	m.At(now+every, tick)
}

// review re-forecasts reservation i's live requests at now, re-boosts it
// if it fell below P_indep, and drops its dead requests that have a
// replacement.
func (x *Execution) review(i int, now int64) error {
	fail := 1.0
	for _, j := range x.jobs[i] {
		if j.state != pending && j.state != queued {
			continue
		}
		p, err := x.liveProb(j, now)
		if err != nil {
			return err
		}
		j.live = p
		fail *= 1 - p
	}
	if 1-fail < x.plan.PIndep {
		if err := x.reboost(i, now, fail); err != nil {
			return err
		}
	}
	alive := false
	for _, j := range x.jobs[i] {
		alive = alive || (j.state == pending || j.state == queued) && j.live > 0
	}
	if !alive || !x.plan.Config.DropDead {
		return nil
	}
	for _, j := range x.jobs[i] {
		if (j.state == pending || j.state == queued) && j.live == 0 {
			x.cancel(j)
			x.dropped++
		}
	}
	return nil
}

// liveProb is the site's current forecast that request j runs by its
// reservation's start.
func (x *Execution) liveProb(j *execJob, now int64) (float64, error) {
	r := x.reqs[j.res]
	s, walltime := now, j.walltime
	if j.state == pending {
		s = max(j.plan.Submit, now)
		walltime = r.Padded(s)
	}
	if s >= r.Start {
		return 0, nil
	}
	site := x.e.sites[j.site]
	p, ok := site.Forecaster.ProbWithin(r.Nodes, walltime, r.Start-s)
	if !ok {
		return 0, nil // no forecast: no chance counted, as in planning
	}
	if !(p >= 0 && p <= 1) {
		return 0, fmt.Errorf("coalloc: %s's forecaster returned probability %v", site.Name, p)
	}
	return p, nil
}

// reboost draws new requests for reservation i, best first, until its
// chance 1 − fail reaches P_indep or no resource is left.
func (x *Execution) reboost(i int, now int64, fail float64) error {
	r := x.reqs[i]
	cfg := x.plan.Config
	held := make([]bool, len(x.e.sites))
	for _, j := range x.jobs[i] {
		held[j.site] = true
	}
	// A new plan on every free site; p = 0 (not possible, or not free)
	// is never drawn.
	plans := make([]varq.Plan, len(x.e.sites))
	probs := make([]float64, len(x.e.sites))
	if x.memos[i] == nil {
		x.memos[i] = make([]memo, len(x.e.sites))
	}
	for s, site := range x.e.sites {
		if held[s] || (!cfg.AllowReuse && x.taken[s]) {
			continue
		}
		v, err := x.memos[i][s].pointPlan(&x.rec, site.Forecaster, r, now, cfg.Step, x.plan.PIndep, cfg.point())
		if err != nil {
			return fmt.Errorf("coalloc: re-boosting reservation %d on %s: %w", i, site.Name, err)
		}
		plans[s], probs[s] = v, v.Prob
	}
	for 1-fail < x.plan.PIndep {
		best := drawBest(probs, func(s int) bool { return !held[s] })
		if best < 0 {
			return nil
		}
		x.launch(i, best, plans[best])
		held[best] = true
		x.reboosts++
		fail *= 1 - probs[best]
	}
	return nil
}
