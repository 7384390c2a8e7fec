package ibl_test

import (
	"fmt"

	"github.com/batchq/batchq/qbets/ibl"
)

// A site's machine: jobs enter the queue, the System computes the Table
// III features of a job about to be submitted, and each started job
// becomes an experience in the base. The estimate is the kernel-weighted
// mean wait of the nearest experiences, with a 90% interval.
func Example() {
	sys := new(ibl.System)
	base, err := ibl.New(ibl.Config{Features: ibl.NotQueuedFeatures(), N: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Three past jobs: features as they were at submission, then the wait
	// observed when each started.
	for i, wait := range []int64{600, 1200, 3600} {
		j := ibl.Job{ID: int64(i + 1), Queue: "normal", Cores: 16, ReqTime: 3600, Submit: int64(i) * 100}
		q := sys.NotQueued(j, j.Submit)
		if err := sys.Submit(j); err != nil {
			fmt.Println(err)
			return
		}
		if err := base.Insert(ibl.Experience{In: q, Wait: float64(wait)}); err != nil {
			fmt.Println(err)
			return
		}
	}
	// A new 16-core, 1-hour job at t = 300, with three jobs ahead: it is
	// nearest the third experience (two ahead, waited an hour), so the
	// estimate leans towards 3600 s.
	q := sys.NotQueued(ibl.Job{Queue: "normal", Cores: 16, ReqTime: 3600}, 300)
	p, err := base.Predict(q, 90)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("wait %.0f s ± %.0f s (%d%%, %d neighbours)\n", p.Wait, p.HalfWidth, p.Level, p.Neighbors)
	// Output:
	// wait 3365 s ± 1182 s (90%, 3 neighbours)
}
