package coalloc_test

import (
	"fmt"

	"github.com/batchq/batchq/coalloc"
	"github.com/batchq/batchq/varq"
)

// Two simultaneous 4-node, 1-hour reservations 4 h ahead, joint target
// 0.90, over four machines whose forecasters give constant chances of
// starting within the lead time.
func Example() {
	constant := func(p float64) varq.Forecaster {
		return varq.ForecasterFunc(func(int, int64, int64) (float64, bool) { return p, true })
	}
	res := []coalloc.Resource{
		{Name: "alpha", Forecaster: constant(0.90)},
		{Name: "beta", Forecaster: constant(0.80)},
		{Name: "gamma", Forecaster: constant(0.85)},
		{Name: "delta", Forecaster: constant(0.70)},
	}
	now := int64(0)
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: now + 4*3600}
	plan, err := coalloc.NewPlan([]varq.Request{r, r}, res, 0.90, now, coalloc.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("P_indep %.4f, possible %v, %d VARQ requests\n", plan.PIndep, plan.OK, plan.Requests())
	for i, reqs := range plan.Launch {
		for _, a := range reqs {
			fmt.Printf("res%d on %s: submit at %d, %d s walltime, p=%.2f\n",
				i+1, res[a.Resource].Name, a.VARQ.Submit, a.VARQ.Walltime, a.VARQ.Prob)
		}
		fmt.Printf("res%d: P_res %.3f\n", i+1, plan.PRes[i])
	}
	fmt.Printf("P_expected %.3f\n", plan.PExpected)
	// Output:
	// P_indep 0.9487, possible true, 4 VARQ requests
	// res1 on alpha: submit at 14370, 3630 s walltime, p=0.90
	// res1 on beta: submit at 14370, 3630 s walltime, p=0.80
	// res1: P_res 0.980
	// res2 on gamma: submit at 14370, 3630 s walltime, p=0.85
	// res2 on delta: submit at 14370, 3630 s walltime, p=0.70
	// res2: P_res 0.955
	// P_expected 0.936
}
