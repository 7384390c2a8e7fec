// Command qbets replays every trace with waits through the four quantile
// predictors of Nurmi's thesis §4.3 — the Binomial Method (BM), log-normal,
// log-uniform and Weibull — per queue (SWF field 15) and for the whole log
// ("ALL"), in the two experiments of Tables 4.1 (full history) and 4.2
// (full QBETS: trimming, clustering, availability), and prints both tables
// in the thesis's shape plus the queues where BM fails (spec
// qbets-varq-coalloc §5.1–5.2, §6.2–6.3).
//
// With -trace FILE (or files as arguments) it scores each log per queue
// the way the original QBETS tool does, with the default config (or -q and
// -c): jobs, share answered, share correct, median bound and Brevik et
// al.'s median bound/wait ratio; -json prints one JSON object per queue
// per line.
//
//	go run ./examples/qbets                       # Tables 4.1 and 4.2 over ../shared/traces
//	go run ./examples/qbets -trace ../shared/traces/CTC-SP2-1996-3.1-cln.swf.gz -json
//	go run ./examples/qbets -q 0.9 -c 0.99 FILE FILE
package main

import (
	"errors"
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

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command line.
type options struct {
	traces  string   // -traces: the directory of the tables
	files   []string // -trace and the arguments: logs to score
	q, c    float64
	json    bool
	minJobs int
	plot    plotOptions
}

// parse reads flags before or after the arguments.
func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("qbets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.traces, "traces", "", "directory of SWF logs for the tables (default $BATCHQ_TRACES, else ../shared/traces)")
	fs.Func("trace", "SWF log (plain or .gz) to score per queue instead of printing the tables; repeatable, or give logs as arguments", func(v string) error {
		o.files = append(o.files, v)
		return nil
	})
	fs.Float64Var(&o.q, "q", 0.95, "quantile of the bound when scoring a log (0 < q < 1)")
	fs.Float64Var(&o.c, "c", 0.95, "confidence of the bound when scoring a log (0 < c < 1)")
	fs.BoolVar(&o.json, "json", false, "when scoring a log: one JSON object per queue per line")
	fs.IntVar(&o.minJobs, "min", 1000, "tables: skip queues with fewer jobs (counted)")
	o.plot.flags(fs)
	files, err := cli.Parse(fs, args)
	if err != nil {
		return o, err
	}
	o.files = append(o.files, files...)
	if !(o.q > 0 && o.q < 1) {
		return o, fmt.Errorf("-q %v: must be in (0, 1)", o.q)
	}
	if !(o.c > 0 && o.c < 1) {
		return o, fmt.Errorf("-c %v: must be in (0, 1)", o.c)
	}
	if o.minJobs < 0 {
		return o, fmt.Errorf("-min %d: must be ≥ 0", o.minJobs)
	}
	if o.json && len(o.files) == 0 {
		return o, errors.New("-json needs a log to score (-trace FILE)")
	}
	return o, nil
}

// run is the command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "qbets:", err)
		return 2
	}
	if len(o.files) > 0 {
		return status(scoreLogs(stdout, stderr, o), stderr)
	}
	if o.traces == "" {
		if o.traces, err = tracetest.Dir(); err != nil {
			return status(err, stderr)
		}
	}
	if o.plot.dir != "" {
		if err := plotWaits(stdout, o.traces, o.plot); err != nil {
			return status(err, stderr)
		}
	}
	if !o.plot.tables {
		return 0
	}
	return status(tables(stdout, stderr, o.traces, o.minJobs), stderr)
}

func status(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "qbets:", err)
	return 1
}

// row is one trace/queue replayed in one experiment.
type row struct {
	name string
	jobs int
	r    replay.Result
}

// traceFiles lists the SWF logs of dir; none is an error.
func traceFiles(dir string) ([]string, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("trace directory: %w (set -traces or $BATCHQ_TRACES)", err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.swf*"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no SWF logs (*.swf, *.swf.gz) in %s", dir)
	}
	slices.Sort(paths)
	return paths, nil
}

// tables prints Tables 4.1 and 4.2 over every log of dir. A log that
// cannot be read is reported on progress and left out; the others still
// print, and the error is returned at the end.
func tables(w, progress io.Writer, dir string, minJobs int) error {
	paths, err := traceFiles(dir)
	if err != nil {
		return err
	}
	exps := []bool{true, false} // replay.Config.Plain: Table 4.1, then Table 4.2
	rows := make([][]row, len(exps))
	var noWaits []string
	bad := 0
	small := 0
	for _, p := range paths {
		hdr, jobs, err := swf.ReadFile(p)
		if err != nil {
			fmt.Fprintf(progress, "qbets: %s: %v (left out of the tables)\n", p, err)
			bad++
			continue
		}
		base := traceBase(p)
		byQ, skipped := replay.Queues(jobs)
		if skipped == len(jobs) {
			noWaits = append(noWaits, base)
			continue
		}
		type set struct {
			name string
			js   []swf.Job
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
				r, err := replay.Replay(s.js, replay.Config{Plain: exp, Comparators: true})
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				rows[e] = append(rows[e], row{s.name, len(s.js), r})
			}
		}
	}
	for e, plain := range exps {
		if plain {
			fmt.Fprint(w, "\n### plain (Table 4.1)\n\n")
		} else {
			fmt.Fprint(w, "\n### QBETS (Table 4.2)\n\n")
		}
		table(w, rows[e], !plain)
	}
	fmt.Fprintf(w, "\nTraces without waits: %s. %d queues with fewer than %d jobs skipped.\n", strings.Join(noWaits, ", "), small, minJobs)
	failures(w, rows[1])
	if bad > 0 {
		return fmt.Errorf("%d of %d logs could not be read", bad, len(paths))
	}
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
	for i := range rows {
		x := &rows[i]
		fmt.Fprintf(w, "| %s | %d |", x.name, x.jobs)
		for m := range replay.Weibull + 1 {
			fmt.Fprintf(w, " %s |", mark(x.r.Of(m).Correctness(), fmt.Sprintf("%.3f", x.r.Of(m).Correctness())))
		}
		for m := range replay.Weibull + 1 {
			fmt.Fprintf(w, " %s |", mark(x.r.Of(m).Correctness(), ratio(x.r.Ratio(m))))
		}
		fmt.Fprintf(w, " %.0f | %s |", x.r.RMS(), winner(&x.r))
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
func winner(r *replay.Result) string {
	best, bestRMS := "none", math.Inf(1)
	for m := range replay.Weibull + 1 {
		s := r.Of(m)
		if s.Correctness() >= 0.95 && s.RMS() < bestRMS {
			best, bestRMS = m.String(), s.RMS()
		}
	}
	return best
}

// failures lists the queues where full-QBETS BM is not correct.
func failures(w io.Writer, rows []row) {
	fmt.Fprintln(w, "\nQueues where full-QBETS BM is below 0.95:")
	n := 0
	for i := range rows {
		x := &rows[i]
		if c := x.r.Correctness(); c < 0.95 {
			n++
			fmt.Fprintf(w, "- %s: %.3f (%d scored, %d refused as down, %d clusters, %d change points; winner %s)\n",
				x.name, c, x.r.Scored, x.r.Down, len(x.r.Clusters), x.r.ChangePoints, winner(&x.r))
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "- none")
	}
}
