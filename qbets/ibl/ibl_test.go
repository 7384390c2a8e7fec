package ibl

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// §4.2 [R] worked example: x = (normal, 64, 3600), y = (development, 128,
// 7200), core range 1024, run-time range 172,800 s, unit weights.
func TestHEOMSpecExample(t *testing.T) {
	kinds := []kind{nominal, linear, linear}
	x := []Value{str("normal"), num(64), num(3600)}
	y := []Value{str("development"), num(128), num(7200)}
	r := []valueRange{{}, {0, 1024}, {0, 172800}}
	got := heom(kinds, x, y, []float64{1, 1, 1}, r)
	if math.Abs(got-1.0021678) > 1e-7 {
		t.Fatalf("HEOM = %.7f, spec 1.0021678", got)
	}
}

func TestHEOMUnknownAndEmptyRange(t *testing.T) {
	kinds := []kind{linear, boolean, linear}
	x := []Value{{}, flag(true), num(5)}
	y := []Value{num(1), flag(false), num(9)}
	r := []valueRange{{0, 10}, {}, {3, 3}}
	// unknown → 1, bools differ → 1, empty range → 0.
	if got := heom(kinds, x, y, []float64{1, 4, 1}, r); math.Abs(got-math.Sqrt(5)) > 1e-12 {
		t.Fatalf("HEOM = %v, want √5", got)
	}
}

// §4.4 worked example: D = (0.1, 0.2, 0.4), waits (600, 1200, 3600) s,
// k = 0.5 → E = 1494.43 s, σ = 1165.73 s, 90% CI ±1923.46 s.
func TestKernelRegressionSpecExample(t *testing.T) {
	nb := []neighbor{{0.1, 600}, {0.2, 1200}, {0.4, 3600}}
	p := estimate(nb, 0.5, 90, false, "mean")
	if math.Abs(p.Wait-1494.43) > 0.01 {
		t.Errorf("E = %.2f, spec 1494.43", p.Wait)
	}
	if math.Abs(p.HalfWidth/1.65-1165.73) > 0.01 {
		t.Errorf("σ = %.2f, spec 1165.73", p.HalfWidth/1.65)
	}
	if math.Abs(p.HalfWidth-1923.46) > 0.02 {
		t.Errorf("half-width = %.2f, spec 1923.46", p.HalfWidth)
	}
}

func TestKernelUnderflowFallsBackToMean(t *testing.T) {
	p := estimate([]neighbor{{100, 10}, {200, 30}}, 0.01, 90, false, "mean")
	if p.Wait != 20 {
		t.Fatalf("E = %v, want the plain mean 20", p.Wait)
	}
}

func TestZTable(t *testing.T) {
	for l, want := range map[int]float64{95: 1.96, 99: 1.96, 90: 1.65, 85: 1.44, 80: 1.28, 75: 1.15, 10: 1.15} {
		if z(l) != want {
			t.Errorf("z(%d) = %v, want %v", l, z(l), want)
		}
	}
}

var oneLinear = []Feature{{"x", "linear"}}

func TestRadiusFallsBackToNearest(t *testing.T) {
	b, err := New(Config{Features: oneLinear, R: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []float64{100, 200, 300} {
		if err := b.Insert(Experience{In: []Value{num(float64(i * 10))}, Wait: w}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := b.Predict([]Value{num(14)}, 90)
	if err != nil {
		t.Fatal(err)
	}
	if p.Neighbors != 1 || p.Wait != 200 {
		t.Fatalf("got %+v, want the single nearest (wait 200)", p)
	}
	// One neighbour has no spread to build an interval from: unbounded
	// (Karnak's +∞ for an undefined σ), under both rules, not ±0.
	for _, empirical := range []bool{false, true} {
		b, _ := New(Config{Features: oneLinear, Empirical: empirical})
		if err := b.Insert(Experience{In: []Value{num(1)}, Wait: 60}); err != nil {
			t.Fatal(err)
		}
		if p, _ := b.Predict([]Value{num(1)}, 90); !math.IsInf(p.HalfWidth, 1) || p.Wait != 60 {
			t.Errorf("empirical %v, one experience: %+v, want wait 60 ± +Inf", empirical, p)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []Config{
		{Weights: []float64{1}}, // Table III has 7 features
		{Features: oneLinear, Weights: []float64{1, 2}},
		{Features: oneLinear, Weights: []float64{-1}},
		{Features: oneLinear, KernelWidth: math.NaN()},
		{Features: oneLinear, R: -1},
		{Features: oneLinear, R: math.NaN()},
		{Features: oneLinear, N: -1},
		{Features: oneLinear, MaxSize: -1},
		{Features: []Feature{{"x", "ordinal"}}},
		{Features: oneLinear, Estimate: "Median"},
		{Features: oneLinear, Estimate: "log"},
	}
	for i, c := range bad {
		if c.Validate() == nil {
			t.Errorf("case %d: %+v validated", i, c)
		}
	}
	if err := (Config{Features: oneLinear}).Validate(); err != nil {
		t.Fatal(err)
	}
}

// Config.Estimate: three neighbours at the same point (equal kernel
// weights) that waited 0 s, 0 s and 10 h. Karnak's mean says 4 h for a
// neighbourhood where most jobs start at once; the geometric mean of the
// waits floored at 60 s says exp((2 ln 60 + ln 36,000) / 3) = 506 s; the
// median says 0. The zero value is Karnak's mean, and so is "mean".
func TestEstimateTargets(t *testing.T) {
	geo := math.Exp((2*math.Log(60) + math.Log(36000)) / 3)
	for _, c := range []struct {
		estimate string
		want     float64
	}{{"", 12000}, {"mean", 12000}, {"geomean", geo}, {"median", 0}} {
		b, err := New(Config{Features: oneLinear, Estimate: c.estimate})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []float64{0, 36000, 0} {
			if err := b.Insert(Experience{In: []Value{num(5)}, Wait: w}); err != nil {
				t.Fatal(err)
			}
		}
		p, err := b.Predict([]Value{num(5)}, 90)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Wait-c.want) > 1e-9*max(1, c.want) {
			t.Errorf("Estimate %q: E = %v, want %v", c.estimate, p.Wait, c.want)
		}
		// z·σ, σ the RMS deviation of the waits from the estimate.
		sigma := math.Sqrt((2*sq(c.want) + sq(36000-c.want)) / 3)
		if math.Abs(p.HalfWidth-1.65*sigma) > 1e-9*sigma {
			t.Errorf("Estimate %q: half-width %v, want 1.65 × %v", c.estimate, p.HalfWidth, sigma)
		}
	}
	if got := (Config{Features: oneLinear}).withDefaults().Estimate; got != "mean" {
		t.Errorf("zero Estimate defaults to %q, want mean", got)
	}
}

// The weighted median follows the kernel weights, not the count: the
// nearest neighbour outweighs the two far ones together.
func TestWeightedMedian(t *testing.T) {
	nb := []neighbor{{0, 100}, {1, 5}, {1, 7}} // weights 1, e^-1, e^-1
	if p := estimate(nb, 1, 90, false, "median"); p.Wait != 100 {
		t.Errorf("median = %v, want 100 (weight 1 > 2/e)", p.Wait)
	}
	nb = []neighbor{{0, 100}, {0, 5}, {0, 7}}
	if p := estimate(nb, 1, 90, false, "median"); p.Wait != 7 {
		t.Errorf("median = %v, want 7", p.Wait)
	}
	// One weight survives, and it is subnormal (exp(-745) = 5e-324):
	// half of it rounds to 0, which the waits of weight 0 below it must
	// not be taken to reach.
	nb = []neighbor{{100, 1}, {math.Sqrt(745), 5}, {200, 0}}
	if p := estimate(nb, 1, 90, false, "median"); p.Wait != 5 {
		t.Errorf("median with one subnormal weight = %v, want 5", p.Wait)
	}
}

func TestPredictErrors(t *testing.T) {
	b, _ := New(Config{Features: oneLinear})
	if _, err := b.Predict([]Value{num(1)}, 90); err != ErrEmpty {
		t.Fatalf("empty base: %v", err)
	}
	if b.Insert(Experience{In: []Value{num(1)}, Wait: -1}) == nil {
		t.Fatal("negative wait accepted")
	}
	if b.Insert(Experience{In: nil, Wait: 1}) == nil {
		t.Fatal("short experience accepted")
	}
	_ = b.Insert(Experience{In: []Value{num(1)}, Wait: 1})
	if _, err := b.Predict([]Value{num(1)}, 100); err == nil {
		t.Fatal("level 100 accepted")
	}
}

// Invariants: the base never exceeds MaxSize; its ranges equal the ranges
// over its current contents (spec K11); the estimate lies within the
// neighbours' waits (floored at 60 s for "geomean"); the half-width is ≥ 0; HEOM is symmetric and obeys
// the triangle inequality.
func TestBaseProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		capacity := rapid.IntRange(1, 20).Draw(t, "max")
		empirical := rapid.Bool().Draw(t, "empirical")
		what := rapid.SampledFrom([]string{"mean", "geomean", "median"}).Draw(t, "estimate")
		b, err := New(Config{Features: []Feature{{"q", "nominal"}, {"x", "linear"}}, MaxSize: capacity, N: rapid.IntRange(1, 10).Draw(t, "n"), Empirical: empirical, Estimate: what})
		if err != nil {
			t.Fatal(err)
		}
		var all []Experience
		for i, n := 0, rapid.IntRange(1, 60).Draw(t, "inserts"); i < n; i++ {
			e := Experience{In: []Value{str(rapid.SampledFrom([]string{"a", "b"}).Draw(t, "q")), num(rapid.Float64Range(-1e6, 1e6).Draw(t, "x"))}, Wait: rapid.Float64Range(0, 1e5).Draw(t, "w")}
			if err := b.Insert(e); err != nil {
				t.Fatal(err)
			}
			all = append(all, e)
		}
		kept := all[max(0, len(all)-capacity):]
		if b.Len() != len(kept) {
			t.Fatalf("Len = %d, want %d", b.Len(), len(kept))
		}
		lo, hi, wlo, whi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, e := range kept {
			lo, hi = math.Min(lo, e.In[1].F), math.Max(hi, e.In[1].F)
			wlo, whi = math.Min(wlo, e.Wait), math.Max(whi, e.Wait)
		}
		if r := b.ranges()[1]; r.Min != lo || r.Max != hi {
			t.Fatalf("range %+v, contents [%v, %v]", r, lo, hi)
		}
		q := []Value{str("a"), num(rapid.Float64Range(-1e6, 1e6).Draw(t, "qx"))}
		p, err := b.Predict(q, rapid.IntRange(10, 95).Draw(t, "level"))
		if err != nil {
			t.Fatal(err)
		}
		if what == "geomean" { // the waits floored at 60 s
			wlo, whi = max(wlo, geoFloor), max(whi, geoFloor)
		}
		if p.Wait < wlo*(1-1e-12)-1e-6 || p.Wait > whi*(1+1e-12)+1e-6 || !(p.HalfWidth >= 0) {
			t.Fatalf("prediction %+v outside waits [%v, %v]", p, wlo, whi)
		}
		kinds, w, r := []kind{nominal, linear}, []float64{1, 0.5}, b.ranges()
		x, y, z := kept[0].In, kept[len(kept)-1].In, q
		dxy, dyx := heom(kinds, x, y, w, r), heom(kinds, y, x, w, r)
		if dxy != dyx || dxy > heom(kinds, x, z, w, r)+heom(kinds, z, y, w, r)+1e-9 {
			t.Fatalf("HEOM not a metric: d(x,y)=%v d(y,x)=%v", dxy, dyx)
		}
	})
}

func TestSystemFeatures(t *testing.T) {
	s := new(System)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Submit(Job{ID: 1, Queue: "normal", User: "u1", Cores: 4, ReqTime: 100, Submit: 0}))
	must(s.Submit(Job{ID: 2, Queue: "normal", User: "u2", Cores: 2, ReqTime: 50, Submit: 1}))
	must(s.Submit(Job{ID: 3, Queue: "normal", User: "u1", Cores: 1, ReqTime: 10, Submit: 2}))
	must(s.Start(1, 10))
	// At t=30 job 1 has run 20 of 100 s: work 4·80; job 2 waits: 2·50.
	q := s.NotQueued(Job{Queue: "normal", Cores: 8, ReqTime: 60}, 30)
	if q[3].F != 3 || q[4].F != 4*80+2*50+1*10 || !q[5].B || q[6].F != 30 {
		t.Fatalf("Table III features %+v", q)
	}
	// Job 3 (user u1): ahead are running 1 (u1) and waiting 2 (u2).
	v, ok := s.Queued(3, 30)
	if !ok || v[6].F != 2 || v[7].F != 320+100 || v[8].F != 1 || v[9].F != 320 {
		t.Fatalf("Table IV features %+v", v)
	}
	if _, ok := s.Queued(1, 30); ok {
		t.Fatal("running job has queued features")
	}
	must(s.End(2))
	must(s.End(1))
	if n, c := s.Running(); n != 0 || c != 0 || len(s.Waiting()) != 1 {
		t.Fatalf("after ends: running %d/%d, waiting %d", n, c, len(s.Waiting()))
	}
	if s.Start(1, 40) == nil || s.Submit(Job{ID: 3}) == nil || s.End(99) == nil {
		t.Fatal("bad transitions accepted")
	}
	// None waiting is an empty list, not nil (encoded as [], not null),
	// on a zero System and on one whose jobs all left.
	must(s.End(3))
	var zero System
	if w, z := s.Waiting(), zero.Waiting(); w == nil || len(w) != 0 || z == nil {
		t.Fatalf("no job waiting: Waiting() = %#v, zero System's %#v, want empty slices", w, z)
	}
}

// Base.distances re-implements HEOM column by column (and branch-free for
// nominal features) for speed; the two must agree on every input,
// including unknown values, a query string the base has never seen, a
// zero weight and a feature whose range is empty or a single point.
func TestDistancesMatchHEOM(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nf := rapid.IntRange(1, 5).Draw(t, "features")
		feats := make([]Feature, nf)
		kinds := make([]kind, nf)
		w := make([]float64, nf)
		for f := range feats {
			kinds[f] = kind(rapid.IntRange(int(linear), int(boolean)).Draw(t, "kind"))
			feats[f] = Feature{Name: fmt.Sprint("f", f), Kind: []string{"linear", "nominal", "bool"}[kinds[f]]}
			w[f] = rapid.SampledFrom([]float64{0, 0.25, 1, 3}).Draw(t, "w")
		}
		capacity := rapid.IntRange(1, 12).Draw(t, "max")
		b, err := New(Config{Features: feats, MaxSize: capacity, Weights: w})
		if err != nil {
			t.Fatal(err)
		}
		value := func(k kind, label string) Value {
			if rapid.IntRange(0, 5).Draw(t, label+"unknown") == 0 {
				return Value{}
			}
			switch k {
			case nominal:
				return str(rapid.SampledFrom([]string{"a", "b", "c", "new"}).Draw(t, label+"s"))
			case boolean:
				return flag(rapid.Bool().Draw(t, label+"b"))
			}
			return num(float64(rapid.IntRange(-3, 3).Draw(t, label+"x")))
		}
		var held []Experience
		for i, n := 0, rapid.IntRange(1, 30).Draw(t, "inserts"); i < n; i++ {
			in := make([]Value, nf)
			for f, k := range kinds {
				in[f] = value(k, "e")
				if in[f].S == "new" {
					in[f].S = "a" // "new" is kept for queries: a string the base never saw
				}
			}
			if err := b.Insert(Experience{In: in, Wait: 1}); err != nil {
				t.Fatal(err)
			}
			held = append(held, Experience{In: in})
		}
		start := max(0, len(held)-capacity)
		q := make([]Value, nf)
		for f, k := range kinds {
			q[f] = value(k, "q")
		}
		d2 := b.distances(q, nil)
		ranges := b.ranges()
		for seq := start; seq < len(held); seq++ {
			want := heom(kinds, held[seq].In, q, w, ranges)
			if got := math.Sqrt(d2[seq%capacity]); math.Abs(got-want) > 1e-12*(1+want) {
				t.Fatalf("experience %d: distances gives %v, HEOM %v (in %+v, query %+v)", seq, got, want, held[seq].In, q)
			}
		}
	})
}

// A nearest neighbour so far away that its kernel weight is subnormal
// (27 kernel widths: exp(-744) = 5e-324) still gives its own wait as the
// estimate: the product of that weight and the wait kept a few bits, and
// a base of the waits 1 and 4.75 answered 5 (TestBaseProperties's rare
// draw: two experiences, N = 1, a query 200 units past the range).
func TestEstimateSubnormalWeights(t *testing.T) {
	b, err := New(Config{Features: []Feature{{"q", "nominal"}, {"x", "linear"}}, MaxSize: 2, N: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Experience{{In: []Value{str("a"), num(6.625)}, Wait: 1}, {In: []Value{str("a"), num(-1.125)}, Wait: 4.75}} {
		if err := b.Insert(e); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := b.Predict([]Value{str("a"), num(-212.5)}, 10); err != nil || p.Wait != 4.75 {
		t.Errorf("estimate %+v (%v), want the nearest wait, 4.75", p, err)
	}
	// Two far neighbours keep their relative weights: e^-1 and 1.
	d := math.Sqrt(740)
	want := (10*math.Exp(-1) + 30) / (math.Exp(-1) + 1)
	if p := estimate([]neighbor{{math.Sqrt(741), 10}, {d, 30}}, 1, 90, false, "mean"); math.Abs(p.Wait-want) > 1e-12*want {
		t.Errorf("two subnormal weights: %v, want %v", p.Wait, want)
	}
}

// The zero Config is the paper's pre-submission base (Table III) with
// the defaults, as a config's zero value is throughout the library; it
// was refused ("Features is empty") while replay.NewIBL took it.
func TestZeroConfigIsTableIII(t *testing.T) {
	b, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := b.Config()
	if fmt.Sprint(c.Features) != fmt.Sprint(NotQueuedFeatures()) || len(c.Weights) != len(c.Features) ||
		c.N != DefaultN || c.MaxSize != DefaultMaxSize || c.KernelWidth != 1 || c.Estimate != "mean" {
		t.Fatalf("zero Config gave %+v, want Table III and the defaults", c)
	}
	var s System
	j := Job{ID: 1, Queue: "normal", Cores: 4, ReqTime: 3600}
	if err := b.Insert(Experience{In: s.NotQueued(j, 0), Wait: 60}); err != nil {
		t.Fatal(err)
	}
}
