// Package forecast answers "when will my job start?" by forward
// simulation, and learns from what happened.
//
// From a Snapshot of a machine — the running jobs (start, size, estimate),
// the waiting jobs in the scheduler's order, its size or nodes (GPUs,
// memory: Config.Policy.Nodes) — a Forecaster predicts each waiting job's
// start (Forecast) and a hypothetical job's (WhatIf) by simulating any
// sched.Scheduler forward (Config.Policy) on predicted run times
// (Config.Runtime: EASY++'s user history by default, any sched/predict
// predictor, UserRatio, or a user's; Config.Estimates plays the
// estimates, as squeue --start does). A running job past its prediction
// gets half of what remains of its estimate, at least a minute.
//
// Online runs the forecaster causally over a stream of jobs and learns
// from its errors: forward simulation alone barely beats a ten-line
// baseline (the real queue order, later arrivals that backfill ahead,
// partitions and outages are not in a snapshot), so the simulated wait is
// one feature of a small online model, fitted on the started jobs per
// power-of-two size class, per queue and partition (field 16) and class, per queue
// and partition, per user (averaged), beside the naive baseline (Naive), the queue's state and hourly waits,
// the job's and user's shape (Online lists them): a ladder of linear
// probabilities P(wait ≤ t), t from a minute to 11 days in steps of √2,
// one least-squares system with exponential forgetting (Config.Forget).
// The forecast is the t that maximizes P(within ×2) − 0.3·E|log10 error|
// (Config.Median: the median). Online is a replay.Predictor;
// qbets/conformal wraps it with intervals of guaranteed coverage.
//
// # Start
//
//	f, _ := forecast.New(forecast.Config{})           // EASY, user-history run times
//	starts, _ := f.Forecast(ctx, &forecast.Snapshot{Now: now, MachineSize: 128, Running: r, Waiting: w})
//	at, _ := f.WhatIf(ctx, snap, swf.Job{AllocProcs: 16, ReqTime: 3600})
//
//	o, _ := forecast.NewOnline(forecast.Config{}, 128) // learns from each start
//	scores, _ := replay.Run(ctx, jobs, replay.Options{}, o, &forecast.Naive{})
//
// # Results
//
// examples/forecast scores Online beside Naive, the estimates, IBL, APQ and
// QBETS on every archive log; its README holds the tables and the goals.
//
// # Cost
//
// One forecast is one sched simulation of the running and waiting jobs,
// stopped once every asked job has started (TestEarlyStop). CPU time, a
// 2-core Xeon at load 4–9: a 1,000-job snapshot's every waiting job 1.3 ms
// on one pool, 3.6 ms on 64 nodes (BenchmarkForecast1000, …Nodes; budget
// 10 ms); a forecast at every submission (examples/forecast; budget 60 s
// per 200k jobs): SDSC-BLUE 20 s, 30 s on 144 nodes; CEA-Curie 40 s; the
// Alibaba GPU pods on 1,523 nodes 38–42 s (bench_test.go). A flurry (N
// jobs in one second) costs at most 128 simulations and a step a job on
// any policy, not N²/2 (past them answers are approximate, counted:
// Online.Approximated). Forecaster and Online are not concurrent-safe.
package forecast
