// Package estmodel models user runtime estimates and predicts job run times
// for backfilling schedulers.
//
// # Estimate models (Tsafrir, PhD thesis 2006, Ch. 3 §3.1–3.2 and Ch. 5)
//
// Users' runtime estimates (SWF field 9) are modal: a few round values —
// E_max, the largest allowed estimate, above all — hold most jobs, and short
// jobs often carry them. The modal model generates such estimates for a trace
// that has none (or replaces real ones):
//
//  1. NumEstimatesLinear / NumEstimatesPower: the number K of distinct
//     estimates for N jobs (Tab 5.3; K(77,222) = 349).
//  2. TimeCurveA, TimeCurve, TailTimes (reference implementation, default)
//     or TailTimesThesis: the non-head values on y = (a−1)x/(a−x).
//  3. HeadTimes: the 20 popular values for E_max (joint values, then round
//     multiples).
//  4. HeadSizes, TailSizes: popularity (exponential head, power-law tail).
//  5. PoolMap with LogRanks (Tab 5.6): which head time gets which
//     popularity; the tail is paired at random.
//  6. EmbedUserTimes, EmbedUserSizes: the caller's own modes (UserBin), in
//     particular the share of jobs at E_max.
//  7. Counts: percentages to job counts summing to N.
//  8. AssignEstimates, Assign: the random shuffle pairing estimates with
//     run times so that no job gets an estimate below its run time when a
//     legal one is left; Shuffle applies it to the real estimates ("shfl").
//
// Generate runs steps 1–7 from a ModalConfig whose zero fields follow the
// spec's recommendations (reference-implementation parameters RefParams and
// semantics; ThesisParams, KPower, KExtrapolate and TailThesis are the
// thesis variants). Randomness comes only from the *rand.Rand passed in.
//
// The comparators are FModel (the f-model e ~ U[r, (f+1)r], deterministic and
// truncated variants), XReal (real estimates times F) and PhiModel (the
// Φ-model of Mu'alem & Feitelson). The thesis shows that the f-model makes
// EASY look better as f grows, while real estimates make it worse; the modal
// model reproduces the real badness. examples/estimates validates this with
// the EASY simulator of package sched on four logs (its README has the table).
//
// The runtime predictors of EASY+/EASY++ (thesis Ch. 4) live next to the
// simulator, in package sched/predict. The load-aware range sets of
// Hariharan et al. live in rangeset*.go.
//
// Nothing in this package keeps global state; the model types are plain
// values, safe for concurrent use as long as each goroutine has its own
// *rand.Rand.
package estmodel
