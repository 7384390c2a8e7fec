package molding

import (
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// benchState is a busy 128-processor machine (SDSC SP2's size): 40
// running jobs and q waiting ones with random sizes and estimates.
func benchState(q int) sched.QueueState {
	rng := rand.New(rand.NewPCG(1, 2))
	st := sched.QueueState{Now: 1e6, Free: 128}
	for i := 0; i < 40 && st.Free > 0; i++ {
		n := min(st.Free, 1+rng.Int64N(8))
		st.Free -= n
		st.Running = append(st.Running, sched.JobView{ID: int64(i), Size: n, Start: 1e6 - rng.Int64N(36000), Estimate: 600 + rng.Int64N(64800)})
	}
	for i := range q {
		st.Waiting = append(st.Waiting, sched.JobView{ID: int64(1000 + i), Size: 1 + rng.Int64N(64), Estimate: 600 + rng.Int64N(64800), Start: -1})
	}
	return st
}

// BenchmarkProfileFloor is the cost of one floor for a new state (the
// profile is built), by queue length; molder.Decide then asks for the
// other candidate sizes from the cached profile.
func BenchmarkProfileFloor(b *testing.B) {
	for _, c := range []struct {
		name        string
		q           int
		runningOnly bool
	}{{"running-only", 200, true}, {"queue-20", 20, false}, {"queue-200", 200, false}, {"queue-1000", 1000, false}} {
		b.Run(c.name, func(b *testing.B) {
			st := benchState(c.q)
			j := swf.Job{ID: 1, Submit: st.Now, ReqProcs: 64, AllocProcs: 64, ReqTime: 3600}
			f := &ProfileFloor{Inner: constWait(0), P: 128, RunningOnly: c.runningOnly}
			for b.Loop() {
				f.valid = false // a new state every time
				if _, err := f.Floor(j, st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
