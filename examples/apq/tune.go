package main

import (
	"fmt"
	"math"

	"github.com/batchq/batchq/qbets/apq"
)

// param is one tunable parameter with the grid it is tried on.
type param struct {
	Name   string
	Values []float64
	set    func(*apq.Config, float64)
}

// tableIV returns the paper's one-at-a-time search grids (Table IV ranges,
// spec §2.10), in the order tune sweeps them.
func tableIV() []param {
	return []param{
		{"History", []float64{2000, 4000, 6000}, func(c *apq.Config, v float64) { c.History = int(v) }},
		{"Bins", []float64{5, 10, 20, 35, 50}, func(c *apq.Config, v float64) { c.Bins = int(v) }},
		{"KPct", []float64{1, 2, 3, 4, 5}, func(c *apq.Config, v float64) { c.KPct = v }},
		{"OutlierFrac", []float64{0.1, 0.3, 0.5, 0.7, 0.9}, func(c *apq.Config, v float64) { c.OutlierFrac = v }},
		{"Eps", []float64{0.05, 0.075, 0.1}, func(c *apq.Config, v float64) { c.Eps = v }},
		{"MinPts", []float64{2, 3, 4, 5}, func(c *apq.Config, v float64) { c.MinPts = int(v) }},
		{"SDMWindow", []float64{0.01, 0.025, 0.05, 0.075, 0.1}, func(c *apq.Config, v float64) { c.SDMWindow = v }},
		{"SDMDistThr", []float64{0.3, 0.45, 0.6}, func(c *apq.Config, v float64) { c.SDMDistThr = v; c.FarThr = 0 }},
		{"RidgeMaxDist", []float64{0.4, 0.55, 0.7, 0.85, 1.0}, func(c *apq.Config, v float64) { c.RidgeMaxDist = v }},
		{"KNN", []float64{1, 5, 10, 15, 20}, func(c *apq.Config, v float64) { c.KNN = int(v) }},
	}
}

// tuneStep records one parameter's sweep: the validation AAE (hours) at
// each grid value and the value kept.
type tuneStep struct {
	Param string
	AAE   []float64
	Best  float64
}

// tune is the paper's one-at-a-time parameter search (§6, spec §2.10,
// H25): starting from base, each parameter of params in turn is set to
// every grid value, the others fixed, and the value with the lowest AAE on
// the validation jobs is kept. aae scores a sweep: the validation AAE of
// each configuration (qbets/replay replays a trace through several APQ
// predictors at once; examples/apq shows how). Bins only matters to the
// distribution-based distance (apq.Config.Distribution) and is skipped
// with the feature summaries. A zero-valued base field means its default,
// so the sweep of a parameter always includes the current value's
// neighbours.
func tune(base apq.Config, params []param, aae func(cfgs []apq.Config) ([]float64, error)) (apq.Config, []tuneStep, error) {
	if err := base.Validate(); err != nil {
		return base, nil, err
	}
	cur := base
	var steps []tuneStep
	for _, prm := range params {
		if prm.set == nil || len(prm.Values) == 0 {
			return cur, steps, fmt.Errorf("tune: parameter %q has no setter or no values (use tableIV)", prm.Name)
		}
		if prm.Name == "Bins" && !cur.Distribution {
			continue
		}
		cfgs := make([]apq.Config, len(prm.Values))
		for i, v := range prm.Values {
			cfgs[i] = cur
			prm.set(&cfgs[i], v)
		}
		rs, err := aae(cfgs)
		if err == nil && len(rs) != len(cfgs) {
			err = fmt.Errorf("%d AAEs for %d configurations", len(rs), len(cfgs))
		}
		if err != nil {
			return cur, steps, fmt.Errorf("tune %s: %w", prm.Name, err)
		}
		st := tuneStep{Param: prm.Name}
		best := 0
		for i := range rs {
			st.AAE = append(st.AAE, rs[i])
			if rs[i] < rs[best] {
				best = i
			}
		}
		st.Best = prm.Values[best]
		cur = cfgs[best]
		steps = append(steps, st)
	}
	return cur, steps, nil
}

// The paper's APQ test set (§6): jobs #20001–60000 of the log.
const (
	paperTestFrom = 20000
	paperTestTo   = 60000
)

// waitClasses are the upper bounds, in seconds, of the paper's wait classes
// [0–100], [100–1000], [1000–10⁴], [10⁴–10⁵] and [>10⁵] (§6).
var waitClasses = [...]float64{100, 1000, 1e4, 1e5, math.Inf(1)}
