// Package qbets bounds batch-queue waits with QBETS (Nurmi's thesis Ch. 4;
// Brevik, Nurmi & Wolski 2006): the upper level-C confidence bound on the
// q-quantile of the observed waits, taken as an order statistic of the
// history (the Binomial Method, §2.1), with history trimming at change
// points (§2.3), clustering of jobs by what they request (§2.4) and
// availability inference (§2.5), put together as the per-queue pipeline
// of §2.6.
//
// Start here (the zero Config is full QBETS at q = C = 0.95):
//
//	p, err := qbets.New(qbets.Config{})
//	err = p.Submit(t)                                // a job arrived at t
//	err = p.Observe(qbets.Observation{Submit, Start, Nodes, Walltime}) // a job started; starts in order
//	f := p.Forecast(qbets.Request{Nodes, Walltime})  // Upper, Lower, OK, Reason, MayBeDown, ...
//	bound, ok := p.Predict(nodes, walltime)          // Forecast's Upper
//	prob, ok := p.ProbWithin(nodes, walltime, t)     // §2.7: the chance of starting within t
//	state, err := p.MarshalBinary()                  // save; UnmarshalBinary restores into New(sameConfig)
//
// Contracts. Submit and Observe refuse bad input (negative values, a start
// before its submit or before the previous start) with ErrRejected and
// change nothing: drop the job and count it. UnmarshalBinary answers
// ErrBadState for bytes it cannot use: build a fresh Predictor. A Forecast
// that cannot answer says why in its Reason. A Predictor is safe for
// concurrent use.
//
// Plug points. Config.Trimmer makes each history's change-point detector
// (a Trimmer; RunLength, the thesis's, is the default; Config.NoTrim turns
// trimming off). Config.Clusterer groups jobs by what they request (a
// Clusterer fitted on the released jobs returns a Partition with one Box
// per cluster); the built-ins are the ClusterMode values, the default
// being fixed processor ranges, chosen over the thesis's model-based
// clustering because it keeps correctness at or above 0.95 on the
// archive logs (examples/qbets/README.md, "Clustering modes"). Package
// qbetstest checks a user's Trimmer and Clusterer against what the
// Predictor needs of them.
//
// One feed, many questions. Config.Levels adds (q, C) pairs answered from
// the same feed (Request.Quantile and Confidence pick one). MaxHistory
// bounds memory on a long-lived feed. Every feature of the thesis's
// simulator is switchable through Config.
//
// Availability. While the machine may be down, the thesis refuses to
// forecast; on the archive logs that refuses 5–30% of jobs
// (examples/qbets/README.md, "Availability"), so the default answers, with
// MayBeDown set and the bound from the waits of earlier such spells.
// Config.Withhold restores the refusal (Reason MachineDown).
//
// The parametric comparators of the thesis's evaluation live with the
// replay evaluator (qbets/replay). Decisions cited as Q1…Q24 and B1…B11,
// and sections cited as §2.x, are those of docs/decisions.md (the Nurmi
// and Brevik registers and the Nurmi section map).
package qbets
