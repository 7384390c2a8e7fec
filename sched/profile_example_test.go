package sched_test

import (
	"fmt"

	"github.com/batchq/batchq/sched"
)

// A 10-processor machine at time 100 with 3 processors free: one running
// job's 3 processors were due at 80 (released now), another's 4 at 150.
// Three waiting jobs are placed in arrival order, as conservative
// backfilling does; the second backfills before the first.
func ExampleProfile() {
	var p sched.Profile
	p.Reset(100, 3)
	p.Release(80, 3) // already due: counts from now
	p.Release(150, 4)
	for _, j := range []struct{ n, d int64 }{{8, 100}, {5, 20}, {2, 1000}} {
		t, _ := p.Fit(j.n, j.d, 100)
		p.Allocate(t, j.d, j.n)
		fmt.Printf("%d processors for %d s: start at %d\n", j.n, j.d, t)
	}
	_, ok := p.Fit(11, 1, 100)
	fmt.Println("11 processors ever:", ok)
	// Output:
	// 8 processors for 100 s: start at 150
	// 5 processors for 20 s: start at 100
	// 2 processors for 1000 s: start at 120
	// 11 processors ever: false
}
