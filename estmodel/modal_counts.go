package estmodel

import (
	"cmp"
	"errors"
	"math"
	"slices"
)

// errCounts is returned when the fixed (user) job counts alone exceed N.
var errCounts = errors.New("estmodel: user bins hold more jobs than N")

// counts is step 7 (§7.8, from the reference implementation; the thesis
// stops at percentages): it turns percentages into job counts summing to n.
// fixed[i] ≥ 0 is an exact count (a user bin given in jobs) and is never
// changed; every other bin gets max(1, round(p·n/100)). The difference to n is
// then removed from the non-fixed bins, largest first, in passes that run
// until it is zero: a proportional pass (ceil(|d|/total·jobs) per bin), ±1 per
// bin, down to 1 per bin, down to 0 per bin. fixed may be nil.
func counts(percent []float64, fixed []int, n int) ([]int, error) {
	jobs := make([]int, len(percent))
	var free []int // indices of the adjustable bins
	total := 0
	for i, p := range percent {
		if fixed != nil && fixed[i] >= 0 {
			jobs[i] = fixed[i]
		} else {
			jobs[i] = max(1, int(math.Round(p*float64(n)/100)))
			free = append(free, i)
		}
		total += jobs[i]
	}
	diff := n - total
	if diff == 0 {
		return jobs, nil
	}
	slices.SortStableFunc(free, func(a, b int) int { return cmp.Compare(jobs[b], jobs[a]) })
	freeTotal := 0
	for _, i := range free {
		freeTotal += jobs[i]
	}
	// step moves bin i toward the target by at most d ≥ 0 jobs, never below floor.
	step := func(i, d, floor int) {
		if diff > 0 {
			d = min(d, diff)
			jobs[i] += d
			diff -= d
		} else {
			d = min(d, -diff, max(0, jobs[i]-floor))
			jobs[i] -= d
			diff += d
		}
	}
	if freeTotal > 0 {
		f := math.Abs(float64(diff)) / float64(freeTotal)
		for _, i := range free {
			if diff == 0 {
				break
			}
			step(i, int(math.Ceil(f*float64(jobs[i]))), 0)
		}
	}
	for _, i := range free { // ±1 per bin
		if diff != 0 {
			step(i, 1, 1)
		}
	}
	for _, floor := range []int{1, 0} { // down to 1, then down to 0
		for _, i := range free {
			if diff != 0 {
				step(i, jobs[i], floor)
			}
		}
	}
	if diff != 0 {
		return nil, errCounts
	}
	return jobs, nil
}
