// Package estmodel models user runtime estimates (SWF field 9): Tsafrir's
// modal model and the comparators the literature used before it (PhD
// thesis 2006, Ch. 3 §3.1–3.2 and Ch. 5).
//
// Users' runtime estimates are modal: a few round values — E_max, the
// largest allowed estimate, above all — hold most jobs, and short jobs
// often carry them. The modal model generates such estimates for a trace
// that has none (or replaces real ones). Every model has the same shape,
// Apply(jobs, rng), which sets field 9 of every job:
//
//   - Modal: the modal model. Its zero value is the spec's default (the
//     reference implementation's parameters, E_max the longest run time but
//     at least one hour). For the distribution itself call Generate with a
//     ModalConfig (the number K of distinct estimates, the time curve, the
//     20 popular head values, their popularities, the caller's own modes as
//     Bins), then its Assign, the random shuffle that pairs estimates with
//     run times so that no job gets an estimate below its run time when a
//     legal one is left. Shuffle applies that pairing to a trace's real
//     estimates ("shfl"). The fitted constants are the reference
//     implementation's, or the thesis's rounded ones
//     (ModalConfig.ThesisParams).
//   - FModel: the f-model e ~ U[r, (f+1)r], deterministic and truncated
//     variants.
//   - PhiModel: the Φ-model of Mu'alem & Feitelson.
//
// The thesis shows that the f-model makes EASY look better as f grows,
// while real estimates make it worse; the modal model reproduces the real
// badness. examples/estimates validates this with the EASY simulator of
// package sched on four logs (its README has the table).
//
// To start: estmodel.Modal{}.Apply(jobs, rand.New(rand.NewPCG(seed, 0))).
//
// The runtime predictors of EASY+/EASY++ (thesis Ch. 4) live next to the
// simulator, in package sched/predict; the load-aware range sets of
// Hariharan et al. in estmodel/rangeset. Randomness comes only from the
// *rand.Rand passed in. Nothing in this package keeps global state; the
// model types are plain values, safe for concurrent use as long as each
// goroutine has its own *rand.Rand.
package estmodel
