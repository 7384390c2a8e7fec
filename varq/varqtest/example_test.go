package varqtest_test

import (
	"fmt"

	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
)

// A FakeMachine is what VARQ agents submit to.
var _ varq.Machine = (*varqtest.FakeMachine)(nil)

// A fake machine on which every job waits 600 s per node it asks for: a
// VARQ agent under test submits to it (it is a varq.Machine) and the test
// reads what each job held.
func ExampleFakeMachine() {
	m := &varqtest.FakeMachine{Delay: func(nodes int, _ int64) int64 { return 600 * int64(nodes) }}
	small, _ := m.Submit(1, 3600, 1200) // starts at 600, runs its 1200 s
	big, _ := m.Submit(4, 3600, 7200)   // starts at 2400, killed at its walltime
	m.At(1000, func() { fmt.Println("t=1000: small started:", m.Jobs[small].Started) })
	m.Run()
	for _, id := range []int64{small, big} {
		j := m.Jobs[id]
		fmt.Printf("job %d: start %d, end %d, %d node-s\n", id, j.Start, j.End, j.Occupancy())
	}
	// Output:
	// t=1000: small started: true
	// job 0: start 600, end 1800, 1200 node-s
	// job 1: start 2400, end 6000, 14400 node-s
}
