// Package replay is the one causal replay that scores any wait predictor
// — QBETS, APQ, IBL or a user's — over a trace's logged waits or a
// simulated schedule (Nurmi's thesis §4.3; spec qbets-varq-coalloc
// §5.1–5.2, qbets-brevik2006 §5.1, apq-rangeset-molding §6,
// karnak-ibl-service §5.1).
//
// A predictor is two methods (Predictor): Observe is told each job's
// arrival, start and end in causal order, Predict is asked for a job's
// wait at its arrival. Run replays []swf.Job (the logged Wait, or a
// simulated one filled in) through any number of predictors at once:
// before each arrival at t every start and end at a time ≤ t is observed
// (the thesis's tie rule: a wait is visible to an arrival iff submit +
// wait ≤ its submit), so a job's own wait stays hidden until it starts.
// Predictions in the training period (the first 10% of jobs by default)
// are not scored. Each predictor gets a Score: correctness (wait ≤ upper
// bound), RMS over-prediction over the correct answers, AAE and scaled
// AAE (Hariharan et al.), Brevik et al.'s accuracy (the median of
// bound / wait), the median bound and interval coverage.
//
// Start with Run and a Predictor of your own, or with the built-ins:
// Replay scores QBETS on one queue in the two experiments of the thesis's
// Tables 4.1 and 4.2:
//
//   - Config.Plain: the four predictors (BM, log-normal, log-uniform,
//     Weibull) on the full history — no trimming, clustering or
//     availability.
//   - the default: full QBETS as qbets.Config{} runs it (trimming, fixed
//     processor-count clusters, availability; Config.Predictor selects others).
//     BM is the qbets.Predictor itself; each comparator runs inside the same
//     pipeline (the Predictor's clusters, its queue-level fallback, its
//     availability decisions) with trimming driven by its own bound, as the
//     thesis varies "only the predictor used during the simulation".
//
// A correct prediction is bound ≥ wait; the RMS over-prediction of each
// method is over its own correct predictions (Q21); ratios are
// RMS_BM / RMS_X (higher = X tighter). NewAPQ and NewIBL wrap qbets/apq
// and qbets/ibl as Predictors.
//
// Nothing here is safe for concurrent use; run one replay per goroutine.
//
// Decisions cited as Q1…Q24 and sections cited as spec §N are those of
// docs/decisions.md (the Nurmi register and section map).
package replay
