package qbets_test

import (
	"fmt"
	"math"

	"github.com/batchq/batchq/qbets"
)

// bySize is a user's Clusterer: small jobs (up to 16 nodes) and large
// ones, whatever the history.
type bySize struct{}

func (bySize) Fit([]qbets.Observation, int) qbets.Partition { return sizes{} }

type sizes struct{}

func (sizes) Cluster(nodes int, _ int64) int {
	if nodes <= 16 {
		return 0
	}
	return 1
}

func (sizes) Boxes() []qbets.Box {
	all := qbets.KeyRange{Lo: math.MinInt64, Hi: math.MaxInt64} // every value
	return []qbets.Box{
		{Nodes: qbets.KeyRange{Lo: all.Lo, Hi: 16}, Walltime: all, NodeSeconds: all},
		{Nodes: qbets.KeyRange{Lo: 17, Hi: all.Hi}, Walltime: all, NodeSeconds: all},
	}
}

// A Clusterer plugs into Config; qbetstest.Clusterer checks a user's
// against the Partition contract.
func ExampleClusterer() {
	p, err := qbets.New(qbets.Config{Clusterer: bySize{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range int64(400) {
		nodes := 4
		if i%2 == 1 {
			nodes = 64
		}
		_ = p.Observe(qbets.Observation{Submit: 1000 + i*10 - nodes64(nodes), Start: 1000 + i*10, Nodes: nodes, Walltime: 3600})
	}
	for _, c := range p.Clusters() {
		fmt.Println(c.Nodes.Hi == 16, c.Jobs)
	}
	// Output:
	// true 200
	// false 200
}

// nodes64 makes a wait that grows with the job's size.
func nodes64(nodes int) int64 { return int64(nodes) * 10 }

// window is a user's change-point detector: after 3 misses in a row it
// keeps only the minimum history.
type window struct{ min, run int }

func (w *window) Observe(_ int64, miss bool) int {
	if !miss {
		w.run = 0
		return 0
	}
	if w.run++; w.run < 3 {
		return 0
	}
	w.run = 0
	return w.min
}

func (w *window) Reset() { w.run = 0 }

// A Trimmer plugs into Config as a constructor per history;
// qbetstest.Trimmer checks a user's against the trimming invariants. Here
// the queue slows down for its last 8 jobs: too few to move the bound of
// the whole history, enough for the window to trim to the recent ones.
func ExampleTrimmer() {
	for _, cfg := range []qbets.Config{
		{NoTrim: true},
		{Trimmer: func(minHistory int) qbets.Trimmer { return &window{min: minHistory} }},
	} {
		p, err := qbets.New(cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		for i := range int64(300) {
			wait := int64(60)
			if i >= 292 {
				wait = 6000
			}
			_ = p.Observe(qbets.Observation{Submit: 10000 + i*10 - wait, Start: 10000 + i*10, Nodes: 1, Walltime: 600})
		}
		bound, ok := p.Predict(1, 600)
		fmt.Println(ok, bound)
	}
	// Output:
	// true 60
	// true 6000
}
