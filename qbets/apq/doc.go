// Package apq is APQ, the adaptive point prediction of queue waits of
// Hariharan, Murali, Pasari and Vadhiyar, "End-to-End Predictions-Based
// Resource Management Framework for Supercomputer Jobs" §II (spec
// apq-rangeset-molding §1–2).
//
// To start: New(Config{}) (the defaults), then Add each started job's
// Describe'd Point with its wait and Predict a new job's (see the example).
//
// A job is described at its submission by the system state it meets
// (Predictor.Describe): the 16 feature summaries of Table II and the six
// distributions of Table I over the waiting (Q) and running (R) jobs. The
// state comes from a State: System follows a trace's submit, start and end
// events (qbets/replay's APQ drives it), Snapshot is a plain value a
// simulator fills. A Predictor keeps a
// FIFO history of the last H started jobs with their Points and waits and,
// for a target:
//
//   - weighs features by |Spearman ρ| with the waits over the history
//     (the histogram weights use their L² norms);
//   - measures the distance to each history job with the feature-summary
//     distance (Eqs. 3–4) or the distribution distance (Eq. 2, with the
//     χ² histogram distance of Eq. 1);
//   - classifies the neighbourhood of the closest k%: far (Case A), a
//     tight DBSCAN cluster (Case B) or scattered (Case C);
//   - predicts with the Standard Deviation Minimizer in Case B, else ridge
//     regression on the feature summaries of the near history, falling
//     back to the kernel-weighted k-NN average when ridge goes negative.
//
// Every parameter of Table IV is in Config, with the spec's [R] defaults;
// Config.LogWait (not the paper's) learns ln(wait) instead of seconds.
// Choices the paper leaves open follow the spec's §8 (H1–H10, H24):
// histogram edges shared over the history window on log(1+x), the
// target's values clamped into them rather than widening them (stored at a
// fine resolution of 1/16 in log units, so an edge is placed within about
// 6%), column-wise χ² normalization, FarThr = the SDM's threshold, min–max scaled
// DBSCAN axes, K(d) = exp(−(d/b)²), ridge λ = 1 on z-scored features with
// an unpenalized intercept. qbets/replay replays a trace causally through
// APQ (replay.NewAPQ) and scores AAE and scaled AAE; examples/apq adds
// the per-class AAE of §6 and the paper's one-at-a-time parameter search
// (Table IV).
//
// How APQ compares with the paper, IBL and QBETS on the archive logs
// (Table V) is generated in examples/apq/README.md.
//
// Cost: a prediction is linear in History; a description walks the
// waiting and running jobs, but a System's at one instant are kept and
// updated by each event, exactly (memo.go): a flurry of N jobs in one
// second costs a walk and a step a job, not N²/2 visits. A Predictor is
// not safe for concurrent use (Predict refreshes cached weights and
// edges); a System likewise.
//
// Decisions cited as H1…H25 and sections cited as spec §N are those of
// docs/decisions.md (the Hariharan register and section map); the paper's
// own sections are cited as §II, §III, ….
package apq
