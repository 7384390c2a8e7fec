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
// predictors keep per-simulation state. Observers (or Hooks) are told every
// submission, start, end and reservation. A Sim runs step by step, for
// agents that submit and cancel jobs as it goes (ExampleSim).
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
// # Machines of nodes, peers, load
//
// Config.Nodes makes the machine a set of nodes with cores, memory, GPUs
// and named resources on which each job's swf.Demand is placed; every
// preset reserves and backfills over every resource (the contract is
// Config.Nodes's; ExampleConfig_nodes). Config.WithPeer schedules as pyss
// or predictsim does, job by job (Peer). A log's load and its scaling are
// in sched/load, runtime predictors in sched/predict. A Sim is not safe
// for concurrent use: run Sims in parallel. The decisions S1…S32 and
// sections spec §N cited are in docs/decisions.md.
//
// # Cost
//
// For q waiting jobs, r running and a profile of P points (at most two a
// running job or reservation):
//
//   - an arrival, a start or an end costs O(log n) of bookkeeping;
//   - EASY and the variants that give the reservation to the first by
//     arrival or by prediction: a pass walks the running jobs until the
//     holder's processors accumulate and the waiting jobs only while
//     processors are free, and after arrivals alone only the new ones;
//     the cost per job stays flat as the log grows, overloaded or not
//     (BenchmarkOverloaded, BenchmarkSyntheticEASY);
//   - LXF&W: its priority grows with each job's wait at a rate of its
//     own, so the order changes between passes; a pass computes every
//     priority and the holder in one walk, O(q), and sorts only the jobs
//     no larger than the free processors, O(c log c) for c of them. A run
//     is O(Σ q) over its passes: quadratic in the log when the queue
//     grows with it (a load above 1);
//   - conservative backfilling: a full pass visits every waiting job in
//     arrival order, O(q), a visit O(1) when nothing gained before the
//     job's slot; a job is scanned only over the starts a gain can have
//     opened, O(points there), and moved in O(log P + points in its slot)
//     plus a copy of the points after it. Compression is the algorithm's
//     own superlinear term: on a log whose queue grows with it, each early
//     end can move Θ(q) reservations (each an OnReservation), so a run is
//     Θ(Σ q) visits and moves, and more for the scans, whose ranges grow
//     with the profile (TestOverloadedCostGrowth counts them).
package sched
