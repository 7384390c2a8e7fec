// Command varq reruns the VARQ generality simulation of Nurmi's thesis
// (§5.4, Table 5.6) on Parallel Workloads Archive logs: a fraction of the
// jobs become virtual advance reservations for start times every 6 h,
// planned by VARQ over QBETS predictions fed by the simulated queue itself,
// on an EASY-backfilling simulation of the machine at its real size.
//
//	go run ./examples/varq                        # SDSC-BLUE and CTC-SP2, all nine cells each
//	go run ./examples/varq -trace x.swf.gz -jobs 50000
//	go run ./examples/varq -jobs 50000 -plot docs/figures   # also Figure 5.4's trajectory per log
//	go run ./examples/varq -crowd queued          # beyond the thesis: crowd-aware planning
//
// For each (fraction of VARQ jobs, target probability) it prints the mean
// predicted probability, the achieved success fraction, the accepted count
// and the used/required allocation ratio, beside the thesis's cell. See
// README.md for the results and the gaps.
//
// Parsing is strict unless -lenient is given; then malformed lines are
// skipped, counted and reported under each log's heading (-json: also
// "malformed_lines_skipped" and "skipped", of all logs).
//
// Exit status: 0 ok, 1 a run error (a trace missing or unreadable), 2 a
// usage error.
package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
)

func main() { cli.Main(run) }

const usage = `usage: varq [flags] [TRACE...]   (TRACEs as -trace; flags may follow them)

Reruns the VARQ generality simulation of Nurmi's thesis (§5.4, Table
5.6) and prints its cells as markdown beside the thesis's (-json: as JSON).

`

// run is the command: it returns the exit status.
func run(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("varq", stderr, commandIn(args, stdin, stdout, stderr))
}

// commandIn is the command over explicit streams (a trace "-" reads stdin).
func commandIn(args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := cli.NewFlagSet("varq")
	traces := fs.String("trace", "", "comma-separated SWF traces, - for standard input (default: SDSC-BLUE and CTC-SP2 from ../shared/traces)")
	jobs := fs.Int("jobs", 0, "use only the first n sane jobs of each trace (0: all)")
	machine := fs.Int64("machine", 0, "machine size in processors, for every trace (default: the trace header's MaxProcs, else MaxNodes; "+
		"a trace converted from Alibaba's GPU pod list has neither: its processors are thousandths of a core, the node list's sum of cpu_milli)")
	seed := fs.Uint64("seed", 1, "seed of the VARQ job selection")
	every := fs.Int64("every", 0, "re-plan every n seconds while waiting (0: only at the planned submission)")
	diag := fs.Bool("diag", false, "print, per cell, the forecaster's coverage at submission and the plans' drift (stderr)")
	unsync := fs.Bool("unsync", false, "diagnostic: give each request its own start time (arrival + U(0, 6 h]) instead of the common 6-h grid")
	fracs := fs.String("fractions", "", "comma-separated fractions of VARQ jobs (default 0.1,0.5,0.95)")
	targs := fs.String("targets", "", "comma-separated target probabilities (default 0.5,0.75,0.95)")
	noAvail := fs.Bool("noavail", false, "diagnostic: QBETS without availability inference (qbets.Config.NoAvailability), so it never falls silent")
	crowd := fs.String("crowd", "off", "beyond the thesis: plan each request as one job with the agent's other outstanding requests for its start time: off (the thesis), queued (submitted, not started), planned (also accepted ones planned to submit earlier) or accepted (all accepted ones); see agent.Config.Crowd")
	plot := fs.String("plot", "", "write the Figure 5.4 trajectory (32 processors × 1 h, 12 h ahead, target 0.75, asked mid-run in the first VARQ cell) of each log to DIR as varq-<log>-trajectory.png and .svg")
	lenient := fs.Bool("lenient", false, "skip malformed trace lines (counted and reported) instead of failing")
	asJSON := cli.JSONFlag(fs)
	bar := cli.ProgressFlag(fs, stderr)
	err = cli.ParseTrace(fs, args, usage, stdout, traces, ",")
	if err != nil {
		return err
	}
	opt := options{jobs: *jobs, machine: *machine, seed: *seed, every: *every, unsync: *unsync, noAvail: *noAvail, plot: *plot, progress: stderr, warn: stderr, lenient: *lenient}
	if *diag {
		opt.diag = stderr
	}
	// -jobs -1 ran the whole log (as 0), -every -5 failed after reading
	// the traces with varq's "negative Step or Every" (exit 1).
	if *jobs < 0 {
		return cli.Usagef("-jobs %d: want 0 (all) or more", *jobs)
	}
	if *machine < 0 || *machine > cli.MaxSize {
		return cli.Usagef("-machine %d: want 0 (the header's size) or a size of 1 to 2^40 processors", *machine)
	}
	if *every < 0 || *every > sanitize.MaxTime {
		// (Above 2^40 s it was exit 1 after the traces were read, in
		// varq's words: "Step or Every above 2^40 s".)
		return cli.Usagef("-every %d: want 0 (only at the planned submission) or 1 to 2^40 seconds", *every)
	}
	switch opt.crowd = *crowd; opt.crowd {
	case "off", "queued", "planned", "accepted": // agent.Config.Crowd
	default:
		return cli.UsageError{Msg: fmt.Sprintf("-crowd %q: want off, queued, planned or accepted", *crowd)}
	}
	if *fracs != "" {
		if opt.fractions, err = parseList("fractions", *fracs); err != nil {
			return cli.UsageError{Msg: err.Error()}
		}
	}
	if *targs != "" {
		if opt.targets, err = parseList("targets", *targs); err != nil {
			return cli.UsageError{Msg: err.Error()}
		}
	}
	if err := cli.OutputDir("-plot", *plot); err != nil {
		return err
	}
	if opt.paths, err = tracePaths(*traces); err != nil {
		return err
	}
	// A log given twice was simulated twice, its table printed twice, as
	// if two logs agreed (qbets' rule).
	if err := cli.DistinctInputs(opt.paths); err != nil {
		return err
	}
	for i, p := range opt.paths {
		if p == "-" { // standard input, once
			path, done, serr := cli.StdinTrace(p, stdin)
			if serr != nil {
				return serr
			}
			defer done()
			stderr = cli.StdinStderr(stderr, p, path)
			defer func() { err = cli.StdinError(err, "-", path) }() // the named result, not a copy
			opt.paths[i], stdin = path, strings.NewReader("")
		}
	}
	if cli.ProgressOn(fs, bar, *asJSON) {
		fr, tg := len(opt.fractions), len(opt.targets) // nil: the thesis's
		if fr == 0 {
			fr = len(fractions)
		}
		if tg == 0 {
			tg = len(targets)
		}
		opt.bar, opt.progress = progress.New(stderr, true, float64(len(opt.paths)*(1+fr*tg))), nil
		defer opt.bar.Done()
	}
	// -json is the markdown's sections (each log's note of its lines
	// skipped among its text); with -lenient, the lines skipped of all
	// logs are keyed beside them.
	w, flush, skipped := cli.OutputSkipped(stdout, *asJSON, *lenient)
	opt.skipped = skipped
	if err := reproduce(w, opt); err != nil {
		return err
	}
	return flush()
}

func tracePaths(flagValue string) ([]string, error) {
	if flagValue != "" {
		return cli.LogList("-trace", flagValue)
	}
	var paths []string
	for _, name := range []string{tracetest.SDSCBlue, tracetest.CTC} {
		p, err := tracetest.Find(name)
		if err != nil {
			return nil, fmt.Errorf("%s not found (give -trace): %w", name, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// parseList reads a comma-separated list of numbers in (0, 1], each
// once.
func parseList(name, v string) ([]float64, error) {
	var xs []float64
	at := map[float64]string{} // each value once: one given twice made its cells twice
	for _, f := range strings.Split(v, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(x > 0 && x <= 1) {
			return nil, fmt.Errorf("-%s: %q is not a number in (0, 1]", name, f)
		}
		if g, ok := at[x]; ok {
			return nil, fmt.Errorf("-%s: %q is %q again: each of its cells would be simulated and printed twice", name, f, g)
		}
		at[x] = f
		xs = append(xs, x)
	}
	return xs, nil
}

type options struct {
	paths    []string
	jobs     int
	machine  int64 // -machine; 0: each trace header's size
	seed     uint64
	every    int64
	progress io.Writer     // a line per cell; nil: quiet
	warn     io.Writer     // each log's jobs not sane, by reason; nil: not said
	bar      *progress.Bar // a bar of the cells instead (-progress); nil: none
	diag     io.Writer     // nil: no diagnosis
	unsync   bool          // agent.Config.Unsynchronized (a diagnostic)
	noAvail  bool          // qbets.Config.NoAvailability (a diagnostic)
	crowd    string
	// fractions and targets default to the thesis's.
	fractions, targets []float64
	plot               string       // directory for the -plot figure ("": none)
	probe              *trajProbe   // set by run for the cell that draws it
	lenient            bool         // -lenient: skip malformed lines, counted
	skipped            *cli.Skipped // the lines skipped of every log (-lenient -json); nil: not kept
}
