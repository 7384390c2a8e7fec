package sched_test

import (
	"context"
	"math"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/load"
	"github.com/batchq/batchq/swf"
)

// Thesis Tab 2.1 loads and the §9.1 golden EASY baseline (wait in minutes,
// bsld, accuracy %) on the sane logs at their original load.
var golden = []struct {
	file            string
	P               int64
	load            float64
	wait, bsld, acc float64
}{
	{tracetest.SDSCSP2, 128, 0.84, 363, 99, 32},
	{tracetest.CTC, 512, 0.56, 21, 4.6, 39},
	{tracetest.KTH, 100, 0.69, 114, 90, 47},
	{tracetest.SDSCBlue, 1152, 0.76, 130, 35, 31},
}

// TestGoldenEASY checks the offered load (§3.6 on the log's own schedule,
// S8) against Tab 2.1 within 0.02, and EASY's mean wait, bounded slowdown
// and accuracy against §9.1 within 10% (the spec expects drift of a few
// percent from archive versions and tie-breaking).
func TestGoldenEASY(t *testing.T) {
	for _, g := range golden {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, g.file))
		if err != nil {
			t.Fatal(err)
		}
		load, _ := load.Offered(jobs, g.P)
		if math.Abs(load-g.load) > 0.02 {
			t.Errorf("%s: offered load %.3f, thesis %.2f", g.file, load, g.load)
		}
		res, err := sched.Run(context.Background(), sched.EASY(g.P), jobs)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Summary
		for _, c := range []struct {
			name        string
			ours, paper float64
		}{{"wait", s.MeanWait / 60, g.wait}, {"bsld", s.MeanBSLD, g.bsld}, {"accuracy", 100 * s.Accuracy, g.acc}} {
			if math.Abs(c.ours/c.paper-1) > 0.10 {
				t.Errorf("%s EASY %s: ours %.1f, thesis %.1f", g.file, c.name, c.ours, c.paper)
			}
		}
		if s.Included+s.Excluded != s.Jobs || s.Excluded < s.Jobs/100 {
			t.Errorf("%s: included %d + excluded %d != %d jobs", g.file, s.Included, s.Excluded, s.Jobs)
		}
		t.Logf("%s: load %.3f, EASY wait %.1f min bsld %.1f acc %.1f%% util %.3f (%d averaged, %d excluded, %d rejected)",
			g.file, load, s.MeanWait/60, s.MeanBSLD, 100*s.Accuracy, s.Utilization, s.Included, s.Excluded, s.Rejected)
	}
}
