package rangeset

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The spec's worked example (§3.6): runtimes {11,12,25,35,55,100}, ranges
// [10,29) [29,40) [50,60) [70,80): raw 3/6, 1/6, 1/6 and one new range →
// 0.54, 0.18, 0.18, 0.10.
func TestAssignProbabilitiesWorkedExample(t *testing.T) {
	rs := Set{{Lo: 10, Hi: 29}, {Lo: 29, Hi: 40}, {Lo: 50, Hi: 60}, {Lo: 70, Hi: 80}}
	assignProbabilities(rs, []float64{11, 12, 25, 35, 55, 100})
	want := []float64{0.54, 0.18, 0.18, 0.10}
	for i, w := range want {
		if math.Abs(rs[i].P-w) > 1e-12 {
			t.Errorf("range %d: P = %v, want %v", i, rs[i].P, w)
		}
	}
	// Point = Σ P·mid = .54·19.5 + .18·34.5 + .18·55 + .1·75.
	if p, w := rs.Point(), 0.54*19.5+0.18*34.5+0.18*55+0.1*75; math.Abs(p-w) > 1e-9 {
		t.Errorf("Point = %v, want %v", p, w)
	}
}

func TestAssignProbabilitiesNoNewOrAllNew(t *testing.T) {
	rs := Set{{Lo: 0, Hi: 10}, {Lo: 10, Hi: 20}}
	assignProbabilities(rs, []float64{1, 2, 15})
	if math.Abs(rs[0].P-2.0/3) > 1e-12 || math.Abs(rs[1].P-1.0/3) > 1e-12 {
		t.Errorf("no new ranges: got %v, want 2/3, 1/3", rs)
	}
	assignProbabilities(rs, []float64{50})
	if rs[0].P != 0.5 || rs[1].P != 0.5 {
		t.Errorf("all new: got %v, want 1/2 each", rs)
	}
}

// Hand-worked merges: the 50% rule against the shorter range, a midpoint
// cut for a residual overlap, zero-length ranges, the 25 cap.
func TestMergeRangesHand(t *testing.T) {
	cases := []struct {
		name string
		in   []Range
		cfg  mergeConfig
		want Set
	}{
		// [0,10) and [4,20): overlap 6 of the shorter 10 = 60% > 50 → merged.
		{"merge", []Range{{Lo: 4, Hi: 20}, {Lo: 0, Hi: 10}}, mergeConfig{}, Set{{Lo: 0, Hi: 20}}},
		// [0,10) and [6,20): overlap 4/10 = 40% → kept, cut at 8.
		{"cut", []Range{{Lo: 0, Hi: 10}, {Lo: 6, Hi: 20}}, mergeConfig{}, Set{{Lo: 0, Hi: 8}, {Lo: 8, Hi: 20}}},
		// Exactly 50% is not "more than 50%": [0,10), [5,15) → cut at 7.5.
		{"fifty", []Range{{Lo: 0, Hi: 10}, {Lo: 5, Hi: 15}}, mergeConfig{}, Set{{Lo: 0, Hi: 7.5}, {Lo: 7.5, Hi: 15}}},
		// A chain: [0,10) absorbs [3,12) (7/9 = 78%), then [11,30): 1/12 → cut at 11.5.
		{"chain", []Range{{Lo: 0, Hi: 10}, {Lo: 3, Hi: 12}, {Lo: 11, Hi: 30}}, mergeConfig{}, Set{{Lo: 0, Hi: 11.5}, {Lo: 11.5, Hi: 30}}},
		// A point inside a range merges; a point outside stays.
		{"points", []Range{{Lo: 5, Hi: 5}, {Lo: 0, Hi: 10}, {Lo: 12, Hi: 12}}, mergeConfig{}, Set{{Lo: 0, Hi: 10}, {Lo: 12, Hi: 12}}},
		// Cap 2: gaps 1 (between 1 and 2) and 5 → merge the first pair.
		{"cap", []Range{{Lo: 0, Hi: 1}, {Lo: 2, Hi: 3}, {Lo: 8, Hi: 9}}, mergeConfig{MaxRanges: 2}, Set{{Lo: 0, Hi: 3}, {Lo: 8, Hi: 9}}},
	}
	for _, c := range cases {
		got, err := mergeRanges(c.in, c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i].Lo != c.want[i].Lo || got[i].Hi != c.want[i].Hi {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

func TestMergeRangesErrors(t *testing.T) {
	if _, err := mergeRanges([]Range{{Lo: 2, Hi: 1}}, mergeConfig{}); err == nil {
		t.Error("Lo > Hi accepted")
	}
	if _, err := mergeRanges(nil, mergeConfig{OverlapPct: 120}); err == nil {
		t.Error("OverlapPct 120 accepted")
	}
}

// Property: whatever the input ranges and history, the merged set is
// sorted, disjoint, capped, and its probabilities sum to 1; every input
// range's start lies in the union's hull.
func TestRangeSetProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(t, "n")
		in := make([]Range, n)
		for i := range in {
			lo := rapid.Float64Range(0, 1000).Draw(t, "lo")
			w := rapid.Float64Range(0, 200).Draw(t, "w")
			if rapid.IntRange(0, 4).Draw(t, "point") == 0 {
				w = 0
			}
			in[i] = Range{Lo: lo, Hi: lo + w}
		}
		cfg := mergeConfig{OverlapPct: rapid.Float64Range(0, 100).Draw(t, "pct"), MaxRanges: rapid.IntRange(0, 30).Draw(t, "cap")}
		rs, err := mergeRanges(in, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if max := cfg.withDefaults().MaxRanges; len(rs) > max {
			t.Fatalf("%d ranges above the cap %d", len(rs), max)
		}
		hist := rapid.SliceOf(rapid.Float64Range(0, 1300)).Draw(t, "hist")
		assignProbabilities(rs, hist)
		if err := rs.Check(1e-9); err != nil {
			t.Fatalf("%v: %v", rs, err)
		}
		lo, hi := rs[0].Lo, rs[len(rs)-1].Hi
		for _, r := range in {
			if r.Lo < lo || r.Hi > hi {
				t.Fatalf("input %v outside the hull [%v, %v]", r, lo, hi)
			}
		}
	})
}

func TestRelevantHistory(t *testing.T) {
	h := new(History)
	k := Key{User: 1, Size: 4}
	// 30 jobs: the oldest has runtime 1000, the rest 100..128: the full
	// range is 999 wide, the last 10 span only 9, so Relevant must reach
	// back to the job that covers 90% of it: the first.
	for i := range 30 {
		r := 100 + float64(i)
		if i == 0 {
			r = 1000
		}
		if err := h.Add(LoadSample{Key: k, Runtime: r, Load: 0.5}); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(h.Relevant(k, Config{})); got != 30 {
		t.Errorf("Relevant = %d jobs, want 30", got)
	}
	if got := len(h.Relevant(k, Config{MaxRelevant: 15})); got != 15 {
		t.Errorf("Relevant with MaxRelevant 15 = %d jobs", got)
	}
	if h.Relevant(Key{User: 2}, Config{}) != nil {
		t.Error("unknown key has a relevant history")
	}
}

// A hand-checked prediction: two load functions runtime = 100·l + 100 and
// runtime = 0·l + 50, one history job at load 0.2 with runtime 150;
// target load 0.6. Shifted: 100·0.6 + 100 + (150 − 120) = 190 and 150.
// Median 170; width 40 > 20% of 170 = 34 → [153, 187).
func TestPredictHand(t *testing.T) {
	h := new(History)
	k := Key{User: 7}
	if err := h.Add(LoadSample{Key: k, Runtime: 150, Load: 0.2}); err != nil {
		t.Fatal(err)
	}
	p := Predictor{Funcs: []LoadFunc{{A: 100, B: 100}, {A: 0, B: 50}}, History: h}
	rs, ok, err := p.Predict(k, 0.6)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if len(rs) != 1 || math.Abs(rs[0].Lo-153) > 1e-9 || math.Abs(rs[0].Hi-187) > 1e-9 || rs[0].P != 1 {
		t.Errorf("got %v, want [153, 187) P=1 (a new range alone gets 1)", rs)
	}
	// RatioShift: 150·160/120 = 200 and 150·50/50 = 150, median 175,
	// narrowed to ±17.5.
	p.Config.RatioShift = true
	rs, ok, err = p.Predict(k, 0.6)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if len(rs) != 1 || math.Abs(rs[0].Lo-157.5) > 1e-9 || math.Abs(rs[0].Hi-192.5) > 1e-9 || rs[0].P != 1 {
		t.Errorf("ratio shift: got %v, want [157.5, 192.5) P=1", rs)
	}
	p.Config.RatioShift = false
	if _, ok, _ := p.Predict(Key{User: 8}, 0.5); ok {
		t.Error("unknown key predicted")
	}
	if _, _, err := p.Predict(k, math.NaN()); err == nil {
		t.Error("NaN load accepted")
	}
}

// Property, end to end: whatever the key's history, the load functions
// (including decreasing ones that shift below zero) and the target load,
// a prediction is a valid range set — sorted, disjoint, at most 25 ranges,
// probabilities summing to 1 — in both shift modes.
func TestRangePredictorProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := new(History)
		k := Key{User: 1, Size: 8}
		n := rapid.IntRange(1, 80).Draw(t, "n")
		for range n {
			s := LoadSample{Key: k, Runtime: rapid.Float64Range(0, 1e5).Draw(t, "run"), Load: rapid.Float64Range(0, 1).Draw(t, "load")}
			if err := h.Add(s); err != nil {
				t.Fatal(err)
			}
		}
		fs := make([]LoadFunc, rapid.IntRange(0, 25).Draw(t, "funcs"))
		for i := range fs {
			fs[i] = LoadFunc{A: rapid.Float64Range(-1e4, 1e5).Draw(t, "a"), B: rapid.Float64Range(-1e3, 1e4).Draw(t, "b")}
		}
		cfg := Config{}
		if rapid.Bool().Draw(t, "ratio") {
			cfg.RatioShift = true
		}
		p := Predictor{Funcs: fs, History: h, Config: cfg}
		rs, ok, err := p.Predict(k, rapid.Float64Range(0, 1).Draw(t, "target load"))
		if err != nil || !ok {
			t.Fatalf("ok %v, err %v", ok, err)
		}
		if len(rs) == 0 || len(rs) > 25 {
			t.Fatalf("%d ranges", len(rs))
		}
		if err := rs.Check(1e-9); err != nil {
			t.Fatalf("%v: %v", rs, err)
		}
		if rs[0].Lo < 0 {
			t.Fatalf("negative runtime range %v", rs[0])
		}
	})
}
