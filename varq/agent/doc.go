// Package agent drives VARQ requests on a simulated batch machine, the
// generality simulation of Nurmi's thesis §5.4 (Table 5.6).
//
// An Agent turns a fraction of a trace's jobs into varq.Requests for
// start times every 6 h (Config.Period): it plans each at its arrival
// with a varq.Replanner over a varq.Forecaster, waits (re-planning) until
// the planned submission, submits the padded job to a varq.Machine, and
// records each request's Outcome: the probability promised, whether the
// job was running by its start time, and the allocation used against the
// required. Agent.Summary aggregates them into the columns of the thesis's
// tables. SchedMachine adapts a sched simulation to varq.Machine.
//
// Config.Crowd (beyond the thesis) plans each request as one job with
// the agent's own same-start requests that will be queued ahead of it:
// QBETS learns only from history and cannot see that self-made crowd,
// which is what breaks the promise when many requests share a start time
// (examples/varq). Silence is still judged at the request's own size
// (varq.ReplanConfig.Own), so a zero the crowd causes drops the request
// instead of keeping a stale plan.
//
// To start: build a sched.Sim, wrap it in NewSchedMachine, feed a
// qbets.Predictor from the same simulation, and call New; Arrive
// each selected job and report starts with Started (examples/varq shows the
// whole loop). Nothing here is safe for concurrent use: simulations are
// single-goroutine.
package agent
