// Package batchq is the root of a library for HPC batch queues: job traces,
// scheduler simulation, queue-wait prediction, virtual advance reservations
// and co-allocation. This package holds no code; the work is done by the
// packages below, which follow the papers named with each.
//
// swf reads and writes the Standard Workload Format of the Parallel
// Workloads Archive: a streaming Reader with typed fields and errors that
// name the line and field, a Writer, and gzip detection. swf/convert turns
// scheduler accounting logs into SWF: Slurm's sacct (text and JSON) and
// jobcomp file, PBS/Torque and PBS Pro accounting logs.
//
// sanitize prepares real logs for simulation: the "sane" predicate, the
// archive's filter language, flurry detection and reordering (Tsafrir,
// "Modeling, Evaluating, and Improving the Performance of Supercomputer
// Scheduling", PhD thesis, 2006, Ch. 2 and 6).
//
// sched is a deterministic discrete-event batch scheduler simulator: FCFS,
// EASY backfilling and its variants EASY+, EASY++ and SJBF with system
// runtime predictions and prediction correction, conservative backfilling,
// SJF and LXF&W, with the thesis's metrics (Tsafrir, Ch. 2–4).
//
// estmodel models user runtime estimates (Tsafrir's modal model, the
// f-model and the Φ-model, Ch. 3 and 5); sched/predict holds the runtime
// predictors of EASY++ (the user-history window, Ch. 4).
//
// qbets bounds queue waits: binomial confidence bounds on wait quantiles,
// change-point trimming, model-based clustering and availability inference
// (Nurmi, PhD thesis, Ch. 3–4; Brevik, Nurmi and Wolski, "Predicting bounds
// on queuing delay for batch-scheduled parallel machines", PPoPP 2006).
// qbets/replay replays a trace causally and scores any wait predictor;
// qbets/conformal gives any point predictor intervals with a coverage
// guarantee (split and adaptive conformal prediction), and sched/forecast
// predicts start times by forward simulation corrected online.
//
// varq plans virtual advance reservations on machines without reservations
// (VARQ, Nurmi Ch. 5), and coalloc plans probabilistic co-allocation across
// machines (CO-VARQ, Nurmi Ch. 6).
//
// The examples directory holds runnable programs that reproduce the papers'
// tables on the Parallel Workloads Archive traces; each README puts the
// paper's numbers beside ours.
package batchq
