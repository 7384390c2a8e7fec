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
// estimates. Every variant of the thesis's Tab 4.4 is a Preset (Presets,
// LookupPreset("conservative")); each call returns a fresh Config, since
// predictors keep per-simulation state. Run's Observers (or Hooks) are
// told every submission, start, end and reservation.
//
// # Writing a policy
//
// A Scheduler decides at each scheduling pass which waiting jobs start. It
// sees the pass through a *Pass (the clock, the free processors, the
// waiting jobs by arrival or prediction, the running jobs, EASY's Shadow,
// the free-processor Profile) and acts with Start, Backfill and Reserve;
// the simulator does the rest, so a user's policy gets the same metrics,
// observer calls and SWF output as a built-in (ExampleScheduler). The
// contract:
//
//   - act only during Schedule, on the Pass it was given; keep jobs by ID;
//   - the actions' errors are typed: ErrNoFit is the normal outcome of a
//     probe; ErrNotWaiting, ErrOutOfRange and ErrStalePass are the
//     policy's bugs, refused and counted in Result.Refused;
//   - on an idle machine some pass must start a waiting job: a run that
//     ends with jobs waiting is ErrStall;
//   - a policy reads a job's size, estimate, prediction, user, group,
//     queue and partition, never its run time.
//
// Package sched/schedtest checks a Scheduler against this contract. To
// change only the queue order, plug an Order (a Less and a Name) into
// EASYScheduler (ExampleOrder). A Scheduler may name itself (Name); the
// name is Result.Policy.
//
// # Machines of nodes
//
// Config.Nodes makes the machine a set of nodes (swf.Node kinds: cores,
// memory, GPUs of one model, named resources such as local disk) and
// places each job's swf.Demand on them: shares of one shape on Nodes
// distinct nodes, or cores spread over as many nodes as it takes (a job
// without a Demand), whole GPUs or a share of one GPU (thousandths, many
// jobs on one GPU up to 1000), GPU models the job accepts, whole nodes
// (Exclusive). Config.Placement picks the node of each share: first fit
// (nil), BestFit, or a user's Placement (a Choose and a Name).
//
//	nodes := []swf.Node{{Name: "gpu", Count: 4, Cores: 32, Memory: 256 << 10, GPUs: 8, GPUModel: "A100"}}
//	cfg := sched.Config{Nodes: nodes, Placement: sched.BestFit, KeepShares: true}
//	res, err := sched.Run(ctx, cfg, jobs)
//	err = res.Check()                    // no node overdrawn, every demand met
//	cores, memory, gpus := res.Use(0, 0) // the share of each resource held
//
// The contract: EASY and its presets and FCFS start, reserve and backfill
// over every resource. The holder's reservation is the first predicted
// end after which enough nodes have room for its shares (Pass.Earliest;
// jobs ending at that instant all count as ended); a job may backfill if
// it fits now and ends by then, or leaves the holder room at that time on
// any nodes (the extra processors of one pool, §2.2, node by node). A job
// no node could ever hold is rejected as sanitize.FitsNoNode and counted
// by the resource it lacks (Result.NoNode). A machine of nodes with jobs
// that ask cores alone schedules exactly as one pool with ShadowTies,
// job by job (TestNodesSpreadEqualsPool); a machine without Nodes is
// unchanged. A user's Scheduler sees free resources (Pass.Nodes), demands
// (Job.Demand), and Pass.Start places by the Config's Placement, ErrNoFit
// if no node has room; Pass.Free, Shadow and Profile count cores alone.
// Peer modes have one pool and refuse Nodes.
//
// # Pinned semantics
//
// S1: events at one instant are handled as terminations, expiries,
// arrivals, wake-ups, then one pass (Config.PerEventPass: one per event).
// S2: ties in predicted end go by start, then ID. S3: an expired
// prediction without correction is used as it is, and EASY and
// conservative backfilling then differ: EASY's holder keeps its place at
// the head of the queue until the overrunning job ends (a long overrun
// freezes the queue), while conservative backfilling re-places the spoiled
// reservation after those that still hold (the queue flows around it);
// docs/decisions.md S3 gives the measured effect (TestA3Logs). S4–S6: jobs
// that are not sane are rejected and counted; missing estimates become the
// largest one, which plans the job but never kills it. S7: averages exclude
// the first 1% of terminations and jobs ending after the last arrival. S9:
// jobs run their logged run time (Config.KillAtEstimate ends them at the
// estimate their user gave; Summary.NoEstimate counts those without one).
//
// # Peer modes and missing fields
//
// Config.WithPeer(PeerPyss) or (PeerPredictsim) builds jobs as pyss or
// predictsim does (their _job_input_to_job) with their tie rule, pass
// granularity and history order; every reference schedule in
// ../shared/reference then agrees job by job (TestPeerJobByJob). A peer's
// schedule of a log with missing fields can be degenerate (no estimates:
// every job runs 1 s); Result.Changed counts the jobs each rule changed.
// Peer's doc has a table of what each mode makes of a line with a field
// missing.
//
// # Step-wise, for agents
//
//	s, _ := sched.New(cfg)
//	s.Observe(sched.Hooks{Start: ...})
//	s.Load(trace)                      // future arrivals
//	s.At(t, func(now int64) { s.Submit(job); s.Cancel(id) })
//	s.RunUntil(t)                      // every event ≤ t, then Now() == t
//	q := s.Queue()                     // waiting and running jobs, free processors
//	res, err := s.Finish()             // run to the end
//
// Submit and Cancel may be called from At callbacks and Observer methods.
// Also: Result.Utilization, Result.WriteSWF; a log's offered load and
// load scaling are in sched/load (§3.6, §4), runtime predictors in
// sched/predict. Events cost
// O(log n) (measurements beside the benchmarks). A Sim is not safe for
// concurrent use; run independent Sims in parallel.
//
// Decisions cited as S1…S32 and sections cited as spec §N are those of
// docs/decisions.md (the Tsafrir register and section map).
package sched
