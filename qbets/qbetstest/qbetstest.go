// Package qbetstest checks user implementations of the qbets plug points
// against the properties the Predictor relies on, as pgregory.net/rapid
// properties: Trimmer (what the Predictor needs of any change-point
// detector, spec qbets-varq-coalloc §2.3: not the thesis's own choices of
// when and how far to trim), Clusterer (a fitted partition
// maps every request to exactly one box, §2.4) and Coverage (a Predictor
// built with them still bounds the q-quantile with confidence C on
// independent waits, §2.1). Call them from a test:
//
//	func TestMyTrimmer(t *testing.T) { qbetstest.Trimmer(t, NewMyTrimmer) }
//
// The package's own tests run every check on the built-ins.
package qbetstest

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/batchq/batchq/qbets"
	"pgregory.net/rapid"
)

// Levels are the (q, C) pairs the checks draw from: q, C ∈ {0.5, 0.9,
// 0.95, 0.99}.
var levels = []float64{0.5, 0.9, 0.95, 0.99}

// Trimmer checks a Trimmer factory against what the Predictor needs of
// any Trimmer (qbets.Trimmer's contract), on random wait series (level
// shifts included, so change points happen) fed the way the Predictor
// feeds it, each wait with whether it exceeded the Binomial-Method upper
// bound of the history before it:
//
//   - Observe never answers a negative count (0 keeps all; a count below
//     the minimum history is raised to it by the Predictor);
//   - it is deterministic: two fresh trimmers answer a series alike, which
//     restoring a saved Predictor relies on (it feeds the kept history to
//     a fresh trimmer);
//   - Reset forgets: after Reset the trimmer answers a series exactly as a
//     fresh one does.
//
// It does not check how or when a trimmer trims: that is the trimmer's
// method. The thesis's choices (trim to exactly the minimum history, and
// only after a run of at least 3 misses, once per 8000 independent waits)
// are properties of qbets.RunLength, checked by this package's own tests,
// not requirements of a Trimmer.
func Trimmer(t *testing.T, newTrimmer func(minHistory int) qbets.Trimmer) {
	t.Helper()
	checkTrimmer(t, newTrimmer, false)
}

// checkTrimmer is Trimmer; with thesis it also checks the thesis's
// trimming choices (RunLength's).
func checkTrimmer(t *testing.T, newTrimmer func(minHistory int) qbets.Trimmer, thesis bool) {
	t.Helper()
	rapid.Check(t, func(t *rapid.T) {
		q := rapid.SampledFrom(levels).Draw(t, "q")
		c := rapid.SampledFrom(levels).Draw(t, "C")
		nMin := qbets.Level{Quantile: q, Confidence: c}.MinHistory()
		ws := series(t, nMin)
		tr := newTrimmer(nMin)
		first := feedTrimmer(t, tr, ws, nMin, q, c, thesis)
		tr.Reset()
		if again := feedTrimmer(t, tr, ws, nMin, q, c, thesis); !slices.Equal(first, again) {
			t.Fatalf("after Reset the trimmer answers %v, fresh %v", again, first)
		}
		fresh := feedTrimmer(t, newTrimmer(nMin), ws, nMin, q, c, thesis)
		if !slices.Equal(first, fresh) {
			t.Fatalf("two fresh trimmers answer %v and %v", first, fresh)
		}
	})
}

// series draws a wait series long enough for change points: a stationary
// stretch, then level shifts.
func series(t *rapid.T, nMin int) []int64 {
	n := rapid.IntRange(nMin, 6*nMin+200).Draw(t, "n")
	r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	shift := rapid.IntRange(0, n).Draw(t, "shift")
	factor := rapid.Float64Range(1, 1000).Draw(t, "factor")
	rho := rapid.Float64Range(0, 0.9).Draw(t, "rho")
	ws := make([]int64, n)
	x := r.NormFloat64()
	for i := range ws {
		x = rho*x + math.Sqrt(1-rho*rho)*r.NormFloat64()
		v := 100 * math.Exp(x)
		if i >= shift {
			v *= factor
		}
		ws[i] = int64(v)
	}
	return ws
}

// feedTrimmer feeds ws to tr as the Predictor does (a trim keeps
// max(keep, nMin) waits), checks the invariants and returns each trim as
// its index and count. With thesis it also checks the thesis's choices.
func feedTrimmer(t *rapid.T, tr qbets.Trimmer, ws []int64, nMin int, q, c float64, thesis bool) [][2]int {
	var hist, sorted []int64
	var trims [][2]int
	run := 0
	lv := qbets.Level{Quantile: q, Confidence: c}
	for i, w := range ws {
		miss := false
		if k, ok := lv.UpperIndex(len(sorted)); ok {
			miss = w > sorted[k-1]
		}
		if miss {
			run++
		} else {
			run = 0
		}
		hist = append(hist, w)
		j, _ := slices.BinarySearch(sorted, w)
		sorted = slices.Insert(sorted, j, w)
		keep := tr.Observe(w, miss)
		switch {
		case keep < 0:
			t.Fatalf("wait %d: keep %d; a Trimmer answers 0 (keep all) or a positive count", i, keep)
		case keep == 0:
			continue
		case thesis && keep != nMin:
			t.Fatalf("wait %d: keep %d; the thesis trims to exactly the minimum history %d", i, keep, nMin)
		case thesis && run < 3:
			t.Fatalf("wait %d: trimmed after a run of %d misses; the thesis's change point needs a run of at least 3", i, run)
		}
		trims = append(trims, [2]int{i, keep})
		run = 0
		if n := max(keep, nMin); len(hist) > n {
			hist = slices.Clone(hist[len(hist)-n:])
			sorted = slices.Sorted(slices.Values(hist))
		}
	}
	return trims
}

// Clusterer checks a Clusterer on random job histories: Fit leaves the
// jobs unchanged and is deterministic, the partition has at least one
// cluster, and every request (nodes ≥ 0, walltime ≥ 0) maps to a cluster
// in range whose box contains it and no other box does.
func Clusterer(t *testing.T, c qbets.Clusterer) {
	t.Helper()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3000).Draw(t, "jobs")
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
		jobs := make([]qbets.Observation, n)
		for i := range jobs {
			nodes := 1 << r.IntN(10)
			if r.IntN(5) == 0 {
				nodes = r.IntN(1100)
			}
			wall := int64(r.IntN(48)+1) * 1800
			if r.IntN(7) == 0 {
				wall = r.Int64N(200000)
			}
			w := int64(r.ExpFloat64() * float64(nodes*10+int(wall)/100))
			jobs[i] = qbets.Observation{Submit: int64(i), Start: int64(i) + w, Nodes: nodes, Walltime: wall}
		}
		minSize := qbets.Level{Quantile: rapid.SampledFrom(levels).Draw(t, "q"), Confidence: rapid.SampledFrom(levels).Draw(t, "C")}.MinHistory()
		keep := slices.Clone(jobs)
		p := c.Fit(jobs, minSize)
		if !slices.Equal(jobs, keep) {
			t.Fatal("Fit modified the jobs")
		}
		if p == nil {
			t.Fatal("Fit returned a nil Partition")
		}
		boxes := p.Boxes()
		if len(boxes) == 0 {
			t.Fatal("a partition without clusters")
		}
		if again := c.Fit(jobs, minSize).Boxes(); !reflect.DeepEqual(again, boxes) {
			t.Fatalf("Fit is not deterministic: %v then %v", boxes, again)
		}
		check := func(nodes int, wall int64) {
			k := p.Cluster(nodes, wall)
			if k < 0 || k >= len(boxes) {
				t.Fatalf("Cluster(%d, %d) = %d, not in [0, %d)", nodes, wall, k, len(boxes))
			}
			for i, b := range boxes {
				if b.Contains(nodes, wall) != (i == k) {
					t.Fatalf("Cluster(%d, %d) = %d, but box %d %v contains it: %v", nodes, wall, k, i, b, b.Contains(nodes, wall))
				}
			}
		}
		for _, j := range jobs[:min(len(jobs), 200)] {
			check(j.Nodes, j.Walltime)
		}
		for range 100 {
			check(rapid.IntRange(0, 1<<20).Draw(t, "nodes"), rapid.Int64Range(0, 1<<40).Draw(t, "wall"))
		}
		check(0, 0)
		check(math.MaxInt32, math.MaxInt64)
	})
}

// Coverage checks that a Predictor made from cfg (with Quantile and
// Confidence drawn from {0.5, 0.9, 0.95, 0.99}, and the other fields as
// given: a user's Trimmer or Clusterer, say) keeps the promise of the
// Binomial Method on independent waits: over many fresh histories, the
// upper bound is at least the true q-quantile, and the lower bound at
// most it, in a share at least C of them (a shortfall as unlikely as 1e-6
// under an exact binomial test fails it, per case and over all cases
// together).
func Coverage(t *testing.T, cfg qbets.Config) {
	t.Helper()
	type tally struct{ up, upN, lo, loN int }
	totals := map[[2]float64]*tally{}
	rapid.Check(t, func(t *rapid.T) {
		q := rapid.SampledFrom(levels).Draw(t, "q")
		c := rapid.SampledFrom(levels).Draw(t, "C")
		cf := cfg
		cf.Quantile, cf.Confidence, cf.Levels = q, c, nil
		nMin := qbets.Level{Quantile: q, Confidence: c}.MinHistory()
		n := rapid.IntRange(nMin, 2*nMin+50).Draw(t, "n")
		scale := rapid.Float64Range(10, 1e5).Draw(t, "scale")
		seed := rapid.Uint64().Draw(t, "seed")
		// Waits are ⌊scale·E⌋ with E exponential: their q-quantile is
		// ⌊scale·(−ln(1−q))⌋ up to the atom at that integer, so a bound
		// covers iff it is ≥ the real quantile's floor (upper) or ≤ its
		// ceiling (lower).
		xq := scale * -math.Log(1-q)
		const trials = 60
		var s tally
		for tr := range trials {
			p, err := qbets.New(cf)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, uint64(tr)))
			for i := range n {
				w := int64(scale * r.ExpFloat64())
				start := int64(i) + 1<<40 // starts in order, every second
				if err := p.Observe(qbets.Observation{Submit: start - w, Start: start}); err != nil {
					t.Fatal(err)
				}
			}
			f := p.Forecast(qbets.Request{At: int64(n) + 1<<40})
			if f.OK {
				s.upN++
				if float64(f.Upper) >= math.Floor(xq) {
					s.up++
				}
			}
			if f.LowerOK {
				s.loN++
				if float64(f.Lower) <= math.Ceil(xq) {
					s.lo++
				}
			}
		}
		if s.upN < trials {
			t.Fatalf("q %v C %v n %d: %d of %d histories have no upper bound", q, c, n, trials-s.upN, trials)
		}
		coverOK(t, "upper", q, c, s.up, s.upN)
		coverOK(t, "lower", q, c, s.lo, s.loN)
		k := [2]float64{q, c}
		if totals[k] == nil {
			totals[k] = &tally{}
		}
		tt := totals[k]
		tt.up, tt.upN, tt.lo, tt.loN = tt.up+s.up, tt.upN+s.upN, tt.lo+s.lo, tt.loN+s.loN
	})
	for k, s := range totals {
		coverOK(t, "upper, all cases", k[0], k[1], s.up, s.upN)
		coverOK(t, "lower, all cases", k[0], k[1], s.lo, s.loN)
	}
}

// coverOK fails tb when covering only covered of n would happen with
// probability below 1e-6 if each covered with probability c.
func coverOK(tb interface{ Fatalf(string, ...any) }, what string, q, c float64, covered, n int) {
	if n == 0 {
		return
	}
	// The exact binomial tail, not a normal approximation: at C = 0.99 and
	// 60 histories, 4 misses are not rare (P ≈ 0.003) although they fall
	// 4 standard errors below C. A bound that keeps its promise fails here
	// with probability at most 1e-6 per check.
	if p := binomialCDF(covered, n, c); p < 1e-6 {
		tb.Fatalf("%s bound at q %v C %v covers the quantile in %d of %d histories (P = %.2g if it covered a share C)", what, q, c, covered, n, p)
	}
}

// binomialCDF is P(X ≤ k) for X ~ Binomial(n, p), as the regularized
// incomplete beta function I_{1−p}(n−k, k+1).
func binomialCDF(k, n int, p float64) float64 {
	if k >= n {
		return 1
	}
	return mathext.RegIncBeta(float64(n-k), float64(k+1), 1-p)
}
