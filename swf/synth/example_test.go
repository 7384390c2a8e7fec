package synth_test

import (
	"fmt"

	"github.com/batchq/batchq/swf/synth"
)

// A week-scale workload for a 256-node machine at offered load 0.7.
func ExampleNew() {
	g, err := synth.New(synth.Config{Machine: 256, TargetLoad: 0.7, Seed: 42})
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs, err := g.Jobs(1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	var serial, batch int
	for _, j := range jobs {
		if j.AllocProcs == 1 {
			serial++
		}
		if j.Queue == 1 {
			batch++
		}
	}
	fmt.Printf("arrival shape factor %.3f\n", g.ShapeScale())
	fmt.Printf("%d jobs, %d serial, %d batch, last submit day %d\n", len(jobs), serial, batch, jobs[len(jobs)-1].Submit/86400)
	// Output:
	// arrival shape factor 0.922
	// 1000 jobs, 170 serial, 102 batch, last submit day 3
}
