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
// Every prediction also carries the forecast (ForecastPart, forecast.go;
// issue 36): the start by forward simulation of the system as it is now
// (package sched/forecast), the running jobs' remaining time and the
// waiting jobs in the scheduler's priority order (Event.Priority, which
// slurmfeed sends), with an interval calibrated by split conformal
// prediction on the jobs that started (package qbets/conformal). A
// request costs at most one simulation of at most Config.MaxForecastJobs
// live jobs.
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
// A queued job's QBETS answers are conditional on how long it has
// waited (Prediction.Conditional): the bound on the rest of its wait
// given the wait so far, and the probability of starting within a time
// more given that it has not started yet (qbets.Predictor.ForecastWaited),
// not the total wait's.
//
// Threat model. The service is meant to be reachable by anyone on a
// campus network: readers are anonymous (every GET is open; it shows job
// sizes, queues and the user, project and job names feeds send), writers
// are the feeding sites, and one operator repairs. What an anonymous
// client can do is bounded: a read costs O(1) or a bounded computation
// (no work grows with a number it sends), a request and its body are
// bounded (413, 414), and each client is rate-limited (Config.Rate, on by
// default; behind a reverse proxy name it in Config.TrustedProxies so
// that the limit applies to the clients, not to the proxy). Writes are
// closed by default: without Config.Tokens the handler takes event
// batches only from a loopback peer that forwards for no one, and no
// repair at all; with tokens, an event batch needs a bearer token scoped
// to each of its systems, and Drop and Rewind an admin token. The token
// is checked from the header before the body is read, so an
// unauthenticated batch of megabytes costs nothing. Bearer tokens are
// only as safe as the transport: serve over TLS (examples/qserve
// -tls-cert) or behind a proxy that terminates it. What a feeding
// site can do is bounded too: events are validated before they are
// stored (times at most Config.MaxSkew, 5 minutes, ahead of the
// service's clock, and per system up to Config.MaxBackstep before its
// last event, stored at it, so that one event ahead of its time never
// locks its system's real events out; sizes and durations at most 2^40,
// names at most 64 bytes, not "." or "..", free text 256 bytes of UTF-8,
// JSON without duplicate keys; at most MaxSystems systems, MaxQueues
// queues and MaxLiveJobs live jobs per system), no work grows with a gap
// in time, and Drop and Rewind repair a system fed bad events. Every
// refusal is an Error whose Code says whether retrying can help, the
// same in the process and over HTTP, and every 4xx names the field. Out
// of scope: a feeding site that sends plausible false events for its
// own systems, and a reader who learns what the feeds publish. A
// Service is safe for concurrent use.
package karnak
