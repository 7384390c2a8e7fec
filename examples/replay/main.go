// Command replay shows what batchq does in one run of a few seconds: it
// takes a workload (by default a week of the Lublin–Feitelson synthetic
// model with modal-model user estimates, generated on the spot; with -trace
// a real SWF log), simulates it under EASY, EASY+, EASY++ and PERFECT++
// (package sched, Tsafrir's thesis Ch. 4), replays QBETS over the simulated
// EASY waits with and without history trimming (package qbets, Nurmi's
// thesis Ch. 4), plans one VARQ virtual reservation with the QBETS
// predictor of that moment and checks it by simulation (package varq,
// Nurmi's Ch. 5), and prints a short report.
//
//	go run ./examples/replay                       # the synthetic week
//	go run ./examples/replay -days 28 -load 0.8    # four busier weeks
//	go run ./examples/replay -trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
//	go run ./examples/replay -out figures          # also write PNG and SVG figures
//	go run ./examples/replay -days 2 -json         # the report's numbers as JSON
//
// -lenient skips the malformed lines of -trace's log, counted and reported
// as simulate does (-json's malformed_lines_skipped and skipped).
//
// Exit status: 0 ok, 1 a run error (an unreadable trace, an unwritable
// figure), 2 a usage error.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf/synth"
)

func main() { cli.Main(run) }

const usage = `usage: replay [flags] [TRACE]   (TRACE as -trace; flags may follow it)

Simulates a workload (a synthetic week, or -trace) under EASY, EASY+,
EASY++ and PERFECT++, replays QBETS over the simulated waits, plans one
VARQ reservation and prints a short report (-json: its numbers).

`

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("replay", stderr, commandIn(ctx, args, stdin, stdout, stderr))
}

type options struct {
	trace    string
	days     float64
	machine  int64
	load     float64
	seed     uint64
	out      string
	progress bool
	json     bool
	lenient  bool
}

func parse(args []string, stdout, stderr io.Writer) (options, error) {
	var o options
	fs := cli.NewFlagSet("replay")
	fs.StringVar(&o.trace, "trace", "", "SWF log to replay (plain or gzip; - for standard input) instead of the synthetic workload")
	fs.Float64Var(&o.days, "days", 7, "synthetic workload span in days")
	fs.Int64Var(&o.machine, "machine", 0, "machine size in processors (0: 128 for the synthetic workload, the header's for a trace)")
	fs.Float64Var(&o.load, "load", 0.7, "synthetic target offered load (0: the model's own, about 0.40 on 128 nodes)")
	fs.Uint64Var(&o.seed, "seed", 1, "synthetic workload seed")
	fs.StringVar(&o.out, "out", "", "directory to write the figures to (PNG and SVG)")
	bar := cli.ProgressFlag(fs, stderr)
	fs.BoolVar(&o.json, "json", false, "print the report's numbers as JSON")
	fs.BoolVar(&o.lenient, "lenient", false, "skip malformed lines of -trace (counted and reported) instead of failing")
	if err := cli.ParseTrace(fs, args, usage, stdout, &o.trace, ""); err != nil {
		return o, err
	}
	// The bar is a terminal's default, off under -json (output for
	// scripts); -progress forces it.
	o.progress = cli.ProgressOn(fs, bar, o.json)
	if o.machine < 0 || o.machine > cli.MaxSize {
		// (2^63 − 1 was exit 1, sched's or synth's error, after the trace was read)
		return o, cli.Usagef("-machine %d: want 0 (the default) or a size of 1 to 2^40 processors", o.machine)
	}
	if !(o.load >= 0) || math.IsInf(o.load, 0) { // (NaN fails every comparison)
		return o, cli.Usagef("-load %v: must be ≥ 0", o.load)
	}
	// -days only shapes the synthetic workload; a span past a century
	// (1e9 days counted jobs for minutes before any error) or NaN
	// (0 jobs, synth's error) is a bad command line.
	if o.trace == "" && !(o.days > 0 && o.days <= maxDays) {
		return o, cli.Usagef("-days %v: must be in (0, %d]", o.days, maxDays)
	}
	if err := syntheticOnly(fs, o.trace); err != nil {
		return o, err
	}
	if o.lenient && o.trace == "" {
		return o, cli.Usagef("-lenient applies to -trace's log: the synthetic workload has no malformed line")
	}
	if o.trace == "" {
		// the synthetic workload's own bounds (-machine 1 was exit 1,
		// synth's error, not a usage error); New, not Validate, so a load
		// the model cannot reach (-load 1e9, found only when New solves
		// for it) is one too, as in examples/synth
		// each named by its flag, as examples/synth names them (they read
		// "replay: synth: machine size 1, need 2 to 16777216")
		m := cmp.Or(o.machine, 128)
		if err := (synth.Config{Machine: m}).Validate(); err != nil {
			return o, cli.Usagef("-machine %d: %s", o.machine, strings.TrimPrefix(err.Error(), "synth: "))
		}
		if _, err := synth.New(synth.Config{Machine: m, TargetLoad: o.load, Seed: o.seed}); err != nil {
			return o, cli.Usagef("-load %v: %s", o.load, strings.TrimPrefix(err.Error(), "synth: "))
		}
	}
	return o, nil
}

// syntheticOnly refuses, with a trace, the flags that only shape the
// synthetic workload: replay LOG -days 3 ran the whole log, and -days NaN
// or -load 1e20 beside a trace exited 0, the flag silently ignored (as
// -lenient without a trace is refused).
func syntheticOnly(fs *flag.FlagSet, trace string) error {
	if trace == "" {
		return nil
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && (f.Name == "days" || f.Name == "load" || f.Name == "seed") {
			err = cli.Usagef("-%s shapes the synthetic workload; with -trace %s it has no effect", f.Name, trace)
		}
	})
	return err
}

// maxDays bounds -days: a century of the synthetic workload.
const maxDays = 36500

// result is everything the report and the figures need.
type result struct {
	w       workload
	sims    map[string]*sched.Result
	q       *qbetsRun
	elapsed time.Duration
}

// commandIn is the command over explicit streams (-trace - reads stdin).
func commandIn(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	o, err := parse(args, stdout, stderr)
	if err != nil {
		return err
	}
	// Before the run, as tsafrir's -plot: -trace CEA-Curie ran 4.4 s,
	// then said "mkdir F: not a directory" without naming -out.
	if err := cli.OutputDir("-out", o.out); err != nil {
		return err
	}
	trace, done, err := cli.StdinTrace(o.trace, stdin)
	if err != nil {
		return err
	}
	defer done()
	stderr = cli.StdinStderr(stderr, o.trace, trace)
	defer func(arg string) { err = cli.StdinError(err, arg, trace) }(o.trace)
	o.trace = trace
	t0 := time.Now()
	res, files, err := execute(ctx, o, stderr)
	if err != nil {
		return err
	}
	res.elapsed = time.Since(t0)
	if o.json {
		return writeJSON(stdout, res, files)
	}
	report(stdout, res, files)
	return nil
}

// execute makes the run's workload, simulations, QBETS replay, VARQ plan
// and figures.
func execute(ctx context.Context, o options, stderr io.Writer) (*result, []string, error) {
	var err error
	figures := 0.0
	if o.out != "" {
		figures = 1
	}
	bar := progress.New(stderr, o.progress, 1+float64(len(variants))+2+1+figures)
	defer bar.Done()

	bar.Stage("workload", 1)
	var w workload
	if o.trace != "" {
		w, err = fromTrace(o.trace, o.machine, o.lenient)
	} else {
		w, err = synthetic(o.days, cmp.Or(o.machine, 128), o.load, o.seed)
	}
	if err != nil {
		return nil, nil, err
	}
	res := &result{w: w, sims: map[string]*sched.Result{}}
	for _, v := range variants {
		bar.Stage(v, 1)
		if res.sims[v], err = simulate(ctx, v, w.machine, w.jobs, bar.Set); err != nil {
			return nil, nil, err
		}
	}
	easy := res.sims["EASY"]
	if easy.Summary.Jobs == 0 {
		// the log is named, as its other errors name it
		name := "the synthetic workload"
		if o.trace != "" {
			name = o.trace
		}
		if n := len(easy.Rejected.Excluded); n > 0 {
			return nil, nil, fmt.Errorf("%s: no job completed under EASY: every one of the %d read was rejected (%s): nothing to predict",
				name, n, cli.Reasons(cli.ByReason(easy.Rejected)))
		}
		return nil, nil, fmt.Errorf("%s: no job completed under EASY: nothing to predict", name)
	}
	bar.Stage("QBETS", 2)
	res.q, err = replayQBETS(easy.Records, func(f *qbets.Predictor, now int64) (planResult, error) {
		p, err := planVARQ(f, now, defaultRequest, w.machine)
		// Say why when QBETS has no bound at all for the request then.
		if fc := f.Forecast(qbets.Request{Nodes: p.req.Nodes, Walltime: p.req.Walltime}); !fc.OK {
			p.noBound = fc.Reason.String()
		}
		return p, err
	}, bar.Set)
	if err != nil {
		return nil, nil, err
	}
	bar.Stage("VARQ check", 1)
	if err := res.q.plan.check(ctx, w.machine, w.jobs); err != nil {
		return nil, nil, err
	}
	var files []string
	if o.out != "" {
		bar.Stage("figures", 1)
		if files, err = writeFigures(o.out, res); err != nil {
			return nil, nil, err
		}
	}
	bar.Done()
	return res, files, nil
}
