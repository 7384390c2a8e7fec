package slurm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestLazyCalcSame checks that Run's lazy calculations (no wake-up for a
// calculation while no job can start, priorities at the last one due)
// change no schedule: on random workloads and sites, every start (time,
// backfilled, the priority it starts with), reservation and end is the
// same as with a wake-up at every calculation.
func TestLazyCalcSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 9))
	for round := range 300 {
		P := int64(4 + rng.IntN(60))
		var jobs []swf.Job
		at := int64(rng.IntN(500))
		for i := range 20 + rng.IntN(120) {
			at += int64(rng.IntN(400))
			limit := int64(60 + rng.IntN(7200))
			jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: at, RunTime: 1 + rng.Int64N(limit),
				ReqTime: limit, AllocProcs: 1 + rng.Int64N(P), ReqProcs: -1, User: rng.Int64N(6),
				Group: rng.Int64N(2), Queue: -1, Partition: -1, Status: 1})
		}
		site := Config{WeightAge: rng.Int64N(3) * 1000, WeightFairshare: rng.Int64N(3) * 10000,
			WeightJobSize: rng.Int64N(2) * 1000, CalcPeriod: []int64{0, 30, 60, 97}[rng.IntN(4)],
			BackfillInterval: []int64{0, 7, 30}[rng.IntN(3)], SchedInterval: []int64{0, 13, 60}[rng.IntN(3)],
			DecayHalfLife: []int64{0, 3600}[rng.IntN(2)], EnforceLimits: rng.IntN(2) == 0,
			Epilog: rng.IntN(2) == 0, BackfillMaxJobUser: rng.Int64N(3), MaxAge: []int64{0, 2000}[rng.IntN(2)]}
		run := func(eager bool) []string {
			p, err := New(site, sched.Config{MachineSize: P})
			if err != nil {
				t.Fatal(err)
			}
			p.eagerCalc = eager
			var log []string
			obs := sched.Hooks{
				Start: func(now int64, j *swf.Job, bf bool) {
					pr, _ := p.Priority(j.ID)
					log = append(log, fmt.Sprint("start ", now, " ", j.ID, " ", bf, " ", pr))
				},
				Reservation: func(now int64, j *swf.Job, at int64) {
					log = append(log, fmt.Sprint("resv ", now, " ", j.ID, " ", at))
				},
				End: func(now int64, j *swf.Job, c bool) { log = append(log, fmt.Sprint("end ", now, " ", j.ID, " ", c)) },
			}
			if _, err := p.Run(context.Background(), jobs, obs); err != nil {
				t.Fatal(err)
			}
			return log
		}
		eager, lazy := run(true), run(false)
		if !slices.Equal(eager, lazy) {
			for i := range min(len(eager), len(lazy)) {
				if eager[i] != lazy[i] {
					t.Fatalf("round %d (%+v, P %d): event %d: eager %q, lazy %q", round, site, P, i, eager[i], lazy[i])
				}
			}
			t.Fatalf("round %d: %d events eager, %d lazy", round, len(eager), len(lazy))
		}
	}
}
