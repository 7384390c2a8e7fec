package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A checkpointed job's lines (SWF: its summary line, status 1, then one
// line per partial execution, status 2, 3 or 4, under the same number) are
// one job: the summary line is simulated, the partial lines are left out
// and counted (sanitize.PartialExecution), in every mode, with and without
// -kill, whether the log is loaded whole or in pieces (examples/simulate
// streams it). Loaded whole, the partial lines were counted as "duplicate
// ID"s; in pieces, the one submitted after the summary's job ended was
// simulated again as a job of its own (its 2,000 s run twice).
func TestPartialExecutionLinesLeftOut(t *testing.T) {
	summary := job(1, 0, 3000, 8, 3600)
	summary.Status = swf.StatusCompleted
	part1 := job(1, 0, 1000, 8, 3600)
	part1.Status = swf.StatusPartial
	part2 := job(1, 4000, 2000, 8, 3600)
	part2.Status = swf.StatusLastPart
	other := job(2, 5000, 100, 4, 200)
	other.Status = swf.StatusCompleted
	for _, peer := range []sched.Peer{sched.PeerNone, sched.PeerPyss, sched.PeerPredictsim} {
		for _, kill := range []bool{false, true} {
			for _, pieces := range []bool{false, true} {
				cfg := sched.EASY(16).WithPeer(peer)
				cfg.KillAtEstimate = kill
				var res *sched.Result
				var err error
				if pieces {
					res, err = loadInPieces(cfg, []swf.Job{summary, part1}, []swf.Job{part2, other})
				} else {
					res, err = sched.Run(context.Background(), cfg, []swf.Job{summary, part1, part2, other})
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := res.Check(); err != nil {
					t.Fatalf("%s, kill %v, in pieces %v: %v", peer, kill, pieces, err)
				}
				if len(res.Records) != 2 || res.Records[0].Job.ID != 1 || res.Records[0].RunTime != 3000 || res.Records[1].Job.ID != 2 {
					t.Fatalf("%s, kill %v, in pieces %v: %d records (%+v), want jobs 1 (3000 s) and 2", peer, kill, pieces, len(res.Records), res.Records)
				}
				if n := res.Rejected.Count(sanitize.PartialExecution); n != 2 || len(res.Rejected.Excluded) != 2 {
					t.Errorf("%s, kill %v, in pieces %v: rejected %v, want the 2 partial lines as %q", peer, kill, pieces, res.Rejected.Excluded, sanitize.PartialExecution)
				}
			}
		}
	}
}

// loadInPieces simulates the first piece up to the second's first submit,
// then loads the second, as a streaming reader does.
func loadInPieces(cfg sched.Config, first, second []swf.Job) (*sched.Result, error) {
	s, err := sched.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.Load(first); err != nil {
		return nil, err
	}
	if err := s.RunUntil(second[0].Submit); err != nil {
		return nil, err
	}
	if err := s.Load(second); err != nil {
		return nil, err
	}
	return s.Finish()
}
