// Command flurries runs the workload-flurry experiments of issue 6 on the
// shared PWA traces (Tsafrir's thesis Ch. 6): detection quality on cleaned
// logs with injected flurries, what the detector finds on the cleaned logs
// and on LANL-CM5, how the weekly test trades one against the other, and the
// butterfly effect on SDSC-SP2. Every table of README.md is one section of
// its output (readme_test.go checks them).
//
//	go run ./examples/flurries                 # everything
//	go run ./examples/flurries -exp inject     # one experiment: native, inject, sweep, lanl, spread, weeklift, butterfly
//	go run ./examples/flurries -plot docs/figures -exp none   # only the weekly activity figures
//	go run ./examples/flurries -exp lanl -json                # one experiment's tables as JSON
//
// Zero padding after a gzip log's last member is ignored and said once
// per log on standard error, after the output (cli.PaddingNote's words),
// as are the jobs left out for a submit time past 2^40 s and, with
// -sane, those sanitize.Sane leaves out, by reason; -json writes
// them too, beside the tables, under "logs" (by file name: notes.go).
//
// Exit status: 0 ok, 1 a run error (a trace missing or unreadable), 2 a
// usage error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// setup is what every experiment of one run detects with: the detector's
// configuration (the defaults unless flags change it, so that the
// trade-offs in README.md can be re-run) and whether only the jobs
// sanitize.Sane keeps are read.
type setup struct {
	det sanitize.FlurryConfig
	// sane (-sane) keeps only the jobs sanitize.Sane keeps, the workload a
	// simulation sees; by default the experiments read the whole cleaned
	// log, as the thesis's weekly plots do.
	sane bool
	// notes keeps what reading the logs ignored, said once per log on
	// standard error at the end (nil: not said).
	notes *logNotes
}

func main() { cli.Main(run) }

const usage = `usage: flurries [flags]

Runs the workload-flurry experiments (Tsafrir's thesis Ch. 6) on the
shared traces and prints README.md's tables (-json: as JSON).

`

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("flurries", stderr, flurries(ctx, args, stdout, stderr))
}

func flurries(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var st setup
	var plot plotOptions
	fs := cli.NewFlagSet("flurries")
	exp := fs.String("exp", "all", "experiment: all, "+strings.Join(experimentNames, ", ")+"; none (with -plot: figures only)")
	dir := fs.String("traces", "", "traces directory (default: ../shared/traces beside the module)")
	plot.flags(fs)
	bins := fs.String("bins", "", "detector bin widths, comma-separated Go durations (default: week, day, 6 h: 168h,24h,6h)")
	fs.Float64Var(&st.det.Factor, "factor", 0, "detector Factor (0 = default 1)")
	fs.Float64Var(&st.det.Quantile, "quantile", 0, "detector Quantile (0 = default 0.9)")
	fs.Float64Var(&st.det.WeekLift, "weeklift", 0, "detector WeekLift (0 = default 1, negative = off)")
	fs.BoolVar(&st.sane, "sane", false, "detect on the jobs sanitize.Sane keeps (what a simulator sees), not the whole cleaned log")
	asJSON := cli.JSONFlag(fs)
	onBar := cli.ProgressFlag(fs, stderr)
	err := cli.ParseFlags(fs, args, usage, stdout)
	if err != nil {
		return err
	}
	if st.det.Bins, err = parseBins(*bins); err != nil {
		return cli.UsageError{Msg: err.Error()}
	}
	// each detector flag checked alone, so that its error names the flag
	// the user typed ("-factor -5: …"), not only the library's field
	for _, f := range []struct {
		flag string
		v    float64
		cfg  sanitize.FlurryConfig
	}{
		{"-factor", st.det.Factor, sanitize.FlurryConfig{Factor: st.det.Factor}},
		{"-quantile", st.det.Quantile, sanitize.FlurryConfig{Quantile: st.det.Quantile}},
		{"-weeklift", st.det.WeekLift, sanitize.FlurryConfig{WeekLift: st.det.WeekLift}},
	} {
		if err := f.cfg.Validate(); err != nil {
			return cli.Usagef("%s %v: %s", f.flag, f.v, strings.TrimPrefix(err.Error(), "sanitize: "))
		}
	}
	if err := st.det.Validate(); err != nil {
		return cli.UsageError{Msg: err.Error()}
	}
	if err := cli.DashOutput("-plot", plot.dir, "the figures go to a directory"); err != nil {
		return err // (it made a directory named "-")
	}
	if *exp != "all" && *exp != "none" && !slices.Contains(experimentNames, *exp) {
		return cli.Usagef("unknown experiment %q (want all, none, %s)", *exp, strings.Join(experimentNames, ", "))
	}
	// Without -plot, -plot-logs was dropped without a word, and -exp
	// none ran nothing and printed nothing (exit 0).
	if plot.dir == "" {
		logsSet := false
		fs.Visit(func(f *flag.Flag) { logsSet = logsSet || f.Name == "plot-logs" })
		switch {
		case logsSet:
			return cli.Usagef("-plot-logs applies to -plot's figures: give it with -plot DIR")
		case *exp == "none":
			return cli.Usagef("-exp none without -plot DIR runs nothing")
		}
	}
	if *dir == "" {
		if *dir, err = tracetest.Dir(); err != nil {
			return err
		}
	}
	if err := cli.TraceDir("-traces", *dir); err != nil {
		return err
	}
	// The bar's steps: the figures, then each experiment: experiments
	// done of the total. A terminal's default, off under -json (output for
	// scripts); -progress forces it.
	steps := 0
	if plot.dir != "" {
		steps++
	}
	switch *exp {
	case "all":
		steps += len(experiments)
	case "none":
	default:
		steps++
	}
	bar := progress.New(stderr, cli.ProgressOn(fs, onBar, *asJSON), float64(steps))
	defer bar.Done()
	st.notes = &logNotes{}
	defer func() {
		bar.Done() // (before the notes, so that they are not written over the bar)
		st.notes.write(stderr)
	}()
	w, flush := output(stdout, *asJSON, st.notes)
	if plot.dir != "" {
		bar.Stage("figures", 1)
		if err := plotActivity(w, *dir, plot.dir, plot.logs, st); err != nil {
			return err
		}
	}
	if *exp != "none" {
		if err := reproduce(ctx, w, *dir, *exp, st, bar); err != nil {
			return err
		}
	}
	return flush()
}

// parseBins reads -bins.
func parseBins(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	var bins []int64
	for _, f := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil || d < time.Second {
			return nil, fmt.Errorf("-bins: %q is not a duration of at least 1s (e.g. 168h)", f)
		}
		bins = append(bins, int64(d/time.Second))
	}
	return bins, nil
}

// The four Tsafrir logs, cleaned.
var cleaned = []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2, tracetest.SDSCBlue}

// load reads a log of dir (the jobs sanitize.Sane keeps if sane), in
// submission order, and keeps its notes in notes (nil: none kept). A job
// without a number (field 1 below 1) is numbered 10^18 + its line, as
// sched numbers it (cli.MadeUpIDs), before anything keys jobs by number:
// the injected flurries' numbers come after the largest (one -1 or 0
// made them 0, 1, …, among numbers sched makes up) and the butterfly's
// starts are keyed by number.
func load(dir, name string, sane bool, notes *logNotes) ([]swf.Job, error) {
	h, jobs, zeros, header, err := cli.ReadLogHeader(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	notes.padding(name, zeros)
	notes.headerLines(name, header)
	notes.numbered(name, cli.MadeUpIDs(jobs))
	read := len(jobs)
	jobs, far := cli.SubmitsInRange(jobs)
	notes.farSubmits(name, far)
	left := map[string]int{}
	if far > 0 {
		left[sanitize.TimeOutOfRange.String()] = far
	}
	if sane {
		size, err := h.MachineSize()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var rep sanitize.Report
		jobs, rep = sanitize.Sane(jobs, size)
		notes.notSane(name, cli.ByReason(rep))
		for why, k := range cli.ByReason(rep) {
			left[why] += k
		}
	}
	if len(jobs) == 0 && read > 0 {
		// Every job left out: said as every command says it, with the
		// reasons (it was "no job lines", of a log that has some).
		return nil, cli.NoSaneJob(name, read, left)
	}
	jobs, _ = sanitize.Reorder(jobs)
	return jobs, checkSpan(name, jobs)
}

// checkSpan refuses a log the detector cannot bin: no job with a known
// submit time (an empty log panicked: index out of range), or a span
// above cli.SubmitSpan's (a corrupt submit time).
func checkSpan(name string, jobs []swf.Job) error {
	if len(jobs) == 0 { // said as every command says it of an empty log
		return fmt.Errorf("%s: no job lines", name)
	}
	known, err := cli.SubmitSpan(jobs)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", name, err)
	case known == 0:
		return fmt.Errorf("%s: no job with a known submit time (%d jobs read)", name, len(jobs))
	}
	return nil
}

// A section is one part of the output; README.md holds each as the
// generated region of the same name.
type section struct {
	name, title string
	text        string
}

// experiment computes the sections of one -exp name.
type experiment struct {
	name string
	run  func(ctx context.Context, dir string, st setup) ([]section, error)
}

var experiments = []experiment{
	{"native", func(_ context.Context, dir string, st setup) ([]section, error) { return nativeSections(dir, st) }},
	{"inject", func(_ context.Context, dir string, st setup) ([]section, error) { return injectSections(dir, st) }},
	{"sweep", func(_ context.Context, dir string, st setup) ([]section, error) { return sweepSections(dir, st) }},
	{"lanl", func(_ context.Context, dir string, st setup) ([]section, error) { return lanlSections(dir, st) }},
	{"spread", func(_ context.Context, dir string, st setup) ([]section, error) { return spreadSections(dir, st) }},
	{"weeklift", func(_ context.Context, dir string, st setup) ([]section, error) { return weekLiftSections(dir, st) }},
	{"figures", func(_ context.Context, dir string, st setup) ([]section, error) {
		s, err := figuresSection(dir, st)
		return []section{s}, err
	}},
	{"butterfly", butterflySections},
}

var experimentNames = func() []string {
	var n []string
	for _, e := range experiments {
		n = append(n, e.name)
	}
	return n
}()

// reproduce runs the experiment exp (or all) and prints its sections on w,
// starting a stage of bar (if not nil) for each experiment.
func reproduce(ctx context.Context, w io.Writer, dir, exp string, st setup, bar *progress.Bar) error {
	if exp != "all" && !slices.Contains(experimentNames, exp) {
		return fmt.Errorf("unknown experiment %q (want all, %s)", exp, strings.Join(experimentNames, ", "))
	}
	for _, e := range experiments {
		if exp != "all" && exp != e.name {
			continue
		}
		if bar != nil {
			bar.Stage(e.name, 1)
		}
		ss, err := e.run(ctx, dir, st)
		if err != nil {
			return err
		}
		for _, s := range ss {
			fmt.Fprintf(w, "%s\n\n%s\n", s.title, s.text)
		}
	}
	return nil
}

// textOf runs write into a string with exactly one final newline, as a
// README region holds it.
func textOf(write func(io.Writer)) string {
	var b strings.Builder
	write(&b)
	return strings.TrimRight(b.String(), "\n") + "\n"
}
