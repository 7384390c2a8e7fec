package sched_test

import (
	"context"
	"maps"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A line the peers take for invalid (run time −1 or 0: a cancelled job)
// with more processors than the machine has is kept unclamped by the
// peers, which then fail on it (pyss an assertion, predictsim a
// TypeError); sched clamps it, as the peers clamp a valid line, and counts
// it as size_clamped_peer_fails, apart from a valid line's
// size_clamped_to_machine, so that a log the peer cannot run is seen
// (Peer's doc). Records and the folded summary count alike.
func TestPeerWideInvalidLineCounted(t *testing.T) {
	jobs := []swf.Job{job(1, 10, 100, 8, 200), job(2, 20, -1, 32, 300), job(3, 30, 0, 20, 300), job(4, 40, 100, 32, 200)}
	want := map[string]int{"no_run_time_1s_job": 1, "zero_run_time_1s_job": 1, "size_clamped_peer_fails": 2, "size_clamped_to_machine": 1}
	for _, peer := range []sched.Peer{sched.PeerPyss, sched.PeerPredictsim} {
		for _, summary := range []bool{false, true} {
			cfg := sched.EASY(16).WithPeer(peer)
			cfg.SummaryOnly = summary
			res, err := sched.Run(context.Background(), cfg, jobs)
			if err != nil {
				t.Fatalf("%s: %v", peer, err)
			}
			if got := res.Changed(); !maps.Equal(got, want) {
				t.Errorf("%s, summary only %v: changed %v, want %v", peer, summary, got, want)
			}
			if summary {
				continue
			}
			if r := res.Records[1]; r.Size != 16 || r.RunTime != 1 || r.Estimate != 1 {
				t.Errorf("%s: job 2 on %d procs, run %d, estimate %d; want 16, 1, 1", peer, r.Size, r.RunTime, r.Estimate)
			}
		}
	}
}
