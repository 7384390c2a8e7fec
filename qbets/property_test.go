package qbets

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Bounds are monotone in q and in C (spec §2.1).
func TestIndexMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 5000).Draw(t, "n")
		q1 := rapid.Float64Range(0.01, 0.99).Draw(t, "q1")
		q2 := rapid.Float64Range(q1, 0.99).Draw(t, "q2")
		c1 := rapid.Float64Range(0.5, 0.99).Draw(t, "c1")
		c2 := rapid.Float64Range(c1, 0.99).Draw(t, "c2")
		i11, ok11 := UpperIndex(n, q1, c1)
		i21, ok21 := UpperIndex(n, q2, c1)
		i12, ok12 := UpperIndex(n, q1, c2)
		if ok21 && (!ok11 || i11 > i21) {
			t.Fatalf("upper not monotone in q: %d %d", i11, i21)
		}
		if ok12 && (!ok11 || i11 > i12) {
			t.Fatalf("upper not monotone in C: %d %d", i11, i12)
		}
		l1, okl1 := LowerIndex(n, q1, c1)
		l2, okl2 := LowerIndex(n, q1, c2)
		if okl2 && (!okl1 || l2 > l1) {
			t.Fatalf("lower not antitone in C: %d %d", l1, l2)
		}
	})
}

// For i.i.d. samples of a random continuous distribution, x(i_up) covers the
// true q-quantile in at least C of trials, within binomial error.
func TestCoverage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(59, 2000).Draw(t, "n")
		shape := rapid.Float64Range(0.2, 5).Draw(t, "shape")
		seed := rapid.Uint64().Draw(t, "seed")
		r := rand.New(rand.NewPCG(seed, 7))
		// Weibull(shape, 1): true 0.95-quantile (−ln 0.05)^{1/shape}.
		trueQ := math.Pow(-math.Log(0.05), 1/shape)
		i, ok := UpperIndex(n, 0.95, 0.95)
		if !ok {
			t.Fatalf("no bound at n=%d", n)
		}
		const trials = 400
		covered := 0
		xs := make([]float64, n)
		for range trials {
			for j := range xs {
				xs[j] = math.Pow(-math.Log(1-r.Float64()), 1/shape)
			}
			slices.Sort(xs)
			if xs[i-1] >= trueQ {
				covered++
			}
		}
		// 4 binomial standard deviations below 0.95.
		if lim := 0.95 - 4*math.Sqrt(0.95*0.05/trials); float64(covered)/trials < lim {
			t.Fatalf("coverage %d/%d below %.3f", covered, trials, lim)
		}
	})
}

// Trimming never leaves fewer than n_min observations, and never happens
// without a run of misses at the threshold.
func TestTrimInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, _ := New(Config{})
		steps := rapid.IntRange(60, 600).Draw(t, "steps")
		for i := range steps {
			w := rapid.Int64Range(0, 100000).Draw(t, "w")
			lenBefore, trimsBefore := p.Len(), p.Trims()
			p.mu.Lock()
			runBefore := p.run
			p.mu.Unlock()
			p.Observe(Observation{Submit: int64(i), Start: int64(i) + w})
			if p.Trims() > trimsBefore {
				if p.Len() != p.nMin || runBefore+1 < 3 {
					t.Fatalf("trim to %d from %d with run %d", p.Len(), lenBefore+1, runBefore+1)
				}
			} else if p.Len() != lenBefore+1 {
				t.Fatalf("len %d after %d", p.Len(), lenBefore)
			}
		}
	})
}

func TestRunThresholdTable(t *testing.T) {
	want := map[float64]int{-0.5: 3, 0: 3, 0.05: 3, 0.1: 4, 0.25: 4, 0.3: 5, 0.5: 6, 0.6: 7, 0.7: 9, 0.75: 10, 0.8: 12, 0.85: 16, 0.9: 23, 0.99: 23}
	for rho, r := range want {
		if got := RunThreshold(rho); got != r {
			t.Errorf("RunThreshold(%v)=%d, spec %d", rho, got, r)
		}
	}
}
