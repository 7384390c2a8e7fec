// Package molding implements Hariharan et al.'s job molding and delayed
// submission ("End-to-end predictions-based resource management framework
// for supercomputer jobs", §IV and §VI): choosing a request size and a
// submission time from predicted response-time range sets.
//
// ChooseSize is molding's choice for one job: given each candidate size's
// predicted wait and runtime range set (Candidate), it scores the
// response range sets by the paper's Eq. 5 and returns the best size.
// RunStrategy evaluates molding on a trace: it drives a strategy
// (StrategyConfig.Strategy: baseline, molding, delayed) on a sched simulation, keeping a load
// profile and runtime range history (estmodel/rangeset) and asking a
// WaitPredictor about every candidate size; DelayConfig decides whether
// submitting later, when predicted load has fallen, would finish sooner.
// It reports means, the decisions made and every treated job's fate
// (StrategyResult.Treated). ProfileFloor gives molding a size-aware wait,
// since APQ's is nearly blind to the request size (examples/apq). On a log
// without estimates a molded job's runtime is limited by §VI-C's ERT rule
// read with run times, as the simulator's estimate is the run time.
//
// Decisions cited as H-items are those of the APQ, range sets and molding
// register of docs/decisions.md. Nothing here is safe for concurrent use
// unless it says so.
package molding
