package sched_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestLXFWMatchesGenericRapid: LXF&W's own pass (the holder found by the
// walk that computes the priorities, a backfilling walk that sorts only
// the jobs it may start) starts every job as the generic path of the
// same order does: a scan of the queue for the holder and a stable sort
// of the whole queue per backfilling, LXF&W's pass before it filtered
// (wrapped). The jobs come in bursts of few sizes and estimates (many
// equal priorities, ties by arrival), with run times of 0, estimates of
// −1 (filled in), runs past their estimate (KillAtEstimate), predictions
// a history changes while jobs wait (re-prediction), corrections,
// cancellations and submissions through Sim's step API, per-event
// passes, a peer's rules and machines of nodes (easy_nodes.go).
func TestLXFWMatchesGenericRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 32).Draw(t, "P")
		jobs := make([]swf.Job, rapid.IntRange(1, 300).Draw(t, "n"))
		var sub int64
		sizes := []int64{1, 2, max(1, P/2), P}
		runs := []int64{0, 1, 60, 300}
		for i := range jobs {
			if rapid.IntRange(0, 3).Draw(t, "burst") == 0 {
				sub += rapid.Int64Range(1, 120).Draw(t, "gap")
			}
			r := runs[rapid.IntRange(0, 3).Draw(t, "run")]
			est := []int64{-1, r, max(1, r/2), r + 60, 600}[rapid.IntRange(0, 4).Draw(t, "est")]
			jobs[i] = job(int64(i+1), sub, r, sizes[rapid.IntRange(0, 3).Draw(t, "size")], est)
			jobs[i].User = rapid.Int64Range(1, 3).Draw(t, "user")
		}
		changes := drawChanges(t, jobs, P)
		orders := []sched.Order{sched.ByLXFW, nil, sched.ByPrediction}
		queue := orders[rapid.IntRange(0, 2).Draw(t, "queue")]
		backfill := orders[rapid.IntRange(0, 1).Draw(t, "backfill")]
		if queue != sched.ByLXFW {
			backfill = sched.ByLXFW
		}
		safe := rapid.Bool().Draw(t, "estimateSafe")
		pred := rapid.IntRange(0, 2).Draw(t, "predictor") // estimate, history, propagating history
		corr := rapid.Bool().Draw(t, "corrector")
		ties := rapid.Bool().Draw(t, "ties")
		kill := rapid.Bool().Draw(t, "kill")
		perEvent := rapid.Bool().Draw(t, "perEvent")
		nodes := rapid.IntRange(0, 2).Draw(t, "nodes") // none, one-core, four-core
		peer := nodes == 0 && rapid.Bool().Draw(t, "peer")
		run := func(q, b sched.Order) *sched.Result {
			cfg := sched.EASY(P)
			switch nodes {
			case 1:
				cfg = sched.EASY(0)
				cfg.Nodes = []swf.Node{{Count: P, Cores: 1}}
			case 2:
				cfg = sched.EASY(0)
				cfg.Nodes = []swf.Node{{Count: (P + 3) / 4, Cores: 4}}
			}
			if peer {
				cfg = cfg.WithPeer(sched.PeerPyss)
			}
			cfg.ShadowTies = ties
			cfg.KillAtEstimate = kill
			cfg.PerEventPass = cfg.PerEventPass || perEvent
			cfg.Scheduler = sched.EASYScheduler{Queue: q, Backfill: b, EstimateSafe: safe}
			if pred > 0 {
				h, err := predict.NewUserHistory(predict.HistoryConfig{Window: 2, Partial: true, Propagate: pred == 2})
				if err != nil {
					t.Fatal(err)
				}
				cfg.Predictor = h
			}
			if corr {
				cfg.Corrector = sched.EstimateCorrector{}
			}
			s := loadWithChanges(t, cfg, jobs, changes)
			res, err := s.Finish()
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		generic := func(o sched.Order) sched.Order {
			if o == nil {
				return arrivalOrder{}
			}
			return wrapped{o}
		}
		sameStarts(t, run(queue, backfill), run(generic(queue), generic(backfill)))
	})
}
