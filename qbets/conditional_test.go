package qbets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ForecastWaited at waited = 0 is Forecast and ProbWithin; at a wait
// longer than most it bounds the rest of the wait from the longer waits
// only, where the total-wait question said "at once"; and on waits that
// are i.i.d. the conditional bound covers the rest of the wait of jobs
// that have waited at least as often as it promises.
func TestForecastWaited(t *testing.T) {
	p, err := New(Config{NoTrim: true, Cluster: ClusterNone, NoAvailability: true})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// Waits from a log-normal (heavy tail: the longer a job waited, the
	// longer it will wait), as queues show.
	wait := func() int64 { return int64(math.Exp(6 + 2*rng.NormFloat64())) }
	at := int64(0)
	for range 4000 {
		w := wait()
		if err := p.Observe(Observation{Submit: at, Start: at + w, Nodes: 1, Walltime: 60}); err != nil {
			t.Fatal(err)
		}
		at += w
	}
	r := Request{Nodes: 1, Walltime: 60}
	f0 := p.Forecast(r)
	fw, pw, ok := p.ForecastWaited(r, 0, 600)
	pu, _ := p.ProbWithin(1, 60, 600)
	if !ok || fw != f0 || pw != pu {
		t.Fatalf("waited 0: %+v %v, want %+v %v", fw, pw, f0, pu)
	}
	long := f0.Upper // a job that has waited as long as the 95% bound
	fl, pl, ok := p.ForecastWaited(r, long, 3600)
	pTotal, _ := p.ProbWithin(1, 60, long+3600)
	if !ok || !fl.OK || fl.Upper <= 0 || fl.History >= f0.History || pl >= pTotal {
		t.Fatalf("after %d s: %+v, P(within 1 h more) %v (total-wait reading %v)", long, fl, pl, pTotal)
	}
	t.Logf("after %d s (the 95%% bound): rest ≤ %d s from %d waits; P(start within 1 h more) %.2f, where the total-wait reading said %.2f", long, fl.Upper, fl.History, pl, pTotal)
	// Coverage: fresh jobs from the same distribution that have waited
	// at least w; the rest of their wait is within the bound.
	for _, w := range []int64{60, 1800, 4 * 3600} {
		f, _, _ := p.ForecastWaited(r, w, 0)
		if !f.OK {
			continue
		}
		in, n := 0, 0
		for n < 4000 {
			x := wait()
			if x < w {
				continue
			}
			n++
			if x-w <= f.Upper {
				in++
			}
		}
		if cov := float64(in) / float64(n); cov < 0.93 {
			t.Errorf("waited %d s: the conditional bound %d covers %.3f of the rest, want ≥ 0.95 (about)", w, f.Upper, cov)
		}
	}
	for _, bad := range [][2]int64{{-1, 0}, {0, -1}} {
		if f, _, ok := p.ForecastWaited(r, bad[0], bad[1]); f.OK || ok || f.Reason != BadRequest {
			t.Errorf("%v: %+v %v", bad, f, ok)
		}
	}
	if _, pr, ok := p.ForecastWaited(r, 1<<40, math.MaxInt64); !ok && pr != 0 {
		t.Errorf("beyond every wait: %v %v", pr, ok)
	}
}
