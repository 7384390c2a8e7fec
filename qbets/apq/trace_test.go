package apq

import (
	"math"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// loadTrace reads a shared trace and keeps the jobs that ran and did not
// fail (the paper's SDSC-SP2 count, 54,006, matches these 54,034 jobs).
func loadTrace(tb testing.TB, name string) []TraceJob {
	tb.Helper()
	_, jobs, err := swf.ReadFile(tracetest.Path(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	var out []TraceJob
	for _, j := range jobs {
		if j.RunTime <= 0 || j.Status == 0 || j.Submit < 0 || j.Wait < 0 {
			continue
		}
		out = append(out, TraceJob{Job: Job{ID: j.ID, Submit: j.Submit, Start: j.Submit + j.Wait,
			Req: j.Size(), ERT: j.ReqTime, User: j.User, Queue: j.Queue}, Run: j.RunTime})
	}
	return out
}

// TestEvaluateSDSCSP2 runs APQ on 1000 of the paper's SDSC-SP2 test jobs
// (#20001–21000, history of 6000, both representations) and checks it
// against the simplest causal predictor, the mean wait of the same
// 6000-job history: APQ must have the lower AAE. (On the full test range
// examples/apq measures 7.7 h against the paper's 7.84 h; see its README.)
func TestEvaluateSDSCSP2(t *testing.T) {
	if testing.Short() {
		t.Skip("real-trace run; skipped in -short mode")
	}
	jobs := loadTrace(t, tracetest.SDSCSP2)
	from, to := PaperTestFrom, PaperTestFrom+1000
	var naive Score
	var ring []float64
	err := Replay(jobs[:to], func(ev Event, i int, _ *System) error {
		j := &jobs[i]
		switch {
		case ev == Submitted && i >= from:
			var m float64
			for _, w := range ring {
				m += w
			}
			naive.Add(m/float64(len(ring)), float64(j.Start-j.Submit), float64(j.Run))
		case ev == Started:
			ring = append(ring, float64(j.Start-j.Submit))
			if len(ring) > DefaultHistory {
				ring = ring[1:]
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	best := math.Inf(1)
	for _, rep := range []Representation{Summary, Distribution} {
		res, err := Evaluate(jobs, EvalConfig{Config: Config{Rep: rep, WeightRefresh: 10}, TestFrom: from, TestTo: to})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %d jobs, AAE %.2f h (history mean %.2f h), scaled %.2f (%.2f), cases A/B/C %v, methods SDM/ridge/k-NN %v",
			rep, res.Jobs, res.AAE(), naive.AAE(), res.ScaledAAE(), naive.ScaledAAE(), res.Cases, res.Methods)
		if res.Jobs != to-from || res.NoPrediction != 0 {
			t.Errorf("%v: scored %d jobs (%d without prediction), want %d", rep, res.Jobs, res.NoPrediction, to-from)
		}
		best = min(best, res.AAE())
	}
	if best >= naive.AAE() {
		t.Errorf("best APQ AAE %.2f h is not below the history mean's %.2f h", best, naive.AAE())
	}
}

// Tune on a small slice of SDSC-SP2: each kept value is the grid value
// with the lowest validation AAE, and the returned configuration carries
// them.
func TestTune(t *testing.T) {
	if testing.Short() {
		t.Skip("real-trace run; skipped in -short mode")
	}
	jobs := loadTrace(t, tracetest.SDSCSP2)[:3000]
	var params []Param
	for _, p := range TableIV() {
		if p.Name == "KNN" || p.Name == "SDMWindow" {
			params = append(params, p)
		}
	}
	cfg, steps, err := Tune(jobs, Config{History: 1000}, params, 2500, 3000)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 {
		t.Fatalf("steps = %+v", steps)
	}
	for _, st := range steps {
		t.Logf("%s: AAE %v → %v", st.Param, st.AAE, st.Best)
		var vals []float64
		for _, p := range params {
			if p.Name == st.Param {
				vals = p.Values
			}
		}
		best := 0
		for i, a := range st.AAE {
			if a < st.AAE[best] {
				best = i
			}
		}
		if vals[best] != st.Best {
			t.Errorf("%s: kept %v, lowest AAE at %v", st.Param, st.Best, vals[best])
		}
	}
	if float64(cfg.KNN) != steps[1].Best || cfg.SDMWindow != steps[0].Best {
		t.Errorf("config %+v does not carry the kept values %+v", cfg, steps)
	}
	if _, _, err := Tune(jobs, Config{}, []Param{{Name: "x"}}, 2500, 3000); err == nil {
		t.Error("parameter without setter accepted")
	}
}
