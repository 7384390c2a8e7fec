package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
)

// FuzzRunModes is FuzzRun over the modes a user combines with a preset:
// a peer's job construction (pyss, predictsim), -kill, per-event passes
// and the shadow's tie rule, each chosen by a bit of the input. The
// schedule must pass Result.Check, account for every job, and in a peer
// mode kill nothing (the peers already cut a run to its estimate).
func FuzzRunModes(f *testing.F) {
	f.Add(byte(0x0f), []byte{8, 1, 1, 0, 0, 100, 0, 4, 120, 0, 2, 10, 0, 50, 0, 8, 60, 0, 1, 10, 0, 5, 0, 2, 10, 0})
	f.Add(byte(0x05), []byte{16, 17, 3, 5, 0, 255, 255, 16, 255, 255, 3, 5, 0, 1, 0, 1, 1, 0})
	f.Fuzz(func(t *testing.T, modes byte, data []byte) {
		p, preset, jobs := fuzzJobs(data)
		cfg := preset.New(p)
		if peer := sched.Peer(modes % 3); peer != sched.PeerNone {
			cfg = cfg.WithPeer(peer)
		}
		cfg.KillAtEstimate = cfg.KillAtEstimate || modes&4 != 0
		cfg.PerEventPass = cfg.PerEventPass || modes&8 != 0
		cfg.ShadowTies = cfg.ShadowTies || modes&16 != 0
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatalf("%s %+v on %d: %v", preset.Name, modes, p, err)
		}
		if n := len(res.Records) + len(res.Rejected.Excluded); n != len(jobs) {
			t.Fatalf("%d records + %d rejections for %d jobs", len(res.Records), len(res.Rejected.Excluded), len(jobs))
		}
		if err := res.Check(); err != nil {
			t.Fatalf("%s modes %#x on %d: %v", preset.Name, modes, p, err)
		}
		if cfg.Peer != sched.PeerNone {
			for _, r := range res.Records {
				if r.Killed {
					t.Fatalf("%s %s: job %d killed in a peer mode", preset.Name, cfg.Peer, r.Job.ID)
				}
			}
		}
	})
}
