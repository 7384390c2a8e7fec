// Package flurrytest injects synthetic workload flurries into a log: how
// sanitize's flurry detector is validated (recall on logs with a known
// flurry, in its tests and in examples/flurries) and how the butterfly
// effect of Tsafrir's thesis §6.2 is reproduced on a cleaned log.
package flurrytest

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/batchq/batchq/swf"
)

// Synthetic describes a flurry to inject into a log: Jobs identical jobs of
// one user (size, estimate), run times uniform in [RunMin, RunMax],
// submitted over [Start, Start+Duration]. It is how the detector is
// validated (recall on logs with a known flurry) and how the butterfly
// effect of thesis §6.2 is reproduced on a cleaned log.
type Synthetic struct {
	User            int64
	Jobs            int
	Start, Duration int64 // seconds
	Size            int64
	ReqTime         int64
	RunMin, RunMax  int64
	// Random: submit times uniform at random in the window (a flurry that
	// mixes with other work over weeks); otherwise evenly spaced, "submitted
	// sequentially" like the 375-job flurry of §6.2.
	Random bool
}

// Validate reports a parameter out of range.
func (s *Synthetic) Validate() error {
	switch {
	case s.Jobs <= 0:
		return fmt.Errorf("flurrytest: synthetic flurry Jobs %d, want > 0", s.Jobs)
	case s.Start < 0 || s.Duration < 0:
		return fmt.Errorf("flurrytest: synthetic flurry window [%d, +%d], want ≥ 0", s.Start, s.Duration)
	case s.Size <= 0:
		return fmt.Errorf("flurrytest: synthetic flurry Size %d, want > 0", s.Size)
	case s.RunMin < 0 || s.RunMax < s.RunMin:
		return fmt.Errorf("flurrytest: synthetic flurry run times [%d, %d], want 0 ≤ min ≤ max", s.RunMin, s.RunMax)
	}
	return nil
}

// Inject returns jobs plus the synthetic flurry, sorted by submit time
// (a new slice; ties keep the original jobs first), and the job numbers
// given to the injected jobs: consecutive, after the largest in jobs, so
// they never collide with a real job. rng draws the run times and random
// submit times; nil means a fixed seed.
func Inject(jobs []swf.Job, s Synthetic, rng *rand.Rand) ([]swf.Job, []int64, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	next := int64(0)
	for i := range jobs {
		next = max(next, jobs[i].ID)
	}
	if next > math.MaxInt64-int64(s.Jobs) { // (a corrupt 2^63 − 1: the numbers wrapped to −2^63)
		return nil, nil, fmt.Errorf("flurrytest: job number %d leaves no room for %d injected jobs above it", next, s.Jobs)
	}
	out := make([]swf.Job, len(jobs), len(jobs)+s.Jobs)
	copy(out, jobs)
	ids := make([]int64, s.Jobs)
	times := make([]int64, s.Jobs)
	for k := range times {
		if s.Random {
			times[k] = s.Start + rng.Int64N(s.Duration+1)
		} else if s.Jobs > 1 {
			times[k] = s.Start + s.Duration*int64(k)/int64(s.Jobs-1)
		} else {
			times[k] = s.Start
		}
	}
	slices.Sort(times)
	for k := range times {
		next++
		ids[k] = next
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime = next, times[k], s.RunMin+rng.Int64N(s.RunMax-s.RunMin+1)
		j.AllocProcs, j.ReqProcs, j.ReqTime, j.Status, j.User = s.Size, s.Size, s.ReqTime, swf.StatusCompleted, s.User
		out = append(out, j)
	}
	slices.SortStableFunc(out, func(a, b swf.Job) int { return cmp.Compare(a.Submit, b.Submit) })
	return out, ids, nil
}
