package conformal

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

func TestValidate(t *testing.T) {
	for _, c := range []Config{
		{Levels: []float64{0.9, 0.8}}, {Levels: []float64{1}}, {Levels: []float64{0}},
		{Window: -1}, {Gamma: 1}, {Gamma: -0.1}, {Floor: -1}, {Gamma: math.NaN()},
	} {
		if _, err := NewCalibrator(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if _, err := NewCalibrator(Config{}); err != nil {
		t.Fatal(err)
	}
	// Each error names the field (it named four at once, and printed
	// the whole Config).
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Window: -1}, "conformal: Window -1,"}, {Config{MinClass: -2}, "conformal: MinClass -2,"},
		{Config{Gamma: 1}, "conformal: Gamma 1,"}, {Config{Gamma: math.NaN()}, "conformal: Gamma NaN,"},
		{Config{Floor: -1}, "conformal: Floor -1,"}, {Config{Floor: math.Inf(1)}, "conformal: Floor +Inf,"},
		{Config{Floor: math.NaN()}, "conformal: Floor NaN,"},
	} {
		if err := c.cfg.Validate(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error beginning %q", c.cfg, err, c.want)
		}
	}
}

// coverage runs n outcomes through c: point 1000 s, the outcome
// 1000·e^{noise(i)}; it returns the share covered at each level.
func coverage(c *Calibrator, n int, noise func(i int) float64) []float64 {
	hit := make([]float64, len(c.cfg.Levels))
	for i := range n {
		a := 1000 * math.Exp(noise(i))
		for k := range hit {
			lo, hi := c.Interval(0, 1000, k)
			if lo <= a && a <= hi {
				hit[k]++
			}
		}
		c.Update(0, 1000, a)
	}
	for k := range hit {
		hit[k] /= float64(n)
	}
	return hit
}

// Split conformal on exchangeable (i.i.d.) residuals covers at least the
// level (less the sampling error of the share).
func TestSplitCoverageIID(t *testing.T) {
	c, _ := NewCalibrator(Config{Split: true, Floor: 1})
	rng := rand.New(rand.NewPCG(1, 2))
	got := coverage(c, 20000, func(int) float64 { return rng.NormFloat64() })
	for k, l := range c.Levels() {
		if got[k] < l-0.01 || got[k] > l+0.03 {
			t.Errorf("level %.2f: coverage %.4f", l, got[k])
		}
	}
}

// Under drift split conformal on a window lags; the adaptive one keeps
// each level within Gibbs & Candès's bound 2(1+γ)/(γT) — and in practice
// far closer.
func TestAdaptiveCoverageUnderDrift(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 40000
	drift := func(i int) float64 { // the spread triples halfway, the level jumps
		s := 1.0
		if i > n/2 {
			s = 3
		}
		return s*rng.NormFloat64() + 2*math.Sin(float64(i)/3000)
	}
	c, _ := NewCalibrator(Config{Floor: 1})
	got := coverage(c, n, drift)
	bound := 2 * (1 + c.cfg.Gamma) / (c.cfg.Gamma * n)
	for k, l := range c.Levels() {
		if math.Abs(got[k]-l) > bound {
			t.Errorf("level %.2f: coverage %.4f, beyond the bound %.4f", l, got[k], bound)
		}
		if math.Abs(got[k]-l) > 0.01 {
			t.Errorf("level %.2f: coverage %.4f, more than 0.01 off", l, got[k])
		}
	}
}

// Infinite or empty tails keep the adaptive levels bounded: a constant
// outcome far outside the first intervals does not blow them up.
func TestAdaptiveBounded(t *testing.T) {
	c, _ := NewCalibrator(Config{Floor: 1, Window: 50, MinClass: 10})
	for i := range 5000 {
		c.Update(int64(i%3), 1000, 1000*math.Exp(float64(i%7)))
	}
	for _, s := range c.class {
		for _, a := range s.alpha {
			for _, x := range a {
				if x < -c.cfg.Gamma-1e-9 || x > 1+c.cfg.Gamma+1e-9 {
					t.Fatalf("tail level %v outside [−γ, 1+γ]", x)
				}
			}
		}
	}
}

// constant predicts a fixed wait for every job.
type constant float64

func (c constant) Predict(*swf.Job, int64) (replay.Prediction, error) {
	return replay.Prediction{OK: true, Point: float64(c), Lower: math.NaN(), Upper: math.NaN()}, nil
}

// A wrapped predictor replays causally: the calibration sees each wait only
// when its job starts, and its 90% intervals cover about 90% of the jobs.
func TestWrapReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var jobs []swf.Job
	for i := range 20000 {
		w := int64(600 * math.Exp(1.5*rng.NormFloat64()))
		jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: int64(i * 100), Wait: w, RunTime: 100, AllocProcs: 1 + int64(i%16), ReqProcs: -1, ReqTime: 1000})
	}
	c, _ := NewCalibrator(Config{})
	w := Wrap(constant(600), c, nil)
	cs, _ := NewCalibrator(Config{Split: true})
	ws := Wrap(constant(600), cs, nil)
	sc, err := replay.Run(context.Background(), jobs, replay.Options{}, w, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("coverage adaptive %.4f split %.4f", sc[0].Coverage(), sc[1].Coverage())
	if got := sc[0].Coverage(); math.Abs(got-0.9) > 0.015 {
		t.Errorf("coverage %.4f, want 0.90 ± 0.015", got)
	}
	lo, hi := w.Interval(0)
	lo9, hi9 := w.Interval(2)
	if !(lo9 <= lo && hi <= hi9) {
		t.Errorf("50%% interval [%v, %v] not inside the 90%% one [%v, %v]", lo, hi, lo9, hi9)
	}
}

// failing's error ends the replay through the Wrapper.
type failing struct{ constant }

var errBoom = errors.New("boom")

func (failing) Observe(replay.Event, *swf.Job) error { return errBoom }

func TestWrapForwardsObserve(t *testing.T) {
	c, _ := NewCalibrator(Config{})
	w := Wrap(failing{}, c, nil)
	jobs := []swf.Job{{ID: 1, Submit: 0, Wait: 5, RunTime: 1, AllocProcs: 1}}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, w); !errors.Is(err, errBoom) {
		t.Fatalf("error %v, want the inner predictor's", err)
	}
}

// TestWrapDefaultClasses pins the class numbers Wrap's doc gives (0 for
// 1 processor, 1 for 2, 2 for 3–4, 3 for 5–8, …, 64 for a job without a
// size: SWF's −1 or 0 in fields 5 and 8), which a caller needs to ask
// c.Interval about a job the Wrapper was not asked about: the jobs'
// outcomes (waits 10 times the point) must land in their class and no
// other, beside 100 outcomes equal to the point in class 100.
func TestWrapDefaultClasses(t *testing.T) {
	for _, c := range []struct{ size, class int64 }{{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}, {16, 4}, {17, 5}, {-1, 64}, {0, 64}} {
		cal, _ := NewCalibrator(Config{MinClass: 1, Split: true, Levels: []float64{0.5}})
		for range 100 {
			cal.Update(100, 600, 600)
		}
		w := Wrap(constant(600), cal, nil)
		for id := range int64(20) {
			j := swf.Job{ID: id, Submit: 0, Wait: 6000, RunTime: 1, AllocProcs: c.size, ReqProcs: -1}
			if _, err := w.Predict(&j, 0); err != nil {
				t.Fatal(err)
			}
			if err := w.Observe(replay.Start, &j); err != nil {
				t.Fatal(err)
			}
		}
		for _, class := range []int64{0, 1, 2, 3, 4, 5, 6, 63, 64, -1} {
			lo, _ := cal.Interval(class, 600, 0)
			if got, want := lo > 600, class == c.class; got != want {
				t.Errorf("size %d: class %d has the outcomes: %v, want %v (lower end %v)", c.size, class, got, want, lo)
			}
		}
	}
}
