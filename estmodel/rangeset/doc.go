// Package rangeset implements the load-aware runtime range sets of
// Hariharan et al. ("End-to-end predictions-based resource management
// framework for supercomputer jobs", §III): a job's run time (or response
// time) predicted as a few disjoint ranges, each with a probability, from
// the past runs of similar jobs at a similar system load.
//
// System load over an interval is the processor-seconds used by executing
// jobs divided by the interval's length times the machine's processors
// (§III-A); a LoadProfile keeps it as a step function of time and answers
// the load of any interval or the load predicted for a future time.
// BuildLoadFuncs fits the load functions of §III-B (how a job's run time
// grows with load), and a Predictor over them and a History of
// past runs predicts a Set (§III-C): ranges merged from nearby
// samples, with probabilities from their shares of the key's history.
//
// To start: Add each finished job's LoadSample to a History, then
// Predictor.Predict (see the example). Package varq/molding uses
// range sets to mold job sizes and delay submissions. Decisions cited as
// H-items are those of the APQ, range sets and molding register of
// docs/decisions.md. Types are plain values or single-goroutine
// accumulators; nothing here is safe for concurrent use unless it says so.
package rangeset
