package main

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// variants are the schedulers of Tsafrir's Table 4.3 the run compares:
// EASY with user estimates, EASY+ (user-history predictions with
// correction), EASY++ (EASY+ with shortest-job-backfilled-first) and
// PERFECT++ (exact run times, the bound EASY++ approaches).
var variants = []string{"EASY", "EASY+", "EASY++", "PERFECT++"}

// simulate runs one variant step-wise, in 50 slices of simulated time, so
// that long traces move the progress bar.
func simulate(ctx context.Context, variant string, machine int64, jobs []swf.Job, set func(float64)) (*sched.Result, error) {
	pr, ok := sched.LookupPreset(variant)
	if !ok {
		return nil, fmt.Errorf("unknown scheduler %q", variant)
	}
	s, err := sched.New(pr.New(machine))
	if err != nil {
		return nil, err
	}
	if err := s.Load(jobs); err != nil {
		return nil, fmt.Errorf("%s: %w", variant, err)
	}
	first, last := jobs[0].Submit, jobs[len(jobs)-1].Submit
	const slices = 50
	for k := 1; k <= slices; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.RunUntilContext(ctx, sliceEnd(first, last, k, slices)); err != nil {
			if ctx.Err() != nil {
				return nil, err // as the test above returns it
			}
			return nil, fmt.Errorf("%s: %w", variant, err)
		}
		set(float64(k) / slices)
	}
	return s.FinishContext(ctx)
}

// sliceEnd is the end of slice k of n between the submit times first and
// last. It works in uint64 so that a span from -1 to 2^63-1 does not wrap
// (first+(last-first)*k/n overflows there and mis-slices or goes back).
func sliceEnd(first, last int64, k, n int) int64 {
	if last <= first {
		return last
	}
	span := uint64(last) - uint64(first)
	off := span/uint64(n)*uint64(k) + span%uint64(n)*uint64(k)/uint64(n)
	return int64(uint64(first) + off)
}
