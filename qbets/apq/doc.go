// Package apq is APQ, the adaptive point prediction of queue waits of
// Hariharan, Murali, Pasari and Vadhiyar, "End-to-End Predictions-Based
// Resource Management Framework for Supercomputer Jobs" §II (spec
// apq-rangeset-molding §1–2).
//
// A job is described at its submission by the system state it meets
// (Describe): the 16 feature summaries of Table II and the six
// distributions of Table I over the waiting (Q) and running (R) jobs. The
// state comes from a State: System replays a trace's events (Replay drives
// it), Snapshot is a plain value a simulator fills. A Predictor keeps a
// FIFO history of the last H started jobs with their Points and waits and,
// for a target:
//
//   - weighs features by |Spearman ρ| with the waits over the history
//     (Spearman; the histogram weights use their L² norms);
//   - measures the distance to each history job with the feature-summary
//     distance (SummaryDistance, Eqs. 3–4) or the distribution distance
//     (DistributionDistance, Eq. 2, with the χ² histogram distance
//     ChiSquare of Eq. 1);
//   - classifies the neighbourhood of the closest k%: far (Case A), a
//     tight DBSCAN cluster (Case B) or scattered (Case C);
//   - predicts with SDM in Case B, else ridge regression (Ridge) on the
//     feature summaries of the near history, falling back to the
//     kernel-weighted k-NN average (KNNAverage) when ridge goes negative.
//
// Every parameter of Table IV is in Config, with the spec's [R] defaults.
// Choices the paper leaves open follow the spec's §8 (A1–A10, A24):
// histogram edges shared over the window on log(1+x) (stored at a fine
// resolution of 1/16 in log units, so an edge is placed within about 6%),
// column-wise χ² normalization, FarThr = SDM's threshold, min–max scaled
// DBSCAN axes, K(d) = exp(−(d/b)²), ridge λ = 1 on z-scored features with
// an unpenalized intercept. Evaluate replays a trace the paper's way and
// scores AAE, scaled AAE and the per-class AAE of §6.
//
// Measured (examples/apq, Table V; AAE in hours, ours (paper)): see that
// program's README for the full table with QBETS and IBL.
//
// A Predictor is not safe for concurrent use (Predict refreshes cached
// weights and edges); a System likewise. The free functions are pure.
package apq
