// Command qbets replays every trace with waits through the four quantile
// predictors of Nurmi's thesis §4.3 — the Binomial Method (BM), log-normal,
// log-uniform and Weibull — per queue (SWF field 15) and for the whole log
// ("ALL"), in the two experiments of Tables 4.1 (full history) and 4.2
// (full QBETS: trimming, clustering, availability), and prints both tables
// in the thesis's shape plus the queues where BM fails (spec
// qbets-varq-coalloc §5.1–5.2, §6.2–6.3).
package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

func main() {
	dir := flag.String("traces", "/work/shared/traces", "directory of SWF logs")
	minJobs := flag.Int("min", 1000, "skip queues with fewer jobs (counted)")
	plotFlags()
	flag.Parse()
	if plotDir != "" {
		exitOn(plotWaits(os.Stdout, *dir, plotDir, plotQueues, plotDays))
	}
	if !tables {
		return
	}
	if err := run(os.Stdout, os.Stderr, *dir, *minJobs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// row is one trace/queue replayed in one experiment.
type row struct {
	name string
	jobs int
	r    replay.Result
}

func run(w, progress io.Writer, dir string, minJobs int) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.swf*"))
	if err != nil {
		return err
	}
	slices.Sort(paths)
	exps := []replay.Experiment{replay.Plain, replay.QBETS}
	rows := make([][]row, len(exps))
	var noWaits []string
	small := 0
	for _, p := range paths {
		hdr, jobs, err := swf.ReadFile(p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		base := traceBase(p)
		byQ, skipped := replay.Queues(jobs)
		if skipped == len(jobs) {
			noWaits = append(noWaits, base)
			continue
		}
		type set struct {
			name string
			js   []replay.Job
		}
		var sets []set
		qs := slices.Sorted(maps.Keys(byQ))
		for _, q := range qs {
			if len(byQ[q]) < minJobs {
				small++
				continue
			}
			sets = append(sets, set{fmt.Sprintf("%s/%d%s", base, q, queueName(hdr, q)), byQ[q]})
		}
		if len(qs) > 1 {
			all, err := replay.All(byQ)
			if err != nil {
				return err
			}
			sets = append(sets, set{base + "/ALL", all})
		}
		for _, s := range sets {
			fmt.Fprintf(progress, "%s (%d jobs)\n", s.name, len(s.js))
			for e, exp := range exps {
				r, err := replay.Replay(s.js, replay.Config{Experiment: exp, Comparators: true})
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				rows[e] = append(rows[e], row{s.name, len(s.js), r})
			}
		}
	}
	for e, exp := range exps {
		fmt.Fprintf(w, "\n### %v\n\n", exp)
		table(w, rows[e], exp == replay.QBETS)
	}
	fmt.Fprintf(w, "\nTraces without waits: %s. %d queues with fewer than %d jobs skipped.\n", strings.Join(noWaits, ", "), small, minJobs)
	failures(w, rows[1])
	return nil
}

// traceBase is a trace's file name without .swf or .swf.gz.
func traceBase(path string) string {
	return strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".swf")
}

// queueName is " name" from the header's "Queue: <n> <name>" lines, or "".
func queueName(h *swf.Header, q int64) string {
	if h == nil {
		return ""
	}
	for _, l := range h.Queue {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == strconv.FormatInt(q, 10) {
			return " " + strings.Join(f[1:], " ")
		}
	}
	return ""
}

// table prints correctness and accuracy ratio (RMS_BM / RMS_X) per method,
// bold where the method is correct (≥ q), as the thesis does, plus the
// evaluator's extra columns.
func table(w io.Writer, rows []row, qbets bool) {
	fmt.Fprint(w, "| trace/queue | jobs | BM | LogN | LogU | Weib | acc BM | acc LogN | acc LogU | acc Weib | RMS BM (s) | winner |")
	if qbets {
		fmt.Fprint(w, " no pred: history / down | clusters | change points BM |")
	}
	fmt.Fprintln(w)
	cols := 12
	if qbets {
		cols += 3
	}
	fmt.Fprintln(w, strings.Repeat("|---", cols)+"|")
	for _, x := range rows {
		fmt.Fprintf(w, "| %s | %d |", x.name, x.jobs)
		for _, m := range replay.Methods {
			fmt.Fprintf(w, " %s |", mark(x.r.Score(m).Correctness(), fmt.Sprintf("%.3f", x.r.Score(m).Correctness())))
		}
		for _, m := range replay.Methods {
			fmt.Fprintf(w, " %s |", mark(x.r.Score(m).Correctness(), ratio(x.r.Ratio(m))))
		}
		fmt.Fprintf(w, " %.0f | %s |", x.r.RMS, winner(x.r))
		if qbets {
			fmt.Fprintf(w, " %d / %d | %d | %d |", x.r.NoHistory, x.r.Down, len(x.r.Clusters), x.r.ChangePoints)
		}
		fmt.Fprintln(w)
	}
}

func mark(correct float64, s string) string {
	if correct >= 0.95 {
		return "**" + s + "**"
	}
	return s
}

func ratio(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 1):
		return "∞"
	}
	return fmt.Sprintf("%.2f", v)
}

// winner is the thesis's rule (spec §5.2): the correct method with the
// highest ratio, i.e. the lowest RMS among correct methods; "none" when no
// method is correct.
func winner(r replay.Result) string {
	best, bestRMS := "none", math.Inf(1)
	for _, m := range replay.Methods {
		s := r.Score(m)
		if s.Correctness() >= 0.95 && s.RMS < bestRMS {
			best, bestRMS = m.String(), s.RMS
		}
	}
	return best
}

// failures lists the queues where full-QBETS BM is not correct.
func failures(w io.Writer, rows []row) {
	fmt.Fprintln(w, "\nQueues where full-QBETS BM is below 0.95:")
	n := 0
	for _, x := range rows {
		if c := x.r.Correctness(); c < 0.95 {
			n++
			fmt.Fprintf(w, "- %s: %.3f (%d scored, %d refused as down, %d clusters, %d change points; winner %s)\n",
				x.name, c, x.r.Scored, x.r.Down, len(x.r.Clusters), x.r.ChangePoints, winner(x.r))
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "- none")
	}
}
