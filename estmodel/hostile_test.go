package estmodel

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// A nil random source is an error from every function that draws (it
// used to panic), and −1 from the Estimate methods, which return no error.
func TestNilRand(t *testing.T) {
	cfg := ModalConfig{N: 100, EMax: 7200}
	if _, err := Generate(cfg, nil); err == nil {
		t.Error("Generate(cfg, nil): no error")
	}
	jobs := func() []swf.Job {
		js := make([]swf.Job, 100)
		for i := range js {
			js[i] = swf.Job{ID: int64(i + 1), RunTime: int64(60 * i), ReqTime: int64(60*i + 30)}
		}
		return js
	}
	for name, m := range map[string]interface {
		Apply([]swf.Job, *rand.Rand) error
	}{"Modal": Modal{}, "FModel": FModel{F: 1}, "PhiModel": PhiModel{}} {
		if err := m.Apply(jobs(), nil); err == nil {
			t.Errorf("%s.Apply(jobs, nil): no error", name)
		}
	}
	if err := (FModel{F: 1, Deterministic: true}).Apply(jobs(), nil); err != nil {
		t.Errorf("the deterministic f-model needs no rng: %v", err)
	}
	d, err := Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Assign(jobs(), AssignConfig{}, nil); err == nil {
		t.Error("Assign with a nil rng: no error")
	}
	if _, err := (*Distribution)(nil).Assign(jobs(), AssignConfig{}, rand.New(rand.NewPCG(1, 2))); err == nil {
		t.Error("Assign with a nil Distribution: no error")
	}
	if _, err := Shuffle(jobs(), AssignConfig{}, nil); err == nil {
		t.Error("Shuffle(…, nil): no error")
	}
	if e := (FModel{F: 1}).Estimate(100, nil); e != -1 {
		t.Errorf("FModel.Estimate(100, nil) = %d, want -1", e)
	}
	if e := (PhiModel{}).Estimate(100, nil); e != -1 {
		t.Errorf("PhiModel.Estimate(100, nil) = %d, want -1", e)
	}
}

// Estimate of an invalid model or a negative run time is −1, never a
// wrapped −2^63 or a negative estimate.
func TestEstimateBadInput(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, m := range []FModel{{F: math.NaN()}, {F: math.Inf(1)}, {F: -1}, {F: math.NaN(), Deterministic: true}, {EMax: -5}} {
		if e := m.Estimate(100, r); e != -1 {
			t.Errorf("%+v.Estimate(100) = %d, want -1", m, e)
		}
	}
	for _, m := range []PhiModel{{Phi: math.NaN()}, {Phi: 2}, {EMax: -1}} {
		if e := m.Estimate(100, r); e != -1 {
			t.Errorf("%+v.Estimate(100) = %d, want -1", m, e)
		}
	}
	if e := (FModel{F: 1}).Estimate(-7, r); e != -1 {
		t.Errorf("FModel.Estimate(-7) = %d", e)
	}
	if e := (PhiModel{}).Estimate(-7, r); e != -1 {
		t.Errorf("PhiModel.Estimate(-7) = %d", e)
	}
	for _, m := range []FModel{{F: 1e300}, {F: 1e300, Deterministic: true}} {
		if e := m.Estimate(math.MaxInt64, r); e < math.MaxInt32 {
			t.Errorf("%+v.Estimate(MaxInt64) = %d", m, e)
		}
	}
	if e := (PhiModel{Phi: -1}).Estimate(math.MaxInt64, r); e < math.MaxInt32 {
		t.Errorf("PhiModel.Estimate(MaxInt64) = %d", e)
	}
	// Both models draw e ≥ r: run times above 2^52 s got the saturated
	// 2^52, an estimate below the run time.
	for _, run := range []int64{1<<52 + 1, 1 << 60, math.MaxInt64} {
		for _, m := range []interface {
			Estimate(int64, *rand.Rand) int64
		}{FModel{F: 1}, FModel{F: 3, Deterministic: true}, FModel{}, PhiModel{}, PhiModel{Phi: 1}} {
			if e := m.Estimate(run, r); e < run {
				t.Errorf("%+v.Estimate(%d) = %d, below the run time", m, run, e)
			}
		}
	}
}

// NaN or infinite user-bin percentages, more distinct estimates than
// jobs, and sizes whose generation would not finish are configuration
// errors (a NaN percentage used to pass, K = 2^40 and N = 2^40 with the
// extrapolated or power K model used to hang).
func TestModalConfigRejects(t *testing.T) {
	for _, c := range []ModalConfig{
		{N: 1000, EMax: 3600, Bins: []UserBin{{Time: 60, Percent: math.NaN()}}},
		{N: 1000, EMax: 3600, Bins: []UserBin{{Time: 60, Percent: math.Inf(1)}}},
		{N: 1000, EMax: 3600, K: 1001},
		{N: 1000, EMax: 3600, K: 1 << 40},
		{N: 1 << 40, EMax: 3600, KExtrapolate: true},
		{N: 1 << 40, EMax: 3600, KPower: true},
		{N: math.MaxInt, EMax: 3600},
		// Four bins of 2^62 jobs sum to 2^64, which wrapped to 0 ≤ N: the
		// distribution's bins held 2^62 jobs each for N = 1000.
		{N: 1000, EMax: 36000, Bins: []UserBin{{Time: 3600, Jobs: 1 << 62}, {Time: 7200, Jobs: 1 << 62}, {Time: 1800, Jobs: 1 << 62}, {Time: 900, Jobs: 1 << 62}}},
		{N: 1000, EMax: 36000, Bins: []UserBin{{Time: 3600, Jobs: math.MaxInt}, {Time: 7200, Jobs: math.MaxInt}, {Time: 1800, Jobs: 2}}},
	} {
		done := make(chan error, 1)
		go func() { _, err := Generate(c, rand.New(rand.NewPCG(1, 2))); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%+v: accepted", c)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%+v: no answer in 10 s", c)
		}
	}
}

// Over random valid configurations, E_max up to 2^63−1 included, every
// bin lies in (0, E_max], bins ascend, and the jobs add up to N: no
// arithmetic wraps.
func TestGenerateRangeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 20000).Draw(t, "n")
		logE := rapid.Float64Range(math.Log(3600), math.Log(math.MaxInt64/2)).Draw(t, "logEMax")
		emax := max(int64(math.Exp(logE)), 3600)
		if rapid.Bool().Draw(t, "top") {
			emax = math.MaxInt64
		}
		cfg := ModalConfig{N: n, EMax: emax, KPower: rapid.Bool().Draw(t, "power"), KExtrapolate: rapid.Bool().Draw(t, "extra"),
			ThesisTail: rapid.Bool().Draw(t, "thesisTail"), ThesisParams: rapid.Bool().Draw(t, "thesisParams")}
		if rapid.Bool().Draw(t, "fixK") {
			cfg.K = rapid.IntRange(1, min(n, 2000)).Draw(t, "k")
		}
		d, err := Generate(cfg, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)))
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for i, b := range d.Bins {
			if b.Time <= 0 || b.Time > emax || b.Jobs < 0 {
				t.Fatalf("bin %d: %+v outside (0, %d]", i, b, emax)
			}
			if i > 0 && b.Time <= d.Bins[i-1].Time {
				t.Fatalf("bins not ascending at %d: %d after %d", i, b.Time, d.Bins[i-1].Time)
			}
			sum += b.Jobs
		}
		if sum != n {
			t.Fatalf("jobs sum to %d, want %d", sum, n)
		}
	})
}

// A Distribution built by hand with negative, non-positive-time or
// overflowing bins is refused by Assign (2^63 jobs in one bin ran out of
// memory), and Estimates never returns more than N values.
func TestAssignHandBuiltDistribution(t *testing.T) {
	jobs := make([]swf.Job, 3)
	for i := range jobs {
		jobs[i] = swf.Job{ID: int64(i), RunTime: 100}
	}
	r := rand.New(rand.NewPCG(1, 1))
	for name, d := range map[string]*Distribution{
		"short":         {N: 3, Bins: []Bin{{Time: 60, Jobs: 1}}},
		"negative jobs": {N: 3, Bins: []Bin{{Time: 60, Jobs: -5}, {Time: 120, Jobs: 8}}},
		"2^63 jobs":     {N: 3, Bins: []Bin{{Time: 60, Jobs: math.MaxInt}}},
		"negative time": {N: 3, Bins: []Bin{{Time: -60, Jobs: 3}}},
	} {
		if rep, err := d.Assign(append([]swf.Job(nil), jobs...), AssignConfig{}, r); err == nil {
			t.Errorf("%s: %+v, no error", name, rep)
		}
	}
	d := &Distribution{N: 5, Bins: []Bin{{Time: 60, Jobs: math.MaxInt}, {Time: 120, Jobs: math.MaxInt}}}
	if n := len(d.Estimates()); n != 5 {
		t.Errorf("Estimates of a hand-built distribution: %d values, want N = 5", n)
	}
}

// An E_max below one hour is ErrShortEMax, which a caller offers a longer
// E_max or another model for (examples/estimates), with the value said.
func TestShortEMaxTyped(t *testing.T) {
	_, err := Generate(ModalConfig{N: 10, EMax: 1800}, rand.New(rand.NewPCG(1, 2)))
	if !errors.Is(err, ErrShortEMax) || err.Error() != "estmodel: E_max = 1800 s is below one hour" {
		t.Errorf("E_max 1800 s: %v; want ErrShortEMax, the text as before", err)
	}
	if _, err := Generate(ModalConfig{N: 10, EMax: 3600, Bins: make([]UserBin, 21)}, rand.New(rand.NewPCG(1, 2))); errors.Is(err, ErrShortEMax) {
		t.Errorf("21 user bins: %v is ErrShortEMax", err)
	}
}
