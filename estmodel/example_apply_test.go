package estmodel_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/swf"
)

// The modal model with its defaults gives 1000 jobs (run times
// log-uniform from 10 s to 10 h) estimates: a few dozen distinct values,
// E_max being the longest run time (at least one hour). Jobs get an
// estimate below their run time only where no legal one is left.
func ExampleModal() {
	rng := rand.New(rand.NewPCG(1, 2))
	jobs := make([]swf.Job, 1000)
	for i := range jobs {
		jobs[i].RunTime = int64(math.Exp(math.Log(10) + rng.Float64()*math.Log(3600)))
	}
	if err := (estmodel.Modal{}).Apply(jobs, rng); err != nil {
		fmt.Println(err)
		return
	}
	distinct, short, eMax := map[int64]bool{}, 0, int64(0)
	for _, j := range jobs {
		distinct[j.ReqTime] = true
		eMax = max(eMax, j.ReqTime)
		if j.ReqTime < j.RunTime {
			short++
		}
	}
	fmt.Printf("%d distinct estimates, E_max %d s, %d short\n", len(distinct), eMax, short)
	// Output:
	// 35 distinct estimates, E_max 35874 s, 0 short
}
