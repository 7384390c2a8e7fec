package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/thesislogs"
)

var nan = math.NaN()

// cmdReport prints the tables of a complete sweep (the spec's "report"
// kind) as markdown, or its lines as one JSON array with -json; -plot draws
// Figure 4.3 (fig43) and -readme replaces the report's region of a README.
func cmdReport(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	specPath := fs.String("spec", "", "sweep spec `FILE` (JSON)")
	plotDir := fs.String("plot", "", "write the figure (fig43: Figure 4.3; study: Figure 1.19) as PNG and SVG to `DIR`")
	readmePath := fs.String("readme", "", "replace the region between <!-- generated:NAME --> and <!-- /generated:NAME --> of `FILE` with the report")
	asJSON := fs.Bool("json", false, "print the results as a JSON array (run, params, summary) instead of tables")
	pos, spec, err := common(fs, args, specPath)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return cli.UsageError{Msg: "report: give the result directories or files"}
	}
	if err := cli.DashOutput("-plot", *plotDir, "the figure goes to a directory"); err != nil {
		return err
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
		return cli.WriteJSON(w, lines)
	}
	var buf bytes.Buffer
	if err := report(&buf, spec, lines); err != nil {
		return err
	}
	if *plotDir != "" {
		plotter := map[string]func(string, []Line) ([]string, error){"fig43": plotFig43, "study": plotFig119}[spec.Report]
		if plotter == nil {
			return cli.Usagef("-plot: spec %s has no figure (report %q)", spec.Name, spec.Report)
		}
		files, err := plotter(*plotDir, lines)
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
	thesisTable := map[string]func(io.Writer, []Line) error{"table48": table48, "table410": table410, "fig43": fig43Table}[spec.Report]
	if thesisTable != nil {
		if err := thesisTable(w, lines); err != nil {
			return err
		}
		notShown(w, spec.Report, lines)
		return nil
	}
	switch spec.Report {
	case "study":
		return study(w, lines)
	}
	// The job counts say what each figure stands on; a run that averaged
	// no job (a log its simulator rejected wholly) has none, and its
	// zero means must not read as a result.
	fmt.Fprintln(w, "| run | parameters | jobs | averaged | rejected | wait (min) | bsld | accuracy % |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	var empty []string
	for _, l := range lines {
		m := l.Summary
		wait, bsld, acc := num(m.MeanWait/60), num(m.MeanBSLD), num(100*m.Accuracy)
		if m.Included == 0 {
			wait, bsld, acc = "–", "–", "–"
			empty = append(empty, fmt.Sprint(l.Run))
		}
		fmt.Fprintf(w, "| %d | %s | %d | %d | %d | %s | %s | %s |\n", l.Run, l.Params.describe(), m.Jobs, m.Included, m.Rejected, wait, bsld, acc)
	}
	if len(empty) > 0 {
		fmt.Fprintf(w, "\nrun %s averaged no job (every job rejected, or excluded as warm-up and cool-down): no figures.\n", strings.Join(empty, ", "))
	}
	reasons(w, lines)
	degenerateRuns(w, lines)
	return nil
}

// partialKey is the rejected_by key of the lines of partial executions
// (cli.ReasonKeys of sanitize.PartialExecution's name; TestPartialKey).
const partialKey = "partial_execution"

// degenerateRuns names the runs whose figures reflect the job-building
// rules more than the log, as simulate's degenerate warning does: most
// jobs rejected, most jobs changed by one rule (a peer mode on a log
// without estimates runs every job 1 second, and every wait is 0), or
// utilization near 0. The table's "0.0" and "1.0" there read as a result
// with only the rule counts below to tell otherwise. Runs with the same
// symptoms are named once ("runs 3-8 degenerate: ...").
func degenerateRuns(w io.Writer, lines []Line) {
	var texts []string
	runs := map[string][]int{}
	for _, l := range lines {
		m := l.Summary
		var parts []string
		// (Lines of partial executions are not jobs: a log of
		// checkpointed jobs has several a job, its summary line simulated.)
		if r := m.Rejected - m.RejectedBy[partialKey]; 2*r > m.Jobs+r {
			parts = append(parts, "most jobs rejected")
		}
		for _, rule := range cli.MostlyChanged(m.Changed, m.Jobs) {
			parts = append(parts, "most jobs changed by rule "+rule)
		}
		if m.Included > 0 && m.Utilization < 0.01 {
			parts = append(parts, fmt.Sprintf("utilization %.3f", m.Utilization))
		}
		if len(parts) == 0 {
			continue
		}
		text := strings.Join(parts, "; ")
		if _, ok := runs[text]; !ok {
			texts = append(texts, text)
		}
		runs[text] = append(runs[text], l.Run)
	}
	if len(texts) > 0 {
		fmt.Fprintln(w)
	}
	for _, text := range texts {
		word := "run"
		if len(runs[text]) > 1 {
			word = "runs"
		}
		fmt.Fprintf(w, "%s %s degenerate, their figures reflect the job-building rules more than the log: %s\n", word, runRanges(runs[text]), text)
	}
}

// reasons says why jobs were rejected or changed, once per distinct
// count with the runs that have it ("runs 0-39 rejected: no_size 1"): a
// line per run repeated the same count for every run of a trace, two
// paragraphs a run. Lines of older results lack the counts: nothing is
// said of them.
func reasons(w io.Writer, lines []Line) {
	var texts []string
	runs := map[string][]int{}
	add := func(run int, text string) {
		if _, ok := runs[text]; !ok {
			texts = append(texts, text)
		}
		runs[text] = append(runs[text], run)
	}
	for _, l := range lines {
		if m := l.Summary; len(m.RejectedBy) > 0 {
			add(l.Run, "rejected: "+cli.RuleCounts(m.RejectedBy))
		}
		if m := l.Summary; len(m.Changed) > 0 {
			add(l.Run, "changed by rules: "+cli.RuleCounts(m.Changed))
		}
	}
	if len(texts) > 0 {
		fmt.Fprintln(w)
	}
	for _, text := range texts {
		rs, word := runs[text], "run"
		if len(rs) > 1 {
			word = "runs"
		}
		fmt.Fprintf(w, "%s %s %s\n", word, runRanges(rs), text)
	}
}

// runRanges writes increasing run numbers as ranges: "0-3, 7".
func runRanges(rs []int) string {
	var parts []string
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(rs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", rs[i], rs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
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

// notShown names the runs a thesis table (table48, table410, fig43) never
// reads: it shows, for each of the thesis's logs, the policies it
// compares (tableReads) and load, the first run (find). A run of another
// log, of a policy or load the table does not read (the table48 spec's
// EASY, a table48 run scaled to a load), or one that repeats an earlier
// run's log, policy and load with other options (kill, compat, ties, a
// seed, a predictor), was left out of the report without a word: a spec
// of table48 over four held-out logs printed an empty table, exit 0.
func notShown(w io.Writer, report string, lines []Line) {
	type key struct {
		trace, policy string
		load          float64
	}
	thesis := map[string]bool{}
	for _, l := range thesislogs.Logs {
		thesis[l.Name] = true
	}
	read := tableReads[report]
	first := map[key]bool{}
	var other, unread, repeated []int
	for _, l := range lines {
		k := key{l.Params.Trace, l.Params.Policy, l.Params.Load}
		switch {
		case !thesis[k.trace]:
			other = append(other, l.Run)
		case !slices.Contains(read.policies, k.policy) || (read.loadZero && k.load != 0):
			unread = append(unread, l.Run)
		case first[k]:
			repeated = append(repeated, l.Run)
		default:
			first[k] = true
		}
	}
	if len(other)+len(unread)+len(repeated) > 0 {
		fmt.Fprintln(w)
	}
	runs := func(rs []int) string {
		if len(rs) == 1 {
			return "run " + runRanges(rs)
		}
		return "runs " + runRanges(rs)
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "%s not in the table: %s compares the thesis's logs (%s) only; a spec without \"report\" gives one row per run.\n",
			runs(other), report, thesislogs.Names())
	}
	if len(unread) > 0 {
		at := ""
		if read.loadZero {
			at = " at the log's own load"
		}
		fmt.Fprintf(w, "%s not in the table: %s reads %s%s only.\n", runs(unread), report, strings.Join(read.policies, ", "), at)
	}
	if len(repeated) > 0 {
		fmt.Fprintf(w, "%s not in the table: each repeats an earlier run's log, policy and load with other options, and the table shows the first.\n",
			runs(repeated))
	}
}

// tableReads is what each thesis table reads of a thesis log: the
// policies, and whether only the log's own load (0) or every load.
var tableReads = map[string]struct {
	policies []string
	loadZero bool
}{
	"table48":  {slices.Concat(groups48...), true},
	"table410": {[]string{"EASY", "EASY+", "X2"}, true},
	"fig43":    {fig43Policies, false},
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
		if nlogs == 0 {
			// The averages were 0/0, printed "?" under an empty table.
			return fmt.Errorf("table48: no run of %s on any of the thesis's logs (%s)", g[0], thesislogs.Names())
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
