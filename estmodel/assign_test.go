package estmodel

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// minShort is the least number of jobs that must get an estimate below their
// run time (Hall's condition): max over thresholds x of
// #{r ≥ x} − #{e ≥ x}, with run times truncated to the largest estimate.
func minShort(est, run []int64) int {
	e := slices.Clone(est)
	r := slices.Clone(run)
	top := slices.Max(e)
	for i := range r {
		r[i] = min(r[i], top)
	}
	slices.Sort(e)
	slices.Sort(r)
	worst := 0
	for i, x := range r { // threshold x = r[i]: jobs r ≥ x are n−i (ties: first index)
		if i > 0 && r[i-1] == x {
			continue
		}
		jobs := len(r) - i
		ests := len(e) - lowerBound(e, x)
		worst = max(worst, jobs-ests)
	}
	return worst
}

func lowerBound(s []int64, x int64) int {
	i, _ := slices.BinarySearch(s, x)
	return i
}

func TestAssignEstimatesRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 200).Draw(t, "n")
		est := rapid.SliceOfN(rapid.Int64Range(0, 1000), n, n).Draw(t, "est")
		run := rapid.SliceOfN(rapid.Int64Range(0, 1200), n, n).Draw(t, "run")
		seed := rapid.Uint64().Draw(t, "seed")
		p, err := assignEstimates(est, run, false, rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			t.Fatal(err)
		}
		// Every estimate is used exactly once.
		if !slices.Equal(slices.Sorted(slices.Values(p.Estimate)), slices.Sorted(slices.Values(est))) {
			t.Fatal("estimates are not a permutation of the input")
		}
		top := slices.Max(est)
		short, trunc := 0, 0
		for i, r := range run {
			if r > top {
				trunc++
				r = top
			}
			if p.Estimate[i] < r {
				short++
			}
		}
		if short != p.Short || trunc != p.Truncated {
			t.Fatalf("reported short %d truncated %d, counted %d %d", p.Short, p.Truncated, short, trunc)
		}
		if want := minShort(est, run); short != want {
			t.Fatalf("%d jobs short, the least possible is %d", short, want)
		}
		_, err = assignEstimates(est, run, true, rand.New(rand.NewPCG(seed, 0)))
		if (err != nil) != (short > 0) {
			t.Fatalf("strict mode: err %v with %d short", err, short)
		}
	})
}

// The property: with model estimates for E_max, every job whose run
// time is at most E_max gets an estimate at least its run time, whenever a
// legal pairing exists (here run times are drawn below a random pairing).
func TestAssignModalRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3000).Draw(t, "n")
		eMax := rapid.Int64Range(1, 60).Draw(t, "hours") * hour
		share := rapid.Float64Range(0, 40).Draw(t, "share")
		cfg := ModalConfig{N: n, EMax: eMax}
		if share > 0.5 && int(share*float64(n)/100+0.5) >= 1 {
			cfg.Bins = []UserBin{{Time: eMax, Percent: share}}
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		d, err := Generate(cfg, rng)
		if err != nil {
			t.Fatal(err)
		}
		est := d.Estimates()
		perm := rng.Perm(n)
		jobs := make([]swf.Job, n)
		for i := range jobs {
			jobs[i].ID = int64(i + 1)
			jobs[i].RunTime = rng.Int64N(est[perm[i]] + 1)
			if rng.IntN(20) == 0 {
				jobs[i].RunTime = eMax + rng.Int64N(hour) // over E_max: truncated
			}
		}
		orig := slices.Clone(jobs)
		rep, err := d.Assign(jobs, AssignConfig{}, rng)
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			if orig[i].RunTime <= eMax && jobs[i].ReqTime < jobs[i].RunTime && rep.Short == 0 {
				t.Fatalf("job %d: run %d ≤ E_max got estimate %d", i, jobs[i].RunTime, jobs[i].ReqTime)
			}
			if orig[i].RunTime > eMax && jobs[i].RunTime != eMax {
				t.Fatalf("job %d: run %d not truncated to E_max", i, orig[i].RunTime)
			}
		}
	})
}

func TestAssignDeterministic(t *testing.T) {
	cfg := ModalConfig{N: 5000, EMax: 18 * hour, Bins: []UserBin{{Time: 18 * hour, Percent: 23.8}}}
	run := func(seed uint64) []swf.Job {
		rng := rand.New(rand.NewPCG(seed, 9))
		jobs := make([]swf.Job, cfg.N)
		for i := range jobs {
			jobs[i].RunTime = rng.Int64N(20 * hour)
		}
		d, err := Generate(cfg, rng)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Assign(jobs, AssignConfig{}, rng); err != nil {
			t.Fatal(err)
		}
		return jobs
	}
	if !slices.Equal(run(4), run(4)) {
		t.Error("same seed, different estimates")
	}
	if slices.Equal(run(4), run(5)) {
		t.Error("different seeds, same estimates")
	}
}

func TestShuffleKeepsEstimates(t *testing.T) {
	jobs := []swf.Job{{ID: 1, RunTime: 10, ReqTime: 100}, {ID: 2, RunTime: 90, ReqTime: 20}, {ID: 3, RunTime: 5, ReqTime: 50}}
	rep, err := Shuffle(jobs, AssignConfig{}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || rep.Short != 0 {
		t.Fatal(err, rep)
	}
	if jobs[1].ReqTime != 100 { // the only legal estimate for the 90 s job
		t.Errorf("job 2 got %d", jobs[1].ReqTime)
	}
	if _, err := Shuffle([]swf.Job{{ID: 1, ReqTime: -1}}, AssignConfig{}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("job without estimate shuffled")
	}
}

// Generating and assigning estimates for 1,000,000 jobs (budget: ≤ 1 s).
func BenchmarkGenerateAssign1M(b *testing.B) {
	const n = 1_000_000
	rng := rand.New(rand.NewPCG(1, 1))
	base := make([]swf.Job, n)
	for i := range base {
		base[i].ID = int64(i + 1)
		base[i].RunTime = int64(rng.ExpFloat64() * 3000)
	}
	jobs := make([]swf.Job, n)
	cfg := ModalConfig{N: n, EMax: 18 * hour, Bins: []UserBin{{Time: 18 * hour, Percent: 23.8}}}
	b.ResetTimer()
	for b.Loop() {
		copy(jobs, base)
		d, err := Generate(cfg, rng)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Assign(jobs, AssignConfig{}, rng); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "jobs/s")
}
