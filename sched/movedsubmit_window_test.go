package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A peer mode moves a line of unknown submit time (-1) to 1 (and an
// invalid line's 0 to 1): S7's window, when no job is warm-up (under 100
// completed), starts at the earliest submit time simulated, never before
// it. It started at the line's -1 (summarize and foldSummary read
// Record.Job.Submit, the log's value): simulate -compat pyss on a 2-job
// log printed "utilization 0.031 (over [-1, 1] s)", half the 0.0625 of
// the window [0, 1] the jobs ran in, and a negative window_start_s.
//
// The fix belongs in sched/result.go's summarize (the minimum of
// r.Start - r.Wait, the simulated submit, as Record.SWF writes it) and in
// sched/summaryonly.go's foldSummary (its minSubmit from the simulated
// submit, not the line's); both files are another helper's, so this test
// is left failing for them.
func TestWindowStartsAtMovedSubmit(t *testing.T) {
	unknown := swf.NewJob() // every field -1
	unknown.ID = 2
	for _, peer := range []sched.Peer{sched.PeerPyss, sched.PeerPredictsim} {
		for _, summaryOnly := range []bool{false, true} {
			cfg := sched.EASY(64).WithPeer(peer)
			cfg.SummaryOnly = summaryOnly
			res, err := sched.Run(context.Background(), cfg, []swf.Job{job(1, 0, 100, 4, 200), unknown})
			if err != nil {
				t.Fatal(err)
			}
			if s := res.Summary; s.WindowStart != 0 || s.WindowEnd != 1 || s.Utilization != 4.0/64 {
				t.Errorf("peer %v, SummaryOnly %v: window [%d, %d], utilization %v; want [0, 1] (the jobs' simulated submits 0 and 1), 0.0625",
					peer, summaryOnly, s.WindowStart, s.WindowEnd, s.Utilization)
			}
		}
	}
}
