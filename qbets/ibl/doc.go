// Package ibl is Karnak's instance-based wait prediction (Smith, "A
// Service for Queue Prediction and Job Statistics", GCE 2010, §VI-B):
// experiences with the features of Tables III and IV, the weighted HEOM
// distance, N-nearest or radius neighbours (Config.R), kernel-regression
// estimates with a z·σ (or empirical, Config.Empirical) confidence
// interval, and a FIFO experience base of bounded size. Config.Estimate
// replaces Karnak's kernel mean of the waits by their kernel-weighted
// geometric mean or median, which over-predict skewed waits far less. qbets/replay's IBL
// replays a trace through it as §V does (replay.NewIBL, 5-minute snapshots).
//
// On the archive traces with the default, untuned configuration, coverage
// of the 90% intervals is inside the paper's ranges and pre-submission
// accuracy below them; the tables and the analysis are in
// examples/qserve/README.md ("Accuracy of the IBL estimates"), and a
// prediction over a full base of 10,000 experiences costs 100–215 µs of
// CPU (BenchmarkPredict; by hand, about 100 µs on 2026-11-23, 210–213 µs
// on 2026-11-30 at load 5–8). A System's events and queries cost
// O(log n) in its jobs, a job submitted anywhere in the queue included (a
// flurry fed queue by queue cost N²/2 before the treap, waitlist.go): karnak's work for one submitted job
// with 10,000 waiting and 500 running took 240–287 µs when each query
// summed every job and takes 5.7–6.4 µs (BenchmarkSystemSubmit,
// 2026-12-01, at load 10–12, noisy; under callgrind 1.09 million
// instructions and 9,100). Decisions cited
// as K1…K11 are in docs/decisions.md.
//
// A Base is not safe for concurrent use; guard it with a sync.RWMutex
// (Predict does not write, so concurrent Predicts under RLock are fine).
package ibl
