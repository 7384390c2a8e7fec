package qbets_test

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/batchq/batchq/qbets"
)

// A queue where one-node jobs wait seconds and 64-node jobs wait about an
// hour: the default clusters (processor ranges 1–4, 5–16, 17–64, 65+) keep
// their histories apart, so the forecast depends on what the job asks for.
// The feed goes in time order: arrivals (Submit) and starts (Observe)
// merged, starts in start order.
func ExamplePredictor_Forecast() {
	type event struct {
		t     int64
		start bool
		o     qbets.Observation
	}
	var evs []event
	for i := range int64(2000) {
		nodes, wait := 1, i%30 // small jobs: 0..29 s
		if i%2 == 1 {
			nodes, wait = 64, 3600+i%600 // big jobs: about an hour
		}
		o := qbets.Observation{Submit: i * 100, Start: i*100 + wait, Nodes: nodes, Walltime: 3600}
		evs = append(evs, event{o.Submit, false, o}, event{o.Start, true, o})
	}
	slices.SortStableFunc(evs, func(a, b event) int { return cmp.Compare(a.t, b.t) })

	p, _ := qbets.New(qbets.Config{}) // full QBETS, q = C = 0.95
	for _, e := range evs {
		var err error
		if e.start {
			err = p.Observe(e.o)
		} else {
			err = p.Submit(e.t)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	small := p.Forecast(qbets.Request{Nodes: 1, Walltime: 3600})
	big := p.Forecast(qbets.Request{Nodes: 64, Walltime: 3600})
	fmt.Println(len(p.Clusters()), "clusters")
	fmt.Println("1 node:", small.Upper, "s; 64 nodes:", big.Upper, "s; may be down:", big.MayBeDown)
	prob, ok := p.ProbWithin(64, 3600, 4200)
	fmt.Printf("P(64-node job starts within 70 min) ≥ %.2f (%v)\n", prob, ok)
	// Output:
	// 4 clusters
	// 1 node: 28 s; 64 nodes: 4181 s; may be down: false
	// P(64-node job starts within 70 min) ≥ 0.99 (true)
}
