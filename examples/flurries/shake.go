package main

import (
	"context"
	"fmt"
	"io"

	"github.com/batchq/batchq/internal/shake"

	"github.com/batchq/batchq/internal/interval"
	"github.com/batchq/batchq/swf"
)

// Input shaking (thesis §6.5.5, spec §8.4): instead of one run per input,
// run shakeRuns perturbed copies (10% of arrivals moved by ±U[0, 60] s)
// and compare means with confidence intervals. Applied to the butterfly
// pair, it asks whether "job 64,241 shortened by 30 s" really changes
// mean bsld, which a single run cannot tell.

const shakeRuns = 20

// shaken returns the mean over shakeRuns shaken copies of jobs of the mean
// bsld over all jobs, with the half-width of its 95% t-interval.
func shaken(ctx context.Context, jobs []swf.Job) (mean, half float64, err error) {
	xs := make([]float64, shakeRuns)
	for s := range xs {
		j, _, err := shake.Shake(jobs, shake.Config{Seed: uint64(s)})
		if err != nil {
			return 0, 0, err
		}
		b, err := simulate(ctx, j, nil)
		if err != nil {
			return 0, 0, err
		}
		xs[s] = b.all
	}
	mean, half = interval.Mean95(xs)
	return mean, half, nil
}

// shakeRow is one input's shaken means, original and with the cut.
type shakeRow struct {
	input                        string
	orig, origHalf, cut, cutHalf float64
}

func shakeRows(ctx context.Context, jobs []swf.Job, key int64) ([]shakeRow, error) {
	inj, _, err := injected(jobs, 0)
	if err != nil {
		return nil, err
	}
	var rows []shakeRow
	for _, in := range []struct {
		name string
		jobs []swf.Job
	}{{"cln, no flurry", jobs}, {"cln + flurry at +0 h", inj}} {
		cut, err := shorten(in.jobs, key, -butterflyCut)
		if err != nil {
			return nil, err
		}
		r := shakeRow{input: in.name}
		if r.orig, r.origHalf, err = shaken(ctx, in.jobs); err != nil {
			return nil, err
		}
		if r.cut, r.cutHalf, err = shaken(ctx, cut); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

func writeShaking(w io.Writer, rows []shakeRow) {
	fmt.Fprintf(w, "%d runs, 10%% of arrivals moved by ±U[0,60] s: mean bsld over all jobs, mean ± 95%% CI.\n\n", shakeRuns)
	fmt.Fprintln(w, "| input | original | job 64,241 cut 30 s |")
	fmt.Fprintln(w, "|---|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %.2f ± %.2f | %.2f ± %.2f |\n", r.input, r.orig, r.origHalf, r.cut, r.cutHalf)
	}
}
