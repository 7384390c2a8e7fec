package main

import (
	"context"
	"fmt"
	"math"

	"github.com/batchq/batchq/sanitize"
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
	ends := sliceEnds(jobs, 50)
	for k, end := range ends {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.RunUntilContext(ctx, end); err != nil {
			if ctx.Err() != nil {
				return nil, err // as the test above returns it
			}
			return nil, fmt.Errorf("%s: %w", variant, err)
		}
		set(float64(k+1) / float64(len(ends)))
	}
	return s.FinishContext(ctx)
}

// sliceEnds are the ends of n slices of simulated time between the first
// and last submit time of the jobs the simulators take, those in
// [0, sanitize.MaxTime] (as examples/simulate bounds its slices): the
// others are rejected, and a -1 or 2^63-1 submit time stretched the span
// so that every sane job fell in the first slice. None when no job is
// sane (Finish then reports the rejections).
func sliceEnds(jobs []swf.Job, n int) []int64 {
	first, last, ok := saneSpan(jobs)
	if !ok {
		return nil
	}
	ends := make([]int64, n)
	for k := range ends {
		// (last-first)*n stays far below 2^63: both are at most 2^40
		ends[k] = first + (last-first)*int64(k+1)/int64(n)
	}
	return ends
}

// saneSpan is the first and last submit time in [0, sanitize.MaxTime] of
// jobs, false when there is none.
func saneSpan(jobs []swf.Job) (first, last int64, ok bool) {
	first, last = math.MaxInt64, -1
	for i := range jobs {
		if t := jobs[i].Submit; t >= 0 && t <= sanitize.MaxTime {
			first, last = min(first, t), max(last, t)
		}
	}
	return first, last, last >= 0
}
