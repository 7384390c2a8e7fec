package forecast

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// Online and Naive over jobs with hostile fields (sizes, run times and
// estimates of −1, 0, 2^40, 2^50, 2^63 − 1; users and queues −1; a
// machine of 1 or 2^40 processors): the replay runs and every answer is a
// finite wait ≥ 0.
func TestOnlineHostileJobs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(t, "n")
		edge := rapid.SampledFrom([]int64{-1, 0, 1, 7, 100, 3600, 1 << 20, 1 << 40, 1 << 50, math.MaxInt64})
		var jobs []swf.Job
		now := int64(0)
		for i := range n {
			now += rapid.Int64Range(0, 1000).Draw(t, "gap")
			j := swf.NewJob()
			j.ID, j.Submit = int64(i+1), now
			j.Wait = rapid.SampledFrom([]int64{0, 5, 100, 10000, 1 << 30}).Draw(t, "wait")
			j.RunTime = edge.Draw(t, "run")
			j.AllocProcs = edge.Draw(t, "procs")
			j.ReqProcs = edge.Draw(t, "req")
			j.ReqTime = edge.Draw(t, "est")
			j.User = rapid.Int64Range(-1, 3).Draw(t, "user")
			j.Queue = rapid.Int64Range(-1, 2).Draw(t, "queue")
			if j.Submit+j.Wait > math.MaxInt64-max(j.RunTime, 0) {
				j.RunTime = -1
			}
			jobs = append(jobs, j)
		}
		machine := rapid.SampledFrom([]int64{1, 8, 64, 1 << 40}).Draw(t, "machine")
		o, err := NewOnline(Config{Train: rapid.IntRange(0, 5).Draw(t, "train"), Estimates: rapid.Bool().Draw(t, "est")}, machine)
		if err != nil {
			t.Fatal(err)
		}
		_, err = replay.Run(context.Background(), jobs, replay.Options{PredictAll: true, Snapshot: rapid.SampledFrom([]int64{0, 60}).Draw(t, "snap"), OnPredict: func(_ int, j *swf.Job, now int64, p []replay.Prediction) {
			if p[0].OK && (math.IsNaN(p[0].Point) || p[0].Point < 0 || math.IsInf(p[0].Point, 0)) {
				t.Fatalf("job %d at %d: %+v", j.ID, now, p[0])
			}
		}}, o, &Naive{})
		if err != nil {
			t.Fatal(err)
		}
	})
}
