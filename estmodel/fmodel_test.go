package estmodel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// Requested bins are honoured: each user bin gets its job count exactly (its
// percentage of N, rounded), the head without user bins holds H of the jobs
// within rounding, and the whole distribution sums to N.
func TestGenerateMatchesBinsRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(500, 200000).Draw(t, "n")
		eMax := rapid.Int64Range(2, 72).Draw(t, "hours") * hour
		nb := rapid.IntRange(0, 5).Draw(t, "bins")
		cfg := ModalConfig{N: n, EMax: eMax}
		used := map[int64]bool{}
		total := 0.0
		for range nb {
			tm := rapid.Int64Range(1, eMax).Draw(t, "time")
			pct := rapid.Float64Range(0.5, 15).Draw(t, "pct")
			if used[tm] {
				continue
			}
			used[tm] = true
			total += pct
			cfg.Bins = append(cfg.Bins, UserBin{Time: tm, Percent: pct})
		}
		d, err := Generate(cfg, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0)))
		if err != nil {
			t.Fatal(err)
		}
		sumJobs, headJobs := 0, 0
		for _, b := range d.Bins {
			sumJobs += b.Jobs
			if b.Head {
				headJobs += b.Jobs
			}
		}
		if sumJobs != n {
			t.Fatalf("counts sum to %d, want %d", sumJobs, n)
		}
		for _, u := range cfg.Bins {
			want := int(math.Round(u.Percent * float64(n) / 100))
			found := false
			for _, b := range d.Bins {
				if b.Time == u.Time {
					found = true
					if b.Jobs != want {
						t.Fatalf("bin %v: %d jobs, want %d", u, b.Jobs, want)
					}
				}
			}
			if !found {
				t.Fatalf("user bin %v missing", u)
			}
		}
		// The head holds H = 89% up to one job per bin of rounding.
		if total < 89 && len(d.Bins) > len(d.HeadTimes) {
			got := 100 * float64(headJobs) / float64(n)
			if math.Abs(got-89) > 100*float64(len(d.Bins))/float64(n)+0.5 {
				t.Fatalf("head holds %.2f%% of jobs, want 89%%", got)
			}
		}
	})
}

func TestFModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const r, n = 1000, 200000
	for _, f := range []float64{0, 1, 3, 10} {
		m := FModel{F: f}
		sum, sum2 := 0.0, 0.0
		for range n {
			e := m.Estimate(r, rng)
			if e < r || float64(e) > (f+1)*r+0.5 {
				t.Fatalf("f=%g: estimate %d outside [r, (f+1)r]", f, e)
			}
			x := float64(e)/r - 1 // U[0, f]
			sum += x
			sum2 += x * x
		}
		mean := sum / n
		// U[0,f]: mean f/2, sd f/√12; allow 5 standard errors.
		if se := f / math.Sqrt(12) / math.Sqrt(n); math.Abs(mean-f/2) > 5*se+1e-3 {
			t.Errorf("f=%g: mean (e/r − 1) = %.4f, want %.4f", f, mean, f/2)
		}
		if v := sum2/n - mean*mean; math.Abs(v-f*f/12) > 0.02*f*f/12+1e-3 {
			t.Errorf("f=%g: variance %.4f, want %.4f", f, v, f*f/12)
		}
		if d := (FModel{F: f, Deterministic: true}).Estimate(r, rng); d != int64((f+1)*r) {
			t.Errorf("deterministic f=%g: %d", f, d)
		}
	}
	if e := (FModel{F: 100, Deterministic: true, EMax: 5000}).Estimate(r, rng); e != 5000 {
		t.Errorf("truncated: %d, want E_max", e)
	}
	if (FModel{F: -1}).Validate() == nil || (FModel{F: math.NaN()}).Validate() == nil {
		t.Error("bad f accepted")
	}
	jobs := []swf.Job{{RunTime: 100, ReqTime: 50}, {RunTime: -1, ReqTime: -1}}
	if err := (FModel{F: 1, Deterministic: true}).Apply(jobs, rng); err != nil || jobs[0].ReqTime != 200 || jobs[1].ReqTime != 0 {
		t.Errorf("Apply: %v %+v", err, jobs)
	}
}

func TestPhiModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 100000
	exact := 0
	m := PhiModel{EMax: 1 << 40}
	for range n {
		if m.Estimate(1000, rng) == 1000 {
			exact++
		}
	}
	// Φ = 10% exact, plus the (negligible) u = 1 draws.
	if got := float64(exact) / n; math.Abs(got-defaultPhi) > 5*math.Sqrt(0.09/n) {
		t.Errorf("exact share %.4f, want %.2f", got, defaultPhi)
	}
	// Median of r/u is 2r.
	below := 0
	for range n {
		if (PhiModel{Phi: -1}).Estimate(1000, rng) <= 2000 {
			below++
		}
	}
	if got := float64(below) / n; math.Abs(got-0.5) > 0.01 {
		t.Errorf("P(e ≤ 2r) = %.4f, want 0.5", got)
	}
	if e := (PhiModel{Phi: 1}).Estimate(30, rng); e != 300 {
		t.Errorf("r < 90 s: %d, want 10·r", e)
	}
	if e := (PhiModel{Phi: -1, EMax: 500}).Estimate(400, rng); e > 500 || e < 400 {
		t.Errorf("truncated: %d", e)
	}
	if (PhiModel{Phi: 2}).Validate() == nil || (PhiModel{Phi: math.NaN()}).Validate() == nil {
		t.Error("Φ = 2 or NaN accepted")
	}
}
