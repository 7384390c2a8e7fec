package estmodel

import (
	"math"
	"slices"
)

// timeCurveA is the time-curve parameter a = 1 + C·K^(−D) (Fig 5.6). Larger K
// gives a closer to 1, which pushes the generated values toward short times.
func timeCurveA(k int, p params) float64 {
	return 1 + p.TimeC*math.Pow(float64(k), -p.TimeD)
}

// timeCurve is F_tim of step 2 (§5.8): the value of normalized rank x = i/k,
// E_max·(a−1)·x/(a−x), in seconds (not rounded). timeCurve(k, k) = E_max.
func timeCurve(i, k int, eMax int64, a float64) float64 {
	x := float64(i) / float64(k)
	return float64(eMax) * (a - 1) * x / (a - x)
}

// roundMinute rounds seconds to the nearest multiple of 60.
func roundMinute(t float64) int64 { return int64(math.Round(t/minute)) * minute }

// collisionOffsets are tried, in order, when a rounded tail value is taken.
var collisionOffsets = []int64{0, 30, -30, 20, -20, 10, -10}

// tailTimes is step 2 as the reference implementation does it (S24, the
// default): kTail values on x = i/kTail, each rounded to the minute; a value
// that collides with a head time or an earlier tail value, or leaves
// (0, E_max), is moved by +30, −30, +20, −20, +10, −10 s, in that order, and
// dropped if all fail. It returns the values ascending and the number dropped.
func tailTimes(kTail int, eMax int64, a float64, head []int64) (tail []int64, dropped int) {
	taken := make(map[int64]bool, len(head)+kTail)
	for _, h := range head {
		taken[h] = true
	}
	for i := 1; i <= kTail; i++ {
		t := roundMinute(timeCurve(i, kTail, eMax, a))
		ok := false
		for _, d := range collisionOffsets {
			if v := t + d; v > 0 && v < eMax && !taken[v] {
				taken[v], ok = true, true
				tail = append(tail, v)
				break
			}
		}
		if !ok {
			dropped++
		}
	}
	slices.Sort(tail)
	return tail, dropped
}

// tailTimesThesis is step 2 as the thesis describes it (§5.8, §5.10.2): k
// values on x = i/k, rounded to the minute unless that collides with an
// earlier value or leaves (0, E_max] (then to the second), after which, for
// each head time in turn, the closest value not yet replaced is replaced by
// that head time. The values not replaced (and not equal to a head time) are
// the tail, returned ascending with the number dropped. An E_max that is not
// a whole minute (3,652 s) rounds the values just below it up past it (3,660
// s): rounded to the second they stay in range, as every bin must.
func tailTimesThesis(k int, eMax int64, a float64, head []int64) (tail []int64, dropped int) {
	vals := make([]int64, 0, k)
	seen := make(map[int64]bool, k)
	for i := 1; i <= k; i++ {
		raw := timeCurve(i, k, eMax, a)
		v := roundMinute(raw)
		if seen[v] || v <= 0 || v > eMax {
			v = int64(math.Round(raw))
		}
		if seen[v] || v <= 0 || v > eMax {
			dropped++
			continue
		}
		seen[v] = true
		vals = append(vals, v)
	}
	replaced := make([]bool, len(vals))
	for _, h := range head {
		best := -1
		for i, v := range vals {
			if replaced[i] {
				continue
			}
			if best < 0 || absDiff(v, h) < absDiff(vals[best], h) {
				best = i
			}
		}
		if best >= 0 {
			replaced[best] = true
		}
	}
	isHead := make(map[int64]bool, len(head))
	for _, h := range head {
		isHead[h] = true
	}
	for i, v := range vals {
		switch {
		case replaced[i]:
		case isHead[v]:
			dropped++
		default:
			tail = append(tail, v)
		}
	}
	return tail, dropped
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}
