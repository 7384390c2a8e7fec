package qbets_test

import (
	"fmt"

	"github.com/batchq/batchq/qbets"
)

// A queue where one-node jobs wait seconds and 64-node jobs wait hours:
// the default clusters (processor ranges 1–4, 5–16, 17–64, 65+) keep
// their histories apart, so the forecast depends on what the job asks for.
func ExamplePredictor_Forecast() {
	p, _ := qbets.New(qbets.Config{NoAvailability: true})
	for i := range int64(2000) {
		nodes, wait := 1, i%30 // small jobs: 0..29 s
		if i%2 == 1 {
			nodes, wait = 64, 3600+i%600 // big jobs: about an hour
		}
		p.Submit(i * 100)
		p.Observe(qbets.Observation{Submit: i * 100, Start: i*100 + wait, Nodes: nodes, Walltime: 3600})
	}
	small := p.Forecast(qbets.Request{Nodes: 1, Walltime: 3600})
	big := p.Forecast(qbets.Request{Nodes: 64, Walltime: 3600})
	fmt.Println(len(p.Clusters()), "clusters")
	fmt.Println("1 node:", small.Upper, "s; 64 nodes:", big.Upper, "s")
	fmt.Printf("P(64-node job starts within 70 min) ≥ %.2f\n", p.ProbWithin(64, 3600, 4200))
	// Output:
	// 4 clusters
	// 1 node: 28 s; 64 nodes: 4181 s
	// P(64-node job starts within 70 min) ≥ 0.99
}
