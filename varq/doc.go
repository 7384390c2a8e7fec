// Package varq makes virtual advance reservations on best-effort batch
// queues (VARQ, Nurmi's thesis Ch. 5; spec qbets-varq-coalloc §3, §5.4,
// §6.4–6.5, ambiguities Q14–Q17, Q24).
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
// still hold then (bounds stability, thesis Ch. 5, spec §3). That
// ProbabilityTrajectory is not monotone: a later submission asks for a shorter,
// easier-to-backfill job but leaves less time to start. Its PlanLatest method
// picks the latest s whose probability meets the user's target (least
// worst-case overhead); PlanMax picks the most probable s. When no s qualifies, the
// answer is a NOT_POSSIBLE plan — a refusal, like a denied hard reservation,
// not an error.
//
// Cost model: a plan requires N·W node-seconds, may cost at worst N·(D − s)
// more (the job starts at submission), and actually costs N·(D − t_start)
// more when it starts at t_start ≤ D. The thesis's printed 9480 node-s for
// its Figure 5.4 example is an arithmetic slip; the formula gives 10920
// (Q14), which is what the tests pin.
//
// Latest computes traj.PlanLatest lazily, backwards from the start time, for
// callers that plan thousands of requests. A Replanner recomputes the plan
// while it waits to submit (Q16), so that change points in the queue move
// the submission time; it keeps an accepted plan through the forecaster's
// silence (QBETS's "machine may be down").
//
// Forecaster is the one plug point: *qbets.Predictor satisfies it, and
// ForecasterFunc adapts anything else. A forecast with ok = false (no
// history, or the machine may be down) is read as probability 0.
//
// Limits keep every computation in range and bound the work of one call:
// instants (now, Start), walltimes and steps lie within ±2^40 s (about
// 35,000 years), and a trajectory has at most 2^20 points (a year ahead at
// 30 s, 12 days at 1 s), so a call asks the forecaster at most 2^20
// questions. Arguments beyond them are errors, not minutes-long calls.
//
// This package imports nothing else of batchq. Two subpackages build on
// it: varq/agent drives VARQ requests on a simulated machine (§5.4) and
// varq/molding holds Hariharan et al.'s job molding and delayed
// submission.
//
// Nothing in this package is safe for concurrent use unless it says so;
// the plan functions are pure.
//
// Start with Trajectory and its PlanLatest (see the example), or Latest.
package varq
