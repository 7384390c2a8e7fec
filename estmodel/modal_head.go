package estmodel

import "slices"

const (
	minute = 60
	hour   = 3600
)

// jointTimes are the 15 estimates found among the top-20 modes of all four
// logs the thesis models (§5.10.2; above 4 h KTH4H is ignored).
var jointTimes = []int64{
	5 * minute, 10 * minute, 15 * minute, 20 * minute, 30 * minute,
	1 * hour, 2 * hour, 3 * hour, 4 * hour, 5 * hour, 6 * hour, 8 * hour, 10 * hour, 12 * hour, 18 * hour,
}

// headRoundings are the "round" periods whose multiples fill the head after
// the joint times, in the order they are tried.
var headRoundings = []int64{
	200 * hour, 100 * hour, 50 * hour, 10 * hour, 5 * hour, 2 * hour, 1 * hour,
	20 * minute, 10 * minute, 5 * minute,
}

// maxHead is the number of head (top) modes.
const maxHead = 20

// headTimes is step 3 of the model (§5.10.2): the up to 20 popular estimate
// values for a given E_max, in time-rank order: E_max first (ttr 0), then the
// others ascending (ttr 1..). It takes E_max, every joint time below it, then
// walks the multiples of 200h, 100h, 50h, 10h, 5h, 2h, 1h, 20m, 10m, 5m
// downward from E_max until 20 values are present. A small E_max gives fewer
// than 20 values (S25: E_max = 1 h gives 12).
func headTimes(eMax int64) []int64 {
	set := map[int64]bool{eMax: true}
	var others []int64
	add := func(t int64) {
		if t > 0 && !set[t] {
			set[t] = true
			others = append(others, t)
		}
	}
	for _, t := range jointTimes {
		if t < eMax {
			add(t)
		}
	}
fill:
	for _, r := range headRoundings {
		for m := eMax / r * r; m > 0; m -= r {
			if len(others)+1 >= maxHead {
				break fill
			}
			add(m)
		}
	}
	slices.Sort(others)
	return append([]int64{eMax}, others...)
}

// isJoint reports whether t is one of the joint times.
func isJoint(t int64) bool { return slices.Contains(jointTimes, t) }
