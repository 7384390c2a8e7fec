// Package forecast answers "when will my job start?" by forward
// simulation, and learns from what happened.
//
// From a Snapshot of a machine — the running jobs (start, size, estimate,
// so elapsed time), the waiting jobs in the scheduler's order, the
// machine's size — a Forecaster predicts each waiting job's start
// (Forecast) and a hypothetical job's ("if I submit n processors for t
// now", WhatIf) by simulating the policy forward with package sched (any
// sched.Scheduler: Config.Policy) on predicted run times instead of the
// user estimates (Config.Runtime: EASY++'s user history of Tsafrir's
// thesis Ch. 4 §4.2 by default, any sched/predict predictor, UserRatio —
// a learned one: the estimate scaled by the user's moving average of
// run/estimate — or a user's;
// Config.Estimates plays the estimates, which is what squeue --start
// does). A running job that has outlived its prediction is given half of
// what remains of its estimate, at least a minute.
//
// Online runs the forecaster causally over a stream of jobs and learns
// from its errors. Forward simulation alone does not beat a ten-line
// baseline by much: the real queue order, later arrivals that backfill
// ahead, partitions and outages are not in a snapshot, and even the
// actual run times (an oracle) leave it near the baseline on some logs
// (issue 36's prototype). So the simulated wait is one strong feature of a
// small online model, fitted per power-of-two size class on the waits of
// the jobs that have started, each with its features as they were at its
// question: log simulated wait, log naive baseline (Naive, the median wait
// of the last 100 started jobs of the size class), the processors queued
// ahead, the running processors, the queue's length and its oldest job's
// age, the job's size and estimate, the last wait of its class and of its
// user, the user's other waiting jobs and running processors, and the
// median wait of the job's queue. The model is a distributional
// regression, a ladder: for each threshold t from a minute to 11 days in
// steps of √2, a linear probability model of P(wait ≤ t), all fitted by
// one least-squares system with exponential forgetting (a memory of about
// 200 jobs: Config.Forget), so it follows drift. The forecast is the
// threshold that maximizes P(within ×2) − 0.3·E|log10 error| under that
// distribution (Config.Median: its median, which minimizes the expected
// |log| error). It sits on a mode of the bimodal waits — most jobs start
// at once or wait hours — where a mean of logs falls between "now" and
// "hours" and is within ×2 of neither; and it needs no assumption on the
// shape of either mode (the hurdle it replaced assumed a log-normal for
// the jobs that wait). Answers are capped at the longest wait seen. Online is a replay.Predictor; wrap it with qbets/conformal
// for intervals with a coverage guarantee.
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
// examples/forecast replays every archive log with recorded waits and
// scores Online, the user-estimate simulation, Naive, IBL, APQ and QBETS
// at every submission with the same causal information; its README holds
// the tables (generated and checked by its tests) and where the goals of
// issue 36 are met and where not.
//
// # Cost
//
// One forecast is one sched simulation of the running and waiting jobs,
// O((r + q) log(r + q)) events plus EASY's backfilling scans, stopped as
// soon as every job asked about has started (what happens later cannot
// move their starts: TestEarlyStop checks them against the simulation
// run to its end); Online asks about one job, so a forecast no longer
// plays every running job to its end. Online skips the simulation when
// the job and every job waiting ahead of it fit in the free processors
// (it would start them all at once), and adds the ladder's solve (one
// 19×19 Cholesky factorization, 29 outputs) per question. Measured as CPU
// time (getrusage; the 2-core machine was shared, load average 3–4;
// before/after pairs run alternately) with go test -bench . -cpu 1: a
// forecast of every waiting job of a 1,000-job snapshot on 1,024
// processors (BenchmarkForecast1000, which asks about every job, so the
// simulation runs nearly to its end) 3.4–3.7 ms (budget 10 ms; 3.4–4.4
// ms before the early stop), 0.61 MB and 1,094 allocations; Online over a
// busy synthetic log of 20,000 jobs on 64 processors (BenchmarkOnline, a
// forecast and a model update per job) 44–48 µs per job (52–58 before).
// Over the archive logs with the command examples/forecast (-predictors
// forecast, CPU time by /usr/bin/time, parse and replay included; the
// scores are byte for byte those of the full simulation): KTH-SP2 (28k
// jobs) 1.8–1.9 s (2.0–2.1 before); SDSC-BLUE (243k jobs) 34.3 s (33.3
// user, 1.1 system; 246 MB peak; 49.0 before), 28 s per 200k jobs;
// CEA-Curie (313k jobs) 78.5–81.0 s (77.0–79.0 user; 303 MB peak;
// 122.6–125.4 before), 51 s per 200k jobs (78 before), within the budget
// of 60 s for a 200k-job log. What remains of a Curie replay (a profile
// of its first 80k jobs) is three quarters the simulation itself (sched's
// loading, arrivals, starts and EASY passes over the hundreds of jobs its
// machine runs at once, with their allocations and garbage collection),
// a tenth the ladder's solve, and a twentieth the run-time predictor
// asked again for every running and waiting job at each question.
//
// Forecaster and Online are not safe for concurrent use: one per goroutine.
package forecast
