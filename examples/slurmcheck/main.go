// Command slurmcheck compares simulations of a Slurm site with what the
// real Slurm did on the same workload: the Slurm policy (package
// sched/slurm, under the site's slurm.conf and fair-share tree) and plain
// EASY for contrast, scored on the order of starts, the starts within one
// bf_interval and the pending jobs' priorities (see README.md).
//
//	go run ./examples/slurmcheck                  # the two recordings committed here
//	go run ./examples/slurmcheck rec.json -json   # another recording, as JSON
//	go run ./examples/slurmcheck a.json b.json    # two runs of one workload, and each against the other
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

// secondRecording is a second live run of the same workload and site
// (secondPath): Slurm against itself.
//
//go:embed testdata/live2.json
var secondRecording []byte

func main() { cli.Main(run) }

const usage = `usage: slurmcheck [flags] [RECORDING [RECORDING2]]   (flags may also follow)

Compares the Slurm policy and EASY with a recorded run of a real Slurm;
given two runs of the same workload, with each run, and each run with the
other (default: the two recordings committed with the command).

`

func run(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("slurmcheck")
	asJSON := cli.JSONFlag(fs)
	pos, err := cli.ParseArgs(fs, args, usage, stdout)
	if err == nil && len(pos) > 2 {
		err = cli.Usagef("want at most two recordings, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	if err == nil {
		err = check(stdout, pos, *asJSON)
	}
	return cli.Status("slurmcheck", stderr, err)
}

func check(out io.Writer, args []string, asJSON bool) error {
	if len(args) == 1 {
		rec, err := readRecording(args[0])
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
	var recs [2]*recording
	names := [2]string{recordPath, secondPath}
	for k := range recs {
		var err error
		if len(args) == 0 {
			recs[k], err = decodeRecording([][]byte{liveRecording, secondRecording}[k], names[k])
		} else {
			names[k] = args[k]
			recs[k], err = readRecording(args[k])
		}
		if err != nil {
			return err
		}
	}
	res, err := compareTwo(recs[0], recs[1])
	if err != nil {
		return err
	}
	if asJSON {
		return cli.WriteJSON(out, res)
	}
	_, err = io.WriteString(out, res.table(names))
	return err
}
