package sched_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestSJBFWalkRapid: SJBF's and SJF's own walks by prediction start the
// jobs that the generic path of the same orders starts (a stable sort of
// the whole queue at every pass, no memo), and so does EASY's. Their
// by-prediction set takes an arrival only at the end of the next full
// SJBF pass if it still waits (Sim.sjFrom), merges the later ones into
// its walk, and skips chunks by a size bound (jobSet.low): queues
// hundreds of jobs long split and merge chunks, and predictions by a
// history (propagating or not), corrections, EstimateSafe, cancellations
// and submissions mid-run (some by an observer while a pass starts jobs,
// which the memo of the pass must not count as seen, or cancels, which
// may hit a job the pass is about to start) change them between passes;
// a pass per event or a machine of nodes (easy_nodes.go's pass and memo)
// as well, and a user's Scheduler around the built-in one that walks
// Pass.ByPrediction after each of its passes.
func TestSJBFWalkRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 32).Draw(t, "P")
		jobs := walkJobs(t, P, 300)
		changes := drawChanges(t, jobs, P)
		kind := rapid.IntRange(0, 2).Draw(t, "kind") // SJBF, SJF, EASY
		safe := rapid.Bool().Draw(t, "estimateSafe")
		pred := rapid.IntRange(0, 2).Draw(t, "predictor") // estimate, history, propagating history
		corr := rapid.Bool().Draw(t, "corrector")
		ties := rapid.Bool().Draw(t, "ties")
		echo := rapid.IntRange(0, 5).Draw(t, "echo") // every echo-th start submits a job (0: none)
		kill := rapid.IntRange(0, 5).Draw(t, "kill") // every kill-th start cancels the job after it by ID (0: none)
		perEvent := rapid.Bool().Draw(t, "perEventPass")
		nodes := rapid.Bool().Draw(t, "nodes") // P nodes of one core: easy_nodes.go's pass and memo
		look := rapid.Bool().Draw(t, "look")   // the own run's passes end with a walk of Pass.ByPrediction
		run := func(b sched.Order) *sched.Result {
			cfg := sched.EASY(P)
			cfg.ShadowTies, cfg.PerEventPass = ties, perEvent
			if nodes {
				cfg.Nodes = []swf.Node{{Count: P, Cores: 1}}
			}
			cfg.Scheduler = sched.EASYScheduler{Queue: b, Backfill: b, EstimateSafe: safe}
			if kind == 0 {
				cfg.Scheduler = sched.EASYScheduler{Backfill: b, EstimateSafe: safe}
			}
			if _, generic := b.(wrapped); look && !generic {
				// A user's Scheduler around the built-in one, that reads
				// the by-prediction set between its passes: every waiting
				// job, by prediction.
				inner := cfg.Scheduler
				cfg.Scheduler = schedFunc(func(p *sched.Pass) {
					inner.Schedule(p)
					waiting := map[int64]bool{}
					for j := range p.Waiting() {
						waiting[j.ID()] = true
					}
					last, n := int64(-1<<63), 0
					for j := range p.ByPrediction() {
						if !waiting[j.ID()] || j.Prediction() < last {
							t.Fatalf("at %d: Pass.ByPrediction yields job %d (waiting %v, prediction %d after %d)", p.Now(), j.ID(), waiting[j.ID()], j.Prediction(), last)
						}
						last, n = j.Prediction(), n+1
					}
					if n != len(waiting) {
						t.Fatalf("at %d: Pass.ByPrediction yields %d jobs, %d wait", p.Now(), n, len(waiting))
					}
				})
			}
			if pred > 0 {
				h, err := predict.NewUserHistory(predict.HistoryConfig{Propagate: pred == 2})
				if err != nil {
					t.Fatal(err)
				}
				cfg.Predictor = h
			}
			if corr {
				cfg.Corrector = sched.EstimateCorrector{}
			}
			s := loadWithChanges(t, cfg, jobs, changes)
			cancelled := map[int64]bool{} // by the observer
			if echo > 0 || kill > 0 {
				// (IDs past the changes' ones: a cancelled ID given again
				// would be another job)
				starts, base := 0, int64(10*(len(jobs)+len(changes)))
				id := base
				s.Observe(sched.Hooks{Start: func(now int64, j *swf.Job, _ bool) {
					starts++
					if echo > 0 && starts%echo == 0 && id < base+int64(2*len(jobs)) {
						id++
						e := job(id, 0, j.RunTime/2, max(1, j.AllocProcs/2), j.ReqTime)
						e.User = j.User
						s.Submit(e)
					}
					if kill > 0 && starts%kill == 0 && s.Cancel(j.ID+1) {
						cancelled[j.ID+1] = true
					}
				}})
			}
			res, err := s.Finish()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Records {
				if cancelled[r.Job.ID] && !r.Cancelled {
					t.Fatalf("job %d: cancelled by an observer, recorded as not", r.Job.ID)
				}
			}
			return res
		}
		o := sched.ByPrediction
		if kind == 2 {
			o = sched.ByArrival
		}
		sameStarts(t, run(o), run(wrapped{o}))
	})
}
