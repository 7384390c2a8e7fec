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
//	go run ./examples/forecast -nodes openb_node_list_all_node.csv alibaba.swf
//
// With -nodes FILE (simulate's format: an Alibaba node list or a batchq
// nodes file) the machine is a set of nodes: forecast and estimates
// place each job's demand (its ;= line, as convert writes an Alibaba pod
// list) on them, so a job waits for a GPU, memory or a node with room;
// the other predictors know no machine. A log whose jobs carry demands
// replayed without -nodes gets a note on stderr: one pool ignores them.
//
// Jobs the replay cannot take are rejected first and counted by reason in
// the report's first line and in -json's "rejected": a later job under a
// number already read (duplicate ID, -json's duplicate_id; a job without
// a number, field 1 below 1, is none: it is numbered 10^18 + n by its line n, as
// simulate numbers it, and counted in -json's "changed" as id_made_up), a size,
// estimate or time beyond what the predictors hold, under simulate's
// reasons (larger than machine: above 2^40 processors; time out of range:
// a time or estimate above 2^40 s, the simulators' sanitize.MaxTime), and
// with -nodes a job the simulation could not place on the nodes, under
// sched's reason (fits no node, larger than machine, no size: a job of
// no processor count whose demand gives no cores; without -nodes it is
// replayed as asking none; no submit time or no run time for a job
// refused whose time is unknown, as simulate names it):
// once running it would hold what the nodes cannot.
//
// A log in which no scored job waited a minute or more (the floor of the
// ratios) scores every answer under a minute as exact in the ratios and
// within a minute (not by AAE): the report says
// the board is degenerate, and -json's "waited" is 0.
//
// Parsing is strict unless -lenient is given; then malformed lines (of the
// trace and of -nodes) are skipped, counted and reported, as simulate does
// (-json's malformed_lines_skipped and skipped, swfstat's keys).
//
// Flags may come before or after the trace. Exit status: 0 ok, 1 a run
// error (a missing or malformed trace, no waits in it), 2 a usage error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
)

func main() { cli.Main(run) }

// options are the parsed command line.
type options struct {
	trace      string
	machine    int64
	nodes      string
	json       bool
	predictors []string
	progress   bool
	lenient    bool
}

const usageHead = `usage: forecast [flags] -trace TRACE   (or TRACE as an argument; flags may follow it)

Replays the SWF log TRACE (plain or gzip) causally and scores, at every job's
submission, the start-time forecast against the naive baseline, the
user-estimate simulation, IBL, APQ and QBETS.

`

func parse(args []string, stdout io.Writer, stderr io.Writer) (options, error) {
	var o options
	var preds string
	fs := cli.NewFlagSet("forecast")
	fs.StringVar(&o.trace, "trace", "", "SWF log to replay (plain or gzip; - for standard input)")
	fs.Int64Var(&o.machine, "machine", 0, "machine size in processors (default: the header's MaxProcs, else MaxNodes; with -nodes their cores)")
	fs.StringVar(&o.nodes, "nodes", "", "the machine is the nodes of `FILE` (an Alibaba node list or a batchq nodes file, as simulate's -nodes): forecast and estimates place each job's demand (its ;= line) on them")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per predictor, one per line")
	fs.BoolVar(&o.lenient, "lenient", false, "skip malformed trace lines (counted and reported) instead of failing")
	fs.StringVar(&preds, "predictors", strings.Join(allPredictors, ","), "comma-separated predictors to score; besides these, "+strings.Join(fixedPredictors, ", ")+" score the README's fixed IBL and APQ")
	bar := cli.ProgressFlag(fs, stderr)
	pos, err := cli.ParseArgs(fs, args, usageHead, stdout)
	if err != nil {
		return o, err
	}
	// The bar is a terminal's default, off under -json (output for
	// scripts); -progress forces it.
	o.progress = cli.ProgressOn(fs, bar, o.json)
	switch {
	case len(pos) == 1 && o.trace == "":
		o.trace = pos[0]
	case len(pos) > 0:
		got := pos
		if o.trace != "" {
			got = append([]string{o.trace}, pos...)
		}
		return o, cli.Usagef("one trace expected, got %q", got)
	case o.trace == "":
		return o, cli.UsageError{Msg: "missing trace (-trace FILE or FILE)"}
	}
	if o.machine < 0 || o.machine > cli.MaxSize {
		// (2^63 − 1 was exit 1, sched's or synth's error, after the trace was read)
		return o, cli.Usagef("-machine %d: want 0 (the default) or a size of 1 to 2^40 processors", o.machine)
	}
	for _, p := range strings.Split(preds, ",") {
		p = strings.TrimSpace(p)
		if !slices.Contains(allPredictors, p) && !slices.Contains(fixedPredictors, p) {
			return o, cli.Usagef("-predictors: unknown predictor %q (want some of %s)", p, strings.Join(append(slices.Clone(allPredictors), fixedPredictors...), ","))
		}
		// A name given twice was dropped with no word (as varq's lists
		// refuse a value given twice: its row would be the first's).
		if slices.Contains(o.predictors, p) {
			return o, cli.Usagef("-predictors: %q given twice: each predictor is scored once", p)
		}
		o.predictors = append(o.predictors, p)
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parse(args, stdout, stderr)
	if err != nil {
		return cli.Status("forecast", stderr, err)
	}
	trace, done, err := cli.StdinTrace(o.trace, stdin)
	if err != nil {
		return cli.Status("forecast", stderr, err)
	}
	defer done()
	stderr = cli.StdinStderr(stderr, o.trace, trace)
	bar := newBar(stderr, o.progress)
	rows, info, err := scoreOn(ctx, trace, o.machine, o.nodes, o.lenient, o.predictors, bar.Set)
	bar.Done()
	if errors.Is(err, errNoWaits) && len(info.rejected) > 0 {
		// A log whose every job was rejected said only that none had a
		// wait: the reasons are the answer.
		err = fmt.Errorf("%w; rejected: %s", err, cli.Reasons(info.rejected))
	}
	if errors.Is(err, errNoWaits) {
		err = cli.NothingLeft(err, info.read) // (-lenient: the lines skipped may have had them)
	}
	if err != nil {
		return cli.Status("forecast", stderr, err)
	}
	if info.demands > 0 && info.nodes == nil {
		fmt.Fprintf(stderr, "forecast: note: %d of the %d jobs replayed ask for cores, memory or GPUs on nodes (demand lines), "+
			"which one pool of %d processors ignores: give the machine's nodes as -nodes FILE to simulate them\n", info.demands, info.jobs, info.machine)
	}
	if o.json {
		err = writeJSON(stdout, info, rows)
	} else {
		err = writeText(stdout, info, rows)
	}
	if err != nil {
		return cli.Status("forecast", stderr, err)
	}
	return cli.ExitOK
}

// newBar is the run's progress bar, its one stage begun: a Bar's Set
// moves the bar within the current stage, so without a stage it stays at 0%.
func newBar(w io.Writer, on bool) *progress.Bar {
	bar := progress.New(w, on, 1)
	bar.Stage("replay", 1)
	return bar
}
