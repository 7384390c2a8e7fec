// Package ibl is Karnak's instance-based wait prediction (Smith, "A
// Service for Queue Prediction and Job Statistics", GCE 2010, §VI-B; spec
// karnak-ibl-service.md §4): experiences with the features of Tables III
// and IV, the weighted HEOM distance, N-nearest or radius neighbours,
// kernel-regression estimates with a z·σ (or empirical) confidence
// interval, and a FIFO experience base of bounded size. qbets/replay's IBL
// replays a trace through it as §V does (replay.NewIBL, 5-minute snapshots).
//
// Measured with the default, untuned configuration (N = 56, k = 1, unit
// weights, 10,000 experiences, 5-minute snapshots; no genetic-algorithm
// tuning, no Simulated Wait Time feature), 90% intervals, against the
// paper's TeraGrid ranges (Tables I/II, August 2010). Rel. err. is
// mean |E−A| / mean A.
//
//	workload     trace     jobs   mean wait  accuracy  rel.err  mean CI   in CI (normal / empirical)
//	not queued   paper     2.4k–43k  0.83–7.14 h  0.34–0.57   —    0.53–15.86 h  79–86%
//	not queued   KTH       28,469   4.24 h     0.23      0.96    ±7.29 h   88.6% / 84.9%
//	not queued   SDSC-SP2  54,043   7.13 h     0.23      0.87    ±10.54 h  88.9% / 84.9%
//	not queued   CTC       77,213   7.09 h     0.27      0.89    ±8.65 h   83.5% / 79.0%
//	queued       paper     1.1k–14k  2.06–11.8 h  0.33–0.45   —    2.76–25.89 h  70–90%
//	queued       KTH       16,905   7.10 h     0.32      0.91    ±13.41 h  89.6% / 85.6%
//	queued       SDSC-SP2  27,017  14.21 h     0.38      0.77    ±18.62 h  86.0% / 82.3%
//	queued       CTC       52,198  10.44 h     0.39      0.75    ±13.73 h  86.1% / 82.4%
//
// The queued rows were re-measured when the replay moved to qbets/replay
// (the not-queued rows reproduced exactly): a job submitted at a snapshot
// instant is now asked at the next snapshot rather than at that one, so
// that a question at now > submit is always a queued one (26–82 fewer
// queued predictions; mean wait and CI up by ≤ 0.04 h, coverage and
// accuracy unchanged but SDSC-SP2's empirical 82.4% → 82.3%).
//
// Coverage is inside the paper's ranges; pre-submission accuracy is below
// them (0.23–0.27 against 0.34–0.57): the archive traces wait longer, the
// paper tuned weights, k, N and base size per system by a GA (not done
// here), and scheduler order is approximated by submit order.
//
// The gap is in the short waits. The paper reports that leaving out jobs
// that waited < 10 min lowered its Table I accuracies by 0.10 on average;
// here it raises them (Score.AccuracyLong, commit ed71022):
//
//	waits ≥ 10 min   KTH            SDSC-SP2       CTC
//	not queued       0.39 (+0.16)   0.42 (+0.19)   0.40 (+0.13)   12,486 / 22,913 / 45,209 jobs
//	queued           0.43 (+0.10)   0.45 (+0.07)   0.45 (+0.06)   11,880 / 22,492 / 44,215 jobs
//
// which is inside the paper's 0.34–0.57 and 0.33–0.45. In these traces
// 23% (KTH), 51% (SDSC-SP2) and 31% (CTC) of the jobs wait under a minute
// (41–58% under 10 minutes; TestEvaluateTraces logs both); a kernel
// average over 56 neighbours that include a few long waits estimates
// minutes to hours for them, which the accuracy metric scores near 0
// (E = 1800 s for A = 30 s scores 0.017).
//
// Cost (BenchmarkPredict/BenchmarkInsert, a full base of 10,000 Table III
// experiences, N = 56): one prediction is a brute-force pass over the
// base stored column by column, about 100 µs of CPU (266 µs wall measured
// on the shared 2-core machine, load ≈ 6); one insertion with FIFO
// eviction is 63 ns, the ranges being sliding-window extremes (spec K11).
// The KTH evaluation runs in 6 s, the full table above in 103 s
// (re-run at commit 591acf3, load average ≈ 18; numbers unchanged). In
// each row 0–6 early predictions, made while the base held a single
// experience, have an unbounded interval (Karnak's +∞ for an undefined
// σ): they count as inside the interval and are left out of the mean CI.
//
// A Base is not safe for concurrent use; guard it with a sync.RWMutex
// (Predict does not write, so concurrent Predicts under RLock are fine).
package ibl
