// Command coalloc reruns the CO-VARQ trials of Nurmi's thesis (§5.5,
// Table 6.2) on simulated machines: several Parallel Workloads Archive
// logs, each on an EASY simulation of its machine, shifted to start
// together and advanced in lockstep; QBETS on each machine is fed by its
// own simulated queue. For each trial (N, W, D, P_all) CO-VARQ is called
// every D+W (10 min later after a refusal), its plan is executed with
// redundant requests cancelled, and success and over-allocation are
// recorded.
//
// By default both remedies of README.md are on: each request is planned
// at the latest point meeting P_indep instead of its trajectory maximum,
// and the executor re-boosts a reservation whose live forecasts fell below
// P_indep. -remedy none is the thesis's procedure.
//
//	go run ./examples/coalloc                 # five machines, 120 days, both remedies
//	go run ./examples/coalloc -remedy none    # the thesis's plan, executed as made
//	go run ./examples/coalloc -days 30 -count 3
//	go run ./examples/coalloc -days 30 -json  # the table as JSON
//
// Parsing is strict unless -lenient is given; then malformed lines are
// skipped, counted and said on standard error with each log's jobs left
// out (-json: also "malformed_lines_skipped" and "skipped", of all logs,
// beside the header lines not taken as written, "header_warnings", and
// the jobs left out, "rejected" and "rejected_by_log").
//
// Exit status: 0 ok, 1 a run error (a trace missing or unreadable), 2 a
// usage error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/batchq/batchq/coalloc"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/tracetest"
)

var defaultMachines = []string{tracetest.SDSCBlue, tracetest.CTC, tracetest.SDSCSP2, tracetest.KTH, tracetest.LANLCM5}

func main() { cli.Main(run) }

const usage = `usage: coalloc [flags]

Reruns the CO-VARQ trials of Nurmi's thesis (§5.5, Table 6.2) on
simulated machines and prints the table as markdown (-json: as JSON).

`

// run is the command: it returns the exit status.
func run(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("coalloc", stderr, command(args, stdout, stderr))
}

func command(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("coalloc")
	traces := fs.String("trace", "", "comma-separated SWF traces, one per machine (default: SDSC-BLUE, CTC-SP2, SDSC-SP2, KTH-SP2, LANL-CM5)")
	days := fs.Int64("days", 120, "co-allocation requests are made from the end of the 7-day warm-up to day `D` (at most 36500, and the day of the logs' last submission; the default is cut to it, said on stderr)")
	count := fs.Int("count", 2, "reservations per co-allocation (the thesis does not report it; Figure 6.1 has 2)")
	step := fs.Int64("step", 10, "lockstep granularity of the machines, seconds")
	remedy := fs.String("remedy", "both", "none (the thesis's plan), reboost (re-plan while executing), latest (plan at the latest point meeting P_indep), or both")
	drop := fs.Bool("drop", false, "with re-boosting, cancel a request whose live probability fell to 0 when its reservation has another chance (coalloc.Config.DropDead)")
	diag := fs.Bool("diag", false, "print, per trial and site, the promised and achieved probability of the reservations served by one request (stderr)")
	lenient := fs.Bool("lenient", false, "skip malformed trace lines (counted and reported) instead of failing")
	asJSON := cli.JSONFlag(fs)
	bar := cli.ProgressFlag(fs, stderr)
	if err := cli.ParseFlags(fs, args, usage, stdout); err != nil {
		return err
	}
	if *days <= warmupDays {
		return cli.Usagef("-days %d: requests start after the %d-day warm-up, so -days must exceed %d", *days, warmupDays, warmupDays)
	}
	// -days × 86400 wrapped above about 10^14 (9223372036854775807 ran as
	// "empty trial period") and just below it the lockstep ran for ever;
	// reproduce also refuses days past the logs' end.
	if *days > maxDays {
		return cli.Usagef("-days %d: at most %d (100 years)", *days, maxDays)
	}
	plan, err := remedyConfig(*remedy)
	if err != nil {
		return cli.UsageError{Msg: err.Error()}
	}
	plan.DropDead = *drop
	var paths []string
	if *traces != "" {
		if paths, err = cli.LogList("-trace", *traces); err != nil {
			return err
		}
	} else {
		for _, name := range defaultMachines {
			p, err := tracetest.Find(name)
			if err != nil {
				return fmt.Errorf("%s not found (give -trace): %w", name, err)
			}
			paths = append(paths, p)
		}
	}
	// Both bound the work: a step of 0 or less never advanced the clocks
	// (a hang), a count in the millions allocated its requests until the
	// process died; a count above the machines is a plan never possible
	// (reservations go to distinct machines), and 0 ran as 2.
	if *step < 1 || *step > 3600 {
		return cli.Usagef("-step %d: want 1 to 3600 seconds", *step)
	}
	if *count < 1 || *count > len(paths) {
		return cli.Usagef("-count %d: want 1 to the number of machines (%d, one per -trace log; each reservation takes its own machine)", *count, len(paths))
	}
	opt := options{paths: paths, days: *days, count: *count, step: *step, plan: plan, progress: stderr, warn: stderr, lenient: *lenient}
	opt.daysDefault = true
	fs.Visit(func(f *flag.Flag) { opt.daysDefault = opt.daysDefault && f.Name != "days" })
	if *diag {
		opt.diag = stderr
	}
	if cli.ProgressOn(fs, bar, *asJSON) {
		opt.bar, opt.progress = progress.New(stderr, true, float64(len(table62))), nil
		defer opt.bar.Done()
	}
	// -json is the markdown's sections and, beside them, what reading
	// left out of every log (each said on standard error): the lines
	// skipped, the header lines not taken as written and the jobs left
	// out (leftJSON).
	w, flush, left := output(stdout, *asJSON)
	opt.left = left
	if err := reproduce(w, opt); err != nil {
		return err
	}
	return flush()
}

type options struct {
	paths []string
	days  int64
	// daysDefault: -days was not given; a default past the logs' end is
	// cut to it, said on warn (given, it is refused).
	daysDefault bool
	count       int
	step        int64
	plan        coalloc.Config // the planner's options: which remedies
	progress    io.Writer      // a line per trial; nil: none
	bar         *progress.Bar  // a bar of the trials instead (-progress); nil: none
	diag        io.Writer      // nil: no per-site diagnosis
	warn        io.Writer      // the jobs of each log left out, by reason; nil: not said
	asked       *int64         // if not nil, counts the forecasts CO-VARQ asks the sites
	trials      []trial        // default table62
	lenient     bool           // -lenient: skip malformed lines, counted
	left        *leftJSON      // what reading left out of every log (-json); nil: not kept
}

// remedyConfig maps -remedy to the planner's options.
func remedyConfig(name string) (coalloc.Config, error) {
	switch name {
	case "none":
		return coalloc.Config{}, nil
	case "reboost":
		return coalloc.Config{Reboost: true}, nil
	case "latest":
		return coalloc.Config{LatestMeeting: true}, nil
	case "both":
		return coalloc.Config{Reboost: true, LatestMeeting: true}, nil
	}
	return coalloc.Config{}, fmt.Errorf("-remedy %q: want none, reboost, latest or both", name)
}
