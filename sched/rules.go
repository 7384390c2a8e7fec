package sched

// rule is a set of the job-building rules that changed one job, kept in
// its Record (two bytes that fit in the Record's padding): a missing field
// filled in, a degenerate line turned into a 1-second job, a run cut. Every
// job a rule changed is counted under that rule's name in
// Result.Changed, so that a schedule built mostly from made-up values is
// seen as such (Peer's table says which rule each mode applies
// to which missing field).
type rule uint16

const (
	// ruleEstimateFilled: no estimate (field 9 ≤ 0); the largest estimate
	// of the load, or the run time, is used (S6; Config.Peer none).
	ruleEstimateFilled rule = 1 << iota
	// ruleSizeFromRequested: no allocated processors (field 5 ≤ 0); the
	// requested ones (field 8) are used (S5; Config.Peer none).
	ruleSizeFromRequested
	// ruleKilled: ended at its estimate (Config.KillAtEstimate).
	ruleKilled
	// rulePeerNoRunTime, rulePeerZeroRunTime, rulePeerNoSize and
	// rulePeerNoSubmit: a line the peer treats as invalid (run time < 0, run
	// time 0, no processor count, submit time < 0), simulated as a 1-second
	// job with estimate 1 on max(1, field 5) processors, submitted at
	// max(submit, 1). A line can have several of these causes.
	rulePeerNoRunTime
	rulePeerZeroRunTime
	rulePeerNoSize
	rulePeerNoSubmit
	// rulePeerSubmitMoved: such an invalid line submitted at 0 arrives
	// at 1, as the peers' max(submit, 1) has it.
	rulePeerSubmitMoved
	// rulePeerNoEstimate: no estimate (field 9 ≤ 0): the peer runs the job
	// max(min(estimate, run), 1) = 1 second, with the run time as estimate.
	rulePeerNoEstimate
	// rulePeerRunCut: the job ran longer than its estimate: the peer runs
	// it for the estimate and takes the run time as the estimate.
	rulePeerRunCut
	// rulePeerSizeFromAllocated: predictsim, no requested processors
	// (field 8 ≤ 0): the allocated ones (field 5) are used.
	rulePeerSizeFromAllocated
	// rulePeerSizeClamped: more processors than the machine has: the peer
	// clamps the size to the machine.
	rulePeerSizeClamped
	// ruleSizeFromDemand: on a machine of nodes, a job whose demand gives
	// its cores is sized from it, Nodes × Cores, where its processors
	// differ (a GPU trace's are its GPUs, a CPU job's 0): on nodes the
	// size is cores. Not when its processors (or requested ones) divided
	// among its nodes, rounded up, are the cores per node: those are its
	// CPUs (a log's), kept.
	ruleSizeFromDemand
	// ruleIDMadeUp: no job number (field 1 below 1: SWF's -1, "missing",
	// or 0, which no counter from 1 gives); the job is numbered 10^18 + n,
	// n its line's position among the lines given to the simulation
	// (Load's and Submit's, 1 for the first), a number no real job has
	// and that names its line (madeUpID).
	ruleIDMadeUp
	// rulePeerSizeClampedFails: a line the peer treats as invalid (a
	// 1-second job) with more processors (field 5) than the machine has:
	// the peer keeps max(1, field 5) unclamped and fails on it (pyss an
	// assertion, predictsim a TypeError: Peer's doc); sched clamps it to
	// the machine, as the peer clamps a valid line, and counts it apart
	// from rulePeerSizeClamped, so that a log the peer cannot run is seen.
	rulePeerSizeClampedFails

	nRules = iota
)

// ruleNames are the rules' names, in bit order: the keys of
// Result.Changed and the words of Record.Changes.
var ruleNames = [nRules]string{
	"estimate_filled",
	"size_from_requested",
	"killed_at_estimate",
	"no_run_time_1s_job",
	"zero_run_time_1s_job",
	"no_size_1s_job",
	"no_submit_1s_job",
	"submit_0_moved_to_1",
	"no_estimate_1s_run",
	"run_cut_to_estimate",
	"size_from_allocated",
	"size_clamped_to_machine",
	"size_from_demand",
	"id_made_up",
	"size_clamped_peer_fails",
}

// Changes returns the names of the job-building rules that changed the
// job (the keys of Result.Changed), nil if none did: a missing field filled
// in, a line turned into a 1-second job, a run cut to the estimate, a kill.
func (r *Record) Changes() []string {
	var names []string
	c := r.changes()
	for i := range nRules {
		if c&(1<<i) != 0 {
			names = append(names, ruleNames[i])
		}
	}
	return names
}

// changes is the set of rules that changed the record's job: those kept
// in r.rules and the two its fields say (EstimateFilled, Killed).
func (r *Record) changes() rule {
	c := r.rules
	if r.EstimateFilled {
		c |= ruleEstimateFilled
	}
	if r.Killed {
		c |= ruleKilled
	}
	return c
}

// count adds the record's rules to m, allocating it on first use.
func (r rule) count(m map[string]int) map[string]int {
	for i := 0; r != 0; i, r = i+1, r>>1 {
		if r&1 != 0 {
			if m == nil {
				m = make(map[string]int)
			}
			m[ruleNames[i]]++
		}
	}
	return m
}
