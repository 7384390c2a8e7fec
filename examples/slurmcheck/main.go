// Command slurmcheck compares simulations of a Slurm site with what the
// real Slurm did on the same workload: the Slurm policy (package
// sched/slurm, under the site's slurm.conf and fair-share tree) and plain
// EASY for contrast, scored on the order of starts, the starts within one
// bf_interval and the pending jobs' priorities (see README.md).
//
//	go run ./examples/slurmcheck                  # the recording committed here
//	go run ./examples/slurmcheck rec.json -json   # another recording, as JSON
//
// A recording is made by TestLiveSlurmCheck on a private Slurm
// (scripts/slurm-cluster.sh). Exit status: 0 ok, 1 an unreadable or
// malformed recording, 2 a usage error.
package main

import (
	"context"
	_ "embed"
	"io"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
)

//go:embed testdata/live.json
var liveRecording []byte

func main() { cli.Main(run) }

const usage = `usage: slurmcheck [flags] [RECORDING]   (flags may also follow RECORDING)

Compares the Slurm policy and EASY with a recorded run of a real Slurm
(default: the recording committed with the command).

`

func run(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("slurmcheck")
	asJSON := cli.JSONFlag(fs)
	pos, err := cli.ParseArgs(fs, args, usage, stdout)
	if err == nil && len(pos) > 1 {
		err = cli.Usagef("want at most one recording, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	if err == nil {
		err = check(stdout, pos, *asJSON)
	}
	return cli.Status("slurmcheck", stderr, err)
}

func check(out io.Writer, args []string, asJSON bool) error {
	var rec *recording
	var err error
	if len(args) == 0 {
		rec, err = decodeRecording(liveRecording, recordPath)
	} else {
		rec, err = readRecording(args[0])
	}
	if err != nil {
		return err
	}
	res, err := compare(rec)
	if err != nil {
		return err
	}
	if asJSON {
		return cli.WriteJSON(out, res)
	}
	_, err = io.WriteString(out, table(res))
	return err
}
