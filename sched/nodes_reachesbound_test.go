package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// TestConservativeNodesReachesBoundRapid checks reachesBound at every
// reaches it decides without the exact scans: its answer is theirs, and
// when no gain reaches the job, what it counts the gains may have given
// it at the starts before its reservation is at least what the scans
// find (a later pass keeps the deficit less that, a lower bound). Both
// placements, deep and mixed queues, kills, predictors, cancellations.
func TestConservativeNodesReachesBoundRapid(t *testing.T) {
	decided := 0
	rapid.Check(t, func(t *rapid.T) {
		runShortcutCase(t, rapid.Bool().Draw(t, "best"), func(s *Sim) {
			s.cons.boundCheck = func(s *Sim, j *Job, r bool, got int64, exact bool, exactGot int64) {
				if r != exact {
					t.Fatalf("at %d: job %d: reaches %v by the bounds, %v by the scans", s.now, j.ID(), r, exact)
				}
				if !r && got < exactGot {
					t.Fatalf("at %d: job %d: the gains give %d by the bounds, %d by the scans", s.now, j.ID(), got, exactGot)
				}
				decided++
			}
		})
	})
	t.Logf("%d reaches decided by the bounds", decided)
	if decided == 0 {
		t.Fatal("no reaches decided by the bounds: the test checks nothing")
	}
}
