package main

import (
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// TestRemediesMeetPAll checks issue #7's acceptance for coalloc, P_achieved
// ≥ P_all in every trial of Table 6.2, on the default run (five machines,
// 120 days) with each remedy that meets it there: re-boosting alone, and
// re-boosting with plans at the latest point meeting P_indep (the
// default). The thesis's plan executed as made does not meet it (README).
// Each run takes 3–10 s; the race run (-short) skips them.
func TestRemediesMeetPAll(t *testing.T) {
	if testing.Short() {
		t.Skip("real-trace trials: 3–10 s each, longer under -race")
	}
	var paths []string
	for _, name := range defaultMachines {
		paths = append(paths, tracetest.Path(t, name))
	}
	ms, err := loadMachines(paths) // runs reuse machines, as main does across trials
	if err != nil {
		t.Fatal(err)
	}
	for _, remedy := range []string{"reboost", "both"} {
		t.Run(remedy, func(t *testing.T) {
			plan, err := remedyConfig(remedy)
			if err != nil {
				t.Fatal(err)
			}
			opt := options{days: 120, count: 2, step: 10, plan: plan}
			for _, tr := range table62 {
				s, err := runTrial(ms, tr, opt)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("(%d, %d h, %d h) P_all %.2f: expected %.3f, achieved %.3f ± %.3f (thesis %.3f), %d co-allocations, %.2f requests/res (%.2f re-boosted), over-allocation %.2f",
					tr.Nodes, tr.Walltime/3600, tr.Lead/3600, tr.PAll, s.pExpected, s.pAchieved, stdErr(s), tr.Achvd,
					s.executed, s.requestsPerRes, s.reboostsPerRes, s.overAllocation())
				if s.executed < 100 {
					t.Errorf("only %d co-allocations executed", s.executed)
				}
				if s.pAchieved < tr.PAll {
					t.Errorf("(%d, %d h, %d h): achieved %.3f < P_all %.2f", tr.Nodes, tr.Walltime/3600, tr.Lead/3600, s.pAchieved, tr.PAll)
				}
			}
		})
	}
}
