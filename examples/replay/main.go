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
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/sched"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "replay:", err)
		}
		os.Exit(1)
	}
}

type options struct {
	trace    string
	days     float64
	machine  int64
	load     float64
	seed     uint64
	out      string
	progress bool
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.trace, "trace", "", "SWF log to replay (plain or gzip) instead of the synthetic workload")
	fs.Float64Var(&o.days, "days", 7, "synthetic workload span in days")
	fs.Int64Var(&o.machine, "machine", 0, "machine size in processors (0: 128 for the synthetic workload, the header's for a trace)")
	fs.Float64Var(&o.load, "load", 0.7, "synthetic target offered load (0: the model's own, about 0.40 on 128 nodes)")
	fs.Uint64Var(&o.seed, "seed", 1, "synthetic workload seed")
	fs.StringVar(&o.out, "out", "", "directory to write the figures to (PNG and SVG)")
	fs.BoolVar(&o.progress, "progress", progress.IsTerminal(stderr), "progress bar on stderr for runs longer than a second (default: when stderr is a terminal)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (a trace is given with -trace)", fs.Arg(0))
	}
	if o.machine < 0 {
		return o, fmt.Errorf("-machine %d: must be positive", o.machine)
	}
	if o.load < 0 {
		return o, fmt.Errorf("-load %v: must be ≥ 0", o.load)
	}
	return o, nil
}

// result is everything the report and the figures need.
type result struct {
	w       workload
	sims    map[string]*sched.Result
	q       *qbetsRun
	elapsed time.Duration
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	t0 := time.Now()
	res, files, err := execute(ctx, o, stderr)
	if err != nil {
		return err
	}
	res.elapsed = time.Since(t0)
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
		w, err = fromTrace(o.trace, o.machine)
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
		return nil, nil, errors.New("no job completed under EASY: nothing to predict")
	}
	bar.Stage("QBETS", 2)
	planAt := w.jobs[len(w.jobs)/2].Submit
	res.q, err = replayQBETS(easy.Records, planAt, func(f *qbets.Predictor, now int64) (planResult, error) {
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
