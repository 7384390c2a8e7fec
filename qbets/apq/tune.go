package apq

import (
	"fmt"
)

// Param is one tunable parameter with the grid it is tried on.
type Param struct {
	Name   string
	Values []float64
	set    func(*Config, float64)
}

// TableIV returns the paper's one-at-a-time search grids (Table IV ranges,
// spec §2.10), in the order Tune sweeps them.
func TableIV() []Param {
	return []Param{
		{"History", []float64{2000, 4000, 6000}, func(c *Config, v float64) { c.History = int(v) }},
		{"Bins", []float64{5, 10, 20, 35, 50}, func(c *Config, v float64) { c.Bins = int(v) }},
		{"KPct", []float64{1, 2, 3, 4, 5}, func(c *Config, v float64) { c.KPct = v }},
		{"OutlierFrac", []float64{0.1, 0.3, 0.5, 0.7, 0.9}, func(c *Config, v float64) { c.OutlierFrac = v }},
		{"Eps", []float64{0.05, 0.075, 0.1}, func(c *Config, v float64) { c.Eps = v }},
		{"MinPts", []float64{2, 3, 4, 5}, func(c *Config, v float64) { c.MinPts = int(v) }},
		{"SDMWindow", []float64{0.01, 0.025, 0.05, 0.075, 0.1}, func(c *Config, v float64) { c.SDMWindow = v }},
		{"SDMDistThr", []float64{0.3, 0.45, 0.6}, func(c *Config, v float64) { c.SDMDistThr = v; c.FarThr = 0 }},
		{"RidgeMaxDist", []float64{0.4, 0.55, 0.7, 0.85, 1.0}, func(c *Config, v float64) { c.RidgeMaxDist = v }},
		{"KNN", []float64{1, 5, 10, 15, 20}, func(c *Config, v float64) { c.KNN = int(v) }},
	}
}

// TuneStep records one parameter's sweep: the validation AAE (hours) at
// each grid value and the value kept.
type TuneStep struct {
	Param string
	AAE   []float64
	Best  float64
}

// Tune is the paper's one-at-a-time parameter search (§6, spec §2.10,
// A25): starting from base, each parameter of params in turn is set to
// every grid value, the others fixed, and the value with the lowest AAE on
// the validation jobs is kept. aae scores a sweep: the validation AAE of
// each configuration (qbets/replay replays a trace through several APQ
// predictors at once; examples/apq shows how). Bins only matters to the
// Distribution representation and is skipped for Summary. A zero-valued
// base field means its default, so the sweep of a parameter always
// includes the current value's neighbours.
func Tune(base Config, params []Param, aae func(cfgs []Config) ([]float64, error)) (Config, []TuneStep, error) {
	if err := base.Validate(); err != nil {
		return base, nil, err
	}
	cur := base
	var steps []TuneStep
	for _, prm := range params {
		if prm.set == nil || len(prm.Values) == 0 {
			return cur, steps, fmt.Errorf("apq: Tune: parameter %q has no setter or no values (use TableIV)", prm.Name)
		}
		if prm.Name == "Bins" && cur.Rep == Summary {
			continue
		}
		cfgs := make([]Config, len(prm.Values))
		for i, v := range prm.Values {
			cfgs[i] = cur
			prm.set(&cfgs[i], v)
		}
		rs, err := aae(cfgs)
		if err == nil && len(rs) != len(cfgs) {
			err = fmt.Errorf("%d AAEs for %d configurations", len(rs), len(cfgs))
		}
		if err != nil {
			return cur, steps, fmt.Errorf("apq: Tune %s: %w", prm.Name, err)
		}
		st := TuneStep{Param: prm.Name}
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
