// Package conformal gives any point predictor of queue waits intervals
// with a coverage guarantee: conformal prediction on the log-ratio
// residuals r = ln(max(wait, 60 s) / max(point, 60 s)), per class (a
// queue, a size class), split (Vovk, Gammerman & Shafer 2005; Lei et al.
// 2018) or adaptive (adaptive conformal inference, Gibbs & Candès 2021),
// which keeps its coverage when the queue drifts. It depends on no
// simulator: it wraps the forward-simulation forecaster of sched/forecast
// as it wraps IBL, APQ or a ten-line baseline.
//
// # Start
//
//	c, _ := conformal.NewCalibrator(conformal.Config{}) // 50, 80, 90%, adaptive
//	w := conformal.Wrap(myPointPredictor, c, nil)        // size classes
//	scores, _ := replay.Run(ctx, jobs, replay.Options{}, w)
//	scores[0].Coverage()                                 // ≈ 0.90
//
// Point is one method (Predict, as in replay.Predictor); the Wrapper
// answers the inner point with the interval of the last level in Lower and
// Upper, Interval(i) gives the others, and each job that starts calibrates
// its class with the wait that followed its question. Calibrator is the
// same machinery for a caller with its own loop: Interval before the
// outcome, Update after.
//
// # The guarantee
//
// An interval of level 1−α is [p·e^{q_lo}, p·e^{q_hi}] with q_lo, q_hi the
// conformal quantiles of the class's last Window residuals at tail levels
// a_lo and a_hi (the ⌊(n+1)a_lo⌋-th and ⌈(n+1)(1−a_hi)⌉-th smallest of n;
// beyond the window's ends the tail is unbounded).
//
//   - Split (Config.Split, a_lo = a_hi = α/2): if the window's residuals
//     and the new one are exchangeable, each tail misses with probability at
//     most α/2, so the interval covers with probability at least 1−α (the
//     rank argument; the union of the two tails).
//   - Adaptive (the default): each tail's level moves after every outcome,
//     a ← a + γ(α/2 − err), err = 1 when the outcome fell beyond that tail
//     of the interval issued at its question. Whatever the sequence of waits
//     — drift, outages, adversarial — the share of misses of each tail over
//     T outcomes of a class is within (1 + γ)/(γT) of α/2 (Gibbs & Candès
//     2021, Proposition 4.1: a stays in [−γ, 1+γ], since a ≤ 0 gives an
//     unbounded tail that cannot miss and a ≥ 1 an empty one that must),
//     so the coverage is within 2(1 + γ)/(γT) of 1−α: 0.04 after 10,000
//     outcomes at the default γ = 0.005, and in practice much closer. It
//     holds for the intervals as issued, outcomes arriving late (a job's
//     wait is known when it starts), which is what Wrapper bookkeeps;
//     Calibrator.Update, which has no question to refer to, counts against
//     the interval as of the outcome.
//
// Residuals are floored at 60 s on both sides, as the scoring of the
// forecasts is: a lower end under the floor is reported as 0. What an
// interval and an outcome cost is Calibrator's doc.
package conformal
