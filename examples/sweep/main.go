// Command sweep runs parameter sweeps of package sched: a small JSON spec
// (traces, machine sizes, policies, predictor parameters, loads, seeds,
// simulator options) expanded into a numbered list of runs, run in shards
// on one machine or as an array job (Slurm, Kubernetes Indexed Jobs, PBS),
// one JSONL result file per shard, merged and reported. It reproduces
// Tsafrir's thesis Table 4.8, Figure 4.3 and the parameter study of Tables
// 4.9–4.13 (Ch. 4, spec §4 and §6); see README.md.
//
//	go run ./examples/sweep list   -spec examples/sweep/specs/table48.json
//	go run ./examples/sweep run    -spec examples/sweep/specs/table48.json -out results
//	go run ./examples/sweep run    -spec F -shard 3/16 -out results -j 2
//	go run ./examples/sweep merge  -spec F results > all.jsonl
//	go run ./examples/sweep report -spec F -plot docs/figures results
//	go run ./examples/sweep slurm  -spec F -runs-per-task 500 -throttle 50 > sweep.sbatch
//
// Flags may come before or after the arguments. Exit status: 0 ok, 1 a run
// error (missing trace, incomplete or mismatched results), 2 a usage error.
package main

import (
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
)

func main() { cli.Main(run) }

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return runMain(ctx, args, os.Getenv, stdout, stderr)
}

const usage = `usage: sweep COMMAND [flags] [args]   (flags may come before or after args)

Commands:
  list   -spec F [-json]                     print the numbered runs of a spec
  run    -spec F [-shard i/N | -shards N] [-out DIR] [-j K] [-traces DIR] [-reuse DIR]
                                             make one shard's runs (resumable)
  merge  -spec F [-o FILE] DIR|FILE...       combine shards in run order
  report -spec F [-plot DIR] [-readme FILE] [-json] DIR|FILE...
                                             the tables (and figure) of a sweep
  slurm  -spec F [-tasks N | -runs-per-task R] [-throttle M] [-out DIR] [-j K]
                                             print an sbatch --array script

Run "sweep COMMAND -help" for a command's flags.
`

// parseFlags parses args with fs, flags before or after the positional
// arguments ("--" ends the flags), and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	pos, err := cli.Parse(fs, args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return nil, cli.UsageError{Msg: fs.Name() + ": " + err.Error()}
	}
	return pos, err
}

func printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: sweep %s [flags] …\n\n", fs.Name())
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func runMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// the usage, then the error's line, as qserve: a bare usage
		// dump on stderr said nothing of what was wrong.
		fmt.Fprint(stderr, usage)
		return cli.Status("sweep", stderr, cli.Usagef("no command (want list, run, merge, report or slurm)"))
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return cli.ExitOK
	case "list":
		err = cmdList(rest, stdout)
	case "run":
		err = cmdRun(ctx, rest, getenv, stdout, stderr)
	case "merge":
		err = cmdMerge(rest, stdout, stderr)
	case "report":
		err = cmdReport(rest, stdout)
	case "slurm":
		err = cmdSlurm(rest, stdout)
	default:
		err = cli.Usagef("unknown command %q (want list, run, merge, report or slurm)", cmd)
	}
	var help helpShown
	if errors.As(err, &help) {
		printHelp(stdout, help.fs)
		return cli.ExitOK
	}
	return cli.Status("sweep", stderr, err)
}

type helpShown struct{ fs *flag.FlagSet }

func (helpShown) Error() string { return "help" }

// common parses a command's flags and reads -spec.
func common(fs *flag.FlagSet, args []string, specPath *string) ([]string, *Spec, error) {
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, nil, helpShown{fs}
	}
	if err != nil {
		return nil, nil, err
	}
	if *specPath == "" {
		return nil, nil, cli.UsageError{Msg: fs.Name() + ": -spec FILE is required"}
	}
	spec, err := ReadSpec(*specPath)
	if err != nil {
		return nil, nil, err
	}
	return pos, spec, nil
}

func cmdList(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	specPath := fs.String("spec", "", "sweep spec `FILE` (JSON)")
	asJSON := fs.Bool("json", false, "one JSON object per run (run and params)")
	pos, spec, err := common(fs, args, specPath)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.UsageError{Msg: "list takes no arguments, got " + strings.Join(pos, " ")}
	}
	runs := spec.Expand()
	if *asJSON {
		for _, r := range runs {
			b := encodeLine(Line{Run: r.N, Spec: spec.Hash(), Params: r.Params})
			// Only run, spec and params: drop the empty summary.
			fmt.Fprintf(w, "%s}\n", b[:strings.Index(string(b), `,"summary"`)])
		}
		return nil
	}
	fmt.Fprintf(w, "# %s: %d runs, spec hash %s\n", spec.Name, len(runs), spec.Hash())
	for _, r := range runs {
		fmt.Fprintf(w, "%d\t%s\n", r.N, r.describe())
	}
	return nil
}

// describe is a run's parameters in one line. A machine size of 0 is the
// header's (MaxProcs, else MaxNodes): it read "P=0", a machine of no
// processor, in the list and the report.
func (p Params) describe() string {
	size := "header's"
	if p.Machine != 0 {
		size = strconv.FormatInt(p.Machine, 10)
	}
	s := fmt.Sprintf("%s P=%s load=%s seed=%d %s", p.Trace, size, loadName(p.Load), p.Seed, p.Policy)
	if p.PerEvent {
		s += " per-event"
	}
	if p.Ties {
		s += " ties"
	}
	if p.Kill {
		s += " kill"
	}
	if p.Compat != "none" {
		s += " compat=" + p.Compat
	}
	if pp := p.Predictor; pp != nil {
		s += fmt.Sprintf(" window=%d %s %s fallback=%s partial=%v propagate=%v correction=%s",
			pp.Window, pp.Type, pp.Metric, pp.Fallback, pp.Partial, pp.Propagate, pp.Correction)
	}
	return s
}

func loadName(l float64) string {
	if l == 0 {
		return "log"
	}
	return fmt.Sprintf("%g", l)
}

func cmdRun(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	specPath := fs.String("spec", "", "sweep spec `FILE` (JSON)")
	shard := fs.String("shard", "", "run shard `i/N` (runs n with n mod N = i); default: from the array job's environment, else 0/1")
	shards := fs.Int("shards", 0, "number of shards `N` when the environment gives only the index (JOB_COMPLETION_INDEX, PBS_ARRAY_INDEX; with SLURM_ARRAY_TASK_ID the task ID is then the shard)")
	out := fs.String("out", "results", "result `DIR`: DIR/NAME.shard-i-of-N.jsonl and its .meta.json")
	workers := fs.Int("j", runtime.NumCPU(), "simulations at once (one per goroutine)")
	traces := fs.String("traces", "", "traces `DIR` (default: $BATCHQ_TRACES, else ../shared/traces)")
	bar := cli.ProgressFlag(fs, stderr)
	asJSON := fs.Bool("json", false, "print the shard's record (the sidecar) as JSON")
	var reuse []string
	fs.Func("reuse", "copy runs with the same parameters from the result files of another spec in `DIR|FILE` (repeatable; same sched version only) instead of simulating them", func(v string) error {
		reuse = append(reuse, v)
		return nil
	})
	pos, spec, err := common(fs, args, specPath)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.UsageError{Msg: "run takes no arguments, got " + strings.Join(pos, " ")}
	}
	// Bounded: each worker is a goroutine started before the first run,
	// and -j 10000000 took 23 GB for a 12-run sweep.
	if *workers < 1 || *workers > maxWorkers {
		return cli.Usagef("-j %d: want 1 to %d", *workers, maxWorkers)
	}
	if *shards < 0 {
		return cli.Usagef("-shards %d: want at least 1", *shards)
	}
	if *out == "" {
		return cli.Usagef("-out \"\": an empty directory name") // (it was exit 1, "mkdir : no such file or directory")
	}
	if err := cli.DashOutput("-out", *out, "the results go to a directory"); err != nil {
		return err
	}
	// A -traces that is not a directory fails at once, as apq's, qbets',
	// flurries' and tsafrir's do (cli.TraceDir): it failed at the first
	// run's log, "open DIR/SDSC-SP2-…: no such file or directory", after
	// the shard's result file was made.
	if *traces != "" {
		if err := cli.TraceDir("-traces", *traces); err != nil {
			return err
		}
	}
	o := runOptions{spec: spec, out: *out, workers: *workers, traces: *traces, progress: cli.ProgressOn(fs, bar, *asJSON)}
	if len(reuse) > 0 {
		if o.reuse, err = loadReuse(reuse); err != nil {
			return err
		}
	}
	if *shard != "" {
		if o.shard, err = ParseShard(*shard); err != nil {
			return cli.UsageError{Msg: err.Error()}
		}
		if *shards > 0 && *shards != o.shard.Count {
			return cli.Usagef("-shard %s and -shards %d disagree", *shard, *shards)
		}
		o.shardFrom = "-shard"
	} else if o.shard, o.shardFrom, err = ShardFromEnv(getenv, *shards); err != nil {
		return err
	}
	side, err := runShard(ctx, o, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, side)
	}
	fmt.Fprintf(stdout, "%s shard %s: %d runs, %d already done, %d made in %.1f s (%.2f runs/s, %.1f CPU-s, %.1f s parsing) → %s\n",
		spec.Name, o.shard, side.Runs, side.Skipped, side.Ran, side.Wall, side.RunsPerSec, side.CPU, side.Parse, o.out)
	for _, t := range slices.Sorted(maps.Keys(side.TrailingZeros)) {
		fmt.Fprintf(stdout, "trace %s: %s\n", t, cli.PaddingNote(side.TrailingZeros[t]))
	}
	for _, t := range slices.Sorted(maps.Keys(side.HeaderWarnings)) {
		fmt.Fprintf(stdout, "trace %s: %s\n", t, cli.HeaderNote(side.HeaderWarnings[t]))
	}
	for _, t := range slices.Sorted(maps.Keys(side.MalformedLines)) {
		sk := side.MalformedLines[t]
		first := ""
		if len(sk.Errors) > 0 {
			first = "; first: " + sk.Errors[0]
		}
		fmt.Fprintf(stdout, "trace %s: skipped %d malformed lines (the spec's \"lenient\")%s\n", t, sk.Lines, first)
	}
	for _, t := range slices.Sorted(maps.Keys(side.DegenerateEMax)) {
		fmt.Fprintf(stdout, "trace %s: warning: %s\n", t, side.DegenerateEMax[t].Text(
			"the runs that fill estimates (S6; not a -compat peer's) planned them with it (examples/estimates -emax writes the log with another E_max)"))
	}
	return nil
}

func cmdMerge(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	specPath := fs.String("spec", "", "sweep spec `FILE` (JSON)")
	out := fs.String("o", "", "write the merged lines to `FILE`, gzipped if it ends in .gz (default: standard output)")
	trimmed := fs.Bool("trim", false, "keep only the metrics the reports use (for small committed files)")
	pos, spec, err := common(fs, args, specPath)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return cli.UsageError{Msg: "merge: give the result directories or files"}
	}
	w := stdout
	var f *os.File
	var zw *gzip.Writer
	if *out == "-" {
		*out = "" // standard output, the default: it made a file named "-"
	}
	if *out != "" {
		if err := cli.NotInput("-o", *out, append(pos, *specPath)...); err != nil {
			return err
		}
		if err := notInDirs(*out, pos); err != nil {
			return err
		}
		if f, err = os.Create(*out); err != nil {
			return err
		}
		w = f
		if strings.HasSuffix(*out, ".gz") {
			zw = gzip.NewWriter(f)
			w = zw
		}
	}
	n, err := merge(w, spec, pos, *trimmed)
	if zw != nil {
		if e := zw.Close(); err == nil {
			err = e
		}
	}
	if f != nil {
		if e := f.Close(); err == nil {
			err = e
		}
		if err != nil {
			cli.RemovePartial(*out) // a regular file only, not a device named as -o
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "sweep: merged %d runs of %s (spec %s)\n", n, spec.Name, spec.Hash())
	return nil
}

// notInDirs refuses a merged file written as a result file (*.jsonl,
// *.jsonl.gz) into one of the directories merged: the next merge or
// report of the spec would read each run twice, and another spec sharing
// the directory would refuse every line of it.
func notInDirs(out string, dirs []string) error {
	if !strings.HasSuffix(out, ".jsonl") && !strings.HasSuffix(out, ".jsonl.gz") {
		return nil
	}
	od, err := os.Stat(filepath.Dir(out))
	if err != nil {
		return nil
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() && os.SameFile(od, st) {
			return cli.Usagef("-o %s: in %s, whose *.jsonl merge and report read as results: the next merge would read every run twice; write it elsewhere", out, d)
		}
	}
	return nil
}
