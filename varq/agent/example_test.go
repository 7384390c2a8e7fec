package agent_test

import (
	"fmt"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/agent"
	"github.com/batchq/batchq/varq/varqtest"
)

// An agent with the thesis's defaults (start times every 6 h, plans
// recomputed at the planned submission) turns every job into a VARQ
// request on a fake machine where jobs wait 100 s, with a forecaster that
// promises 0.8 for submissions at least 10 minutes ahead.
func Example() {
	f := varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
		if within >= 600 {
			return 0.8, true
		}
		return 0.3, true
	})
	m := &varqtest.FakeMachine{Delay: func(int, int64) int64 { return 100 }}
	a, err := agent.New(m, f, agent.Config{Fraction: 1,
		Replan: varq.ReplanConfig{ReqProb: 0.75, OnlyAtSubmit: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	m.OnStart = a.Started
	for i, submit := range []int64{1000, 5000, 30000} {
		j := swf.Job{ID: int64(i + 1), Submit: submit, RunTime: 1800, ReqTime: 3600, AllocProcs: 8}
		if a.Select() {
			m.At(j.Submit, func() { a.Arrive(j) })
		}
	}
	m.Run()
	if a.Err() != nil {
		fmt.Println(a.Err())
		return
	}
	s := a.Summary()
	fmt.Printf("%d accepted, predicted %.2f, succeeded %.2f, allocation ratio %.2f\n",
		s.Count, s.MeanPred, s.Success, s.Ratio())
	// Output:
	// 3 accepted, predicted 0.80, succeeded 1.00, allocation ratio 1.28
}
