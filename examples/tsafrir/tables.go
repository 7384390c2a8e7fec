package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/batchq/batchq/sched"
)

// metric is one row kind of a table: our value from a Summary and the
// thesis's for a log and variant (ok false when the thesis has none).
type metric struct {
	name   string
	ours   func(sched.Summary) float64
	paper  func(log, variant string) (float64, bool)
	format func(float64) string
}

func cellOf(f func(paperCell) float64) func(log, v string) (float64, bool) {
	return func(log, v string) (float64, bool) {
		c, ok := paper[log][v]
		return f(c), ok
	}
}

var metrics = []metric{
	{"wait (min)", func(s sched.Summary) float64 { return s.MeanWait / 60 }, cellOf(func(c paperCell) float64 { return c.Wait }), num},
	{"bsld", func(s sched.Summary) float64 { return s.MeanBSLD }, cellOf(func(c paperCell) float64 { return c.BSLD }), num},
	{"accuracy %", func(s sched.Summary) float64 { return 100 * s.Accuracy }, cellOf(func(c paperCell) float64 { return c.Acc }), num},
}

func num(x float64) string {
	if x < 10 {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

// writeTables prints Tables 4.1, 4.2, 4.3 and 4.7: per log, per variant,
// "ours (thesis)" for wait (minutes), bounded slowdown and accuracy (%), and
// the change vs EASY; Table 4.2 also the corrections per job.
func writeTables(w io.Writer, res []outcome) {
	for _, t := range tables {
		fmt.Fprintf(w, "### %s\n\n", t.Name)
		writeTable(w, res, t.Variants, metrics, t.corrections)
	}
}

// writeTable prints one table of cells "ours (thesis) Δ ours / thesis", Δ
// being the change relative to the first variant.
func writeTable(w io.Writer, res []outcome, variants []string, ms []metric, corrections bool) {
	fmt.Fprintf(w, "Cells: ours (thesis); Δ = change vs %s, ours / thesis.\n\n", variants[0])
	writeHeader(w, "log", variants)
	for _, l := range logs {
		base, ok := find(res, l.Name, variants[0])
		if !ok {
			continue
		}
		for _, m := range ms {
			fmt.Fprintf(w, "| %s | %s |", l.Name, m.name)
			pb, _ := m.paper(l.Name, variants[0])
			for i, v := range variants {
				s, _ := find(res, l.Name, v)
				ours := m.ours(s)
				theirs, ok := m.paper(l.Name, v)
				cell := " " + m.format(ours)
				if ok {
					cell += " (" + m.format(theirs) + ")"
				}
				if i > 0 {
					cell += fmt.Sprintf(" Δ %s / %s", pct(ours, m.ours(base)), pct(theirs, pb))
				}
				fmt.Fprint(w, cell, " |")
			}
			fmt.Fprintln(w)
		}
		if corrections {
			fmt.Fprintf(w, "| %s | corrections/job ± s.d. |", l.Name)
			for _, v := range variants {
				s, _ := find(res, l.Name, v)
				cell := fmt.Sprintf(" %.2f ± %.2f", s.MeanCorrections, s.SDCorrections)
				if c, ok := paperCorrections[l.Name][v]; ok {
					cell += fmt.Sprintf(" (%.2f ± %.2f)", c[0], c[1])
				}
				fmt.Fprint(w, cell, " |")
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w)
}

// writeHeader starts a table of rows "first | metric" and one column per
// variant.
func writeHeader(w io.Writer, first string, variants []string) {
	fmt.Fprintf(w, "| %s | metric | %s |\n", first, strings.Join(variants, " | "))
	fmt.Fprintf(w, "|---|---|%s\n", strings.Repeat("---|", len(variants)))
}

// pct is the change of x relative to base in percent, "n/a" without a base.
func pct(x, base float64) string {
	if base == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.0f%%", 100*(x/base-1))
}

// writeGaps lists every cell where ours and the thesis differ by more than
// 15% (each variant once, across all tables), counts how many are close,
// and lists the changes vs EASY whose sign differs from the thesis's.
func writeGaps(w io.Writer, res []outcome) {
	var gaps, signs []string
	cells, within3 := 0, 0
	for _, l := range logs {
		base, ok := find(res, l.Name, "EASY")
		if !ok {
			continue
		}
		for _, v := range allVariants {
			s, _ := find(res, l.Name, v)
			for _, m := range metrics {
				ours := m.ours(s)
				theirs, _ := m.paper(l.Name, v)
				cells++
				d := ours/theirs - 1
				if math.Abs(d) <= 0.03 {
					within3++
				}
				if math.Abs(d) > 0.15 {
					gaps = append(gaps, fmt.Sprintf("- %s %s %s: ours %s, thesis %s (%+.0f%%)", l.Name, v, m.name, m.format(ours), m.format(theirs), 100*d))
				}
				if v == "EASY" {
					continue
				}
				pb, _ := m.paper(l.Name, "EASY")
				do, dt := ours/m.ours(base)-1, theirs/pb-1
				// Opposite signs, both changes at least 1%: smaller ones round to 0 in the tables.
				if do*dt < 0 && math.Abs(do) >= 0.01 && math.Abs(dt) >= 0.01 {
					signs = append(signs, fmt.Sprintf("- %s %s %s: Δ %s / %s", l.Name, v, m.name, pct(ours, m.ours(base)), pct(theirs, pb)))
				}
			}
		}
	}
	fmt.Fprintf(w, "%d of the %d distinct cells (%d variants × logs × 3 metrics) are within 15%% of the thesis, %d within 3%%. Cells more than 15%% from the thesis:\n\n",
		cells-len(gaps), cells, len(allVariants), within3)
	if len(gaps) == 0 {
		gaps = []string{"- none"}
	}
	fmt.Fprintln(w, strings.Join(gaps, "\n"))
	fmt.Fprintf(w, "\nChanges vs EASY (Δ) of opposite sign to the thesis's, both at least 1%%:\n\n")
	if len(signs) == 0 {
		signs = []string{"- none"}
	}
	fmt.Fprintln(w, strings.Join(signs, "\n"))
}

// predMetrics are the rows of Tab 4.5 (abs) or 4.6 (delay).
func predMetrics(delay bool) []metric {
	th := paperAbs
	get := func(s sched.Summary) (rate, mean, median, sd float64) {
		p := s.Predictability
		return p.Rate, p.AbsMean, p.AbsMedian, p.AbsSD
	}
	if delay {
		th = paperDelay
		get = func(s sched.Summary) (rate, mean, median, sd float64) {
			p := s.Predictability
			return p.DelayRate, p.DelayMean, p.DelayMedian, p.DelaySD
		}
	}
	field := func(f func(predCell) float64) func(log, v string) (float64, bool) {
		return func(log, v string) (float64, bool) {
			c, ok := th[log][v]
			return f(c), ok
		}
	}
	return []metric{
		{"rate %", func(s sched.Summary) float64 { r, _, _, _ := get(s); return 100 * r }, field(func(c predCell) float64 { return c.Rate }), num},
		{"mean (min)", func(s sched.Summary) float64 { _, m, _, _ := get(s); return m / 60 }, field(func(c predCell) float64 { return c.Mean }), num},
		{"median (min)", func(s sched.Summary) float64 { _, _, m, _ := get(s); return m / 60 }, field(func(c predCell) float64 { return c.Median }), num},
		{"s.d. (min)", func(s sched.Summary) float64 { _, _, _, sd := get(s); return sd / 60 }, field(func(c predCell) float64 { return c.SD }), num},
	}
}

// writePredictability prints Tab 4.5 and 4.6: EASY, and EASY+ and EASY++
// with the immediate predictor.
func writePredictability(w io.Writer, res []outcome) {
	fmt.Fprint(w, "### Table 4.5 — |start − first reservation|, jobs that got a reservation\n\n")
	writeTable(w, res, predVariants, predMetrics(false), false)
	fmt.Fprint(w, "### Table 4.6 — start − first reservation, jobs that started after it\n\n")
	writeTable(w, res, predVariants, predMetrics(true), false)
}
