package qbets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// synthetic is the check of thesis §4.2.4 (spec §2.4 step 7): log-normal
// waits whose parameters change at requested times 100, 200, 300, 400.
func synthetic(seed uint64, perKey int) []Sample {
	r := rand.New(rand.NewPCG(seed, 99))
	mu := []float64{math.Log(60), math.Log(1800), math.Log(300), math.Log(7200), math.Log(900)}
	var xs []Sample
	for key := int64(1); key <= 500; key++ {
		m := mu[(key-1)/100]
		for range perKey {
			xs = append(xs, Sample{Key: key, Wait: int64(math.Exp(m + 1.0*r.NormFloat64()))})
		}
	}
	return xs
}

func TestSyntheticClusters(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		c := ClusterIntervals(synthetic(seed, 10), 0, 0)
		t.Logf("seed %d: k=%d uppers %v", seed, c.K, c.Uppers)
	}
}
