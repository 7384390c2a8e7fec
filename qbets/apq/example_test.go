package apq_test

import (
	"fmt"

	"github.com/batchq/batchq/qbets/apq"
)

// A predictor fed from simulator snapshots: each history job is described
// by the state it met at submission, then its wait is added when it
// starts; the target is predicted from the state it meets.
func Example() {
	p, err := apq.New(apq.Config{History: 100})
	if err != nil {
		panic(err)
	}
	busy := apq.Snapshot{
		Wait: []apq.Job{{ID: 1, Submit: 0, Req: 64, ERT: 7200, User: 3}},
		Run:  []apq.Job{{ID: 2, Submit: 0, Start: 0, Req: 128, ERT: 36000, User: 4}},
	}
	idle := apq.Snapshot{}
	for i := range 60 {
		j := apq.Job{ID: int64(100 + i), Submit: 600, Req: 16, ERT: 3600, User: 5}
		if i%2 == 0 {
			p.Add(p.Describe(j, 600, busy), 5400) // a busy machine: 1.5 h
		} else {
			p.Add(p.Describe(j, 600, idle), 60) // an idle one: a minute
		}
	}
	target := apq.Job{ID: 999, Submit: 600, Req: 16, ERT: 3600, User: 5}
	pr, err := p.Predict(p.Describe(target, 600, busy))
	if err != nil {
		panic(err)
	}
	fmt.Printf("predicted wait %.0f s (case %v, %v)\n", pr.Wait, pr.Case, pr.Method)
	// Output: predicted wait 5400 s (case B, SDM)
}
