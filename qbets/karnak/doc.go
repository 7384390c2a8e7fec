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
// out of band: in any time order, not moving the clock): a Slurm feed's
// answers of `sbatch --test-only` per probed job shape (package
// slurmfeed), and each waiting job's expected start. A prediction then
// carries, as Slurm, the answer for the smallest probed shape at least
// as large as a hypothetical job, or the queued job's own, if at most an
// hour old (slurm.go).
//
// Every resource is text, JSON, XML or an HTML page (§2.1); the pages
// (html.go) work without JavaScript, include a form for a hypothetical
// job, and show each queue's waits, bounds, estimates and cores as SVG
// charts drawn once per minute (chart.go).
//
// Each queue has one QBETS predictor, fed once and answering every
// (quantile, confidence) pair of Config.Levels; it remembers the last
// Config.History started jobs (qbets.Config.MaxHistory).
//
// Persistence is a Store, an append-only event log of three methods; the
// state is a function of the log and is rebuilt from it by Load, and
// the service deletes the events a restart no longer needs (it keeps
// those of the IBL bases, a week of statistics and the live jobs), saving
// each queue's QBETS predictor (qbets.Predictor.MarshalBinary) on the
// queue's declaration instead, so a restart restores it rather than
// replaying its history. MemStore keeps the log in memory; examples/qserve
// has one on SQLite, and package karnaktest checks an implementation.
//
// Safe on an open network: events are validated before they are stored
// (times at most Config.MaxSkew ahead of the clock and in order per
// system up to Config.MaxBackstep, sizes and durations at most 2^40,
// names at most 64 bytes and free text 256, at most MaxSystems systems,
// MaxQueues queues and MaxLiveJobs live jobs per system); no work grows
// with a gap in time; writes need a bearer token scoped to the systems
// when Config.Tokens are set; Drop and Rewind repair a system fed bad
// events; the handler answers 413, 415, 429 and 503 where they apply, and
// every 4xx names the field. A Service is safe for concurrent use.
package karnak
