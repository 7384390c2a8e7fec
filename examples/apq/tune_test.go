package main

import (
	"context"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// tuneAAE scores each configuration's validation AAE [from, to) in one replay.
func tuneAAE(jobs []swf.Job, from, to int) func([]apq.Config) ([]float64, error) {
	return func(cfgs []apq.Config) ([]float64, error) {
		var ps []replay.Predictor
		for _, c := range cfgs {
			a, err := replay.NewAPQ(c)
			if err != nil {
				return nil, err
			}
			ps = append(ps, a)
		}
		s, err := replay.Run(context.Background(), jobs, replay.Options{From: from, To: to}, ps...)
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(s))
		for i := range s {
			out[i] = s[i].AAE() / 3600
		}
		return out, nil
	}
}

// Tune on a small slice of SDSC-SP2: each kept value is the grid value
// with the lowest validation AAE, and the returned configuration carries
// them.
func TestTune(t *testing.T) {
	if testing.Short() {
		t.Skip("real-trace run; skipped in -short mode")
	}
	jobs := tracetest.RanJobs(t, tracetest.SDSCSP2)[:3000]
	var params []param
	for _, p := range tableIV() {
		if p.Name == "KNN" || p.Name == "SDMWindow" {
			params = append(params, p)
		}
	}
	cfg, steps, err := tune(apq.Config{History: 1000}, params, tuneAAE(jobs, 2500, 3000))
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
	if _, _, err := tune(apq.Config{}, []param{{Name: "x"}}, tuneAAE(jobs, 2500, 3000)); err == nil {
		t.Error("parameter without setter accepted")
	}
}
