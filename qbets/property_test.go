package qbets

import (
	"github.com/batchq/batchq/internal/runlen"
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
		i11, ok11 := upperIndex(n, q1, c1)
		i21, ok21 := upperIndex(n, q2, c1)
		i12, ok12 := upperIndex(n, q1, c2)
		if ok21 && (!ok11 || i11 > i21) {
			t.Fatalf("upper not monotone in q: %d %d", i11, i21)
		}
		if ok12 && (!ok11 || i11 > i12) {
			t.Fatalf("upper not monotone in C: %d %d", i11, i12)
		}
		l1, okl1 := lowerIndex(n, q1, c1)
		l2, okl2 := lowerIndex(n, q1, c2)
		if okl2 && (!okl1 || l2 > l1) {
			t.Fatalf("lower not antitone in C: %d %d", l1, l2)
		}
	})
}

// For i.i.d. samples of a random continuous distribution, at q, C ∈ {0.5,
// 0.9, 0.95, 0.99}: x(i_up) is ≥ the true q-quantile, x(i_lo) ≤ it, and
// the two-sided interval [x(lo), x(hi)] holds it, each in at least C of
// trials, within binomial error (spec §2.1, Q2).
func TestCoverage(t *testing.T) {
	lv := []float64{0.5, 0.9, 0.95, 0.99}
	rapid.Check(t, func(t *rapid.T) {
		q := rapid.SampledFrom(lv).Draw(t, "q")
		c := rapid.SampledFrom(lv).Draw(t, "C")
		nMin := max(minHistoryOf(q, c), minHistoryLower(q, c), minHistoryTwoSided(q, c))
		n := rapid.IntRange(nMin, nMin+1500).Draw(t, "n")
		shape := rapid.Float64Range(0.2, 5).Draw(t, "shape")
		seed := rapid.Uint64().Draw(t, "seed")
		r := rand.New(rand.NewPCG(seed, 7))
		// Weibull(shape, 1): true q-quantile (−ln(1−q))^{1/shape}.
		trueQ := math.Pow(-math.Log(1-q), 1/shape)
		up, okUp := upperIndex(n, q, c)
		lo, okLo := lowerIndex(n, q, c)
		tlo, thi, ok2 := twoSidedIndex(n, q, c)
		if !okUp || !okLo || !ok2 || lo > up || tlo > thi {
			t.Fatalf("n=%d: indices up %d/%v lo %d/%v two-sided %d–%d/%v", n, up, okUp, lo, okLo, tlo, thi, ok2)
		}
		const trials = 300
		var cUp, cLo, c2 int
		xs := make([]float64, n)
		for range trials {
			for j := range xs {
				xs[j] = math.Pow(-math.Log(1-r.Float64()), 1/shape)
			}
			slices.Sort(xs)
			if xs[up-1] >= trueQ {
				cUp++
			}
			if xs[lo-1] <= trueQ {
				cLo++
			}
			if xs[tlo-1] <= trueQ && trueQ <= xs[thi-1] {
				c2++
			}
		}
		// The exact binomial tail: fail only if covering this few of the
		// trials has probability below 1e-6 for a bound that covers with
		// probability C. (4 normal standard errors failed correct bounds
		// at C = 0.99, e.g. seed 2686468863545352043: 290 of 300.)
		for _, x := range []struct {
			name    string
			covered int
		}{{"upper", cUp}, {"lower", cLo}, {"two-sided", c2}} {
			if p := binomCDF(x.covered, trials, c); p < 1e-6 {
				t.Fatalf("q %v C %v n %d: %s coverage %d/%d (P = %.2g at C)", q, c, n, x.name, x.covered, trials, p)
			}
		}
	})
}

// Trimming never leaves fewer than n_min observations, and never happens
// without a run of misses at the threshold for the history's lag-1
// autocorrelation (spec §2.3).
func TestTrimInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nMin := minHistoryOf(0.95, 0.95)
		h := testHistory(true, nMin, newIndexTable(0.95, 0.95))
		steps := rapid.IntRange(60, 600).Draw(t, "steps")
		scale := rapid.Int64Range(1, 100000).Draw(t, "scale")
		for range steps {
			w := rapid.Int64Range(0, scale).Draw(t, "w")
			lenBefore, trimsBefore, runBefore := h.len(), h.trims, h.tr.(*runLength).run
			b, ok := h.bound()
			rho := h.rhoAfter(w)
			h.add(w)
			if h.trims > trimsBefore {
				run := runBefore + 1
				if !ok || w <= b || run < runlen.RunThreshold(rho) || run < 3 {
					t.Fatalf("trim with run %d (threshold %d at rho %.3f), wait %d bound %d/%v", run, runlen.RunThreshold(rho), rho, w, b, ok)
				}
				if h.len() != nMin || h.len() > lenBefore+1 {
					t.Fatalf("trimmed to %d from %d", h.len(), lenBefore+1)
				}
			} else if h.len() != lenBefore+1 {
				t.Fatalf("len %d after %d", h.len(), lenBefore)
			}
			if h.len() < min(nMin, lenBefore+1) {
				t.Fatalf("history %d below n_min %d", h.len(), nMin)
			}
		}
	})
}

// rhoAfter is lag1 of ln(1+w) over the history with w appended: the
// autocorrelation the trim decision of add(w) sees.
func (h *history) rhoAfter(w int64) float64 {
	xs := make([]float64, 0, len(h.recent)+1)
	for _, v := range append(slices.Clone(h.recent), w) {
		xs = append(xs, math.Log1p(float64(v)))
	}
	return runlen.Lag1(xs)
}

func TestRunThresholdTable(t *testing.T) {
	want := map[float64]int{-0.5: 3, 0: 3, 0.05: 3, 0.1: 4, 0.25: 4, 0.3: 5, 0.5: 6, 0.6: 7, 0.7: 9, 0.75: 10, 0.8: 12, 0.85: 16, 0.9: 23, 0.99: 23}
	for rho, r := range want {
		if got := runlen.RunThreshold(rho); got != r {
			t.Errorf("RunThreshold(%v)=%d, spec %d", rho, got, r)
		}
	}
}

// clustering always yields a partition covering every key, each cluster
// holding at least minSize samples (unless there are fewer in all), with
// the BIC-chosen k in range and the best BIC of the eligible k (§2.4).
func TestClusterPartitionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		minSize := rapid.IntRange(1, 80).Draw(t, "minSize")
		kMax := rapid.IntRange(1, 12).Draw(t, "kMax")
		n := rapid.IntRange(0, 1500).Draw(t, "n")
		keys := rapid.Int64Range(1, 300).Draw(t, "keys")
		seed := rapid.Uint64().Draw(t, "seed")
		r := rand.New(rand.NewPCG(seed, 3))
		xs := make([]sample, n)
		for i := range xs {
			k := r.Int64N(keys)
			// waits whose scale depends on the key, so there is structure to find
			xs[i] = sample{Key: k * 7, Wait: int64(r.ExpFloat64() * float64(1+k%5) * 100)}
		}
		c := clusterIntervals(xs, minSize, kMax)
		if c.K != len(c.Uppers)+1 || len(c.Sizes) != c.K || c.N != n {
			t.Fatalf("K %d, uppers %v, sizes %v, N %d", c.K, c.Uppers, c.Sizes, c.N)
		}
		for i := 1; i < len(c.Uppers); i++ {
			if c.Uppers[i] <= c.Uppers[i-1] {
				t.Fatalf("uppers not ascending: %v", c.Uppers)
			}
		}
		sizes := make([]int, c.K)
		for _, x := range xs {
			sizes[c.Index(x.Key)]++
		}
		if !slices.Equal(sizes, c.Sizes) {
			t.Fatalf("sizes by Index %v, reported %v", sizes, c.Sizes)
		}
		if n < minSize {
			if c.K != 1 {
				t.Fatalf("%d samples < minSize %d but K = %d", n, minSize, c.K)
			}
			return
		}
		if c.K < 1 || c.K > min(kMax, n/minSize) {
			t.Fatalf("K = %d outside [1, min(%d, %d/%d)]", c.K, kMax, n, minSize)
		}
		for j, s := range c.Sizes {
			if s < minSize {
				t.Fatalf("cluster %d holds %d < %d", j, s, minSize)
			}
		}
		for k, b := range c.BICs {
			if !math.IsNaN(b) && b > c.BIC {
				t.Fatalf("BIC at k=%d is %v > chosen %v (k=%d)", k+1, b, c.BIC, c.K)
			}
		}
		// The BIC is the exponential log-likelihood of the chosen
		// clusters (waits + 1) less the penalty.
		var logL float64
		sum := make([]float64, c.K)
		for _, x := range xs {
			sum[c.Index(x.Key)] += float64(x.Wait) + 1
		}
		for j := range sum {
			logL += ell(c.Sizes[j], sum[j])
		}
		if math.Abs(logL-c.LogL) > 1e-6*math.Abs(logL) {
			t.Fatalf("logL %v, recomputed %v", c.LogL, logL)
		}
	})
}

// The fast replay after re-clustering ends in the same state as adding
// the waits one by one (Q9).
func TestReplayMatchesAdd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tab := newIndexTable(0.95, 0.95)
		trim := rapid.Bool().Draw(t, "trim")
		ws := rapid.SliceOfN(rapid.Int64Range(0, 5000), 0, 1500).Draw(t, "ws")
		// A level shift part-way makes change points likely.
		shift := rapid.IntRange(0, len(ws)).Draw(t, "shift")
		for i := shift; i < len(ws); i++ {
			ws[i] += 100000
		}
		a, b := testHistory(trim, 59, tab), testHistory(trim, 59, tab)
		for _, w := range ws {
			a.add(w)
		}
		b.replay(ws)
		if !slices.Equal(a.recent, b.recent) || trimState(a) != trimState(b) || a.trims != b.trims {
			t.Fatalf("add: %d values trims %d; replay: %d values trims %d",
				len(a.recent), a.trims, len(b.recent), b.trims)
		}
		ba, oka := a.bound()
		bb, okb := b.bound()
		if ba != bb || oka != okb {
			t.Fatalf("bounds %d/%v vs %d/%v", ba, oka, bb, okb)
		}
	})
}

// Any event sequence, including odd values (negative walltimes as in SWF's
// −1, zero nodes, starts out of order, starts before submits), leaves a
// consistent Predictor: bad events are errors and change nothing, the
// clusters partition the full history, every bound is one of the observed
// waits, Lower ≤ Upper, and a refusal carries a reason.
func TestPredictorAnyEvents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := Config{
			Cluster:        ClusterMode(rapid.IntRange(0, int(numClusterModes)-1).Draw(t, "mode")),
			NoTrim:         rapid.Bool().Draw(t, "notrim"),
			NoAvailability: rapid.Bool().Draw(t, "noavail"),
			ReclusterEvery: rapid.IntRange(0, 200).Draw(t, "every"),
			CountAtRelease: rapid.Bool().Draw(t, "atrelease"),
		}
		p, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}
		now := int64(0)
		lastStart, started, releases := int64(0), false, 0
		steps := rapid.IntRange(0, 800).Draw(t, "steps")
		for range steps {
			now += rapid.Int64Range(-5, 100).Draw(t, "dt")
			nodes := rapid.IntRange(-1, 300).Draw(t, "nodes")
			wall := rapid.Int64Range(-1, 100000).Draw(t, "wall")
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				if err := p.Submit(now); (err != nil) != (now < 0) {
					t.Fatalf("Submit(%d): %v", now, err)
				}
			case 1:
				sub := now - rapid.Int64Range(-10, 5000).Draw(t, "wait")
				err := p.Observe(Observation{Submit: sub, Start: now, Nodes: nodes, Walltime: wall})
				bad := nodes < 0 || wall < 0 || sub < 0 || now < sub || (started && now < lastStart)
				if (err != nil) != bad {
					t.Fatalf("Observe(submit %d, start %d, nodes %d, wall %d) after start %d: %v", sub, now, nodes, wall, lastStart, err)
				}
				if err == nil {
					seen[now-sub] = true
					lastStart, started = now, true
					releases++
				}
			default:
				f := p.Forecast(Request{Nodes: nodes, Walltime: wall})
				if f.OK != (f.Reason == 0) {
					t.Fatalf("forecast %+v", f)
				}
				if f.OK && (!seen[f.Upper] || (f.LowerOK && f.Lower > f.Upper)) {
					t.Fatalf("forecast %+v not an observed wait / inverted", f)
				}
			}
		}
		st := p.Stats()
		total := 0
		for _, c := range p.Clusters() {
			total += c.Jobs
		}
		if total != st.Jobs || st.Jobs+st.DownExcluded != st.Releases || st.Releases != releases || len(p.Clusters()) != st.Clusters {
			t.Fatalf("clusters hold %d, stats %+v", total, st)
		}
	})
}
