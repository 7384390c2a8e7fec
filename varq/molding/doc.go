// Package molding implements Hariharan et al.'s job molding and delayed
// submission (seed 001, §VI): choosing a request size and a submission
// time from predicted response-time range sets.
//
// A Molder keeps a load profile (estmodel/rangeset) and a WaitPredictor,
// and for each job Decide scores the candidate sizes (ChooseSize, Score)
// and returns the size with the best predicted response; DecideDelay asks
// whether submitting later, when predicted load has fallen, would finish
// sooner. ProfileFloor gives the molder a size-aware wait, since APQ's is
// nearly blind to the request size (examples/apq). On a log without
// estimates a molded job's runtime is limited by §VI-C's ERT rule read with
// run times, as the simulator's estimate is the run time.
//
// To start: RunStrategy drives a Strategy (Baseline, Molding, Delayed) on a
// sched simulation and reports means, the decisions made and every treated
// job's fate (StrategyResult.Treated). Nothing here is safe for concurrent
// use unless it says so.
package molding
