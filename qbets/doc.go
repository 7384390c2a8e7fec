// Package qbets bounds batch-queue waits with QBETS (Nurmi's thesis Ch. 4,
// Brevik, Nurmi & Wolski 2006; spec qbets-varq-coalloc §2): the upper
// level-C confidence bound on the q-quantile of the observed waits, taken
// as an order statistic of the history (the Binomial Method, §2.1), with
// history trimming at change points (§2.3).
//
// API (stable; VARQ depends on it):
//
//	p, err := qbets.New(qbets.Config{})          // q = C = 0.95, trimming on
//	p.Observe(qbets.Observation{Submit, Start, Nodes, Walltime}) // a job started: its wait is visible
//	bound, ok := p.Predict(nodes, walltime)      // seconds; ok=false: history shorter than MinHistory
//	prob := p.ProbWithin(nodes, walltime, within) // §2.7: largest q' in {.01..0.99} with B(q') ≤ within
//
// Observations must be fed in start order (a wait becomes visible only when
// the job starts). A Predictor is safe for concurrent use.
//
// Not yet implemented (the nodes and walltime arguments are accepted for
// them and currently ignored): model-based clustering (§2.4) and
// availability inference (§2.5); one Predictor serves one queue.
package qbets
