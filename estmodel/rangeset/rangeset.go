package rangeset

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Range sets of Hariharan et al. §III-C (spec §3.4–3.8): a job's runtime
// (or response time) predicted as a few disjoint ranges, each with a
// probability.

// Range is the half-open interval [Lo, Hi) with probability P. A
// zero-length range [x, x) stands for the single value x (Contains).
type Range struct{ Lo, Hi, P float64 }

// Len is Hi − Lo.
func (r Range) Len() float64 { return r.Hi - r.Lo }

// Mid is the range's median (Lo+Hi)/2 (spec §3.7).
func (r Range) Mid() float64 { return (r.Lo + r.Hi) / 2 }

// Contains reports Lo ≤ x < Hi, or x = Lo for a zero-length range.
func (r Range) Contains(x float64) bool {
	return r.Lo <= x && (x < r.Hi || x == r.Lo)
}

// Set is a list of disjoint ranges sorted by Lo whose probabilities
// sum to 1 (when it is not empty).
type Set []Range

// Contains reports whether any range contains x.
func (rs Set) Contains(x float64) bool { return rs.index(x) >= 0 }

// index is the index of the range containing x, or −1. Ranges are sorted
// and disjoint: the last range starting at or before x is the only one
// that can hold it.
func (rs Set) index(x float64) int {
	i, _ := slices.BinarySearchFunc(rs, x, func(r Range, x float64) int {
		if r.Lo <= x {
			return -1
		}
		return 1
	})
	if i > 0 && rs[i-1].Contains(x) {
		return i - 1
	}
	return -1
}

// Coverage is the total length of the ranges.
func (rs Set) Coverage() float64 {
	var c float64
	for _, r := range rs {
		c += r.Len()
	}
	return c
}

// Point is Σ P·Mid: the paper's "gross over-approximation" of a range set
// by one value (§3.7). An empty set gives NaN.
func (rs Set) Point() float64 {
	if len(rs) == 0 {
		return math.NaN()
	}
	var p float64
	for _, r := range rs {
		p += r.P * r.Mid()
	}
	return p
}

// Shift adds d to every bound: the response-time range set of a runtime
// range set and a predicted wait d (§3.8). Probabilities are unchanged.
func (rs Set) Shift(d float64) Set {
	out := make(Set, len(rs))
	for i, r := range rs {
		out[i] = Range{r.Lo + d, r.Hi + d, r.P}
	}
	return out
}

// Check reports the first violation of the Set invariants: sorted,
// disjoint, Lo ≤ Hi, probabilities in [0, 1] summing to 1 within tol.
func (rs Set) Check(tol float64) error {
	var sum float64
	for i, r := range rs {
		if !(r.Lo <= r.Hi) {
			return fmt.Errorf("range %d: Lo %v > Hi %v", i, r.Lo, r.Hi)
		}
		if i > 0 && r.Lo < rs[i-1].Hi {
			return fmt.Errorf("ranges %d and %d overlap: [%v,%v) and [%v,%v)", i-1, i, rs[i-1].Lo, rs[i-1].Hi, r.Lo, r.Hi)
		}
		if i > 0 && r.Lo == rs[i-1].Lo {
			return fmt.Errorf("ranges %d and %d start at the same %v", i-1, i, r.Lo)
		}
		if !(r.P >= 0 && r.P <= 1+tol) {
			return fmt.Errorf("range %d: probability %v", i, r.P)
		}
		sum += r.P
	}
	if len(rs) > 0 && math.Abs(sum-1) > tol {
		return fmt.Errorf("probabilities sum to %v", sum)
	}
	return nil
}

// mergeConfig holds the merging parameters (Config's). The zero value
// is the paper's: merge when the overlap is more than 50% (of the shorter
// range, H16), and at most 25 ranges.
type mergeConfig struct {
	OverlapPct float64 // merge threshold, % (0: 50)
	MaxRanges  int     // cap (0: 25)
}

// validate names the first parameter out of range.
func (c mergeConfig) validate() error {
	if !(c.OverlapPct >= 0 && c.OverlapPct <= 100) {
		return fmt.Errorf("rangeset: Config.OverlapPct = %v, need in [0, 100]", c.OverlapPct)
	}
	if c.MaxRanges < 0 {
		return fmt.Errorf("rangeset: Config.MaxRanges = %d, need ≥ 0", c.MaxRanges)
	}
	return nil
}

func (c mergeConfig) withDefaults() mergeConfig {
	if c.OverlapPct == 0 {
		c.OverlapPct = 50
	}
	if c.MaxRanges == 0 {
		c.MaxRanges = 25
	}
	return c
}

// overlapPct is |r ∩ top| / min(|r|, |top|) · 100 (H16). When the shorter
// one has length 0 the overlap is 100 if its point lies in the other
// ([Lo, Hi)) and 0 otherwise.
func overlapPct(top, r Range) float64 {
	short := min(top.Len(), r.Len())
	if short == 0 {
		in := func(a, b Range) bool { return a.Lo >= b.Lo && a.Lo < b.Hi }
		if (top.Len() == 0 && in(top, r)) || (r.Len() == 0 && in(r, top)) {
			return 100
		}
		return 0
	}
	inter := min(top.Hi, r.Hi) - max(top.Lo, r.Lo)
	if inter <= 0 {
		return 0
	}
	return inter / short * 100
}

// mergeRanges merges overlapping ranges with the paper's stack algorithm
// (§3.5): sorted by Lo, each range is merged into the top of the stack when
// their overlap exceeds OverlapPct, else pushed. A pushed range that still
// overlaps the top is cut with it at the midpoint of the overlap, so the
// result is disjoint (H16); one lying inside the top is merged, since no
// cut can separate it (this matters only for thresholds near 100%). Then, while there are more than MaxRanges, the
// adjacent pair with the smallest gap is merged. Probabilities are left at
// 0 (see assignProbabilities). The input is not modified.
func mergeRanges(in []Range, cfg mergeConfig) (Set, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	rs := make([]Range, 0, len(in))
	for i, r := range in {
		if math.IsNaN(r.Lo) || math.IsNaN(r.Hi) || r.Lo > r.Hi {
			return nil, fmt.Errorf("rangeset: mergeRanges range %d is [%v, %v)", i, r.Lo, r.Hi)
		}
		rs = append(rs, Range{Lo: r.Lo, Hi: r.Hi})
	}
	slices.SortFunc(rs, func(a, b Range) int {
		if c := cmp.Compare(a.Lo, b.Lo); c != 0 {
			return c
		}
		return cmp.Compare(a.Hi, b.Hi)
	})
	var st Set
	for _, r := range rs {
		if len(st) == 0 {
			st = append(st, r)
			continue
		}
		top := &st[len(st)-1]
		if overlapPct(*top, r) > cfg.OverlapPct || r.Lo == top.Lo || r.Hi <= top.Hi && r.Lo < top.Hi {
			// A range inside the top (or starting with it) merges
			// whatever the threshold: no midpoint cut can separate it.
			top.Hi = max(top.Hi, r.Hi)
			continue
		}
		if r.Lo < top.Hi {
			mid := (r.Lo + top.Hi) / 2
			top.Hi, r.Lo = mid, mid
		}
		st = append(st, r)
	}
	for len(st) > cfg.MaxRanges {
		best := 0
		for i := 1; i+1 < len(st); i++ {
			if st[i+1].Lo-st[i].Hi < st[best+1].Lo-st[best].Hi {
				best = i
			}
		}
		st[best].Hi = max(st[best].Hi, st[best+1].Hi)
		st = slices.Delete(st, best+1, best+2)
	}
	return st, nil
}

// newShare is the total probability given to "new" ranges, those that no
// past runtime falls in (§3.6).
const newShare = 0.1

// assignProbabilities sets each range's probability from the key's whole
// history of runtimes (§3.6, H17): the fraction of runtimes inside it, with
// the ranges that hold none ("new") sharing newShare equally and the others
// rescaled to 1 − newShare (to 1 when there is no new range). When every
// range is new, or there is no history, they share 1 equally.
func assignProbabilities(rs Set, history []float64) {
	if len(rs) == 0 {
		return
	}
	counts := make([]int, len(rs))
	for _, x := range history {
		if i := rs.index(x); i >= 0 {
			counts[i]++
		}
	}
	old, newN := 0, 0
	for _, c := range counts {
		old += c
		if c == 0 {
			newN++
		}
	}
	if old == 0 {
		for i := range rs {
			rs[i].P = 1 / float64(len(rs))
		}
		return
	}
	oldShare := 1.0
	if newN > 0 {
		oldShare = 1 - newShare
	}
	// Raw p = count/N, then proportional rescaling to oldShare: only the
	// ratios of counts matter.
	for i, c := range counts {
		if c == 0 {
			rs[i].P = newShare / float64(newN)
		} else {
			rs[i].P = oldShare * float64(c) / float64(old)
		}
	}
}
