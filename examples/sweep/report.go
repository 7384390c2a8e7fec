package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/thesislogs"
)

var nan = math.NaN()

func writeJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}

// cmdReport prints the tables of a complete sweep (the spec's "report"
// kind) as markdown, or its lines as one JSON array with -json; -plot draws
// Figure 4.3 (fig43) and -readme replaces the report's region of a README.
func cmdReport(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	specPath := fs.String("spec", "", "sweep spec `FILE` (JSON)")
	plotDir := fs.String("plot", "", "write the figure (fig43 only) as PNG and SVG to `DIR`")
	readmePath := fs.String("readme", "", "replace the region between <!-- generated:NAME --> and <!-- /generated:NAME --> of `FILE` with the report")
	asJSON := fs.Bool("json", false, "print the results as a JSON array (run, params, summary) instead of tables")
	pos, spec, err := common(fs, args, specPath)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"report: give the result directories or files"}
	}
	byRun, err := loadComplete(spec, pos)
	if err != nil {
		return err
	}
	lines := make([]Line, len(byRun))
	for i, l := range byRun {
		lines[i] = l.line
	}
	if *asJSON {
		return writeJSON(w, lines)
	}
	var buf bytes.Buffer
	if err := report(&buf, spec, lines); err != nil {
		return err
	}
	if *plotDir != "" {
		if spec.Report != "fig43" {
			return usageError{fmt.Sprintf("-plot: spec %s has no figure (report %q)", spec.Name, spec.Report)}
		}
		files, err := plotFig43(*plotDir, lines)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "Figure: %s\n\n", strings.Join(files, ", "))
	}
	if *readmePath != "" {
		return readme.Replace(*readmePath, spec.Name, buf.Bytes())
	}
	_, err = w.Write(buf.Bytes())
	return err
}

func report(w io.Writer, spec *Spec, lines []Line) error {
	switch spec.Report {
	case "table48":
		return table48(w, lines)
	case "table410":
		return table410(w, lines)
	case "fig43":
		return fig43Table(w, lines)
	case "study":
		return study(w, lines)
	}
	fmt.Fprintln(w, "| run | parameters | wait (min) | bsld | accuracy % |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, l := range lines {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s |\n", l.Run, l.Params.describe(), num(l.Summary.MeanWait/60), num(l.Summary.MeanBSLD), num(100*l.Summary.Accuracy))
	}
	return nil
}

func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "?"
	case math.Abs(x) < 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "?"
	}
	return fmt.Sprintf("%+.0f%%", x)
}

// byKey finds the line of a trace and policy (the first, at load 0 unless
// given).
func find(lines []Line, trace, policy string, load float64) (Metrics, bool) {
	for _, l := range lines {
		if l.Params.Trace == trace && l.Params.Policy == policy && l.Params.Load == load {
			return l.Summary, true
		}
	}
	return Metrics{}, false
}

// table48 prints Table 4.8: each cell "ours (thesis)", Δ relative to the
// group's first column, ours / thesis; then the averages of Δ.
func table48(w io.Writer, lines []Line) error {
	type metric struct {
		name  string
		ours  func(Metrics) float64
		paper func(paperCell) float64
	}
	ms := []metric{
		{"wait (min)", func(m Metrics) float64 { return m.MeanWait / 60 }, func(c paperCell) float64 { return c.Wait }},
		{"bsld", func(m Metrics) float64 { return m.MeanBSLD }, func(c paperCell) float64 { return c.BSLD }},
	}
	fmt.Fprintln(w, "Cells: ours (thesis); Δ relative to the group's first column, ours / thesis.")
	for _, g := range groups48 {
		fmt.Fprintln(w)
		fmt.Fprint(w, "| log | metric |")
		for _, v := range g {
			fmt.Fprintf(w, " %s |", v)
		}
		fmt.Fprint(w, "\n|---|---|")
		for range g {
			fmt.Fprint(w, "---|")
		}
		fmt.Fprintln(w)
		sumO := make([][]float64, len(ms))
		sumP := make([][]float64, len(ms))
		for k := range ms {
			sumO[k], sumP[k] = make([]float64, len(g)), make([]float64, len(g))
		}
		nlogs := 0
		for _, l := range thesislogs.Logs {
			base, ok := find(lines, l.Name, g[0], 0)
			if !ok {
				continue
			}
			nlogs++
			for k, m := range ms {
				fmt.Fprintf(w, "| %s | %s |", l.Name, m.name)
				pb := m.paper(paper48[l.Name][g[0]])
				for i, v := range g {
					s, ok := find(lines, l.Name, v, 0)
					if !ok {
						return fmt.Errorf("table48: no run of %s on %s", v, l.Name)
					}
					ours, theirs := m.ours(s), m.paper(paper48[l.Name][v])
					cell := fmt.Sprintf(" %s (%s)", num(ours), num(theirs))
					if i > 0 {
						do, dp := 100*(ours/m.ours(base)-1), 100*(theirs/pb-1)
						sumO[k][i] += do
						sumP[k][i] += dp
						cell += fmt.Sprintf(" Δ %s / %s", pct(do), pct(dp))
					}
					fmt.Fprint(w, cell, " |")
				}
				fmt.Fprintln(w)
			}
		}
		for k, m := range ms {
			fmt.Fprintf(w, "| avg Δ | %s |", m.name)
			for i := range g {
				if i == 0 {
					fmt.Fprint(w, " |")
					continue
				}
				fmt.Fprintf(w, " %s / %s |", pct(sumO[k][i]/float64(nlogs)), pct(sumP[k][i]/float64(nlogs)))
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

var fig43Policies = []string{"EASY", "EASY+", "EASY++", "PERFECT++"}

// fig43Table prints the load sweep's numbers and how often the thesis's
// ordering (PERFECT++ ≤ EASY++ ≤ EASY+ ≤ EASY) holds.
func fig43Table(w io.Writer, lines []Line) error {
	loads := loadsOf(lines)
	fmt.Fprintln(w, "Mean wait (minutes) / mean bounded slowdown per target load (arrivals scaled, §4).")
	fmt.Fprintln(w)
	fmt.Fprint(w, "| log | load |")
	for _, p := range fig43Policies {
		fmt.Fprintf(w, " %s |", p)
	}
	fmt.Fprint(w, " EASY++ vs EASY |\n|---|---|")
	for range fig43Policies {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w, "---|")
	holds, pairs := 0, 0
	for _, l := range thesislogs.Logs {
		for _, ld := range loads {
			var ms []Metrics
			for _, p := range fig43Policies {
				m, ok := find(lines, l.Name, p, ld)
				if !ok {
					return fmt.Errorf("fig43: no run of %s on %s at load %v", p, l.Name, ld)
				}
				ms = append(ms, m)
			}
			fmt.Fprintf(w, "| %s | %s |", l.Name, loadName(ld))
			for _, m := range ms {
				fmt.Fprintf(w, " %s / %s |", num(m.MeanWait/60), num(m.MeanBSLD))
			}
			fmt.Fprintf(w, " %s / %s |\n", pct(100*(ms[2].MeanWait/ms[0].MeanWait-1)), pct(100*(ms[2].MeanBSLD/ms[0].MeanBSLD-1)))
			for i := 1; i < len(ms); i++ {
				for _, f := range []func(Metrics) float64{func(m Metrics) float64 { return m.MeanWait }, func(m Metrics) float64 { return m.MeanBSLD }} {
					pairs++
					if f(ms[i]) <= f(ms[i-1]) {
						holds++
					}
				}
			}
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The thesis's ordering (each of EASY+, EASY++, PERFECT++ no worse than the one before, wait and bsld) holds in %d of %d comparisons.\n", holds, pairs)
	return nil
}

func loadsOf(lines []Line) []float64 {
	var loads []float64
	for _, l := range lines {
		if !slices.Contains(loads, l.Params.Load) {
			loads = append(loads, l.Params.Load)
		}
	}
	slices.Sort(loads)
	return loads
}

// config is a predictor configuration of the study, without the window
// size last so that configurations sort as the thesis lists them.
type config struct {
	PredictorParams
	degr  float64   // average degradation over the test cases, %
	cases []float64 // per test case
}

// study prints Tables 4.9, 4.12 and 4.13 from a parameter study: one
// policy, every predictor configuration on every log.
func study(w io.Writer, lines []Line) error {
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
		return errors.New("study: no run has predictor parameters")
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
				return fmt.Errorf("study: configuration %+v not run on %s", k, logs[c/2])
			}
			best[c] = min(best[c], get(m, c))
		}
	}
	cfgs := make([]config, len(order))
	for i, k := range order {
		c := config{PredictorParams: k, cases: make([]float64, ncase)}
		for t := range ncase {
			c.cases[t] = 100*get(vals[k][logs[t/2]], t)/best[t] - 100
			c.degr += c.cases[t]
		}
		c.degr /= float64(ncase)
		cfgs[i] = c
	}
	// Stable: ties keep expansion order.
	sort.SliceStable(cfgs, func(a, b int) bool { return cfgs[a].degr < cfgs[b].degr })

	fmt.Fprintf(w, "%d configurations × %d logs (%s); %d test cases (log × {wait, bsld}). Degradation of a configuration on a test case: 100·P/P_best − 100; configurations ranked by the average over the test cases.\n\n",
		len(cfgs), len(logs), strings.Join(logs, ", "), ncase)

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
	def := PredictorParams{Window: 2, Type: "all", Metric: "avg", Fallback: "estimate", Correction: "estimate"}
	for _, q := range []struct {
		name string
		p    PredictorParams
	}{
		{"The EASY++ default (2, all, full, avg, est, no, estimate)", def},
		{"The thesis's rank 1 (11, all, partial, avg, est, yes, estimate)", PredictorParams{Window: 11, Type: "all", Metric: "avg", Fallback: "estimate", Partial: true, Propagate: true, Correction: "estimate"}},
	} {
		if r, d := rankOf(func(p PredictorParams) bool { return p == q.p }); r > 0 {
			fmt.Fprintf(w, "- %s: our rank %d of %d, %.2f%%.\n", q.name, r, len(cfgs), d)
		} else {
			fmt.Fprintf(w, "- %s: not in this sweep.\n", q.name)
		}
	}
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
