// Command simulate runs one scheduling policy of package sched over an SWF
// trace and prints the thesis's metrics (Tsafrir's thesis Ch. 2–4): mean
// wait, bounded slowdown, slowdown, utilization, backfill rate, prediction
// accuracy. It can write the simulated schedule as SWF (-out) and one CSV
// row per job (-jobs-out). With -nodes the machine is a set of nodes with
// cores, memory and GPUs (issue 32), and the trace may be an Alibaba GPU
// 2023 pod list, told from SWF by its header line.
//
//	go run ./examples/simulate ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
//	go run ./examples/simulate -nodes openb_node_list_all_node.csv -placement best -check openb_pod_list_default.csv
//	go run ./examples/simulate -policy easy++ -json trace.swf.gz
//	go run ./examples/simulate trace.swf -policy sjf -machine 512 -out sched.swf.gz
//	zcat trace.swf.gz | go run ./examples/simulate -policy conservative -
//	go run ./examples/simulate -list
//	go run ./examples/simulate -slurm-conf slurm.conf -shares assoc.txt acct.swf    # Slurm's own policy
//
// Flags may come before or after the trace. Exit status: 0 ok, 1 a run
// error (unreadable or malformed trace, no machine size, unwritable
// output), 2 a usage error (unknown flag or policy, no trace argument).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
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
	// partition is -partition: simulate the jobs of this partition (SWF
	// field 16) alone, when partitionSet.
	partition    int64
	partitionSet bool
	lenient      bool
	progress     bool
	trace        string

	nodes       string          // -nodes FILE: a machine of nodes
	placement   sched.Placement // -placement
	countMemory bool
	check       bool

	slurmConf  string   // -slurm-conf FILE: the Slurm policy of package sched/slurm
	namedNodes bool     // -named-nodes: slurm.Config.NamedNodes
	shares     []string // -shares FILE[,FILE]: its fair-share tree and QOS
}

const usageHead = `usage: simulate [flags] TRACE   (flags may also follow TRACE)

Simulates one scheduling policy (package sched) over TRACE, plain or gzip,
'-' for standard input, and prints the metrics. TRACE is an SWF log or an
Alibaba GPU 2023 pod list (told apart by the header line; a pod list needs
-nodes). -nodes makes the machine a set of nodes with cores, memory and GPUs.

`

// parse reads the command line. Flags may come before or after the trace:
// after each run of flags, the next argument is taken as positional and
// parsing resumes behind it ("--" ends the flags).
func parse(args []string, stdout, stderr io.Writer) (options, error) {
	var o options
	var policy, compat, placement string
	fs := cli.NewFlagSet("simulate")
	fs.StringVar(&policy, "policy", "easy", "scheduling policy, a preset name (case-insensitive; -list shows them)")
	fs.Int64Var(&o.machine, "machine", 0, "machine size in processors (default: the trace header's MaxProcs, else MaxNodes)")
	fs.BoolVar(&o.perEvent, "per-event", false, "one scheduling pass per event instead of per timestamp (Config.PerEventPass, S1)")
	fs.BoolVar(&o.kill, "kill", false, "end jobs at their estimate, as production schedulers do (Config.KillAtEstimate)")
	fs.BoolVar(&o.ties, "ties", false, "every running job ending at the shadow time adds extra processors (Config.ShadowTies, S2)")
	fs.StringVar(&compat, "compat", "", "build jobs and schedule like a peer simulator: pyss or predictsim (Config.WithPeer)")
	fs.StringVar(&o.out, "out", "", "write the simulated schedule as SWF to `FILE` (gzip if it ends in .gz)")
	fs.StringVar(&o.jobsOut, "jobs-out", "", "write one CSV row per simulated job to `FILE` (gzip if it ends in .gz): its times, its demand and, on -nodes, the nodes it got and what it held there")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of the text report")
	fs.BoolVar(&o.list, "list", false, "list the policies and exit")
	fs.BoolVar(&o.lenient, "lenient", false, "skip malformed trace lines (counted and reported) instead of failing")
	fs.StringVar(&o.nodes, "nodes", "", "the machine is the nodes of `FILE`: an Alibaba node list or a batchq nodes file (kind,count,cores,memory,gpus,gpu_model)")
	fs.StringVar(&placement, "placement", "", "where a job goes on a machine of -nodes: first (first fit, the default) or best (best fit)")
	fs.BoolVar(&o.countMemory, "count-memory", false, "SWF jobs ask for the memory of field 10 (else 7), in MiB per core, on -nodes (Config.CountMemory)")
	fs.Int64Var(&o.partition, "partition", 0, "simulate the jobs of partition `N` (SWF field 16) alone, the others left out; "+
		"its machine size, unless -machine, a guess: the most processors its jobs held at once in the log, else its largest job")
	fs.BoolVar(&o.check, "check", false, "verify the schedule (sched.Result.Check); a violation is an error, exit 1")
	fs.StringVar(&o.slurmConf, "slurm-conf", "", "simulate Slurm (package sched/slurm) as the site's slurm.conf `FILE` configures it, instead of -policy; "+
		"convert the trace with convert -accounts so that jobs have their accounts and QOS")
	fs.BoolVar(&o.namedNodes, "named-nodes", false, "with -slurm-conf and -nodes: backfill plans on named nodes as Slurm's node_space does "+
		"(slurm.Config.NamedNodes; closer to Slurm, many times the cost on hundreds of nodes)")
	var shares string
	fs.StringVar(&shares, "shares", "", "with -slurm-conf: the fair-share tree from `FILE[,FILE]`: sshare -a -P or "+
		"sacctmgr show assoc format=Account,ParentName,User,Share -P output, and sacctmgr show qos format=Name,Priority -P")
	bar := cli.ProgressFlag(fs, stderr)

	pos, err := cli.ParseArgs(fs, args, usageHead, stdout)
	if err != nil {
		return o, err
	}
	// The bar is a terminal's default, off under -json (output for
	// scripts); -progress forces it.
	o.progress = cli.ProgressOn(fs, bar, o.json)

	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.list {
		// -list prints the presets and nothing else: a trace or another
		// flag given with it (simulate -list -policy sjbf LOG) was dropped
		// without a word, exit 0.
		if len(pos) > 0 {
			return o, cli.Usagef("-list takes no trace (got %q): it lists the policies and exits", pos[0])
		}
		for _, f := range slices.Sorted(maps.Keys(set)) {
			if f != "list" && f != "json" {
				return o, cli.Usagef("-%s and -list: -list lists the policies and exits (only -json applies to it)", f)
			}
		}
		return o, nil
	}
	o.shares = sharesList(shares)
	// An empty name given is a slip of the user (an unset shell
	// variable), not a request to run without the file.
	if set["slurm-conf"] && o.slurmConf == "" {
		return o, cli.Usagef("-slurm-conf: empty file name")
	}
	if set["shares"] && (len(o.shares) == 0 || slices.Contains(o.shares, "")) {
		return o, cli.Usagef("-shares %q: an empty file name", shares)
	}
	if o.slurmConf != "" {
		for _, name := range []string{"policy", "compat", "per-event", "ties", "kill"} {
			if set[name] {
				return o, cli.Usagef("-%s and -slurm-conf: the Slurm policy is configured by its slurm.conf alone", name)
			}
		}
	} else if len(o.shares) > 0 {
		return o, cli.Usagef("-shares is the fair-share tree of -slurm-conf: give -slurm-conf FILE")
	}
	if o.partitionSet = set["partition"]; o.partitionSet {
		if o.partition < 0 {
			return o, cli.Usagef("-partition %d: want a partition number, 0 or more (field 16; -1 is a job without one)", o.partition)
		}
		if o.slurmConf != "" {
			return o, cli.Usagef("-partition and -slurm-conf: the Slurm policy runs each partition on its own nodes already")
		}
	}
	if o.namedNodes && (o.slurmConf == "" || o.nodes == "") {
		return o, cli.Usagef("-named-nodes plans the Slurm policy's backfill on the nodes of -nodes: give -slurm-conf FILE and -nodes FILE")
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
	// sched refuses a peer mode on nodes (the peers have one pool of
	// processors); said before the trace is read, as a usage error.
	if o.nodes != "" && peer != sched.PeerNone {
		return o, cli.Usagef("-compat %s and -nodes: the peer simulators have one pool of processors, not nodes", peer)
	}
	if o.nodes == "" && (placement != "" || o.countMemory) {
		return o, cli.Usagef("-placement and -count-memory need a machine of nodes (-nodes FILE)")
	}
	switch strings.ToLower(placement) {
	case "", "first", "firstfit", "first-fit":
		o.placement = nil // first fit
	case "best", "bestfit", "best-fit":
		o.placement = sched.BestFit
	default:
		return o, cli.Usagef("-placement %q: want first or best", placement)
	}
	if o.machine < 0 || o.machine > cli.MaxSize {
		// (2^63 − 1 was exit 1, sched's or synth's error, after the trace was read)
		return o, cli.Usagef("-machine %d: want 0 (the default) or a size of 1 to 2^40 processors", o.machine)
	}
	switch len(pos) {
	case 0:
		return o, cli.Usagef("missing TRACE argument (usage: simulate [flags] TRACE)")
	case 1:
		o.trace = pos[0]
	default:
		return o, cli.Usagef("one TRACE expected, got %d arguments: %s", len(pos), strings.Join(pos, " "))
	}
	inputs := append([]string{o.trace, o.nodes, o.slurmConf}, o.shares...)
	for _, out := range []struct{ flag, path string }{{"-out", o.out}, {"-jobs-out", o.jobsOut}} {
		if out.path == "" {
			continue
		}
		if err := cli.DashOutput(out.flag, out.path, "standard output carries the report"); err != nil {
			return o, err
		}
		if err := cli.NotInput(out.flag, out.path, inputs...); err != nil {
			return o, err
		}
		if err := cli.OutputFile(out.flag, out.path); err != nil {
			return o, err // (found once the run was over)
		}
	}
	if err := cli.DistinctOutputs("-out", o.out, "-jobs-out", o.jobsOut); err != nil {
		return o, err // the CSV replaced the schedule
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
