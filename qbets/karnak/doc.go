// Package karnak is a queue prediction and job statistics service in the
// manner of Karnak on TeraGrid (Smith, GCE 2010; spec
// karnak-ibl-service §1–§3), as a library: feed it the state changes of
// the jobs on your systems (Event: a queue declared, a job submitted,
// started, ended) and ask it how long a job would wait on each queue, or
// when a queued job will start. Every prediction carries a QBETS bound
// (package qbets) and an instance-based estimate with its confidence
// interval (package qbets/ibl, §4), and per-queue statistics over the
// last hour, 4 hours, day and week (kqueue, §2.2).
//
// Start here:
//
//	svc, err := karnak.New(nil, karnak.Config{})       // nil: a MemStore; see Store
//	err = svc.Load(ctx)                                // rebuild from the store
//	ack, err := svc.IngestBatch("site-a/42", events)   // stored, then applied; a retry gets the same Ack
//	ps, err := svc.PredictHypothetical(&karnak.PredictRequest{Cores: 16, WallTime: 3600,
//		Confidence: 90, Quantile: 95, Locations: []karnak.Location{{System: "s1", Queue: "normal"}}})
//	http.ListenAndServe(addr, svc.Handler())           // the REST resources of §2.3; set timeouts (see Handler)
//
// A feed may also send the scheduler's own estimates ("estimate" events,
// out of band: in any time order, not moving the clock), which a
// prediction then carries as Slurm's (SlurmPart; package slurmfeed sends
// them). Every prediction also carries the forecast start by forward
// simulation of the system as it is now (package sched/forecast: the
// running jobs' remaining time, the waiting jobs in the scheduler's
// priority order, Event.Priority), with an interval calibrated by split conformal prediction on the jobs that
// started (package qbets/conformal; ForecastPart). A request costs at most
// one simulation of at most Config.MaxForecastJobs live jobs per system
// it names, while the system's state and clock stand (one per location
// at most: an event ingested meanwhile, a second ticking, a replayed
// trace's running clock each make another). A queued
// job's QBETS answers are conditional on how long it has waited
// (Prediction.Conditional).
//
// Every resource is text, JSON, XML or an HTML page (§2.1) that works
// without JavaScript (Handler), and so is every error answer: the one
// asked for, a JSON object {"error": message, "status": code}, an XML
// element <error> holding the same two, or a page (Handler's doc). The state is a function of an append-only
// event log, the Store, rebuilt from it by Load (Store says what is kept).
//
// The service is meant to be reachable by anyone on a campus network:
// reads are anonymous and bounded (a list, the systems or the waiting
// jobs, gives at most 1,000 a response, paged by the Link header's
// ?after=, which neither skips nor repeats an item when the list changes
// between pages; the waiting jobs' ?offset= still works: Handler's doc), writes closed by default (Config.Tokens),
// feeds' events validated before they are stored; Handler's doc has the
// threat model. Every refusal is an Error whose Code says whether retrying
// can help, the same in the process and over HTTP. A Service is safe for
// concurrent use.
package karnak
