package synth

import (
	"math"
	"testing"

	"github.com/batchq/batchq/estmodel"
)

// With model estimates the most popular value is E_max = the longest run
// time (≥ 1 h), holding 21.7329% of the jobs (spec §13: rank 1 of the head);
// every estimate covers its run time.
func TestModelEstimates(t *testing.T) {
	g, err := New(Config{Seed: 4, Estimator: estmodel.Modal{}})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := g.Jobs(10000)
	if err != nil {
		t.Fatal(err)
	}
	var longest int64
	for _, j := range jobs {
		longest = max(longest, j.RunTime)
	}
	atMax := 0
	for _, j := range jobs {
		if j.ReqTime < j.RunTime {
			t.Fatalf("job %d: estimate %d below run time %d", j.ID, j.ReqTime, j.RunTime)
		}
		if j.ReqTime == longest {
			atMax++
		}
	}
	share := float64(atMax) / float64(len(jobs))
	t.Logf("E_max %d s holds %.4f of jobs (spec 0.217329); short %d", longest, share, g.ShortEstimates)
	if math.Abs(share-0.217329) > 0.001 || g.ShortEstimates != 0 {
		t.Errorf("E_max share %.4f, spec 0.2173; short %d", share, g.ShortEstimates)
	}
	if _, err := g.Jobs(minEstimateJobs - 1); err == nil {
		t.Error("estimates for too few jobs accepted")
	}
}
