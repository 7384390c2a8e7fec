package forecast

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// twoPartitions is a stream of one user's jobs on a machine of one queue
// (−1) and two partitions drawn at random: partition 2's jobs wait an
// hour, partition 1's start at once. Jobs of one processor on a machine of
// 1,000 (the simulated wait is always 0), estimates alike: only the
// partition tells the waits apart (as on CEA-Curie: one queue, its
// partitions waiting differently).
func twoPartitions(n int) []swf.Job {
	rng := rand.New(rand.NewPCG(5, 2))
	var jobs []swf.Job
	for i := range n {
		part, wait := int64(1+rng.IntN(2)), int64(0)
		if part == 2 {
			wait = 3600
		}
		j := job(int64(i+1), int64(i)*120, wait, 600, 1, 1200, 1)
		j.Partition = part
		jobs = append(jobs, j)
	}
	return jobs
}

// TestOnlinePartitions: the ladders and histories keyed by queue and
// partition learn each partition's waits, which the size class's and the
// user's, fitted on both, cannot. On 4,000 jobs of twoPartitions the
// forecast is within ×2 for at least 90% of each partition's scored jobs;
// with the partition left out of the keys (checked), for about half: a
// coin.
func TestOnlinePartitions(t *testing.T) {
	jobs := twoPartitions(4000)
	o, err := NewOnline(Config{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := replay.Run(context.Background(), jobs, replay.Options{From: 1000}, o)
	if err != nil {
		t.Fatal(err)
	}
	var ok, n [3]int
	for _, a := range sc[0].Answers {
		p := 1
		if a.Wait > 0 {
			p = 2
		}
		if math.Abs(math.Log10(max(a.Point, floor)/max(float64(a.Wait), floor))) <= math.Log10(2)+1e-12 {
			ok[p]++
		}
		n[p]++
	}
	for p := 1; p <= 2; p++ {
		t.Logf("partition %d: within ×2 for %d of %d", p, ok[p], n[p])
		if n[p] == 0 || float64(ok[p]) < 0.9*float64(n[p]) {
			t.Errorf("partition %d: within ×2 for %d of %d jobs, want at least 90%%", p, ok[p], n[p])
		}
	}
}
