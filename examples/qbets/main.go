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
// per line. -lenient skips a scored log's malformed lines, counted and
// reported as simulate does (-json's malformed_lines_skipped and skipped).
//
//	go run ./examples/qbets                       # Tables 4.1 and 4.2 over ../shared/traces
//	go run ./examples/qbets -cluster two-level    # Table 4.2 with the thesis's model-based clustering
//	go run ./examples/qbets -trace ../shared/traces/CTC-SP2-1996-3.1-cln.swf.gz -json
//	go run ./examples/qbets -q 0.9 -c 0.99 FILE FILE
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

func main() { cli.Main(run) }

const usage = `usage: qbets [flags] [LOG...]   (flags may also follow the logs)

Without logs: Tables 4.1 and 4.2 of Nurmi's thesis over the logs of
-traces, as markdown (-json: as JSON). With logs (or -trace; - is standard input): each log
scored per queue (-json: one JSON object per queue per line).

`

// run is the command: it returns the exit status.
func run(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return commandIn(args, stdin, stdout, stderr)
}

// options are the command line.
type options struct {
	traces  string   // -traces: the directory of the tables
	files   []string // -trace and the arguments: logs to score
	q, c    float64
	json    bool
	minJobs int
	cluster qbets.ClusterMode // Table 4.2's clustering
	plot    plotOptions
	bar     bool // the tables' progress bar on stderr (-progress)
	lenient bool // -lenient: the logs scored skip malformed lines (counted)
}

// parse reads flags before or after the arguments.
func parse(args []string, stdout, stderr io.Writer) (options, error) {
	var o options
	fs := cli.NewFlagSet("qbets")
	fs.StringVar(&o.traces, "traces", "", "directory of SWF logs for the tables (default $BATCHQ_TRACES, else ../shared/traces)")
	fs.Func("trace", "SWF log (plain or .gz) to score per queue instead of printing the tables; repeatable, or give logs as arguments", func(v string) error {
		o.files = append(o.files, v)
		return nil
	})
	fs.Float64Var(&o.q, "q", 0.95, "quantile of the bound when scoring a log (0 < q < 1)")
	fs.Float64Var(&o.c, "c", 0.95, "confidence of the bound when scoring a log (0 < c < 1)")
	fs.BoolVar(&o.json, "json", false, "JSON: when scoring a log, one object per queue per line; else the tables as one object")
	fs.BoolVar(&o.lenient, "lenient", false, "when scoring a log: skip malformed lines (counted and reported) instead of failing")
	fs.IntVar(&o.minJobs, "min", 1000, "tables: skip queues with fewer jobs (counted)")
	fs.Func("cluster", "tables: Table 4.2's clustering, fixed (processor ranges, the default) or two-level (the thesis's model-based clustering)", func(v string) error {
		c, ok := clusterModes[v]
		if !ok {
			return fmt.Errorf("want fixed or two-level")
		}
		o.cluster = c
		return nil
	})
	o.plot.flags(fs)
	bar := cli.ProgressFlag(fs, stderr)
	files, err := cli.ParseArgs(fs, args, usage, stdout)
	if err != nil {
		return o, err
	}
	// The bar is a terminal's default, off under -json (output for
	// scripts); -progress forces it.
	o.bar = cli.ProgressOn(fs, bar, o.json)
	o.files = append(o.files, files...)
	if !(o.q > 0 && o.q < 1) {
		return o, cli.Usagef("-q %v: must be in (0, 1)", o.q)
	}
	if !(o.c > 0 && o.c < 1) {
		return o, cli.Usagef("-c %v: must be in (0, 1)", o.c)
	}
	if err := (qbets.Config{Quantile: o.q, Confidence: o.c}).Validate(); err != nil {
		// A pair whose minimum history no queue reaches (-q
		// 0.9999999999999999): it was exit 1, in the library's words,
		// naming no flag.
		return o, cli.Usagef("-q %v -c %v: %s", o.q, o.c, strings.TrimPrefix(err.Error(), "qbets: "))
	}
	if o.minJobs < 0 {
		return o, cli.Usagef("-min %d: must be ≥ 0", o.minJobs)
	}
	if o.plot.days <= 0 || o.plot.days > 36500 {
		// days × 86400 wrapped negative near the int limit, and the
		// window search ran past its jobs (index out of range).
		return o, cli.Usagef("-plot-days %d: must be 1 to 36500", o.plot.days)
	}
	if err := cli.DashOutput("-plot", o.plot.dir, "the figures go to a directory"); err != nil {
		return o, err
	}
	// A log given twice was scored twice, its rows printed twice as if
	// two logs agreed.
	if err := cli.DistinctInputs(o.files); err != nil {
		return o, err
	}
	if o.lenient && len(o.files) == 0 {
		// The tables reproduce the thesis over its logs, read strictly.
		return o, cli.Usagef("-lenient applies to the logs scored: give it with logs (the tables read -traces' logs strictly)")
	}
	// A flag of the other mode was dropped without a word (exit 0): -q
	// and -c score logs, -min, -cluster, -tables and the figure's
	// -plot-queues and -plot-days are the tables', the latter two
	// -plot's.
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, f := range []string{"q", "c", "min", "cluster", "tables", "plot-queues", "plot-days"} {
		switch scoring := len(o.files) > 0; {
		case !set[f]:
		case (f == "q" || f == "c") && !scoring:
			return o, cli.Usagef("-%s applies to the logs scored: give it with logs (the tables are the thesis's, at its own levels)", f)
		case f != "q" && f != "c" && scoring:
			return o, cli.Usagef("-%s applies to the tables and the figure of -traces' logs: give it without logs to score", f)
		case (f == "plot-queues" || f == "plot-days") && o.plot.dir == "":
			return o, cli.Usagef("-%s applies to -plot's figure: give it with -plot DIR", f)
		case f == "tables" && !o.plot.tables && o.plot.dir == "":
			return o, cli.Usagef("-tables=false without -plot DIR prints nothing")
		}
	}
	if o.plot.dir != "" && len(o.files) > 0 {
		// Figure 4.1 is drawn over -traces' logs, never over the logs
		// scored: -plot with a log was dropped without a word.
		return o, cli.Usagef("-plot draws Figure 4.1 from the logs of -traces (-plot-queues): give it without logs to score")
	}
	return o, nil
}

// commandIn is the command over explicit streams (a log "-" reads stdin);
// it returns the exit status.
func commandIn(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parse(args, stdout, stderr)
	if err != nil {
		return cli.Status("qbets", stderr, err)
	}
	for i, p := range o.files {
		if p == "-" { // standard input, once
			path, done, err := cli.StdinTrace(p, stdin)
			if err != nil {
				return cli.Status("qbets", stderr, err)
			}
			defer done()
			stderr = cli.StdinStderr(stderr, p, path)
			o.files[i], stdin = path, strings.NewReader("")
		}
	}
	if len(o.files) > 0 {
		return cli.Status("qbets", stderr, scoreLogs(stdout, stderr, o))
	}
	return cli.Status("qbets", stderr, reproduce(stdout, stderr, o))
}

// reproduce prints the tables (and -plot's figures) over -traces.
func reproduce(stdout, stderr io.Writer, o options) error {
	var err error
	if o.traces == "" {
		if o.traces, err = tracetest.Dir(); err != nil {
			return err
		}
	}
	w, flush := cli.Output(stdout, o.json)
	if o.plot.dir != "" {
		if err := plotWaits(w, o.traces, o.plot); err != nil {
			return err
		}
	}
	if o.plot.tables {
		if err := tables(w, stderr, o.bar, o.traces, o.minJobs, o.cluster); err != nil {
			return err
		}
	}
	return flush()
}

// clusterModes are the -cluster values.
var clusterModes = map[string]qbets.ClusterMode{"fixed": qbets.ClusterFixedProcs, "two-level": qbets.ClusterTwoLevel}

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
			// Quoted when not printable: the header's text went to the
			// terminal raw ("\x1b]0;…\a" retitled it).
			return " " + cli.Printable(strings.Join(f[1:], " "))
		}
	}
	return ""
}
