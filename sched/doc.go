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
// estimates. The thesis's Tab 4.4 variants have constructors (EASY,
// EASYPlusPlus, Conservative, …), listed with one line each by Presets and
// found by name with LookupPreset. Each call returns a fresh Config:
// predictors keep per-simulation state.
//
// # Writing a policy
//
// A Scheduler decides at each scheduling pass which waiting jobs start.
// It sees the pass through a *Pass: the clock, the free processors, the
// waiting jobs in arrival order (Waiting) and by prediction
// (ByPrediction), the running jobs by predicted end (Running), EASY's
// shadow and extra processors (Shadow) and the free-processor Profile for
// reservation-based policies; it acts with Start, Backfill and Reserve.
// The simulator does the rest, so a user's policy gets the same waits,
// slowdowns, A7 exclusions, accuracy, backfill flags, observer calls and
// SWF output as a built-in. ExampleScheduler is pyss's EASY-SJBF in about
// 35 lines; the built-ins are EASYScheduler (FCFS, SJBF, SJF and LXF&W
// orders) and the schedulers of the FCFS and Conservative presets, with
// fast paths of their own.
//
// # Pinned semantics, each documented beside its decision (A-item)
//
//   - A1: events with the same timestamp are processed as terminations,
//     then prediction expiries, then arrivals in (submit, ID) order, then
//     agent wake-ups (At); one scheduling pass follows the batch
//     (Config.PerEventPass: one per event).
//   - A2: ties in predicted end are broken by start, then ID; EASY's shadow
//     is fixed by the first running job after which enough processors are
//     free (Config.ShadowTies: every job ending at that instant adds to
//     the extra processors, as pyss and predictsim do).
//   - A3: a prediction that has expired without correction is used as it
//     is; EASY's shadow may then lie in the past and conservative
//     backfilling frees the job's processors at now+1 (both: nothing
//     backfills by its time, only into processors free now).
//     Summary.Overran counts jobs that ran more than twice their estimate.
//   - A4–A6: jobs that are not sane (sanitize.Check) are rejected and
//     counted in Result.Rejected; missing estimates become the largest
//     estimate in the load.
//   - A7: the averaged set excludes the first 1% of jobs in termination
//     order and every job ending after the last arrival (Summary).
//   - A9: jobs run their logged run time (Config.KillAtEstimate: end them
//     at their estimate, as production schedulers do; Summary.Killed).
//
// # Checking against peers
//
// Config.WithPeer(PeerPyss) or (PeerPredictsim) builds jobs the way pyss
// or predictsim does and sets their tie rule, pass granularity and history
// order. On KTH-SP2 and SDSC-SP2 the per-job waits then equal pyss's and
// predictsim's EASY schedules, and pyss's EASY++ schedule, for 100% of
// jobs (peer_test.go; peer.go and sim.go's pyssInstant say which pyss
// behaviours that takes).
//
// # Step-wise, for agents
//
// Agents (VARQ, CO-VARQ) submit and cancel jobs while the simulation runs,
// and several machines can advance in lockstep:
//
//	s, _ := sched.New(cfg)
//	s.Observe(sched.Hooks{Start: ...}) // or any Observer
//	s.Load(trace)                      // future arrivals
//	s.At(t, func(now int64) { s.Submit(job); s.Cancel(id) })
//	s.RunUntil(t)                      // every event ≤ t, then Now() == t
//	q := s.Queue()                     // waiting and running jobs, free processors
//	res, _ := s.Finish()               // run to the end
//
// Submit and Cancel may be called from At callbacks and Observer methods;
// the batch's scheduling pass (or another pass, if called during one) takes
// them into account. Cancel finds waiting and running jobs by ID (IDs should
// be unique; loaded jobs that have not arrived yet cannot be cancelled).
//
// Also: OfferedLoad (§3.6 on the log's own schedule), ScaleArrivals (§4;
// by OfferedLoad/target to reach a target load), Result.Utilization (the §3.6 formula on any window), and
// Result.WriteSWF (the simulated schedule as SWF, waits filled in).
// Runtime predictors are in package sched/predict; a Corrector changes a
// running job's prediction when it outlives it (§6.3).
//
// # Cost
//
// Events cost O(log n): the running jobs are a sorted list by predicted end
// cut into chunks of at most 128 (a binary search and a short copy per
// start or end), the waiting jobs a slice in arrival order, the events a
// binary heap; an EASY pass walks the running jobs only until the
// holder's processors accumulate and the waiting queue only while
// processors are free, and a pass after arrivals alone looks only at the
// new jobs (easyMemo). Summarize's termination order comes from the run
// itself. Conservative backfilling re-plans every waiting job against the
// free-processor Profile at each pass, O(q·profile), about 18 times
// EASY's time; LXF&W sorts the queue at each pass, as its definition
// requires.
//
// Measured with go test -bench 'ParseAndEASY|Blue' -benchmem -cpu 1 on a
// 2-core machine shared with other work (load average 7–10), as CPU time
// per iteration (perf stat's task-clock between 5 and 25 iterations, min to
// max of 3 runs), since wall time there is not the program's own: EASY on
// CTC-SP2 with the parse of the plain file 41–46 ms (the same measure gave
// 73–76 ms for an earlier version that took 0.072–0.080 s of wall time on a
// quiet machine: the two agree), 24 MB and 297 allocations per run; EASY on
// SDSC-BLUE (243k jobs) 101–117 ms, 40 MB and 661 allocations, 144–149 ms
// with the parse; EASY++ 146 ms (198 ms with the parse); conservative
// 2.0 s. Wall time at load average 2.5 (go test -bench
// 'ParseAndEASY(CTC|Blue)$' -cpu 1 -count 5): CTC-SP2 with the parse
// 39–41 ms, SDSC-BLUE with the parse 140–150 ms. Instructions for swf.ReadFile of the plain file and one EASY Run
// (valgrind --tool=callgrind, GODEBUG=asyncpreemptoff=1): CTC-SP2 437M,
// 192M of them the parse; SDSC-BLUE 1,536M, 599M the parse. A Result keeps
// 128–136 bytes per simulated job beside the caller's 144-byte swf.Job, and
// live state exists only for waiting and running jobs; 100k to 5M synthetic
// jobs cost 0.73–0.87 µs per job under that load, flat
// (BenchmarkSyntheticEASY).
//
// A Sim is not safe for concurrent use; run independent Sims in parallel.
//
// Decisions cited as A1…A32 and sections cited as spec §N are those of
// docs/decisions.md (the Tsafrir register and section map).
package sched
