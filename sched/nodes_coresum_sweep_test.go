package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// TestConservativeNodesSumSweepRapid checks coreSum's use in
// consNodes.earliest at every search: the start found when the free
// cores summed rule starts out is the one the sweep over every start
// finds, and the deficit kept (a lower bound where the sum ruled starts
// out) does not exceed that sweep's exact one. Both placements, kills,
// predictors, cancellations, deep and mixed queues, named resources,
// GPUs and memory. The schedule tests compare the plan with passes that
// rebuild, and those search with the sum too, so they cannot see it rule
// out a start where the job fits.
func TestConservativeNodesSumSweepRapid(t *testing.T) {
	narrowed := 0
	rapid.Check(t, func(t *rapid.T) {
		runShortcutCase(t, rapid.Bool().Draw(t, "best"), func(s *Sim) {
			s.cons.sumCheck = func(s *Sim, j *Job, d, from, h, found int64) {
				c := s.cons
				short := c.short
				c.noSum = true
				full := c.earliest(s, j, d, from, h)
				c.noSum = false
				if full != found {
					t.Fatalf("at %d: job %d, starts [%d, %d]: %d with the free cores summed, %d sweeping every start", s.now, j.ID(), from, h, found, full)
				}
				if short > c.short {
					t.Fatalf("at %d: job %d, starts [%d, %d]: deficit %d with the free cores summed, %d sweeping every start", s.now, j.ID(), from, h, short, c.short)
				}
				if len(c.sum.bad) > 0 {
					narrowed++
				}
				c.short = short
			}
		})
	})
	t.Logf("%d searches narrowed by the free cores summed", narrowed)
	if narrowed == 0 {
		t.Fatal("no search narrowed: the test checks nothing")
	}
}

// runShortcutCase draws a machine and queue (TestConservativeNodesPlanRapid's
// or, one in two, TestConservativeNodesPlanDeepRapid's), kills, passes per
// event, a predictor and cancellations, runs conservative backfilling on
// the nodes (best fit if best) with setup given the Sim and its fresh
// consNodes, and fails t unless the schedule checks.
func runShortcutCase(t *rapid.T, best bool, setup func(*Sim)) {
	draw := drawNodeCase
	if rapid.Bool().Draw(t, "deep") {
		draw = drawDeepNodeCase
	}
	nodes, jobs := draw(t)
	cfg := Config{Nodes: nodes, Scheduler: conservativeScheduler{}, KeepShares: true,
		KillAtEstimate: rapid.Bool().Draw(t, "kill"), PerEventPass: rapid.Bool().Draw(t, "perEvent")}
	if best {
		cfg.Placement = BestFit
	}
	withPredictor(t, &cfg, rapid.IntRange(0, 3).Draw(t, "predictor"))
	cancels := drawCancels(t, 3, jobs[len(jobs)-1].Submit+60, len(jobs))
	res := runCancelled(t, cfg, jobs, cancels, func(s *Sim) {
		s.cons = s.newConsNodes()
		setup(s)
	})
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
}
