package main

import (
	"context"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Reasons a job of the log is rejected before the replay (the keys of
// traceInfo.rejected; -json's "rejected" has them with _ for spaces, as
// every command's).
const (
	// rejDuplicate: a later job under a number already read. The
	// predictors key what they keep by job number, so a second job under
	// it would be mixed up with the first (IBL refuses it outright); real
	// logs repeat numbers when a scheduler's counter wraps or two logs are
	// joined. The first job keeps the number.
	rejDuplicate = "duplicate ID" // sanitize.DuplicateID, as the simulators name it
	// A size above cli.MaxSize (2^40 processors) or a submit time, wait, run
	// time or estimate above sanitize.MaxTime (2^40 s) is corrupt: IBL
	// bounds its features so its sums cannot wrap and keeps times in
	// float64. reject counts them, by cli.InRange, under sanitize's reasons, the keys
	// simulate's -json uses for the same jobs (larger_than_machine,
	// time_out_of_range); they were one "out of range".
)

// reject returns the jobs the replay can take, in log order, and how many
// of the others it dropped for each reason. jobs is reused.
func reject(jobs []swf.Job) ([]swf.Job, map[string]int) {
	why := map[string]int{}
	jobs, dups := cli.FirstIDs(jobs)
	if dups > 0 {
		why[rejDuplicate] = dups
	}
	kept, out := cli.InRange(jobs)
	for k, n := range out {
		why[k] += n
	}
	return kept, why
}

// rejectOnNodes drops, on the machine of nodes, the jobs the simulation
// would reject, counted under sched's reasons (sanitize.Reason: "fits no
// node", "larger than machine", …), as simulate counts them: a running job
// that no node could hold would make every forecast a bad snapshot
// (sched/forecast), and one pool grows to fit what runs where nodes cannot.
// sched itself decides, each job alone on the empty machine (arriving one
// second apart, running 0 s: one job in the system at a time); a job it
// rejects is named by sched's first reason on the job as logged (no
// submit time, no run time), as simulate names it.
func rejectOnNodes(ctx context.Context, nodes []swf.Node, jobs []swf.Job, why map[string]int) ([]swf.Job, error) {
	probe := make([]swf.Job, len(jobs))
	for i := range jobs {
		p := swf.NewJob()
		p.ID, p.Submit, p.RunTime, p.ReqTime = int64(i), int64(i), 0, 1
		p.AllocProcs, p.ReqProcs, p.Demand = jobs[i].AllocProcs, jobs[i].ReqProcs, jobs[i].Demand
		probe[i] = p
	}
	res, err := sched.Run(ctx, sched.Config{Nodes: nodes}, probe)
	if err != nil {
		return nil, err
	}
	if len(res.Rejected.Excluded) == 0 {
		return jobs, nil
	}
	drop := make([]bool, len(jobs))
	for _, e := range res.Rejected.Excluded {
		drop[e.Index] = true
		// Named as simulate names the job itself: the probe's submit and
		// run time are known, hiding sched's first reasons (a Philly job
		// without attempts, never run, was "no size" here, "no run time"
		// in simulate).
		r, j := e.Reason, &jobs[e.Index]
		switch {
		case j.Submit < 0:
			r = sanitize.NoSubmit
		case j.RunTime < 0:
			r = sanitize.NoRunTime
		}
		why[r.String()]++
	}
	out := jobs[:0]
	for i := range jobs {
		if !drop[i] {
			out = append(out, jobs[i])
		}
	}
	return out, nil
}
