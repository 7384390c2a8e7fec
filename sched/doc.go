// Package sched is a discrete-event simulator of batch schedulers for
// parallel machines, as specified in Tsafrir's PhD thesis (2006) Ch. 2
// §2.2–2.5, Ch. 3 §3.10 and Ch. 4: FCFS, EASY backfilling and its variants
// (EASY+, EASY++, SJBF, X2, SJF, LXF&W), conservative backfilling, and any
// policy a user writes.
//
// # Start
//
//	_, jobs, _ := swf.ReadFile("KTH-SP2-1996-2.1-cln.swf.gz")
//	easypp, _ := sched.LookupPreset("EASY++")
//	res, err := sched.Run(ctx, easypp.New(100), jobs)
//	res.Summary.MeanWait, res.Summary.MeanBSLD, res.Records[i].Start ...
//
// Config's zero value plus a MachineSize is vanilla EASY with user
// estimates under the thesis's rules S1–S9 (Config's doc). Each variant of
// the thesis's Tab 4.4 is a Preset; each New returns a fresh Config, as
// predictors keep per-simulation state. Observers (or Hooks) see every
// submission, start, end and reservation; a Sim runs step by step, for
// agents that submit and cancel jobs (ExampleSim).
//
// # Writing a policy
//
// A Scheduler decides at each scheduling pass which waiting jobs start. It
// sees the pass through a *Pass (the clock, the free processors, the
// waiting and running jobs, EASY's Shadow, the free-processor Profile) and
// acts with Start, Backfill and Reserve; the simulator does the rest, so
// a user's policy gets the same metrics, observers and SWF output as a
// built-in (ExampleScheduler). The contract:
//
//   - act only during Schedule, on the Pass it was given; keep jobs by ID;
//   - ErrNoFit is the normal outcome of a probe; ErrNotWaiting,
//     ErrOutOfRange and ErrStalePass are the policy's bugs, refused and
//     counted in Result.Refused;
//   - on an idle machine some pass must start a waiting job: a run that
//     ends with jobs waiting is ErrStall;
//   - a policy reads a job's size, estimate, prediction, user, group,
//     queue and partition, never its run time.
//
// Package sched/schedtest checks a Scheduler against this contract. To
// change only the queue order, plug an Order into EASYScheduler
// (ExampleOrder); a Scheduler's Name is Result.Policy.
//
// # Machines of nodes, peers, load, cost
//
// Config.Nodes makes the machine a set of nodes with cores, memory, GPUs
// and named resources on which each job's swf.Demand is placed; every
// preset reserves and backfills over every resource (ExampleConfig_nodes).
// Config.WithPeer schedules as pyss or predictsim does (Peer). sched/load
// has a log's load, sched/predict runtime predictors. A Sim is not safe
// for concurrent use: run Sims in parallel. Decisions S1…S32 and spec §N
// are in docs/decisions.md. Cost, q jobs waiting: O(log n) an event, EASY
// flat per job; LXF&W O(q) a pass (ByLXFW); conservative O(q) a pass and
// Θ(q) moved reservations an early end when the queue grows.
package sched
