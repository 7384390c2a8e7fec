// Command simulate runs one scheduling policy of package sched over an SWF
// trace and prints the thesis's metrics (Tsafrir's thesis Ch. 2–4): mean
// wait, bounded slowdown, slowdown, utilization, backfill rate, prediction
// accuracy. It can write the simulated schedule as SWF (-out) and one CSV
// row per job (-jobs-out).
//
//	go run ./examples/simulate ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
//	go run ./examples/simulate -policy easy++ -json trace.swf.gz
//	go run ./examples/simulate trace.swf -policy sjf -machine 512 -out sched.swf.gz
//	zcat trace.swf.gz | go run ./examples/simulate -policy conservative -
//	go run ./examples/simulate -list
//
// Flags may come before or after the trace. Exit status: 0 ok, 1 a run
// error (unreadable or malformed trace, no machine size, unwritable
// output), 2 a usage error (unknown flag or policy, no trace argument).
package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sched"
)

func main() { cli.Main(runContext) }

// options are the parsed command line.
type options struct {
	policy   sched.Preset
	machine  int64
	perEvent bool
	kill     bool
	ties     bool
	compat   sched.Peer
	out      string
	jobsOut  string
	json     bool
	list     bool
	lenient  bool
	progress bool
	trace    string
}

const usageHead = `usage: simulate [flags] TRACE   (flags may also follow TRACE)

Simulates one scheduling policy (package sched) over the SWF trace TRACE,
plain or gzip, '-' for standard input, and prints the metrics.

`

// parse reads the command line. Flags may come before or after the trace:
// after each run of flags, the next argument is taken as positional and
// parsing resumes behind it ("--" ends the flags).
func parse(args []string, stdout, stderr io.Writer) (options, error) {
	var o options
	var policy, compat string
	fs := cli.NewFlagSet("simulate")
	fs.StringVar(&policy, "policy", "easy", "scheduling policy, a preset name (case-insensitive; -list shows them)")
	fs.Int64Var(&o.machine, "machine", 0, "machine size in processors (default: the trace header's MaxProcs, else MaxNodes)")
	fs.BoolVar(&o.perEvent, "per-event", false, "one scheduling pass per event instead of per timestamp (Config.PerEventPass, S1)")
	fs.BoolVar(&o.kill, "kill", false, "end jobs at their estimate, as production schedulers do (Config.KillAtEstimate)")
	fs.BoolVar(&o.ties, "ties", false, "every running job ending at the shadow time adds extra processors (Config.ShadowTies, S2)")
	fs.StringVar(&compat, "compat", "", "build jobs and schedule like a peer simulator: pyss or predictsim (Config.WithPeer)")
	fs.StringVar(&o.out, "out", "", "write the simulated schedule as SWF to `FILE` (gzip if it ends in .gz)")
	fs.StringVar(&o.jobsOut, "jobs-out", "", "write one CSV row per simulated job to `FILE` (gzip if it ends in .gz)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of the text report")
	fs.BoolVar(&o.list, "list", false, "list the policies and exit")
	fs.BoolVar(&o.lenient, "lenient", false, "skip malformed trace lines (counted and reported) instead of failing")
	bar := cli.ProgressFlag(fs, stderr)

	pos, err := cli.ParseArgs(fs, args, usageHead, stdout)
	if err != nil {
		return o, err
	}
	// The bar is a terminal's default, off under -json (output for
	// scripts); -progress forces it.
	o.progress = cli.ProgressOn(fs, bar, o.json)

	if o.list {
		return o, nil
	}
	pr, ok := sched.LookupPreset(policy)
	if !ok {
		return o, cli.Usagef("unknown policy %q (want one of %s; -list describes them)", policy, presetNames())
	}
	o.policy = pr
	var peer sched.Peer
	if err := peer.UnmarshalText([]byte(compat)); err != nil {
		return o, cli.Usagef("-compat %q: want pyss or predictsim (or none)", compat)
	}
	o.compat = peer
	if o.machine < 0 {
		return o, cli.Usagef("-machine %d: must be positive", o.machine)
	}
	switch len(pos) {
	case 0:
		return o, cli.Usagef("missing TRACE argument (usage: simulate [flags] TRACE; -help for the flags)")
	case 1:
		o.trace = pos[0]
	default:
		return o, cli.Usagef("one TRACE expected, got %d arguments: %s", len(pos), strings.Join(pos, " "))
	}
	return o, nil
}

func presetNames() string {
	var names []string
	for _, p := range sched.Presets() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// runContext is the whole command: it returns the exit status.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parse(args, stdout, stderr)
	switch {
	case err != nil:
	case o.list:
		err = list(stdout, o.json)
	default:
		err = simulate(ctx, o, stdin, stdout, stderr)
	}
	return cli.Status("simulate", stderr, err)
}

// list prints the presets with their one-line descriptions.
func list(w io.Writer, asJSON bool) error {
	ps := sched.Presets()
	if asJSON {
		type entry struct {
			Name string `json:"name"`
			Doc  string `json:"doc"`
		}
		out := make([]entry, len(ps))
		for i, p := range ps {
			out[i] = entry{p.Name, p.Doc}
		}
		return cli.WriteJSON(w, out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range ps {
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Doc)
	}
	return tw.Flush()
}
