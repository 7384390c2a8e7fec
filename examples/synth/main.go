// Command synth writes a synthetic SWF trace from the Lublin–Feitelson
// rigid-job model (package swf/synth).
//
//	go run ./examples/synth -jobs 10000 -machine 256 -load 0.7 -seed 1 -out synth.swf
//	go run ./examples/synth -out synth.swf -json   # and a JSON report of the run on stdout
//
// Exit status: 0 ok, 1 a run error (bad model parameters, unwritable
// output), 2 a usage error.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/swf/synth"
)

func main() { cli.Main(run) }

const usage = `usage: synth [flags]

Writes a synthetic SWF trace of the Lublin–Feitelson model (swf/synth).

`

// maxJobs is the most jobs synth.Generator writes at once. Without
// -estimates they are streamed; with it they are held in memory (about
// 200 bytes a job: 2^28 of them were 50 GB), so maxEstimated bounds them
// to what a workstation holds (about 3.3 GB).
const (
	maxJobs      = 1 << 28
	maxEstimated = 1 << 24
)

// minEstimated is the fewest jobs that synth.Generator gives model
// estimates (swf/synth's minEstimateJobs, pinned by TestMinEstimated):
// fewer failed after -out was created, exit 1 with an empty file left.
const minEstimated = 200

// run is the command: it returns the exit status.
func run(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("synth", stderr, generate(args, stdout, stderr))
}

func generate(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("synth")
	jobs := fs.Int("jobs", 10000, "number of jobs")
	machine := fs.Int64("machine", 128, "machine size in nodes (0: 128, synth.Config's zero value)")
	load := fs.Float64("load", 0, "target offered load (0: the model's own, ≈0.40 typed on 128 nodes)")
	seed := fs.Uint64("seed", 1, "random seed")
	typeless := fs.Bool("typeless", false, "use the single whole-log parameter set")
	start := fs.Int("start-hour", 0, "clock hour of time 0")
	est := fs.Bool("estimates", false, "fill field 9 with modal-model user estimates (estmodel)")
	out := fs.String("out", "-", "output path (- for standard output)")
	asJSON := cli.JSONFlag(fs)
	bar := cli.ProgressFlag(fs, stderr)
	if err := cli.ParseFlags(fs, args, usage, stdout); err != nil {
		return err
	}
	if *out == "" {
		// (it was "open : no such file or directory", exit 1)
		return cli.Usagef("-out \"\": an empty path, want a file or - for standard output")
	}
	if *asJSON && *out == "-" {
		return cli.Usagef("-json prints a report on standard output: give the SWF file with -out")
	}
	var estimator synth.Estimator
	if *est {
		estimator = estmodel.Modal{}
	}
	// Every bad value is a flag's: a usage error (exit 2), found before
	// -out is created (-jobs 0 left an empty file behind).
	if *jobs < 1 || *jobs > maxJobs {
		return cli.Usagef("-jobs %d: want 1 to %d", *jobs, maxJobs)
	}
	if *est && *jobs > maxEstimated {
		return cli.Usagef("-jobs %d with -estimates: want at most %d (the estimates are assigned with every job held in memory)", *jobs, maxEstimated)
	}
	if *est && *jobs < minEstimated {
		return cli.Usagef("-jobs %d with -estimates: want at least %d (below that the modal model has no tail)", *jobs, minEstimated)
	}
	// The flags that are synth.Config's fields are checked as its
	// Validate checks them, and named: its errors name the fields
	// ("TargetLoad -1 and ArrivalShapeScale 0 must be …").
	if !(*load >= 0) || math.IsInf(*load, 0) {
		return cli.Usagef("-load %v: want a finite load ≥ 0 (0: the model's own)", *load)
	}
	if err := (synth.Config{Machine: *machine}).Validate(); err != nil {
		return cli.Usagef("-machine %d: %s", *machine, strings.TrimPrefix(err.Error(), "synth: "))
	}
	if err := (synth.Config{StartHour: *start}).Validate(); err != nil {
		return cli.Usagef("-start-hour %d: %s", *start, strings.TrimPrefix(err.Error(), "synth: "))
	}
	// a load the model cannot reach on this machine, found only when New
	// solves for it, named too ("synth: target load 1e+20 outside …")
	if _, err := synth.New(synth.Config{Machine: *machine, TargetLoad: *load}); err != nil {
		return cli.Usagef("-load %v: %s", *load, strings.TrimPrefix(err.Error(), "synth: "))
	}
	cfg := synth.Config{Estimator: estimator, Machine: *machine, TargetLoad: *load, Seed: *seed,
		Typeless: *typeless, StartHour: *start}
	g, err := synth.New(cfg)
	if err != nil {
		return cli.UsageError{Msg: err.Error()}
	}
	if *machine == 0 {
		*machine = 128 // synth.Config's zero value, reported as what it is
	}
	// The bar moves with the job lines written (10^6 jobs took 2.9 s, and
	// -jobs goes to 2^28); with -estimates every job is drawn and
	// estimated first.
	on := barOn(fs, bar, *asJSON, *out, stdout)
	pb := progress.New(stderr, on, 1)
	defer pb.Done()
	if *est {
		pb.Stage("generate and estimate", 0.5)
	}
	w := barred(stdout, pb, on, *jobs, *est)
	if *out != "-" {
		// A directory or a missing directory named by -out, as the other
		// commands say it ("synth: open DIR: is a directory" named no flag).
		if err := cli.OutputFile("-out", *out); err != nil {
			return err
		}
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		bw := bufio.NewWriter(barred(f, pb, on, *jobs, *est))
		if err := g.WriteSWF(bw, *jobs); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	} else if err := g.WriteSWF(w, *jobs); err != nil {
		return err
	}
	pb.Done()
	if g.ShortEstimates > 0 {
		fmt.Fprintf(stderr, "synth: %d jobs got an estimate below their run time\n", g.ShortEstimates)
	}
	if *asJSON {
		return cli.WriteJSON(stdout, struct {
			Out            string `json:"out"`
			Jobs           int    `json:"jobs"`
			Machine        int64  `json:"machine"`
			Seed           uint64 `json:"seed"`
			ShortEstimates int    `json:"short_estimates"`
		}{*out, *jobs, *machine, *seed, g.ShortEstimates})
	}
	return nil
}

// lineBar is the output with the progress bar: it counts the lines
// written (the header's and one a job) against the jobs to write.
type lineBar struct {
	w     io.Writer
	jobs  int
	lines int
	bar   *progress.Bar
	stage string // the stage to start at the first write, if any
}

func (l *lineBar) Write(p []byte) (int, error) {
	if l.stage != "" {
		l.bar.Stage(l.stage, 0.5)
		l.stage = ""
	}
	l.lines += bytes.Count(p, []byte{'\n'})
	l.bar.Set(float64(l.lines) / float64(l.jobs))
	return l.w.Write(p)
}

// barred is w with the bar counting its lines when on, else w itself: a
// run without the bar (a pipe, a file, -json) pays nothing for it. With
// -estimates (est) the write stage starts at the first line.
func barred(w io.Writer, bar *progress.Bar, on bool, jobs int, est bool) io.Writer {
	if !on {
		return w
	}
	lb := &lineBar{w: w, jobs: jobs, bar: bar}
	if est {
		lb.stage = "write"
	}
	return lb
}

// barOn reports whether to draw the bar: as cli.ProgressOn, and off by
// default when the trace goes to standard output and that is the terminal
// too (the bar would cut its lines).
func barOn(fs *flag.FlagSet, bar *bool, json bool, out string, stdout io.Writer) bool {
	return cli.ProgressOn(fs, bar, json || out == "-" && cli.Terminal(stdout))
}
