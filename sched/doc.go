// Package sched is a discrete-event simulator of batch schedulers for
// parallel machines: FCFS, EASY backfilling and its variants EASY+, EASY++,
// SJBF, X2, SJF, LXF&W, and conservative backfilling, as specified in
// Tsafrir's PhD thesis (2006) Ch. 2 §2.2–2.5, Ch. 3 §3.10 and Ch. 4 (spec
// sched-estmodel-sanitize §2, §3, §4, §6 and the A-items of §10).
//
// # Pinned semantics
//
// Every ambiguity the thesis leaves is fixed and documented: events with the
// same timestamp are processed as terminations, then prediction expiries,
// then arrivals in (submit, ID) order, then agent wake-ups (At), and one
// scheduling pass follows the batch (Config.PerEventPass: one per event)
// (A1). Ties in predicted end are broken by start, then ID (A2). Stale
// predictions are used as they are (A3). Jobs run exactly their logged
// runtime and are never killed early (A9). Jobs that are not sane
// (sanitize.Check, A4/A5) are rejected and counted; missing estimates become
// the largest estimate in the load (A6). The averaged set excludes the first
// 1% of jobs in termination order and every job ending after the last
// arrival (A7).
//
// # API
//
// One-shot:
//
//	res, err := sched.Run(ctx, sched.EASYPlusPlus(128), jobs)
//	res.Summary.MeanWait, res.Summary.MeanBSLD, res.Records[i].Start ...
//
// Config's zero value plus a MachineSize is vanilla EASY with user
// estimates. The Tab 4.4 variants have constructors (EASY, EASYPred,
// EASYPCor, EASYSJBF, EASYPlus, EASYPlusPlus, PerfectPlusPlus, X2, X2Plus,
// X2PlusPlus, X2Perf, X2PlusPlusPerf, SJF, SJFPlus, SJFPerf, LXFW, FCFS,
// Conservative) and are listed by name in Variants. Each call returns a
// fresh Config: predictors keep per-simulation state.
//
// Step-wise, for agents (VARQ, CO-VARQ) that submit and cancel jobs while the
// simulation runs, and for advancing several machines in lockstep:
//
//	s, _ := sched.New(cfg)
//	s.Observe(obs)          // OnSubmit, OnStart, OnEnd, OnReservation
//	s.Load(trace)           // future arrivals
//	s.At(t, func(now int64) { s.Submit(job); s.Cancel(id) })
//	s.RunUntil(t)           // every event ≤ t, then Now() == t
//	q := s.Queue()          // waiting and running jobs, free processors
//	res, _ := s.Finish()    // run to the end
//
// Submit and Cancel may be called from At callbacks and Observer methods;
// the batch's scheduling pass (or another pass, if called during one) takes
// them into account. Cancel finds waiting and running jobs by ID (IDs should
// be unique; loaded jobs that have not arrived yet cannot be cancelled).
//
// Also: OfferedLoad (§3.6 on the log's own schedule), ScaleArrivals and
// ScaleToLoad (§4), Load (the §3.6 formula on any schedule), and
// Result.WriteSWF (the simulated schedule as SWF, waits filled in).
//
// # Cost
//
// Events cost O(log n); an EASY pass walks the running jobs only until the
// holder's processors accumulate and the waiting queue only while
// processors are free, so EASY and EASY++ simulate SDSC-BLUE (243k jobs) in
// about 0.3 s on one core. Conservative backfilling re-plans every waiting
// job against the free-processor Profile at each pass, O(q·profile); about
// five times EASY's time on SDSC-BLUE (BenchmarkBlueConservative 2.6–2.8 s
// beside BenchmarkBlueEASY 0.5–0.8 s, same busy machine). LXF&W sorts the
// queue at each pass, as its definition requires.
//
// Predictions come from a RuntimePredictor (package estmodel implements the
// thesis's predictors without importing sched) and are corrected by a
// Corrector when a job outlives them (§6.3).
//
// A Sim is not safe for concurrent use; run independent Sims in parallel.
package sched
