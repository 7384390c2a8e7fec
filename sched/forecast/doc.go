// Package forecast answers "when will my job start?" by forward
// simulation, and learns from what happened.
//
// From a Snapshot of a machine — the running jobs (start, size, estimate),
// the waiting jobs in the scheduler's order, the machine's size — a
// Forecaster predicts each waiting job's start (Forecast) and a
// hypothetical job's (WhatIf) by simulating any sched.Scheduler forward
// (Config.Policy) on predicted run times (Config.Runtime: EASY++'s user
// history by default, any sched/predict predictor, UserRatio, or a
// user's; Config.Estimates plays the estimates, as squeue --start does).
// A running job past its prediction gets half of what remains of its
// estimate, at least a minute.
//
// Online runs the forecaster causally over a stream of jobs and learns
// from its errors: forward simulation alone barely beats a ten-line
// baseline (the real queue order, later arrivals that backfill ahead,
// partitions and outages are not in a snapshot), so the simulated wait is
// one feature of a small online model, fitted on the started jobs per
// power-of-two size class, per queue and class and per queue (averaged),
// beside the naive baseline (Naive), the queue's state and hourly waits,
// the job's and user's shape (Online lists them). The model is a ladder of linear probabilities P(wait ≤ t), t
// from a minute to 11 days in steps of √2, fitted by one least-squares
// system with exponential forgetting (Config.Forget); the forecast is the
// t that maximizes P(within ×2) − 0.3·E|log10 error| (Config.Median: the
// median): a mode of the bimodal waits, where a mean of logs falls between
// "now" and "hours". Online is a replay.Predictor; wrap it with
// qbets/conformal for intervals with a coverage guarantee.
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
// examples/forecast scores Online beside Naive, the estimates, IBL, APQ
// and QBETS on every archive log; its README holds the generated tables
// and where the goals of issue 36 are met and where not.
//
// # Cost
//
// One forecast is one sched simulation of the running and waiting jobs,
// O((r + q) log(r + q)) events plus EASY's backfilling scans, stopped as
// soon as every job asked about has started (TestEarlyStop checks the
// starts against the simulation run to its end). Measured figures are
// beside the benchmarks (bench_test.go).
//
// Forecaster and Online are not safe for concurrent use: one per goroutine.
package forecast
