// Package sched is a discrete-event simulator of batch schedulers for
// parallel machines, as specified in Tsafrir's PhD thesis (2006) Ch. 2
// §2.2–2.5, Ch. 3 §3.10 and Ch. 4: FCFS, EASY backfilling and its variants
// (EASY+, EASY++, SJBF, X2, SJF, LXF&W), conservative backfilling, and any
// policy a user writes.
//
// # Start
//
//	_, jobs, _ := swf.ReadFile("KTH-SP2-1996-2.1-cln.swf.gz")
//	res, err := sched.Run(ctx, sched.EASYPlusPlus(100), jobs)
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
// # Pinned semantics
//
// S1: events at one instant are handled as terminations, expiries,
// arrivals, wake-ups, then one pass (Config.PerEventPass: one per event).
// S2: ties in predicted end go by start, then ID. S3: an expired
// prediction without correction is used as it is. S4–S6: jobs that are not
// sane are rejected and counted; missing estimates become the largest one.
// S7: averages exclude the first 1% of terminations and jobs ending after
// the last arrival. S9: jobs run their logged run time
// (Config.KillAtEstimate ends them at their estimate). Config.WithPeer
// reproduces pyss's or predictsim's schedules job by job (peer_test.go).
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
// Also: OfferedLoad and ScaleArrivals (§3.6, §4), Result.Utilization,
// Result.WriteSWF; runtime predictors are in sched/predict. Events cost
// O(log n) (measurements beside the benchmarks). A Sim is not safe for
// concurrent use; run independent Sims in parallel.
//
// Decisions cited as S1…S32 and sections cited as spec §N are those of
// docs/decisions.md (the Tsafrir register and section map).
package sched
