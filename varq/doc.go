// Package varq makes virtual advance reservations on best-effort batch
// queues (VARQ, Nurmi's thesis Ch. 5; spec qbets-varq-coalloc §3, §5.4,
// §6.4–6.5, ambiguities A14–A17, A24).
//
// A user wants Nodes processors for Walltime seconds starting at the
// absolute time Start (D), on a machine that offers no reservations. VARQ
// submits an ordinary job at some time s ≤ D, padded to Walltime + (D − s)
// seconds: whenever it starts in [s, D] it can hold its nodes until D and
// then run for Walltime. The job spins until D, so the user pays for the
// occupancy from the actual start.
//
// To choose s, VARQ asks a Forecaster (the inverted QBETS query of §2.7:
// the probability that a job of this shape starts within t seconds) about
// every candidate s = now, now+30 s, …, < D, assuming today's predictions
// still hold then (bounds stability, thesis L711–727). That probability
// Trajectory is not monotone: a later submission asks for a shorter,
// easier-to-backfill job but leaves less time to start. PlanLatest picks the
// latest s whose probability meets the user's target (least worst-case
// overhead); PlanMax picks the most probable s. When no s qualifies, the
// answer is a NOT_POSSIBLE plan — a refusal, like a denied hard reservation,
// not an error.
//
// Cost model: a plan requires N·W node-seconds, may cost at worst N·(D − s)
// more (the job starts at submission), and actually costs N·(D − t_start)
// more when it starts at t_start ≤ D. The thesis's printed 9480 node-s for
// its Figure 5.4 example is an arithmetic slip; the formula gives 10920
// (A14), which is what the tests pin.
//
// Latest computes PlanLatest lazily, backwards from the start time, for
// callers that plan thousands of requests. A Replanner recomputes the plan
// while it waits to submit (A16), so that change points in the queue move
// the submission time. A SimAgent drives a simulated Machine the way §5.4
// (Table 5.6) does: a fraction of a trace's jobs become VARQ requests for
// start times every 6 h, and each request's outcome (predicted
// probability, success, allocation used against required) is recorded and
// summarised. SimConfig.Crowd (beyond the thesis) plans each request as
// one job with the agent's own same-start requests that will be queued
// ahead of it: QBETS learns only from history and cannot see that
// self-made crowd, which is what breaks the promise when many requests
// share a start time (examples/varq). The crowd a candidate submission
// meets is a binary search in a ledger sorted by planned submission
// (crowd.go). A Replanner keeps an accepted plan through QBETS's silence;
// a crowd-aware one judges silence at the request's own size, so a zero
// the summed size alone gets is an answer (the request is dropped), not
// silence.
//
// Job molding and delayed submission (Hariharan et al., molding*.go,
// delay.go) choose a request size and a submission time from predicted
// response-time range sets; ProfileFloor gives the molder a size-aware
// wait, since APQ's is nearly blind to the request size (examples/apq).
// RunStrategy drives them on a sched simulation and reports means, the
// decisions made and every treated job's fate (StrategyResult.Treated). On
// a log without estimates a molded job's runtime is limited by §VI-C's
// ERT rule read with run times, as the simulator's estimate is the run
// time (Molder.Decide).
//
// Nothing in this package is safe for concurrent use unless it says so;
// the plan functions are pure.
package varq
