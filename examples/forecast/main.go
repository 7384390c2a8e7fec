// Command forecast is the scoreboard of start-time forecasts: it replays an
// SWF log causally (package qbets/replay) and, at every job's submission,
// with only what was known then (the jobs started and ended before, the
// queue at that moment), asks each predictor when the job will start, then
// scores the answers against the log's recorded waits:
//
//   - forecast: forward simulation with predicted run times, corrected by
//     an online model of its own errors (package sched/forecast), with
//     conformal intervals (package qbets/conformal);
//   - estimates: the same forward simulation with the user estimates as
//     run times and no correction (what squeue --start does);
//   - naive: the median wait of the last 100 started jobs of the same
//     power-of-two size class;
//   - ibl: Karnak's instance-based prediction (qbets/ibl, default config);
//   - apq: Hariharan et al.'s adaptive point prediction (qbets/apq);
//   - qbets: QBETS's 95% upper bound (its coverage and tightness).
//
// Every point predictor gets conformal intervals at 50, 80 and 90% (the
// calibration wraps any point predictor); QBETS's interval is [0, bound].
//
//	go run ./examples/forecast -trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
//	go run ./examples/forecast ../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz -json
//	go run ./examples/forecast -trace T -predictors forecast,naive,estimates
//
// Flags may come before or after the trace. Exit status: 0 ok, 1 a run
// error (a missing or malformed trace, no waits in it), 2 a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := runMain(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// usageError is a bad command line (exit 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// options are the parsed command line.
type options struct {
	trace      string
	machine    int64
	json       bool
	predictors []string
	progress   bool
}

const usageHead = `usage: forecast [flags] -trace TRACE   (or TRACE as an argument; flags may follow it)

Replays the SWF log TRACE (plain or gzip) causally and scores, at every job's
submission, the start-time forecast against the naive baseline, the
user-estimate simulation, IBL, APQ and QBETS.

`

func parse(args []string, stdout io.Writer, stderr io.Writer) (options, error) {
	var o options
	var preds string
	fs := flag.NewFlagSet("forecast", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.trace, "trace", "", "SWF log to replay (plain or gzip)")
	fs.Int64Var(&o.machine, "machine", 0, "machine size in processors (default: the header's MaxProcs, else MaxNodes)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per predictor, one per line")
	fs.StringVar(&preds, "predictors", strings.Join(allPredictors, ","), "comma-separated predictors to score")
	fs.BoolVar(&o.progress, "progress", progress.IsTerminal(stderr), "progress bar on stderr for runs longer than a second (default: when stderr is a terminal)")
	pos, err := cli.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usageHead)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return o, err
	}
	if err != nil {
		return o, usageError{err.Error()}
	}
	switch {
	case len(pos) == 1 && o.trace == "":
		o.trace = pos[0]
	case len(pos) > 0:
		return o, usageError{fmt.Sprintf("one trace expected, got %q", append([]string{o.trace}, pos...))}
	case o.trace == "":
		return o, usageError{"missing trace (-trace FILE or FILE; -help for the flags)"}
	}
	if o.machine < 0 {
		return o, usageError{fmt.Sprintf("-machine %d: must be positive", o.machine)}
	}
	for _, p := range strings.Split(preds, ",") {
		p = strings.TrimSpace(p)
		if !slices.Contains(allPredictors, p) {
			return o, usageError{fmt.Sprintf("-predictors: unknown predictor %q (want some of %s)", p, strings.Join(allPredictors, ","))}
		}
		if !slices.Contains(o.predictors, p) {
			o.predictors = append(o.predictors, p)
		}
	}
	return o, nil
}

func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "forecast:", err)
		return exitUsage
	}
	bar := progress.New(stderr, o.progress, 1)
	rows, info, err := score(ctx, o.trace, o.machine, o.predictors, bar.Set)
	bar.Done()
	if err != nil {
		fmt.Fprintln(stderr, "forecast:", err)
		return exitError
	}
	if o.json {
		err = writeJSON(stdout, rows)
	} else {
		err = writeText(stdout, info, rows)
	}
	if err != nil {
		fmt.Fprintln(stderr, "forecast:", err)
		return exitError
	}
	return exitOK
}
