package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
)

// The README's tables and the sentences quoting them, generated from the
// runs of the command and checked by TestReadme*.

// windows are the README's request periods, days; methods its -remedy
// values, the thesis's first.
var (
	windows = []int64{60, 120, 180, 240, 300}
	methods = []string{"none", "latest", "reboost", "both"}
)

// study is every run the README reports, on the default five machines.
type study struct {
	ms    []machine
	sums  map[string][][]trialSummary // [method][window][trial]
	three map[string][]trialSummary   // COUNT = 3, 120 days: none, reboost, both
	diag  map[string][][]siteStat     // -diag, 120 days: none and latest, [trial][site]
	drop  [][]trialSummary            // reboost with -drop, 60 and 120 days
	// changed is loadedChanges of the machines, 120 days (-remedy none's
	// heading)
	changed []loaded
}

// options of one README run.
func studyOptions(method string, days int64, count int) options {
	plan, err := remedyConfig(method)
	if err != nil {
		panic(err) // the README's methods are valid
	}
	return options{days: days, count: count, step: 10, plan: plan}
}

// runStudy makes every run of the README (about 3 CPU-minutes).
func runStudy(ms []machine, progress io.Writer) (*study, error) {
	st := &study{ms: ms, sums: map[string][][]trialSummary{}, three: map[string][]trialSummary{}, diag: map[string][][]siteStat{}}
	var err error
	if st.changed, err = loadedChanges(ms, studyOptions("none", 120, 2)); err != nil {
		return nil, err
	}
	for _, m := range methods {
		for _, d := range windows {
			fmt.Fprintf(progress, "coalloc: -remedy %s -days %d\n", m, d)
			s, _, err := runTrials(ms, studyOptions(m, d, 2))
			if err != nil {
				return nil, err
			}
			st.sums[m] = append(st.sums[m], s)
		}
	}
	for _, m := range []string{"none", "reboost", "both"} {
		fmt.Fprintf(progress, "coalloc: -remedy %s -count 3\n", m)
		s, _, err := runTrials(ms, studyOptions(m, 120, 3))
		if err != nil {
			return nil, err
		}
		st.three[m] = s
	}
	for _, m := range []string{"none", "latest"} {
		fmt.Fprintf(progress, "coalloc: -remedy %s -diag\n", m)
		o := studyOptions(m, 120, 2)
		o.diag = io.Discard
		_, sites, err := runTrials(ms, o)
		if err != nil {
			return nil, err
		}
		st.diag[m] = sites
	}
	for _, d := range windows[:2] {
		fmt.Fprintf(progress, "coalloc: -remedy reboost -drop -days %d\n", d)
		o := studyOptions("reboost", d, 2)
		o.plan.DropDead = true
		s, _, err := runTrials(ms, o)
		if err != nil {
			return nil, err
		}
		st.drop = append(st.drop, s)
	}
	return st, nil
}

// clone returns b's bytes and empties it.
func clone(b *bytes.Buffer) []byte {
	defer b.Reset()
	return bytes.Clone(b.Bytes())
}

func shape(tr trial) string {
	return fmt.Sprintf("%d, %d h, %d h", tr.Nodes, tr.Walltime/3600, tr.Lead/3600)
}

// field collects f over the summaries of one method, all windows, the
// given trials (nil: all).
func (st *study) field(method string, trials []int, f func(trialSummary) float64) []float64 {
	var vs []float64
	for _, byTrial := range st.sums[method] {
		for i, s := range byTrial {
			if trials == nil || slices.Contains(trials, i) {
				vs = append(vs, f(s))
			}
		}
	}
	return vs
}

func pExpected(s trialSummary) float64 { return s.pExpected }
func pAchieved(s trialSummary) float64 { return s.pAchieved }
func overAlloc(s trialSummary) float64 { return s.overAllocation() }

// achievedCell is "0.906 ± .018", bold when below P_all, "1.000" when
// every co-allocation succeeded.
func achievedCell(s trialSummary, pAll float64) string {
	v := fmt.Sprintf("%.3f", s.pAchieved)
	if s.pAchieved < pAll {
		v = "**" + v + "**"
	}
	if se := stdErr(s); se > 0 {
		v += " ± " + strings.TrimPrefix(fmt.Sprintf("%.3f", se), "0")
	}
	return v
}

// regions computes the README's long regions.
func (st *study) regions() map[string][]byte {
	out := map[string][]byte{}
	var b bytes.Buffer
	st.cells(&b)
	out["cells"] = clone(&b)
	st.windowsTable(&b)
	out["windows"] = clone(&b)
	st.costTable(&b)
	out["cost"] = clone(&b)
	st.executed(&b)
	out["executed"] = clone(&b)
	st.status(&b)
	out["status"] = clone(&b)
	st.why(&b)
	out["why"] = clone(&b)
	st.remedies(&b)
	out["remedies"] = clone(&b)
	st.noise(&b)
	out["noise"] = clone(&b)
	st.countThree(&b)
	out["count3"] = clone(&b)
	st.noneRun(&b)
	out["none"] = clone(&b)
	st.noneWindows(&b)
	out["none-windows"] = clone(&b)
	st.diagTable(&b)
	out["diag"] = clone(&b)
	return out
}

// cells prints P_expected → P_achieved of both and reboost per window.
func (st *study) cells(w io.Writer) {
	fmt.Fprint(w, "| (N, W, D) |")
	for _, m := range []string{"both", "reboost"} {
		for _, d := range windows {
			fmt.Fprintf(w, " %s %d d |", m, d)
		}
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", 2*len(windows)))
	for i, tr := range table62 {
		fmt.Fprintf(w, "| (%d, %dh, %dh) |", tr.Nodes, tr.Walltime/3600, tr.Lead/3600)
		for _, m := range []string{"both", "reboost"} {
			for k := range windows {
				s := st.sums[m][k][i]
				fmt.Fprintf(w, " %.3f → %.3f |", s.pExpected, s.pAchieved)
			}
		}
		fmt.Fprintln(w)
	}
}

var methodLabel = map[string]string{"none": "thesis (`none`)", "latest": "`latest`", "reboost": "`reboost`", "both": "`both`"}

// windowsHeader prints the header of a table with a column per window.
func windowsHeader(w io.Writer, third string) {
	fmt.Fprintf(w, "| (N, W, D) | P_all | %s |", third)
	for _, d := range windows {
		fmt.Fprintf(w, " %d d |", d)
	}
	fmt.Fprintf(w, "\n|---|---|---|%s\n", strings.Repeat("---|", len(windows)))
}

// windowsTable prints P_achieved ± s.e. per method and window.
func (st *study) windowsTable(w io.Writer) {
	windowsHeader(w, "method")
	for i, tr := range table62 {
		for k, m := range methods {
			if k == 0 {
				fmt.Fprintf(w, "| %s | %.2f | %s |", shape(tr), tr.PAll, methodLabel[m])
			} else {
				fmt.Fprintf(w, "| | | %s |", methodLabel[m])
			}
			for j := range windows {
				fmt.Fprintf(w, " %s |", achievedCell(st.sums[m][j][i], tr.PAll))
			}
			fmt.Fprintln(w)
		}
	}
}

// costTable prints promise, requests, submissions and over-allocation per
// method over the windows.
func (st *study) costTable(w io.Writer) {
	fmt.Fprintln(w, "| (N, W, D) | method | P_expected | requests/res | submitted/res | over-allocation |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for i, tr := range table62 {
		for k, m := range methods {
			label := methodLabel[m]
			if m == "none" {
				label = "thesis"
			}
			first := ""
			if k == 0 {
				first = shape(tr)
			}
			one := []int{i}
			var over []string
			for j := range windows {
				over = append(over, fmt.Sprintf("%.2f", st.sums[m][j][i].overAllocation()))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", first, label,
				readme.Span("%.3f", st.field(m, one, pExpected)),
				readme.Span("%.2f", st.field(m, one, func(s trialSummary) float64 { return s.requestsPerRes })),
				readme.Span("%.2f", st.field(m, one, func(s trialSummary) float64 { return s.submittedPerRes })),
				strings.Join(over, " / "))
		}
	}
}

// executed prints the co-allocations executed per trial and window, and
// the re-boosts per reservation.
func (st *study) executed(w io.Writer) {
	var parts []string
	for j, d := range windows {
		var cells []string
		for i := range table62 {
			var vs []float64
			for _, m := range methods {
				vs = append(vs, float64(st.sums[m][j][i].executed))
			}
			cells = append(cells, readme.Span("%.0f", vs))
		}
		parts = append(parts, fmt.Sprintf("%s at %d days", strings.Join(cells, "/"), d))
	}
	fmt.Fprintf(w, "Co-allocations executed per trial (the range over the four methods): %s.\n", strings.Join(parts, ", "))
	reboosts := func(s trialSummary) float64 { return s.reboostsPerRes }
	fmt.Fprintf(w, "Re-boosted requests per reservation: `reboost` %s in trial 1 and %s in trials 2–4; `both` %s in trial 1 and %s in trials 2–4.\n",
		readme.Span("%.2f", st.field("reboost", []int{0}, reboosts)), readme.Span("%.2f", st.field("reboost", []int{1, 2, 3}, reboosts)),
		readme.Span("%.2f", st.field("both", []int{0}, reboosts)), readme.Span("%.2f", st.field("both", []int{1, 2, 3}, reboosts)))
}

// margin is one cell's P_achieved − P_all, in standard errors too.
type margin struct {
	trial, window int
	diff, se      float64 // se: diff / s.e. (±Inf when s.e. is 0)
	executed      int
}

// margins are one method's cells, the closest to P_all in standard errors
// first.
func (st *study) margins(method string) []margin {
	var ms []margin
	for j := range windows {
		for i, tr := range table62 {
			s := st.sums[method][j][i]
			d := s.pAchieved - tr.PAll
			ms = append(ms, margin{i, j, d, d / stdErr(s), s.executed})
		}
	}
	slices.SortStableFunc(ms, func(a, b margin) int { return cmp.Compare(a.se, b.se) })
	return ms
}

// status prints the acceptance status of each method.
func (st *study) status(w io.Writer) {
	cellsN := len(windows) * len(table62)
	for _, m := range []string{"both", "reboost"} {
		ms := st.margins(m)
		misses := 0
		for _, x := range ms {
			if x.diff < 0 {
				misses++
			}
		}
		worst := ms[0]
		rest := math.Inf(1)
		for _, x := range ms[1:] {
			rest = min(rest, x.se)
		}
		verdict := fmt.Sprintf("meets it in every trial of every window measured (%s days)", windowList())
		if misses > 0 {
			verdict = fmt.Sprintf("misses it in %d of %d cells", misses, cellsN)
		}
		label := "The default (`both`)"
		if m == "reboost" {
			label = "Re-boosting alone (`reboost`)"
		}
		fmt.Fprintf(w, "- **%s %s.** Its closest margin is %.3f against %.2f (trial %d, %d days, %d co-allocations, %.1f s.e.); everywhere else it is at least %.1f s.e.",
			label, verdict, st.sums[m][worst.window][worst.trial].pAchieved, table62[worst.trial].PAll, worst.trial+1, windows[worst.window], worst.executed, worst.se, rest)
		fmt.Fprintf(w, " It uses %s requests per reservation, of which %s are submitted; promise %s; over-allocation %s",
			readme.Span("%.1f", st.field(m, nil, func(s trialSummary) float64 { return s.requestsPerRes })),
			readme.Span("%.1f", st.field(m, nil, func(s trialSummary) float64 { return s.submittedPerRes })),
			readme.Span("%.2f", st.field(m, nil, pExpected)), readme.Span("%.1f", st.field(m, nil, overAlloc)))
		lower := 0
		for j := range windows {
			for i := range table62 {
				if st.sums[m][j][i].overAllocation() < st.sums["none"][j][i].overAllocation() {
					lower++
				}
			}
		}
		fmt.Fprintf(w, ", below the thesis method's (%s) in %d of %d cells.\n", readme.Span("%.1f", st.field("none", nil, overAlloc)), lower, cellsN)
	}
	ms := st.margins("none")
	var missDiff, missSE []float64
	missWindows := map[int]bool{}
	for _, x := range ms {
		if x.diff < 0 {
			missDiff, missSE = append(missDiff, -x.diff), append(missSE, -x.se)
			missWindows[x.window] = true
		}
	}
	fmt.Fprintf(w, "- **The thesis's method (`none`)** misses it in %d of the %d windows, in %d of %d cells, by %s (%s s.e.).\n",
		len(missWindows), len(windows), len(missDiff), cellsN, readme.Span("%.3f", missDiff), readme.Span("%.1f", missSE))
	fmt.Fprintf(w, "- **The plan-point rule alone (`latest`)** promises %s and achieves %s.\n",
		readme.Span("%.2f", st.field("latest", nil, pExpected)), readme.Span("%.2f", st.field("latest", nil, pAchieved)))
	meets := 0
	for _, m := range []string{"none", "reboost", "both"} {
		ok := true
		for i, tr := range table62 {
			if st.three[m][i].pAchieved < tr.PAll {
				ok = false
			}
		}
		if ok {
			meets++
		}
	}
	fmt.Fprintf(w, "- **With COUNT = 3** (120 days, not the acceptance setting) %d of the 3 methods meet it in every trial.\n", meets)
}

func windowList() string {
	var s []string
	for _, d := range windows {
		s = append(s, fmt.Sprint(d))
	}
	return strings.Join(s, ", ")
}

// why prints the numbers behind "Why both is the default".
func (st *study) why(w io.Writer) {
	var thesisExp []float64
	for _, tr := range table62 {
		thesisExp = append(thesisExp, tr.Expected)
	}
	above := 0
	for j := range windows {
		for i := range table62 {
			if s := st.sums["both"][j][i]; s.pAchieved > s.pExpected {
				above++
			}
		}
	}
	fmt.Fprintf(w, "With `both`, P_expected is %s (the thesis's %s) and P_achieved exceeds it in %d of %d cells. In trial 2 the over-allocation of `reboost` is %s, of `both` %s.\n",
		readme.Span("%.2f", st.field("both", nil, pExpected)), readme.Span("%.2f", thesisExp), above, len(windows)*len(table62),
		readme.Span("%.1f", st.field("reboost", []int{1}, overAlloc)), readme.Span("%.1f", st.field("both", []int{1}, overAlloc)))
}

// remedies prints the numbers behind "What each remedy does".
func (st *study) remedies(w io.Writer) {
	var gap []float64
	for j := range windows {
		for i := range table62 {
			s := st.sums["latest"][j][i]
			gap = append(gap, s.pExpected-s.pAchieved)
		}
	}
	fmt.Fprintf(w, "- `latest`: P_expected %s, over-allocation %s, achieved %s below the promise (negative: above).",
		readme.Span("%.2f", st.field("latest", nil, pExpected)), readme.Span("%.1f", st.field("latest", nil, overAlloc)), readme.Span("%.2f", gap))
	var promised, atSubmit, achieved []float64
	for _, s := range st.diag["latest"][2] {
		if s.single >= minSingle {
			promised, achieved = append(promised, s.promise()), append(achieved, s.achieved())
		}
		if s.submits > 0 {
			atSubmit = append(atSubmit, s.reforecast())
		}
	}
	pIndep := math.Sqrt(table62[2].PAll)
	fmt.Fprintf(w, " `-diag` (120 days, trial 3, sites with ≥ %d single-request reservations): promise per request %s against P_indep = %.3f, forecast at submission %s, achieved per site %s.\n",
		minSingle, readme.Span("%.3f", promised), pIndep, readme.Span("%.2f", atSubmit), readme.Span("%.2f", achieved))
	gap = gap[:0]
	for j := range windows {
		for i := range table62 {
			s := st.sums["reboost"][j][i]
			gap = append(gap, s.pAchieved-s.pExpected)
		}
	}
	fmt.Fprintf(w, "- `reboost`: achieved minus P_expected is from %+.3f to %+.3f over the %d cells; %s re-boosted requests per reservation.\n",
		slices.Min(gap), slices.Max(gap), len(gap), readme.Span("%.2f", st.field("reboost", nil, func(s trialSummary) float64 { return s.reboostsPerRes })))
	for k, d := range windows[:len(st.drop)] {
		var before, after []string
		for i := range table62 {
			before = append(before, fmt.Sprintf("%.3f", st.sums["reboost"][k][i].pAchieved))
			after = append(after, fmt.Sprintf("%.3f", st.drop[k][i].pAchieved))
		}
		fmt.Fprintf(w, "- `-drop` (with `reboost`, %d days): P_achieved %s without it, %s with it.\n", d, strings.Join(before, "/"), strings.Join(after, "/"))
	}
}

// noise prints the numbers behind "Binomial noise".
func (st *study) noise(w io.Writer) {
	none := func(trials []int) []float64 { return st.field("none", trials, pAchieved) }
	var missSE []float64
	for _, x := range st.margins("none") {
		if x.diff < 0 && x.trial >= 2 {
			missSE = append(missSE, -x.se)
		}
	}
	t1 := st.margins("none")
	worst1 := margin{diff: math.Inf(1)}
	for _, x := range t1 {
		if x.trial == 0 && x.diff < worst1.diff {
			worst1 = x
		}
	}
	b := st.margins("both")
	rest := math.Inf(1)
	for _, x := range b[1:] {
		rest = min(rest, x.se)
	}
	fmt.Fprintf(w, "The thesis's method achieves %s in trials 3 and 4 against 0.75 (misses of %s s.e.) and %s in trial 1 against 0.90 (worst %+.1f s.e., at %d days). `both` sits %.1f s.e. above P_all in its worst cell (trial %d, %d days) and at least %.1f s.e. above everywhere else.\n",
		readme.Span("%.2f", none([]int{2, 3})), readme.Span("%.1f", missSE), readme.Span("%.3f", none([]int{0})), worst1.se, windows[worst1.window],
		b[0].se, b[0].trial+1, windows[b[0].window], rest)
}

// countThree prints the COUNT = 3 table.
func (st *study) countThree(w io.Writer) {
	fmt.Fprintln(w, "| (N, W, D) | P_all | thesis (`none`) | `reboost` | `both` |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for i, tr := range table62 {
		fmt.Fprintf(w, "| %s | %.2f |", shape(tr), tr.PAll)
		for _, m := range []string{"none", "reboost", "both"} {
			s := st.three[m][i]
			fmt.Fprintf(w, " %s (%d of %d) |", achievedCell(s, tr.PAll), s.executed, s.attempts)
		}
		fmt.Fprintln(w)
	}
	var reb []float64
	for _, s := range st.three["reboost"] {
		reb = append(reb, s.reboostsPerRes)
	}
	fmt.Fprintf(w, "\nRe-boosts per reservation with `reboost`: %s.\n", readme.Span("%.2f", reb))
}

// noneRun prints the output of `-remedy none` (120 days).
func (st *study) noneRun(w io.Writer) {
	fmt.Fprintln(w, "```")
	printHeading(w, st.ms, studyOptions("none", 120, 2), st.changed)
	printTable(w, table62, st.sums["none"][1])
	fmt.Fprintln(w, "```")
}

// noneWindows prints the thesis's method's P_achieved over the windows.
func (st *study) noneWindows(w io.Writer) {
	windowsHeader(w, "thesis")
	for i, tr := range table62 {
		fmt.Fprintf(w, "| %s | %.2f | %.3f |", shape(tr), tr.PAll, tr.Achvd)
		for j := range windows {
			v := fmt.Sprintf("%.3f", st.sums["none"][j][i].pAchieved)
			if st.sums["none"][j][i].pAchieved < tr.PAll {
				v = "**" + v + "**"
			}
			fmt.Fprintf(w, " %s |", v)
		}
		fmt.Fprintln(w)
	}
	last := st.sums["none"][len(windows)-1]
	col := func(f func(trialSummary) string) string {
		var s []string
		for _, x := range last {
			s = append(s, f(x))
		}
		return strings.Join(s, "/")
	}
	fmt.Fprintf(w, "\nA %d-day run executes %s co-allocations. There, P_expected is %s, requests per reservation are %s, and over-allocation is %s.\n",
		windows[len(windows)-1], col(func(s trialSummary) string { return fmt.Sprint(s.executed) }),
		col(func(s trialSummary) string { return fmt.Sprintf("%.3f", s.pExpected) }),
		col(func(s trialSummary) string { return fmt.Sprintf("%.2f", s.requestsPerRes) }),
		col(func(s trialSummary) string { return fmt.Sprintf("%.2f", s.overAllocation()) }))
}

// minSingle is the fewest single-request reservations for a site's row in
// the calibration table.
const minSingle = 30

// diagTable prints the calibration of the thesis's method per trial and
// site (-diag -remedy none, 120 days).
func (st *study) diagTable(w io.Writer) {
	fmt.Fprintln(w, "| trial | site | single-request res. | promised | at submission | achieved |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	var few []string
	for i, tr := range table62 {
		for _, s := range st.diag["none"][i] {
			name := strings.TrimSuffix(strings.TrimSuffix(s.name, ".swf.gz"), "-cln")
			name = shortSite(name)
			if s.single < minSingle {
				if s.single > 0 {
					few = append(few, fmt.Sprintf("%s in trial %d (%d, achieved %.3f)", name, i+1, s.single, s.achieved()))
				}
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %d | %.3f | %.3f | %.3f |\n", shape(tr), name, s.single, s.promise(), s.reforecast(), s.achieved())
		}
	}
	fmt.Fprintf(w, "\nLeft out for fewer than %d single-request reservations: %s.\n", minSingle, strings.Join(few, "; "))
}

// shortSite is a log's machine name: "SDSC-BLUE" of "SDSC-BLUE-2000-4.2".
func shortSite(name string) string {
	parts := strings.Split(name, "-")
	for i, p := range parts {
		if p != "" && p[0] >= '0' && p[0] <= '9' {
			return strings.Join(parts[:i], "-")
		}
	}
	return name
}

// defaultRegions are the regions of the default run (`both`, 120 days):
// its table, the comparison with the thesis, and the top-level README's
// row for this example.
func defaultRegions(sums []trialSummary) (region, against, topRow []byte) {
	var b bytes.Buffer
	fmt.Fprintln(&b, "```")
	printTable(&b, table62, sums)
	fmt.Fprintln(&b, "```")
	region = clone(&b)
	var ach, exp, thesisExp []float64
	above := 0
	for i, tr := range table62 {
		ach, exp, thesisExp = append(ach, sums[i].pAchieved), append(exp, sums[i].pExpected), append(thesisExp, tr.Expected)
		if sums[i].pAchieved >= tr.PAll {
			above++
		}
	}
	for i, tr := range table62 {
		rel := "more"
		if sums[i].pAchieved < tr.Achvd {
			rel = "less"
		}
		fmt.Fprintf(&b, "- Trial %d (%s) achieves %s than the thesis: %.3f against %.3f (P_all %.2f).\n", i+1, shape(tr), rel, sums[i].pAchieved, tr.Achvd, tr.PAll)
	}
	fmt.Fprintf(&b, "- Our promises are %s against the thesis's %s.\n", readme.Span("%.2f", exp), readme.Span("%.2f", thesisExp))
	against = clone(&b)
	var pAll, thesis []float64
	for _, tr := range table62 {
		pAll, thesis = append(pAll, tr.PAll), append(thesis, tr.Achvd)
	}
	fmt.Fprintf(&b, "| coalloc | `go run ./examples/coalloc` | CO-VARQ co-allocation trials (Nurmi's Table 6.2) over five simulated machines, plans re-boosted while they wait (the default): P_achieved %s against P_all %s, at or above it in %d of %d trials (thesis %s) | no |\n",
		readme.Span("%.3f", ach), readme.Span("%.2f", pAll), above, len(table62), readme.Span("%.3f", thesis))
	topRow = clone(&b)
	return region, against, topRow
}
