package estmodel_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/swf"
)

// Model estimates for the CTC log's 77,222 jobs: E_max = 18 h, 23.8% of the
// jobs at E_max (thesis §5.12.1 "vanilla" setting), then assigned to jobs.
func ExampleGenerate() {
	cfg := estmodel.ModalConfig{
		N:    77222,
		EMax: 18 * 3600,
		Bins: []estmodel.UserBin{{Time: 18 * 3600, Percent: 23.8}},
	}
	d, err := estmodel.Generate(cfg, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("K:", d.K, "head times:", len(d.HeadTimes))
	top := d.Bins[len(d.Bins)-1]
	fmt.Printf("E_max %ds holds %d jobs (%.1f%%)\n", top.Time, top.Jobs, top.Percent)

	jobs := make([]swf.Job, cfg.N)
	for i := range jobs {
		jobs[i].ID, jobs[i].RunTime = int64(i+1), int64(i%10)*30 // short jobs
	}
	rep, err := d.Assign(jobs, estmodel.AssignConfig{}, rand.New(rand.NewPCG(2, 2)))
	fmt.Println(err, "short:", rep.Short, "truncated:", len(rep.Truncated))
	// Output:
	// K: 349 head times: 20
	// E_max 64800s holds 18379 jobs (23.8%)
	// <nil> short: 0 truncated: 0
}
