package qbets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// synthetic is the check of thesis §4.2.4 (spec §2.4 step 7): requested
// times 1..500, perKey jobs at each, log-normal waits (σ = 1) whose median
// changes at requested times 100, 200, 300, 400. The thesis does not give
// its parameters; adjacent medians here differ by a factor of 3 to 30.
func synthetic(seed uint64, perKey int, medians [5]float64) []sample {
	r := rand.New(rand.NewPCG(seed, 99))
	var xs []sample
	for key := int64(1); key <= 500; key++ {
		m := math.Log(medians[(key-1)/100])
		for range perKey {
			xs = append(xs, sample{Key: key, Wait: int64(math.Exp(m + r.NormFloat64()))})
		}
	}
	return xs
}

// The clusterer recovers the true breakpoints 100/200/300/400 (the thesis
// found [1,39] [40,40] [41,100] [101,197] [198,300] [301,398] [399,492]
// [493,493] [494,500]: the four breakpoints within 3 keys, plus splits
// inside the intervals). Tolerance: a key next to a breakpoint lands on
// the wrong side only if its 10 jobs fit the other side's exponential
// better (at a median ratio of 3 the expected log-likelihood ratio is
// about ln 3 − 2/3 ≈ 0.43 nats per job, 4.3 per key, so single keys rarely
// stray), but the minimum-size guard makes the smallest cluster
// ⌈59/10⌉ = 6 keys wide, and the greedy pass can leave one such mixed
// cluster astride a breakpoint (seed 22 of the second design gives
// [195,207] around 200). So each true breakpoint must have a recovered one
// within two minimum widths, 12 keys (2.4% of the range); the measured
// worst drift and the cluster counts are logged.
func TestSyntheticClusters(t *testing.T) {
	designs := [][5]float64{
		{60, 1800, 300, 7200, 900}, // strong contrasts
		{100, 300, 100, 300, 900},  // factor 3 everywhere
	}
	for _, med := range designs {
		worst, ks := 0, map[int]int{}
		for seed := uint64(1); seed <= 40; seed++ {
			c := clusterIntervals(synthetic(seed, 10, med), 0, 0)
			ks[c.K]++
			for _, b := range []int64{100, 200, 300, 400} {
				d := int64(math.MaxInt64)
				for _, u := range c.Uppers {
					d = min(d, max(u-b, b-u))
				}
				if d > 12 {
					t.Errorf("medians %v seed %d: breakpoint %d missed (nearest %d away), uppers %v", med, seed, b, d, c.Uppers)
				}
				worst = max(worst, int(d))
			}
		}
		t.Logf("medians %v: worst breakpoint drift %d keys; clusters chosen %v", med, worst, ks)
	}
}

// The step table agrees with UpperIndex at every size.
func TestIndexTable(t *testing.T) {
	for _, qc := range [][2]float64{{0.95, 0.95}, {0.5, 0.95}, {0.75, 0.9}, {0.99, 0.95}, {0.05, 0.99}} {
		tab := newIndexTable(qc[0], qc[1])
		for n := 0; n <= 3000; n++ {
			want, ok := upperIndex(n, qc[0], qc[1])
			if !ok {
				want = 0
			}
			if got := tab.upper(n); got != want {
				t.Fatalf("q=%v C=%v n=%d: table %d, UpperIndex %d", qc[0], qc[1], n, got, want)
			}
		}
		for _, n := range []int{10000, 54321, 200000} {
			want, _ := upperIndex(n, qc[0], qc[1])
			if got := tab.upper(n); got != want {
				t.Fatalf("q=%v C=%v n=%d: table %d, UpperIndex %d", qc[0], qc[1], n, got, want)
			}
		}
	}
}
