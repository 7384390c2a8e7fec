package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
)

// The README's tables, generated here and checked by TestReadme*: Tables
// 4.1 and 4.2 over every shared log, Table 4.2 again with the thesis's
// model-based clustering, the thesis's rows beside ours, and the sentences
// that quote them.

// readmeConfigs are the three replays of the README's tables: Table 4.1,
// Table 4.2 with the default fixed processor ranges, and Table 4.2 with
// the thesis's two-level model-based clustering.
func readmeConfigs() []replay.Config {
	return append(tableConfigs(qbets.ClusterFixedProcs), tableConfigs(qbets.ClusterTwoLevel)[1])
}

// readmeTables are the README's regions computed from the three replays
// of readmeConfigs (m.rows in that order).
func readmeTables(m *measured) map[string][]byte {
	plain, fixed, two := m.rows[0], m.rows[1], m.rows[2]
	out := map[string][]byte{}
	var b bytes.Buffer
	table(&b, plain, false)
	out["table41"] = clone(&b)
	table(&b, fixed, true)
	fmt.Fprintln(&b)
	m.skips(&b)
	fmt.Fprintln(&b)
	failures(&b, fixed)
	out["table42"] = clone(&b)
	table(&b, two, true)
	fmt.Fprintln(&b)
	failures(&b, two)
	out["table42-twolevel"] = clone(&b)
	thesisTable(&b, thesis41, plain)
	out["thesis41"] = clone(&b)
	thesisTable(&b, thesis42, fixed, two)
	out["thesis42"] = clone(&b)
	reading(&b, plain, fixed, two)
	out["reading"] = clone(&b)
	winners(&b, fixed, two)
	out["winners"] = clone(&b)
	acceptance(&b, fixed, two)
	out["acceptance"] = clone(&b)
	return out
}

// clone returns b's bytes and empties it.
func clone(b *bytes.Buffer) []byte {
	defer b.Reset()
	return bytes.Clone(b.Bytes())
}

// find returns the row called name, or nil.
func find(rows []row, name string) *row {
	for i := range rows {
		if rows[i].name == name {
			return &rows[i]
		}
	}
	return nil
}

// thesisTable prints the thesis's rows beside ours: correctness of the
// four methods and the three comparators' accuracy ratios, one "ours"
// column per replay (Table 4.2: fixed ranges, then two-level).
func thesisTable(w io.Writer, ts []thesisRow, ours ...[]row) {
	labels := []string{"ours"}
	if len(ours) == 2 {
		labels = []string{"ours, fixed ranges", "ours, two-level"}
	}
	fmt.Fprint(w, "| trace | thesis correctness |")
	for _, l := range labels {
		fmt.Fprintf(w, " %s |", l)
	}
	fmt.Fprint(w, " thesis accuracy |")
	for _, l := range labels {
		fmt.Fprintf(w, " %s |", l)
	}
	fmt.Fprintf(w, "\n%s|\n", strings.Repeat("|---", 3+2*len(labels)))
	corrCell := func(r *replay.Result) string {
		var c []float64
		for _, m := range methods {
			c = append(c, r.Of(m).Correctness())
		}
		return joinf("%.3f", c)
	}
	accCell := func(r *replay.Result) string {
		var a []string
		for _, m := range methods[1:] {
			a = append(a, ratio(r.Ratio(m)))
		}
		return strings.Join(a, " / ")
	}
	for _, t := range ts {
		fmt.Fprintf(w, "| %s | %s |", t.label, joinf("%.2f", t.correct[:]))
		oursCells(w, ours, t.ours, corrCell)
		fmt.Fprintf(w, " %s |", joinf("%.2f", t.acc[:]))
		oursCells(w, ours, t.ours, accCell)
		fmt.Fprintln(w)
	}
}

// oursCells prints one cell per replay: cell of the row called name.
func oursCells(w io.Writer, ours [][]row, name string, cell func(*replay.Result) string) {
	for _, rows := range ours {
		if x := find(rows, name); x != nil {
			fmt.Fprintf(w, " %s |", cell(&x.r))
		} else {
			fmt.Fprint(w, " (no such row) |")
		}
	}
}

func joinf(format string, vs []float64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprintf(format, v)
	}
	return strings.Join(s, " / ")
}

// column collects f over the rows named by ts (missing rows are skipped).
func column(rows []row, ts []thesisRow, f func(*replay.Result) float64) []float64 {
	var vs []float64
	for _, t := range ts {
		if x := find(rows, t.ours); x != nil {
			vs = append(vs, f(&x.r))
		}
	}
	return vs
}

// prefixed collects f over the rows whose name starts with prefix, where
// keep (if not nil) holds.
func prefixed(rows []row, prefix string, keep, f func(*replay.Result) float64) []float64 {
	var vs []float64
	for i := range rows {
		if strings.HasPrefix(rows[i].name, prefix) && (keep == nil || keep(&rows[i].r) != 0) {
			vs = append(vs, f(&rows[i].r))
		}
	}
	return vs
}

func correctness(m replay.Method) func(*replay.Result) float64 {
	return func(r *replay.Result) float64 { return r.Of(m).Correctness() }
}

func accuracy(m replay.Method) func(*replay.Result) float64 {
	return func(r *replay.Result) float64 { return r.Ratio(m) }
}

func correct(m replay.Method) func(*replay.Result) float64 {
	return func(r *replay.Result) float64 {
		if r.Of(m).Correctness() >= 0.95 {
			return 1
		}
		return 0
	}
}

// thesisColumn is one method's printed correctness (acc false) or ratio
// over ts; ratios exist for LogN, LogU and Weibull only.
func thesisColumn(ts []thesisRow, m replay.Method, acc bool) []float64 {
	var vs []float64
	for _, t := range ts {
		if acc {
			vs = append(vs, t.acc[m-1])
		} else {
			vs = append(vs, t.correct[m])
		}
	}
	return vs
}

// maxGap is the largest |ours − thesis| over the rows.
func maxGap(ours, thesis []float64) float64 {
	g := 0.0
	for i := range min(len(ours), len(thesis)) {
		g = max(g, math.Abs(ours[i]-thesis[i]))
	}
	return g
}

func count(vs []float64, keep func(float64) bool) int {
	n := 0
	for _, v := range vs {
		if keep(v) {
			n++
		}
	}
	return n
}

func below(v float64) bool   { return v < 0.95 }
func atLeast(v float64) bool { return v >= 0.95 }

// reading prints the sentences that compare the thesis's rows with ours,
// and the comparators' ratios on SDSC-BLUE.
func reading(w io.Writer, plain, fixed, two []row) {
	const blue = "SDSC-BLUE-2000-4.2-cln/"
	sdsc, ctc := thesis41[1:], thesis41[:1]
	bm := column(plain, thesis41, correctness(replay.BM))
	fmt.Fprintf(w, "- **Table 4.1** (full history). BM is below 0.95 on %d of the five rows (thesis: %d): %s on the SDSC-BLUE queues (thesis %s), %s on ctc/ALL (thesis %s).",
		count(bm, below), count(thesisColumn(thesis41, replay.BM, false), below),
		readme.Span("%.3f", column(plain, sdsc, correctness(replay.BM))), readme.Span("%.2f", thesisColumn(sdsc, replay.BM, false)),
		readme.Span("%.3f", column(plain, ctc, correctness(replay.BM))), readme.Span("%.2f", thesisColumn(ctc, replay.BM, false)))
	fmt.Fprintf(w, " LogU is correct on %d of them by being extremely conservative (ratios %s; thesis %s).",
		count(column(plain, thesis41, correctness(replay.LogUniform)), atLeast),
		readme.Span("%.2f", column(plain, thesis41, accuracy(replay.LogUniform))), readme.Span("%.2f", thesisColumn(thesis41, replay.LogUniform, true)))
	fmt.Fprintf(w, " LogN's correctness is within %.3f of the printed values and its ratios within %.2f.",
		maxGap(column(plain, thesis41, correctness(replay.LogNormal)), thesisColumn(thesis41, replay.LogNormal, false)),
		maxGap(column(plain, thesis41, accuracy(replay.LogNormal)), thesisColumn(thesis41, replay.LogNormal, true)))
	fmt.Fprintf(w, " Weibull's correctness is %s (thesis %s), its ratio on ctc/ALL %s (thesis %s).\n",
		readme.Span("%.3f", column(plain, thesis41, correctness(replay.Weibull))), readme.Span("%.2f", thesisColumn(thesis41, replay.Weibull, false)),
		readme.Span("%.2f", column(plain, ctc, accuracy(replay.Weibull))), readme.Span("%.2f", thesisColumn(ctc, replay.Weibull, true)))
	fmt.Fprintf(w, "- **Table 4.2** (full QBETS). BM's correctness on the five rows is %s with the fixed ranges and %s with the two-level clustering (thesis %s); it is below 0.95 on %d and %d of them (thesis: %d).",
		readme.Span("%.3f", column(fixed, thesis42, correctness(replay.BM))), readme.Span("%.3f", column(two, thesis42, correctness(replay.BM))),
		readme.Span("%.2f", thesisColumn(thesis42, replay.BM, false)),
		count(column(fixed, thesis42, correctness(replay.BM)), below), count(column(two, thesis42, correctness(replay.BM)), below),
		count(thesisColumn(thesis42, replay.BM, false), below))
	for _, m := range methods[1:] {
		fmt.Fprintf(w, " %v: correctness %s fixed, %s two-level (thesis %s), ratios %s and %s (thesis %s).", m,
			readme.Span("%.3f", column(fixed, thesis42, correctness(m))), readme.Span("%.3f", column(two, thesis42, correctness(m))),
			readme.Span("%.2f", thesisColumn(thesis42, m, false)),
			readme.Span("%.2f", column(fixed, thesis42, accuracy(m))), readme.Span("%.2f", column(two, thesis42, accuracy(m))),
			readme.Span("%.2f", thesisColumn(thesis42, m, true)))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "- **SDSC-BLUE, every queue and ALL.** LogU's ratios go from %s (Table 4.1) to %s (Table 4.2, fixed ranges) and %s (two-level); LogN's from %s to %s and %s; Weibull's are %s where it is correct (fixed ranges) and %s (two-level). The two-level clustering makes %s clusters per queue there.\n",
		readme.Span("%.2f", prefixed(plain, blue, nil, accuracy(replay.LogUniform))),
		readme.Span("%.2f", prefixed(fixed, blue, nil, accuracy(replay.LogUniform))), readme.Span("%.2f", prefixed(two, blue, nil, accuracy(replay.LogUniform))),
		readme.Span("%.2f", prefixed(plain, blue, nil, accuracy(replay.LogNormal))),
		readme.Span("%.2f", prefixed(fixed, blue, nil, accuracy(replay.LogNormal))), readme.Span("%.2f", prefixed(two, blue, nil, accuracy(replay.LogNormal))),
		readme.Span("%.2f", prefixed(fixed, blue, correct(replay.Weibull), accuracy(replay.Weibull))),
		readme.Span("%.2f", prefixed(two, blue, correct(replay.Weibull), accuracy(replay.Weibull))),
		readme.Span("%.0f", prefixed(two, blue, nil, func(r *replay.Result) float64 { return float64(len(r.Clusters)) })))
	downShare := func(r *replay.Result) float64 { return 100 * float64(r.Down) / float64(max(r.Scored, 1)) }
	big := func(r *replay.Result) float64 {
		if r.Jobs >= 10000 {
			return 1
		}
		return 0
	}
	fmt.Fprintf(w, "- **Availability** (column *down*, fixed ranges): %s%% of the scored jobs of the queues with ≥ 10,000 jobs are refused as \"machine may be down\" (thesis: \"usually < 1%%\").\n",
		readme.Span("%.0f", prefixed(fixed, "", big, downShare)))
}

// tally counts the winners of rows, in the order BM, LogN, LogU, Weib,
// none, and the rows where no job waited, which no method wins.
func tally(rows []row) string {
	n := map[string]int{}
	for i := range rows {
		n[winner(&rows[i])]++
	}
	return tallyText(n)
}

func tallyText(n map[string]int) string {
	var s []string
	for _, m := range []string{"BM", "LogN", "LogU", "Weib", "none"} {
		if n[m] > 0 || m != "none" {
			s = append(s, fmt.Sprintf("%s %d", m, n[m]))
		}
	}
	ties := 0
	for k, c := range n {
		if strings.HasPrefix(k, tiePrefix) {
			ties += c
		}
	}
	if ties > 0 {
		s = append(s, fmt.Sprintf("tied %d (no single winner)", ties))
	}
	if n[noWait] > 0 {
		s = append(s, fmt.Sprintf("no job waited %d (no winner)", n[noWait]))
	}
	return strings.Join(s, ", ")
}

// winners prints Table 4.2's winner tally and what it rests on.
func winners(w io.Writer, fixed, two []row) {
	fmt.Fprintf(w, "Over the %d rows of Table 4.2 with the fixed ranges: %s; with the two-level clustering: %s (thesis, 25 traces: %s).",
		len(fixed), tally(fixed), tally(two), tallyText(thesisWinners))
	for _, c := range []struct {
		label string
		rows  []row
	}{{"fixed ranges", fixed}, {"two-level", two}} {
		logU, both, tighter, weib := 0, 0, 0, 0
		var bothRatios, weibWins []float64
		for i := range c.rows {
			r := &c.rows[i].r
			lu := r.Of(replay.LogUniform).Correctness() >= 0.95
			if lu {
				logU++
			}
			if r.Of(replay.Weibull).Correctness() >= 0.95 {
				weib++
			}
			if lu && r.Correctness() >= 0.95 && r.RMS() > 0 {
				both++
				bothRatios = append(bothRatios, r.Ratio(replay.LogUniform))
				if r.Ratio(replay.LogUniform) < 1 {
					tighter++
				}
			}
			if winner(&c.rows[i]) == replay.Weibull.String() && r.Correctness() >= 0.95 {
				weibWins = append(weibWins, r.Ratio(replay.Weibull))
			}
		}
		fmt.Fprintf(w, " %s: LogU is correct on %d of %d rows; where BM and LogU are both correct and BM's RMS is not 0, BM is tighter on %d of %d (LogU ratios %s; thesis: all 21 of 21). Weibull is correct on %d; where it wins and BM is also correct its ratios are %s.",
			capitalize(c.label), logU, len(c.rows), tighter, both, readme.Span("%.2f", bothRatios), weib, readme.Span("%.2f", weibWins))
	}
	fmt.Fprintln(w)
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// acceptanceNames are issue 4's acceptance set: CTC, KTH and SDSC-SP2 as
// whole logs, and the SDSC-BLUE queues with ≥ 2000 jobs (picked from the
// rows).
var acceptanceNames = []string{"CTC-SP2-1996-3.1-cln/ALL", "KTH-SP2-1996-2.1-cln/-1", "SDSC-SP2-1998-4.2-cln/ALL"}

// acceptance prints BM's Table 4.2 correctness on the acceptance set.
func acceptance(w io.Writer, fixed, two []row) {
	for _, c := range []struct {
		label string
		rows  []row
	}{{"fixed ranges (the default)", fixed}, {"two-level clustering", two}} {
		fmt.Fprintf(w, "- Full QBETS BM ≥ 0.95, %s:", c.label)
		names := slices.Clone(acceptanceNames)
		for i := range c.rows {
			x := &c.rows[i]
			if strings.HasPrefix(x.name, "SDSC-BLUE-2000-4.2-cln/") && !strings.HasSuffix(x.name, "/ALL") && x.jobs >= 2000 {
				names = append(names, x.name)
			}
		}
		var cells []string
		for _, n := range names {
			x := find(c.rows, n)
			if x == nil {
				continue
			}
			mark := "✓"
			if x.r.Correctness() < 0.95 {
				mark = "✗"
			}
			cells = append(cells, fmt.Sprintf("%s %.3f %s", x.name, x.r.Correctness(), mark))
		}
		fmt.Fprintf(w, " %s.\n", strings.Join(cells, ", "))
	}
}

// figureTable prints what the Figure 4.1 legends say: BM's correctness on
// the full history and with trimming, over each plotted queue and over
// its zoomed window.
func figureTable(w io.Writer, scores []figureScore) {
	fmt.Fprintln(w, "| queue | BM, full history | BM, trimming | thesis (cnsidell/ALL, Figure 4.1) |")
	fmt.Fprintln(w, "|---|---|---|---|")
	thesis := `no number printed; "the inferred .95 quantile rises only very slowly" without trimming`
	for _, s := range scores {
		whole := s.item + s.queueName + ", whole queue"
		if s.all {
			whole = s.item + ", whole log"
		}
		full, trim := &s.whole[0], &s.whole[1]
		fmt.Fprintf(w, "| %s | %.1f%% of %s | %.1f%% | %s |\n", whole, 100*full.Correctness(), readme.Thousands(full.Answered()), 100*trim.Correctness(), thesis)
		thesis = ""
		fmt.Fprintf(w, "| %s, days %d–%d | %.1f%% of %s | %.1f%% | |\n", s.item, s.fromDay, s.toDay,
			100*float64(s.held[0])/float64(max(s.n[0], 1)), readme.Thousands(s.n[0]), 100*float64(s.held[1])/float64(max(s.n[1], 1)))
	}
}
