package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// TestConservativeNodesPinnedRapid checks best fit's pinned path
// directly: each job that conservativeNodesPass places again at its
// reservation without a search (a loss may change its nodes, no gain
// reaches it) must be one the full search, from now to its reservation,
// starts there too, and the deficit the pass keeps for it must not
// exceed the one that search finds sweeping every start (a later pass
// reads it as a lower bound of that). The machines have named resources, GPUs and memory (spread jobs
// take runs of nodes); the queues are deep (TestConservativeNodesPlanDeepRapid's)
// or short and mixed (TestConservativeNodesPlanRapid's), with kills,
// predictors and cancellations. The schedule tests compare whole runs, so
// a pinned start that differed could hide behind a later pass that
// placed the job again; this one fails at the pass itself.
func TestConservativeNodesPinnedRapid(t *testing.T) {
	pinned := 0
	rapid.Check(t, func(t *rapid.T) {
		runShortcutCase(t, true, func(s *Sim) {
			s.cons.pinCheck = func(s *Sim, j *Job, d, short int64) {
				c := s.cons
				// the full search, and its deficit exact (every start
				// swept: the free cores summed bound it from below)
				c.noSum = true
				full := c.earliest(s, j, d, s.now, j.res)
				c.noSum = false
				if full != j.res {
					t.Fatalf("at %d: job %d pinned at %d, the full search starts it at %d", s.now, j.ID(), j.res, full)
				}
				if short > c.short {
					t.Fatalf("at %d: job %d pinned with deficit %d, the full search finds %d", s.now, j.ID(), short, c.short)
				}
				c.short = short
				pinned++
			}
		})
	})
	t.Logf("%d jobs pinned", pinned)
	if pinned == 0 {
		t.Fatal("no job pinned: the test checks nothing")
	}
}
