package qbets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// slot is one stretch of a hand-built event script: arrivals (at distinct
// seconds, or all in one second) followed by releases at distinct seconds.
type slot struct {
	arrivals   int
	sameSecond bool
	releases   int
}

// runSlots feeds cycles repetitions of slots to p and returns the
// MachineDown forecasts among the arrivals of the cycles after warm.
func runSlots(p *Predictor, slots []slot, warm, cycles int) (refused int) {
	var t int64 = 1
	for c := range warm + cycles {
		for _, s := range slots {
			for range s.arrivals {
				p.Submit(t)
				f := p.Forecast(Request{Nodes: 1, Walltime: 60, At: t})
				if c >= warm && f.Reason == MachineDown {
					refused++
				}
				if !s.sameSecond {
					t++
				}
			}
			t++
			for range s.releases {
				p.Observe(Observation{Submit: t, Start: t, Nodes: 1, Walltime: 60})
				t++
			}
		}
	}
	return refused
}

func newReading(t *testing.T, r AvailabilityReading, atRelease bool) *Predictor {
	t.Helper()
	p, err := New(Config{Withhold: true, CountAtRelease: atRelease, Availability: r})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// One interval in 40 holds 41 arrivals, the others one: the count bound
// is 1 (2.5% of the counts are above it, fewer than the 5% a q = 0.95
// bound allows), so each reading refuses a known number of jobs per cycle.
func TestCountReadingsKnownAnswer(t *testing.T) {
	for _, c := range []struct {
		name       string
		r          AvailabilityReading
		atRelease  bool
		sameSecond bool
		want       int // refused per cycle of 80 arrivals
	}{
		{"spec (Q11): arrivals 2..41 of the burst", AvailabilityReading{}, false, false, 40},
		{"PredictFirst: the 2nd arrival is still forecast", AvailabilityReading{PredictFirst: true}, false, false, 39},
		{"CountAtRelease: the one arrival after the burst's release", AvailabilityReading{}, true, false, 1},
		{"CountEvents, burst spread over seconds: as spec", AvailabilityReading{CountEvents: true}, false, false, 40},
		{"CountEvents, burst in one second: one arrival", AvailabilityReading{CountEvents: true}, false, true, 0},
		{"spec, burst in one second: still 40 jobs", AvailabilityReading{}, false, true, 40},
		{"NoCount", AvailabilityReading{NoCount: true}, false, false, 0},
	} {
		c.r.NoGap = true
		p := newReading(t, c.r, c.atRelease)
		slots := []slot{{arrivals: 41, sameSecond: c.sameSecond, releases: 1}}
		for range 39 {
			slots = append(slots, slot{arrivals: 1, releases: 1})
		}
		const cycles = 10
		if got := runSlots(p, slots, 20, cycles); got != c.want*cycles {
			t.Errorf("%s: refused %d in %d cycles, want %d", c.name, got, cycles, c.want*cycles)
		}
	}
}

// Each slot is one arrival and two releases at distinct seconds, except
// one slot in 12 with two arrivals. Spec: half the counts are 0, 1/24 are
// 2, the bound is 1 and the second arrival of that slot is refused.
// MergeReleases drops the zero counts: 1/12 are 2, the bound is 2, and
// nothing is refused.
func TestMergeReleasesKnownAnswer(t *testing.T) {
	slots := []slot{{arrivals: 2, releases: 2}}
	for range 11 {
		slots = append(slots, slot{arrivals: 1, releases: 2})
	}
	for _, c := range []struct {
		merge bool
		want  int
	}{{false, 1}, {true, 0}} {
		p := newReading(t, AvailabilityReading{NoGap: true, MergeReleases: c.merge}, false)
		const cycles = 100
		if got := runSlots(p, slots, 150, cycles); got != c.want*cycles {
			t.Errorf("MergeReleases %v: refused %d in %d cycles, want %d", c.merge, got, cycles, c.want*cycles)
		}
		// The series: 2 values per slot without merging, 1 with (the
		// first release opens the first interval).
		per := 2
		if c.merge {
			per = 1
		}
		if n, want := p.avail.cnt.len(), per*12*250-1; n != want {
			t.Errorf("MergeReleases %v: count series %d values, want %d", c.merge, n, want)
		}
	}
}

// With the gap detector, a merged release event keeps the time of its
// last release, and a DOWN spell still ends at the next release.
func TestMergeReleasesGap(t *testing.T) {
	a := newAvailability(newIndexTable(0.95, 0.95))
	a.setReading(AvailabilityReading{MergeReleases: true, NoCount: true})
	var t0 int64
	for i := range 200 {
		t0 = int64(i) * 100
		a.arrive(t0 + 1)
		a.release(t0 + 10) // interval with an arrival: gap 100 (the first: none)
		a.release(t0 + 50) // no arrival since: merged
	}
	if n := a.gap.len(); n != 199 {
		t.Fatalf("gap series %d values, want 199", n)
	}
	if b, _ := a.gap.bound(); b != 60 {
		t.Fatalf("gap bound %d, want 60 (last release of one event to the first of the next)", b)
	}
	if a.downAt(t0+50+60) || !a.downAt(t0+50+61) {
		t.Fatal("DOWN must start 61 s after the merged event's last release")
	}
}

// poissonRefused replays independent Poisson arrivals and releases of
// equal rate through a and returns the share of arrivals judged DOWN.
func poissonRefused(a *availability, n int, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	const mean = 1e6 // seconds; equal timestamps are then negligible
	next := func(t float64) float64 { return t + rng.ExpFloat64()*mean }
	ta, tr := next(0), next(0)
	refused, seen := 0, 0
	for seen < n {
		if tr < ta {
			a.release(int64(tr))
			tr = next(tr)
			continue
		}
		a.arrive(int64(ta))
		if a.downAt(int64(ta)) {
			refused++
		}
		seen++
		ta = next(ta)
	}
	return float64(refused) / float64(n)
}

// Why the thesis's "< 1%" is out of reach at q = 0.95: on a memoryless
// machine (Poisson arrivals and releases, equal rates) the count since the
// last release is geometric, P(count ≥ k) = 2^−k, so the 0.95 bound is 4
// and the share of arrivals beyond it is Σ_{k≥5} 2^−k / E[count] = 1/16.
// Each reading halves it at most: PredictFirst and CountAtRelease 1/32,
// MergeReleases (counts ≥ 1, bound 5) 1/32, both 1/64. The gap detector
// refuses e^−B/m = 5% (the age of a Poisson process is exponential).
// Untrimmed bounds (the trimmed ones only move after rare runs), 200k
// arrivals, one seed; the tolerance is 10% of the analytic share (the
// measured shares are within 4%).
func TestPoissonRefusalFloor(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 30_000 // and only the two largest shares (the race run)
	}
	for _, c := range []struct {
		name      string
		r         AvailabilityReading
		atRelease bool
		want      float64
	}{
		{"count, spec", AvailabilityReading{NoGap: true}, false, 1.0 / 16},
		{"count, PredictFirst", AvailabilityReading{NoGap: true, PredictFirst: true}, false, 1.0 / 32},
		{"count, CountAtRelease", AvailabilityReading{NoGap: true}, true, 1.0 / 32},
		{"count, MergeReleases", AvailabilityReading{NoGap: true, MergeReleases: true}, false, 1.0 / 32},
		{"count, MergeReleases+PredictFirst", AvailabilityReading{NoGap: true, MergeReleases: true, PredictFirst: true}, false, 1.0 / 64},
		{"gap", AvailabilityReading{NoCount: true}, false, 0.05},
	} {
		if testing.Short() && c.want < 0.05 {
			continue
		}
		c.r.NoTrim = true
		a := newAvailability(newIndexTable(0.95, 0.95))
		a.setReading(c.r)
		a.atRelease = c.atRelease
		got := poissonRefused(a, n, 7)
		t.Logf("%s: refused %.4f, analytic %.4f", c.name, got, c.want)
		if math.Abs(got-c.want) > 0.1*c.want {
			t.Errorf("%s: refused %.4f, analytic %.4f", c.name, got, c.want)
		}
	}
}
