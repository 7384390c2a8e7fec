// Package batchq is the root of a library for HPC batch queues: job traces,
// scheduler simulation, queue-wait prediction, virtual advance reservations
// and co-allocation. It holds no code: the packages below do the work.
//
// Traces:
//
//   - swf: the Standard Workload Format: Reader, Writer, typed parse errors.
//   - swf/convert: Slurm, PBS and GPU-cluster logs, Slurm queue snapshots, to SWF.
//   - swf/synth: synthetic workloads (Lublin and Feitelson's model).
//   - sanitize: sane jobs, archive filters, flurries, reordering (Tsafrir).
//   - estmodel: models of user runtime estimates (Tsafrir; Hariharan).
//   - estmodel/rangeset: load-aware runtime range sets (Hariharan et al.).
//
// Scheduling:
//
//   - sched: a discrete-event simulator of FCFS, EASY and its variants,
//     conservative backfilling and any user policy (Tsafrir, Ch. 2–4).
//   - sched/predict: the runtime predictors of EASY++ (Tsafrir, Ch. 4).
//   - sched/schedtest: conformance checks for a user's sched.Scheduler.
//   - sched/load: a log's offered load and its scaling (Tsafrir §3.6, §4).
//   - sched/forecast: "when will my job start?", by forward simulation.
//   - sched/slurm: Slurm's own scheduling (multifactor priority, fair
//     share, partitions, backfill), configured from a site's slurm.conf.
//
// Wait prediction:
//
//   - qbets: QBETS, binomial bounds on queue waits with trimming,
//     clustering and availability inference (Nurmi; Brevik et al.).
//   - qbets/qbetstest: conformance checks for a user's Trimmer, Clusterer.
//   - qbets/apq: APQ, adaptive point prediction (Hariharan et al.).
//   - qbets/ibl: instance-based prediction with intervals (Smith, Karnak).
//   - qbets/replay: the causal replay that scores any wait predictor.
//   - qbets/conformal: intervals with a coverage guarantee around any
//     point predictor (split and adaptive conformal prediction).
//   - qbets/karnak: the queue prediction and job statistics service as a
//     library (HTTP handler, Store, feeds).
//   - qbets/karnak/karnaktest: conformance checks for a karnak.Store.
//   - qbets/karnak/slurmfeed: feeds a live Slurm cluster to the service.
//
// Reservations and co-allocation:
//
//   - varq: virtual advance reservations on batch queues (Nurmi Ch. 5).
//   - varq/agent: VARQ requests driven on a simulated machine (§5.4).
//   - varq/molding: job molding and delayed submission (Hariharan et al.).
//   - varq/varqtest: a fake batch machine for testing agents.
//   - coalloc: co-allocation across machines (CO-VARQ, Nurmi Ch. 6).
//
// The examples module holds runnable programs that reproduce the papers'
// tables on the Parallel Workloads Archive traces, the paper's numbers
// beside ours; docs/decisions.md registers the decisions the code cites.
package batchq
