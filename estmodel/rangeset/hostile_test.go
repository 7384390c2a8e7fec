package rangeset

import (
	"math"
	"testing"
)

// Out-of-range inputs are errors or finite answers: huge executions and
// changes (they wrapped busy counts and gave negative loads), a bin width
// so small its bins could not be allocated (a panic), a predictor without
// history (a nil dereference), an infinite load or non-finite load
// functions (an internal "[NaN, NaN)" error).
func TestHostileInputs(t *testing.T) {
	if _, err := NewLoadProfile(10, []Execution{{Start: 0, End: math.MaxInt64, Procs: math.MaxInt64}}); err == nil {
		t.Error("an execution of 2^63 processor-seconds accepted")
	}
	lp, err := NewLoadProfile(10, []Execution{{0, 100, 5}, {50, 150, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if lp.Add(math.MaxInt64, 1) == nil || lp.Add(200, math.MaxInt64) == nil {
		t.Error("Add of 2^63 accepted")
	}
	for _, x := range []float64{lp.Load(math.MinInt64, math.MaxInt64), lp.JobLoad(Execution{math.MinInt64, math.MaxInt64, 3}), lp.Usage(math.MinInt64, math.MaxInt64)} {
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Errorf("a load or usage over the whole int64 line = %v", x)
		}
	}
	if _, err := BuildLoadFuncs(nil, LoadFuncConfig{BinWidth: 1e-300}); err == nil {
		t.Error("BinWidth 1e-300 accepted")
	}
	// An infinite load indexed bin −2^63 (a panic); a huge finite one
	// lands in the last bin.
	var ss []LoadSample
	for i := range 40 {
		ss = append(ss, LoadSample{Runtime: float64(100 + i), Load: float64(i) / 40})
	}
	if _, err := BuildLoadFuncs(append(ss, LoadSample{Runtime: 100, Load: math.Inf(1)}), LoadFuncConfig{}); err == nil {
		t.Error("an infinite load accepted")
	}
	if _, err := BuildLoadFuncs(append(ss, LoadSample{Runtime: 100, Load: 1e300}), LoadFuncConfig{}); err != nil {
		t.Error(err)
	}
	if err := (&History{}).Add(LoadSample{Runtime: 1e300}); err == nil {
		t.Error("a runtime of 1e300 s accepted")
	}
	h := &History{}
	for i := range 30 {
		if err := h.Add(LoadSample{Runtime: float64(100 + i), Load: 0.5}); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]struct {
		p Predictor
		l float64
	}{
		"nil history": {Predictor{}, 0.5},
		"+Inf load":   {Predictor{History: h}, math.Inf(1)},
		"NaN load":    {Predictor{History: h}, math.NaN()},
		"NaN func":    {Predictor{History: h, Funcs: []LoadFunc{{math.NaN(), 1}}}, 0.5},
		"Inf func":    {Predictor{History: h, Funcs: []LoadFunc{{1, math.Inf(-1)}}}, 0.5},
	} {
		if _, _, err := c.p.Predict(Key{}, c.l); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
