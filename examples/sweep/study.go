package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
)

// config is a predictor configuration of the study, without the window
// size last so that configurations sort as the thesis lists them.
type config struct {
	PredictorParams
	degr  float64   // average degradation over the test cases, %
	cases []float64 // per test case
}

// rankConfigs ranks the predictor configurations of a parameter study by
// their average degradation over the test cases (each log × {wait,
// bsld}), best first, and returns them with the logs and every run's
// metrics.
//
// A test case whose best value is 0 (every job of a log started at once
// under the best configuration: a peer mode on a log without estimates,
// whose jobs all run 1 second) has no degradation: 100·P/0 is NaN or
// +Inf, and NaN% ranked the table. Such cases are left out of every
// configuration's cases and named in undefined ("NASA wait").
func rankConfigs(lines []Line) ([]config, []string, map[PredictorParams]map[string]Metrics, []string, error) {
	type key = PredictorParams
	var logs []string
	vals := map[key]map[string]Metrics{}
	var order []key
	for _, l := range lines {
		if l.Params.Predictor == nil {
			continue
		}
		k := *l.Params.Predictor
		if vals[k] == nil {
			vals[k] = map[string]Metrics{}
			order = append(order, k)
		}
		vals[k][l.Params.Trace] = l.Summary
		if !slices.Contains(logs, l.Params.Trace) {
			logs = append(logs, l.Params.Trace)
		}
	}
	if len(order) == 0 {
		return nil, nil, nil, nil, errors.New("study: no run has predictor parameters")
	}
	// Test cases: each log × {wait, bsld}; the best configuration of each.
	ncase := 2 * len(logs)
	best := make([]float64, ncase)
	for i := range best {
		best[i] = math.Inf(1)
	}
	get := func(m Metrics, c int) float64 {
		if c%2 == 0 {
			return m.MeanWait
		}
		return m.MeanBSLD
	}
	for _, k := range order {
		for c := range ncase {
			m, ok := vals[k][logs[c/2]]
			if !ok {
				return nil, nil, nil, nil, fmt.Errorf("study: configuration %+v not run on %s", k, logs[c/2])
			}
			best[c] = min(best[c], get(m, c))
		}
	}
	var kept []int
	var undefined []string
	for t := range ncase {
		if best[t] > 0 {
			kept = append(kept, t)
		} else {
			undefined = append(undefined, logs[t/2]+" "+[2]string{"wait", "bsld"}[t%2])
		}
	}
	if len(kept) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("study: every test case's best value is 0 (%s): no degradation is defined", strings.Join(undefined, ", "))
	}
	cfgs := make([]config, len(order))
	for i, k := range order {
		c := config{PredictorParams: k}
		for _, t := range kept {
			c.cases = append(c.cases, 100*get(vals[k][logs[t/2]], t)/best[t]-100)
			c.degr += c.cases[len(c.cases)-1]
		}
		c.degr /= float64(len(kept))
		cfgs[i] = c
	}
	// Stable: ties keep expansion order.
	sort.SliceStable(cfgs, func(a, b int) bool { return cfgs[a].degr < cfgs[b].degr })
	return cfgs, logs, vals, undefined, nil
}

// study prints Tables 4.9, 4.12 and 4.13 and the numbers of Figure 1.19
// from a parameter study: one policy, every predictor configuration on
// every log.
func study(w io.Writer, lines []Line) error {
	cfgs, logs, vals, undefined, err := rankConfigs(lines)
	if err != nil {
		return err
	}
	ncase := len(cfgs[0].cases)

	fmt.Fprintf(w, "%d configurations × %d logs (%s); %d test cases (log × {wait, bsld}). Degradation of a configuration on a test case: 100·P/P_best − 100; configurations ranked by the average over the test cases.\n\n",
		len(cfgs), len(logs), strings.Join(logs, ", "), ncase)
	if len(undefined) > 0 {
		fmt.Fprintf(w, "Left out: %d test cases whose best value is 0, where no degradation is defined (%s).\n\n", len(undefined), strings.Join(undefined, ", "))
	}

	// Table 4.12.
	fmt.Fprintln(w, "#### Table 4.12 — top configurations, ours and the thesis's")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| rank ours / thesis | ours: avg degr. | window | type | fullness | metric | fallback | propagation | correction | thesis: avg degr. | window | type | fullness | metric | fallback | propagation | correction |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	full := func(p bool) string {
		if p {
			return "partial"
		}
		return "full"
	}
	yes := func(p bool) string {
		if p {
			return "yes"
		}
		return "no"
	}
	short := map[string]string{"estimate": "est", "relative": "rel"}
	for i, p := range paper412 {
		k := i
		if p.Rank == "8640" {
			k = len(cfgs) - 1
		}
		if k >= len(cfgs) {
			continue
		}
		c := cfgs[k]
		fmt.Fprintf(w, "| %d / %s | %.2f%% | %d | %s | %s | %s | %s | %s | %s | %.2f%% | %d | %s | %s | %s | %s | %s | %s |\n",
			k+1, p.Rank, c.degr, c.Window, c.Type, full(c.Partial), c.Metric, short[c.Fallback], yes(c.Propagate), c.Correction,
			p.Degr, p.Window, p.Type, full(p.Partial), p.Metric, p.Fallback, yes(p.Propagate), p.Correction)
	}
	fmt.Fprintln(w)
	// Where the thesis's rank 1 and the EASY++ default land in ours.
	rankOf := func(match func(PredictorParams) bool) (int, float64) {
		for i, c := range cfgs {
			if match(c.PredictorParams) {
				return i + 1, c.degr
			}
		}
		return 0, nan
	}
	r1 := PredictorParams{Window: 11, Type: "all", Metric: "avg", Fallback: "estimate", Partial: true, Propagate: true, Correction: "estimate"} // the thesis's rank 1
	def := PredictorParams{Window: 2, Type: "all", Metric: "avg", Fallback: "estimate", Correction: "estimate"}
	for _, q := range []struct {
		name string
		p    PredictorParams
	}{
		{"The EASY++ default (2, all, full, avg, est, no, estimate)", def},
		{"The thesis's rank 1 (11, all, partial, avg, est, yes, estimate)", r1},
	} {
		if r, d := rankOf(func(p PredictorParams) bool { return p == q.p }); r > 0 {
			fmt.Fprintf(w, "- %s: our rank %d of %d, %.2f%%.\n", q.name, r, len(cfgs), d)
		} else {
			fmt.Fprintf(w, "- %s: not in this sweep.\n", q.name)
		}
	}
	// The thesis's rank 1 with a window of 12 instead of 11.
	r12 := r1
	r12.Window = 12
	if r, d := rankOf(func(p PredictorParams) bool { return p == r12 }); r > 0 {
		_, d11 := rankOf(func(p PredictorParams) bool { return p == r1 })
		fmt.Fprintf(w, "- The thesis's rank 1 with window 12 instead of 11: our rank %d, %.2f%%, %.1f× its degradation at 11 (thesis: rank 1,295, twice the degradation).\n", r, d, d/d11)
	}
	fmt.Fprintf(w, "- Our rank 1 ranges from %.1f%% to %.1f%% over the %d test cases (the thesis's rank 1: 4.1%% to 21.8%%).\n",
		slices.Min(cfgs[0].cases), slices.Max(cfgs[0].cases), ncase)
	// Shares quoted in the thesis's text.
	share := func(cs []config, f func(config) bool) float64 {
		n := 0
		for _, c := range cs {
			if f(c) {
				n++
			}
		}
		return 100 * float64(n) / float64(max(1, len(cs)))
	}
	top := cfgs[:max(1, len(cfgs)/20)]
	half := cfgs[len(cfgs)/2:]
	fmt.Fprintf(w, "- Top 5%% (%d): estimate correction %.0f%%, exponential %.0f%% (thesis: about 90%% and the rest); avg or median metric %.0f%% (thesis: 80%% of the top).\n",
		len(top), share(top, func(c config) bool { return c.Correction == "estimate" }), share(top, func(c config) bool { return c.Correction == "exponential" }),
		share(top, func(c config) bool { return c.Metric == "avg" || c.Metric == "median" }))
	fmt.Fprintf(w, "- Bottom half (%d): gradual correction %.0f%%, exponential %.0f%%, estimate %.0f%% (thesis: gradual \"dominates\").\n", len(half),
		share(half, func(c config) bool { return c.Correction == "gradual" }), share(half, func(c config) bool { return c.Correction == "exponential" }),
		share(half, func(c config) bool { return c.Correction == "estimate" }))
	bottom := cfgs[len(cfgs)*7/10:]
	var allType, allEst, allEstMin int
	var winSum float64
	for _, c := range bottom {
		if c.Type != "all" {
			continue
		}
		allType++
		if c.Correction != "estimate" {
			continue
		}
		allEst++
		if c.Metric == "min" && c.Window >= 7 {
			allEstMin++
			winSum += float64(c.Window)
		}
	}
	fmt.Fprintf(w, "- Bottom 30%% (%d): %d use type all; %d of those estimate correction, and %d of those the min metric with a window ≥ 7 (mean window %.1f) (thesis: 1,298; 194; 186, mean 18.8).\n",
		len(bottom), allType, allEst, allEstMin, winSum/float64(max(1, allEstMin)))
	fmt.Fprintln(w)

	// Table 4.13.
	fmt.Fprintln(w, "#### Table 4.13 — average degradation in the recommended subspace (type all, estimate correction), ours (thesis)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| | size=1 | size=2 | full space |")
	fmt.Fprintln(w, "|---|---|---|---|")
	sub := func(f func(config) bool) []float64 {
		var xs []float64
		for _, c := range cfgs {
			if f(c) {
				xs = append(xs, c.degr)
			}
		}
		return xs
	}
	cols := [][]float64{
		sub(func(c config) bool { return c.Type == "all" && c.Correction == "estimate" && c.Window == 1 }),
		sub(func(c config) bool { return c.Type == "all" && c.Correction == "estimate" && c.Window == 2 }),
		sub(func(config) bool { return true }),
	}
	names := []string{"size=1", "size=2", "full space"}
	for r, row := range []string{"min", "max", "average", "s.d."} {
		fmt.Fprintf(w, "| %s |", row)
		for i, xs := range cols {
			fmt.Fprintf(w, " %s (%s) |", pct1(stat(xs, r)), pct1(paper413[names[i]][r]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)

	windowTable(w, cfgs)

	// Table 4.9 (window 2, the other parameters at their defaults).
	imm, all := def, def
	imm.Type = "immediate"
	if vals[imm] != nil && vals[all] != nil {
		fmt.Fprintln(w, "#### Table 4.9 — EASY++ with an \"immediate\" vs an \"all\" window of 2, ours (thesis)")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| log | wait imm | all | bsld imm | all | acc % imm | all | py_abs rate % imm | all |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
		for _, l := range logs {
			a, b := vals[imm][l], vals[all][l]
			p, ok := paper49[l]
			if !ok {
				p = map[string][4]float64{"immediate": {nan, nan, nan, nan}, "all": {nan, nan, nan, nan}}
			}
			fmt.Fprintf(w, "| %s | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) |\n", l,
				num(a.MeanWait/60), num(p["immediate"][0]), num(b.MeanWait/60), num(p["all"][0]),
				num(a.MeanBSLD), num(p["immediate"][1]), num(b.MeanBSLD), num(p["all"][1]),
				num(100*a.Accuracy), num(p["immediate"][2]), num(100*b.Accuracy), num(p["all"][2]),
				num(100*a.PredRate), num(p["immediate"][3]), num(100*b.PredRate), num(p["all"][3]))
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, "py_abs rate: the share of jobs whose start was compared with a reservation (§3.5, Summary.Predictability.Rate).")
		fmt.Fprintln(w)
	}
	return nil
}

func pct1(x float64) string {
	if math.IsNaN(x) {
		return "?"
	}
	return fmt.Sprintf("%.1f%%", x)
}

// stat is min, max, mean or s.d. (r = 0..3) of xs; NaN when empty.
func stat(xs []float64, r int) float64 {
	if len(xs) == 0 {
		return nan
	}
	switch r {
	case 0:
		return slices.Min(xs)
	case 1:
		return slices.Max(xs)
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if r == 2 {
		return m
	}
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(xs)))
}

// windowTable prints the numbers of the thesis's Figure 1.19: the mean
// degradation of the configurations of each window size, over all of them
// and per window type, and the least-squares slope over the sizes.
func windowTable(w io.Writer, cfgs []config) {
	types := []string{"", "all", "immediate", "extended"}
	var sizes []int
	type sizeType struct {
		n int
		t string // "" = every type
	}
	degrs := map[sizeType][]float64{}
	for _, c := range cfgs {
		if !slices.Contains(sizes, c.Window) {
			sizes = append(sizes, c.Window)
		}
		for _, k := range []sizeType{{c.Window, ""}, {c.Window, c.Type}} {
			degrs[k] = append(degrs[k], c.degr)
		}
	}
	slices.Sort(sizes)
	fmt.Fprintln(w, "#### Figure 1.19 — mean degradation against window size (the figure's numbers)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| window size | all configurations | type all | immediate | extended |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	var xs, ys []float64
	for _, n := range sizes {
		fmt.Fprintf(w, "| %d |", n)
		for _, t := range types {
			fmt.Fprintf(w, " %s |", pct1(stat(degrs[sizeType{n, t}], 2)))
		}
		fmt.Fprintln(w)
		xs, ys = append(xs, float64(n)), append(ys, stat(degrs[sizeType{n, ""}], 2))
	}
	fmt.Fprintln(w)
	if len(xs) > 1 {
		fmt.Fprintf(w, "Least-squares slope over all configurations: %+.2f points per window size (thesis: grows roughly linearly). ", slope(xs, ys))
	}
	fmt.Fprintf(w, "Size 1 %s, size 2 %s (thesis: size 2 slightly better).\n\n", pct1(stat(degrs[sizeType{1, ""}], 2)), pct1(stat(degrs[sizeType{2, ""}], 2)))
}

// slope is the least-squares slope of ys against xs.
func slope(xs, ys []float64) float64 {
	mx, my := stat(xs, 2), stat(ys, 2)
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return sxy / sxx
}
