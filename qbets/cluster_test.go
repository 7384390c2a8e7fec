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

// The step table agrees with UpperIndex at every size.
func TestIndexTable(t *testing.T) {
	for _, qc := range [][2]float64{{0.95, 0.95}, {0.5, 0.95}, {0.75, 0.9}, {0.99, 0.95}, {0.05, 0.99}} {
		tab := newIndexTable(qc[0], qc[1])
		for n := 0; n <= 3000; n++ {
			want, ok := UpperIndex(n, qc[0], qc[1])
			if !ok {
				want = 0
			}
			if got := tab.upper(n); got != want {
				t.Fatalf("q=%v C=%v n=%d: table %d, UpperIndex %d", qc[0], qc[1], n, got, want)
			}
		}
		for _, n := range []int{10000, 54321, 200000} {
			want, _ := UpperIndex(n, qc[0], qc[1])
			if got := tab.upper(n); got != want {
				t.Fatalf("q=%v C=%v n=%d: table %d, UpperIndex %d", qc[0], qc[1], n, got, want)
			}
		}
	}
}
