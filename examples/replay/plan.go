package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/agent"
)

// request is the VARQ reservation the run plans: the shape of the thesis's
// Figure 5.4 example (4 nodes for 1 hour, 12 hours ahead, target 0.5).
type request struct {
	nodes    int
	walltime int64   // seconds
	ahead    int64   // start time minus planning time, seconds
	target   float64 // requested probability
}

var defaultRequest = request{nodes: 4, walltime: 3600, ahead: 12 * 3600, target: 0.5}

// planResult is the plan and what happened when it was carried out.
type planResult struct {
	// made: planVARQ ran. It does not when no simulated job arrives at or
	// after the plan's time (a log the simulators rejected almost wholly),
	// and the report says so rather than print a zero request.
	made bool
	// notPlanned says why planVARQ planned nothing (made false): the
	// request would start past 2^40 s, the latest instant VARQ takes.
	notPlanned string
	now        int64
	req        varq.Request
	target     float64
	traj       []varq.Point
	plan       varq.Plan // latest submission meeting the target (thesis default)
	best       varq.Plan // most probable submission
	// noBound is QBETS's reason for having no bound for the request at
	// planning time ("" when it has one).
	noBound string
	// Filled by check: whether the submitted job started, when, and
	// whether that was by the reservation's start.
	checked, ran, success bool
	started               int64
	// notChecked says why check could not carry the plan out (checked
	// false): a log with a job numbered 2^63 − 1 leaves no number for the
	// planned job. The rest of the run stands (it failed the run, which
	// printed nothing, schedulers and QBETS included).
	notChecked string
}

// planVARQ computes the 30 s probability trajectory from now to the start
// time with f (the trimmed QBETS predictor at now) and reads both plans off
// it.
func planVARQ(f varq.Forecaster, now int64, r request, machine int64) (planResult, error) {
	req := varq.Request{Nodes: int(min(int64(r.nodes), machine)), Walltime: r.walltime, Start: now + r.ahead}
	if req.Start > sanitize.MaxTime {
		// A sane job submitted within r.ahead of 2^40 s: the rest of the
		// run stands, VARQ says why it has no plan (it failed the run,
		// "varq: request Start … outside ±2^40 s").
		return planResult{now: now, req: req, target: r.target,
			notPlanned: fmt.Sprintf("its start, %d s, would be past 2^40 s, the latest instant VARQ takes", req.Start)}, nil
	}
	traj, err := varq.Trajectory(f, req, now, varq.DefaultStep)
	if err != nil {
		return planResult{}, err
	}
	return planResult{made: true, now: now, req: req, target: r.target, traj: traj,
		plan: traj.PlanLatest(req, r.target), best: traj.PlanMax(req)}, nil
}

// check replays the workload under EASY with the planned job submitted at
// its planned time and records when it started. The job asks for the padded
// walltime and is given that run time: when it starts does not depend on
// its run time (the scheduler plans with the request), only the jobs after
// it do, so this is the worst case for the others.
func (p *planResult) check(ctx context.Context, machine int64, jobs []swf.Job) error {
	if !p.plan.Possible {
		return nil
	}
	s, err := sched.New(sched.EASY(machine))
	if err != nil {
		return err
	}
	if err := s.Load(jobs); err != nil {
		return err
	}
	id, err := cli.AgentFirstID(jobs)
	if err != nil {
		p.notChecked = err.Error()
		return nil
	}
	m := agent.NewSchedMachine(s, id)
	w := &startWatch{id: id, start: -1}
	s.Observe(w)
	serr := errors.New("not submitted by the reservation's start")
	m.At(p.plan.Submit, func() { _, serr = m.Submit(p.plan.Nodes, p.plan.Walltime, p.plan.Walltime) })
	// Nothing after the reservation's start can change the answer.
	if err := s.RunUntil(p.req.Start); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if serr != nil {
		return fmt.Errorf("varq check: the planned job (%d nodes, %d s): %w", p.plan.Nodes, p.plan.Walltime, serr)
	}
	p.checked, p.ran, p.started = true, w.start >= 0, w.start
	p.success = p.ran && w.start <= p.req.Start
	return nil
}

// startWatch records when one job starts.
type startWatch struct {
	id, start int64
}

func (w *startWatch) OnSubmit(int64, *swf.Job) {}
func (w *startWatch) OnStart(now int64, j *swf.Job, _ bool) {
	if j.ID == w.id {
		w.start = now
	}
}
func (w *startWatch) OnEnd(int64, *swf.Job, bool)          {}
func (w *startWatch) OnReservation(int64, *swf.Job, int64) {}
