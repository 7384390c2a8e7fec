package main

import (
	"fmt"
	"io"

	"github.com/batchq/batchq/internal/thesislogs"
)

// paper410 is Table 4.10 (EASY+ with an immediate window vs X2): wait (min)
// and bsld.
var paper410 = map[string]map[string]paperCell{
	"SDSC": {"EASY+": {343, 92}, "X2": {333, 89}},
	"CTC":  {"EASY+": {18, 3.7}, "X2": {20, 4.1}},
	"KTH":  {"EASY+": {108, 79}, "X2": {102, 80}},
	"BLUE": {"EASY+": {121, 31}, "X2": {115, 30}},
}

// paper411 is Table 4.11 (heel and toe under EASY and X2): stalled rate
// (% of the jobs that got a reservation), stall time (min), thieves#.
var paper411 = map[string]map[string][3]float64{
	"SDSC": {"EASY": {7.2, 91, 1.9}, "X2": {11, 137, 2.1}},
	"CTC":  {"EASY": {9.1, 35, 2.5}, "X2": {11, 50, 2.8}},
	"KTH":  {"EASY": {7.0, 51, 1.6}, "X2": {11, 107, 2.3}},
	"BLUE": {"EASY": {9.2, 54, 2.3}, "X2": {12, 118, 3.1}},
}

// heelToeCells are Table 4.11's three measures of a run.
func heelToeCells(h *HeelToe) [3]float64 {
	var c [3]float64
	if h.Heads > 0 {
		c[0] = 100 * float64(h.Stalled) / float64(h.Heads)
	}
	if h.Stalled > 0 {
		c[1] = h.StallSeconds / 60 / float64(h.Stalled)
		c[2] = float64(h.WildPushes) / float64(h.Stalled)
	}
	return c
}

// table410 prints Tables 4.10 and 4.11: each cell "ours (thesis)", Δ of X2
// relative to the first column, ours / thesis, and the averages of Δ.
func table410(w io.Writer, lines []Line) error {
	fmt.Fprintln(w, "Cells: ours (thesis); Δ of X2 relative to the first column, ours / thesis.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "#### Table 4.10 — EASY+ with an immediate window vs X2")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | wait (min) EASY+ imm | X2 | Δ | bsld EASY+ imm | X2 | Δ |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	var sum10 [2][2]float64 // measure × ours/thesis
	n := 0
	for _, l := range thesislogs.Logs {
		imm, ok1 := find(lines, l.Name, "EASY+", 0)
		x2, ok2 := find(lines, l.Name, "X2", 0)
		if !ok1 || !ok2 {
			continue
		}
		n++
		fmt.Fprintf(w, "| %s |", l.Name)
		p := paper410[l.Name]
		for k, f := range []func(Metrics) float64{func(m Metrics) float64 { return m.MeanWait / 60 }, func(m Metrics) float64 { return m.MeanBSLD }} {
			cell := func(c paperCell) float64 { return [2]float64{c.Wait, c.BSLD}[k] }
			do, dp := 100*(f(x2)/f(imm)-1), 100*(cell(p["X2"])/cell(p["EASY+"])-1)
			sum10[k][0] += do
			sum10[k][1] += dp
			fmt.Fprintf(w, " %s (%s) | %s (%s) | %s / %s |", num(f(imm)), num(cell(p["EASY+"])), num(f(x2)), num(cell(p["X2"])), pct(do), pct(dp))
		}
		fmt.Fprintln(w)
	}
	if n == 0 {
		return fmt.Errorf("table410: no EASY+ and X2 runs")
	}
	fmt.Fprintf(w, "| avg Δ | | | %s / %s | | | %s / %s |\n", pct(sum10[0][0]/float64(n)), pct(sum10[0][1]/float64(n)),
		pct(sum10[1][0]/float64(n)), pct(sum10[1][1]/float64(n)))

	fmt.Fprintln(w)
	fmt.Fprintln(w, "#### Table 4.11 — heel and toe under EASY vs X2")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | stalled % EASY | X2 | Δ | stall time (min) EASY | X2 | Δ | thieves# EASY | X2 | Δ | heads EASY | X2 |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	var sum11 [3][2]float64
	n = 0
	for _, l := range thesislogs.Logs {
		easy, ok1 := find(lines, l.Name, "EASY", 0)
		x2, ok2 := find(lines, l.Name, "X2", 0)
		if !ok1 || !ok2 || easy.HeelToe == nil || x2.HeelToe == nil {
			continue
		}
		n++
		oe, ox := heelToeCells(easy.HeelToe), heelToeCells(x2.HeelToe)
		pe, px := paper411[l.Name]["EASY"], paper411[l.Name]["X2"]
		fmt.Fprintf(w, "| %s |", l.Name)
		for k := range oe {
			do, dp := 100*(ox[k]/oe[k]-1), 100*(px[k]/pe[k]-1)
			sum11[k][0] += do
			sum11[k][1] += dp
			fmt.Fprintf(w, " %s (%s) | %s (%s) | %s / %s |", num(oe[k]), num(pe[k]), num(ox[k]), num(px[k]), pct(do), pct(dp))
		}
		fmt.Fprintf(w, " %d | %d |\n", easy.HeelToe.Heads, x2.HeelToe.Heads)
	}
	if n == 0 {
		return fmt.Errorf("table411: no EASY and X2 runs with the heel-and-toe measure")
	}
	fmt.Fprint(w, "| avg Δ |")
	for k := range sum11 {
		fmt.Fprintf(w, " | | %s / %s |", pct(sum11[k][0]/float64(n)), pct(sum11[k][1]/float64(n)))
	}
	fmt.Fprintln(w, " | |")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Stalled: the share of the jobs that got a reservation (heads) whose real shadow a wild backfill pushed back; stall time: their mean start minus their first real shadow; thieves#: their mean number of wild backfills (thesis §3.4).")
	return nil
}
