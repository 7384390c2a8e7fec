package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/batchq/batchq/examples/internal/cli"
)

// cmdSlurm prints an sbatch script that runs the sweep as a job array: task
// i runs shard i of N (round-robin), N = -tasks or ⌈runs / -runs-per-task⌉.
func cmdSlurm(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("slurm", flag.ContinueOnError)
	specPath := fs.String("spec", "", "sweep spec `FILE` (JSON)")
	tasks := fs.Int("tasks", 0, "array tasks `N` (default: from -runs-per-task)")
	perTask := fs.Int("runs-per-task", 200, "runs per array task `R` when -tasks is not given")
	throttle := fs.Int("throttle", 0, "at most `M` tasks at once (--array=…%M; 0: no limit)")
	out := fs.String("out", "results", "result `DIR` on the shared file system")
	workers := fs.Int("j", 1, "CPUs per task (--cpus-per-task; the runner uses them all)")
	timeLimit := fs.String("time", "", "time limit per task (--time, e.g. 1:00:00; default: the partition's)")
	partition := fs.String("partition", "", "partition (--partition)")
	bin := fs.String("bin", "./sweep", "the sweep binary on the nodes (go build -o sweep ./examples/sweep)")
	traces := fs.String("traces", "", "traces `DIR` on the nodes (default: the binary's, $BATCHQ_TRACES or ../shared/traces)")
	pos, spec, err := common(fs, args, specPath)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.UsageError{Msg: "slurm takes no arguments, got " + strings.Join(pos, " ")}
	}
	if *out == "" {
		// (a script of mkdir -p '' whose every task failed)
		return cli.Usagef("slurm: -out \"\": an empty directory name")
	}
	if err := cli.DashOutput("-out", *out, "the results go to a directory (every task's run -out - would fail)"); err != nil {
		return err
	}
	runs := len(spec.Expand())
	// each bad number named with its value: one message for all four
	// ("-tasks, -throttle must be ≥ 0, …") left the user to find which
	for _, f := range []struct {
		flag     string
		v, least int
	}{{"-tasks", *tasks, 0}, {"-runs-per-task", *perTask, 1}, {"-throttle", *throttle, 0}, {"-j", *workers, 1}} {
		if f.v < f.least {
			return cli.Usagef("slurm: %s %d: want ≥ %d", f.flag, f.v, f.least)
		}
	}
	if *workers > maxWorkers {
		// Each task's run would refuse it (exit 2), the script written.
		return cli.Usagef("slurm: -j %d: want 1 to %d, as run takes", *workers, maxWorkers)
	}
	// A line break in a word ended its script line (#SBATCH --time, a
	// comment) and made the rest a command of the script.
	for _, f := range []struct{ flag, v string }{{"-spec", *specPath}, {"-out", *out}, {"-time", *timeLimit},
		{"-partition", *partition}, {"-bin", *bin}, {"-traces", *traces}} {
		if strings.ContainsFunc(f.v, unicode.IsControl) {
			return cli.Usagef("slurm: %s %q: a control character (line break) in a line of the script", f.flag, f.v)
		}
	}
	n := *tasks
	if n == 0 {
		n = (runs + *perTask - 1) / *perTask
	}
	n = max(1, min(n, runs))
	array := fmt.Sprintf("0-%d", n-1)
	if *throttle > 0 {
		array += fmt.Sprintf("%%%d", *throttle)
	}
	// A word in single quotes, which the shell takes as it is: in JSON's
	// double quotes a path's "$" or "`" was expanded (-out 'r$USER' made
	// the tasks write to another directory than merge reads).
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	fmt.Fprintf(w, "#!/bin/bash\n")
	fmt.Fprintf(w, "# sweep %s: %d runs in %d array tasks (task i runs shard i/%d: runs n with n mod %d = i, about %d each).\n",
		spec.Name, runs, n, n, n, (runs+n-1)/n)
	fmt.Fprintf(w, "# Spec hash %s. Submit with: mkdir -p %s && sbatch THIS_FILE (Slurm opens --output\n", spec.Hash(), q(*out))
	fmt.Fprintf(w, "# before the script runs, and does not make its directory). Failed tasks can be resubmitted alone\n")
	fmt.Fprintf(w, "# (sbatch --array=3,7 THIS_FILE): a task resumes its shard's file. Then:\n")
	fmt.Fprintf(w, "#   %s merge -spec %s %s > %s.jsonl\n", *bin, *specPath, *out, spec.Name)
	fmt.Fprintf(w, "#SBATCH --job-name=sweep-%s\n", spec.Name)
	fmt.Fprintf(w, "#SBATCH --array=%s\n", array)
	fmt.Fprintf(w, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%d\n", *workers)
	if *timeLimit != "" {
		fmt.Fprintf(w, "#SBATCH --time=%s\n", *timeLimit)
	}
	if *partition != "" {
		fmt.Fprintf(w, "#SBATCH --partition=%s\n", *partition)
	}
	fmt.Fprintf(w, "#SBATCH --output=%s\n", filepath.Join(*out, "slurm-%A_%a.log"))
	fmt.Fprintf(w, "set -euo pipefail\nmkdir -p %s\n", q(*out))
	tr := ""
	if *traces != "" {
		tr = " -traces " + q(*traces)
	}
	fmt.Fprintf(w, "exec %s run -spec %s -shards %d -out %s -j \"${SLURM_CPUS_PER_TASK:-%d}\" -progress=false%s\n",
		q(*bin), q(*specPath), n, q(*out), *workers, tr)
	return nil
}
