package synth

import (
	"math"
	"testing"

	"github.com/batchq/batchq/swf"
)

type sample struct {
	jobs, serial, pow2 [2]int
	size, run          [2]float64
	lastSubmit         [2]int64
	hour               [2][24]int
	work               float64
	span               int64
}

func collect(t testing.TB, cfg Config, n int) sample {
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var s sample
	for range n {
		j := g.Next()
		q := j.Queue
		s.jobs[q]++
		if j.AllocProcs == 1 {
			s.serial[q]++
		} else if j.AllocProcs&(j.AllocProcs-1) == 0 {
			s.pow2[q]++
		}
		s.size[q] += float64(j.AllocProcs)
		s.run[q] += float64(j.RunTime)
		s.lastSubmit[q] = j.Submit
		s.hour[q][(j.Submit/3600+int64(cfg.StartHour))%24]++
		s.work += float64(j.RunTime * j.AllocProcs)
		s.span = j.Submit
	}
	return s
}

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.5g, spec %.5g (tolerance %.3g)", name, got, want, tol)
	} else {
		t.Logf("%-34s ours %.5g  spec %.5g", name, got, want)
	}
}

// Spec §10.1 (the coded model's analytic values; 10^6 jobs, the spec's
// suggested tolerances: fractions ±0.003, mean size ±1%, mean run time ±3%,
// mean IA ±5%, hourly shares ±0.003).
func TestTypedStatisticsMatchSpec(t *testing.T) {
	if testing.Short() {
		// The spec's tolerances hold for 10^6 jobs; fewer jobs put the
		// daily-cycle shares outside them by sampling error alone.
		t.Skip("needs 10^6 jobs; runs in the normal (non-short) test")
	}
	s := collect(t, Config{Seed: 1}, 1_000_000)
	f := func(a int, b int) float64 { return float64(a) / float64(b) }
	all := s.jobs[0] + s.jobs[1]
	near(t, "serial share batch", f(s.serial[1], s.jobs[1]), 0.2927, 0.003)
	near(t, "serial share interactive", f(s.serial[0], s.jobs[0]), 0.1541, 0.003)
	near(t, "serial share all", f(s.serial[0]+s.serial[1], all), 0.17485, 0.003)
	near(t, "pow2 (≥2) share batch", f(s.pow2[1], s.jobs[1]), 0.67566, 0.003)
	near(t, "pow2 (≥2) share interactive", f(s.pow2[0], s.jobs[0]), 0.69136, 0.003)
	near(t, "pow2 (≥2) share all", f(s.pow2[0]+s.pow2[1], all), 0.68901, 0.003)
	near(t, "mean size batch", s.size[1]/float64(s.jobs[1]), 13.893, 0.01*13.893)
	near(t, "mean size interactive", s.size[0]/float64(s.jobs[0]), 8.045, 0.01*8.045)
	near(t, "mean run time batch", s.run[1]/float64(s.jobs[1]), 9491.8, 0.03*9491.8)
	near(t, "mean run time interactive", s.run[0]/float64(s.jobs[0]), 240.5, 0.03*240.5)
	near(t, "mean run time all", (s.run[0]+s.run[1])/float64(all), 1625.7, 0.03*1625.7)
	near(t, "mean IA batch", float64(s.lastSubmit[1])/float64(s.jobs[1]), 3516.9, 0.05*3516.9)
	near(t, "mean IA interactive", float64(s.lastSubmit[0])/float64(s.jobs[0]), 619.3, 0.05*619.3)
	near(t, "mean IA merged", float64(s.span)/float64(all), 526.6, 0.05*526.6)
	near(t, "offered load on 128", s.work/(128*float64(s.span)), 0.4005, 0.05*0.4005)

	// Daily cycle: a type's share of arrivals in bucket k is w_k/48 (§3.4);
	// the spec's §9 floating-clock figures give the 2-hour windows.
	hours := func(q, from, to int) float64 {
		c := 0
		for h := from; h < to; h++ {
			c += s.hour[q][h]
		}
		return f(c, s.jobs[q])
	}
	near(t, "interactive share 13–15 h", hours(0, 13, 15), 0.1556, 0.003)
	near(t, "batch share 12–14 h", hours(1, 12, 14), 0.1381, 0.003)
	near(t, "interactive share 03–05 h", hours(0, 3, 5), 0.0173, 0.003)
	def := (&Config{}).params()
	for _, q := range []int{0, 1} {
		w := cycleWeights(def[q].ANum, def[q].BNum)
		for h := range 24 {
			want := (w[2*h] + w[2*h+1]) / 48
			if got := hours(q, h, h+1); math.Abs(got-want) > 0.003 {
				t.Errorf("type %d hour %d share %.4f, weights give %.4f", q, h, got, want)
			}
		}
	}
}

func TestTypelessStatisticsMatchSpec(t *testing.T) {
	n := 300_000
	if testing.Short() {
		n = 100_000
	}
	s := collect(t, Config{Typeless: true, Seed: 7}, n)
	if s.jobs[1] != 0 {
		t.Fatalf("typeless mode produced %d batch jobs", s.jobs[1])
	}
	near(t, "typeless serial share", float64(s.serial[0])/float64(n), 0.244, 0.003)
	near(t, "typeless pow2 (≥2) share", float64(s.pow2[0])/float64(n), 0.62507, 0.003)
	near(t, "typeless mean size", s.size[0]/float64(n), 12.134, 0.01*12.134)
	near(t, "typeless mean run time", s.run[0]/float64(n), 4357.5, 0.03*4357.5)
	near(t, "typeless mean IA", float64(s.span)/float64(n), 911.3, 0.05*911.3)
	near(t, "typeless load on 128", s.work/(128*float64(s.span)), 0.7221, 0.05*0.7221)
}

// TargetLoad changes only the arrival shape; the solved factor is pinned
// against the spec's §8 table in TestClosedFormsAgainstSpec. Here the
// realised mean inter-arrival must match the closed form at that factor
// (±5%, the spec's IA tolerance). The realised load is logged, not asserted:
// its sampling error is large (heavy-tailed work); the spec's own 10^6-job
// runs gave 0.695–0.710 for a 0.7 target.
func TestTargetLoad(t *testing.T) {
	for _, rho := range []float64{0.5, 0.9} {
		cfg := Config{Seed: 3, TargetLoad: rho}
		g, _ := New(cfg)
		p := cfg.params()
		k := g.ShapeScale()
		ib := meanInterArrival(p[1].AArr*p[1].ARAR*k, p[1].BArr)
		ii := meanInterArrival(p[0].AArr*p[0].ARAR*k, p[0].BArr)
		s := collect(t, cfg, 300_000)
		n := float64(s.jobs[0] + s.jobs[1])
		near(t, "mean IA merged (closed form)", float64(s.span)/n, 1/(1/ib+1/ii), 0.05/(1/ib+1/ii))
		t.Logf("target load %.2f: factor %.5f, realised load %.4f over %d jobs", rho, k, s.work/(128*float64(s.span)), int(n))
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := New(Config{Seed: 5, Machine: 512})
	b, _ := New(Config{Seed: 5, Machine: 512})
	for range 10000 {
		if x, y := a.Next(), b.Next(); x != y {
			t.Fatalf("same seed differs: %+v vs %+v", x, y)
		}
	}
	_ = swf.Job{}
}
