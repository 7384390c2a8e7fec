// Command synth writes a synthetic SWF trace from the Lublin–Feitelson
// rigid-job model (package swf/synth).
//
//	go run ./examples/synth -jobs 10000 -machine 256 -load 0.7 -seed 1 -out synth.swf
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/swf/synth"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jobs := fs.Int("jobs", 10000, "number of jobs")
	machine := fs.Int64("machine", 128, "machine size in nodes")
	load := fs.Float64("load", 0, "target offered load (0: the model's own, ≈0.40 typed on 128 nodes)")
	seed := fs.Uint64("seed", 1, "random seed")
	typeless := fs.Bool("typeless", false, "use the single whole-log parameter set")
	start := fs.Int("start-hour", 0, "clock hour of time 0")
	est := fs.Bool("estimates", false, "fill field 9 with modal-model user estimates (estmodel)")
	out := fs.String("out", "-", "output path (- for standard output)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var estimator synth.Estimator
	if *est {
		estimator = estmodel.Modal{}
	}
	g, err := synth.New(synth.Config{Estimator: estimator, Machine: *machine, TargetLoad: *load, Seed: *seed,
		Typeless: *typeless, StartHour: *start})
	if err != nil {
		return err
	}
	w := stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
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
	if g.ShortEstimates > 0 {
		fmt.Fprintf(stderr, "synth: %d jobs got an estimate below their run time\n", g.ShortEstimates)
	}
	return nil
}
