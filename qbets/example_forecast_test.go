package qbets_test

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/batchq/batchq/qbets"
)

// The default Predictor (full QBETS, q = C = 0.95) fed one queue's
// arrivals and starts in time order, then asked about a new job.
func Example() {
	p, err := qbets.New(qbets.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range int64(300) {
		start := 1000 * (i + 1) // one job starts every 1000 s
		wait := (i * 37) % 600  // after waiting 0..599 s
		if err := p.Submit(start - wait); err != nil {
			fmt.Println(err)
			return
		}
		if err := p.Observe(qbets.Observation{Submit: start - wait, Start: start, Nodes: 4, Walltime: 3600}); err != nil {
			fmt.Println(err)
			return
		}
	}
	f := p.Forecast(qbets.Request{Nodes: 4, Walltime: 3600})
	fmt.Println("bound:", f.Upper, "s, from", f.History, "waits; may be down:", f.MayBeDown)
	prob, ok := p.ProbWithin(4, 3600, 300)
	fmt.Println("P(start within 5 min) ≥", prob, ok)
	// Output:
	// bound: 583 s, from 300 waits; may be down: false
	// P(start within 5 min) ≥ 0.46 true
}

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
