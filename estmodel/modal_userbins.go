package estmodel

import (
	"cmp"
	"slices"
)

// embedUserTimes is the time half of step 6 (§5.10.4): it puts the user bin
// times into the head. head is in time-rank order (E_max first). A user time
// already in the head changes nothing; the others replace default head times
// (never E_max, never a time a user gave) only as far as needed to keep at
// most 20 head times, and are appended otherwise. Replacements are matched
// greedily: non-joint ("round") defaults before joint ones, then by the
// smallest distance, ties to the smaller user time and the smaller default.
// The result is again in time-rank order.
func embedUserTimes(head []int64, user []int64) []int64 {
	if len(head) == 0 {
		return nil
	}
	inHead := map[int64]bool{}
	for _, t := range head {
		inHead[t] = true
	}
	isUser := map[int64]bool{}
	var fresh []int64
	for _, u := range user {
		isUser[u] = true
		if !inHead[u] {
			fresh = append(fresh, u)
		}
	}
	defaults := slices.Clone(head[1:])
	for need := len(head) + len(fresh) - maxHead; need > 0; need-- {
		bu, bd := -1, -1
		better := func(u, d int) bool {
			if bu < 0 {
				return true
			}
			return cmp.Or(
				cmp.Compare(b2i(isJoint(defaults[d])), b2i(isJoint(defaults[bd]))),
				cmp.Compare(absDiff(fresh[u], defaults[d]), absDiff(fresh[bu], defaults[bd])),
				cmp.Compare(fresh[u], fresh[bu]),
				cmp.Compare(defaults[d], defaults[bd]),
			) < 0
		}
		for u := range fresh {
			for d := range defaults {
				if !isUser[defaults[d]] && better(u, d) {
					bu, bd = u, d
				}
			}
		}
		if bu < 0 {
			break // nothing replaceable: Validate keeps this from happening
		}
		defaults[bd] = fresh[bu]
		fresh = slices.Delete(fresh, bu, bu+1)
	}
	others := append(defaults, fresh...)
	slices.Sort(others)
	return append([]int64{head[0]}, others...)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// headPlan is the head after step 6: sizes by popularity rank, the ranks the
// user bins fixed, and the mass left for the tail.
type headPlan struct {
	// Sizes[r−1] is the percentage of jobs of popularity rank r.
	Sizes []float64
	// Fixed maps the time rank of each user bin to its popularity rank; the
	// pool algorithm must honour it.
	Fixed map[int]int
	// TailMass is the percentage left for the tail: 100 − H, or 100 minus the
	// user bins when those alone reach H (the thesis rule, S27).
	TailMass float64
}

// embedUserSizes is the size half of step 6 (§5.10.4). times is the head in
// time-rank order (after embedUserTimes) and user maps a head time to its
// user percentage. Starting from headSizes(len(times)), the user bins, largest
// first, replace the closest default size (E_max's slot, the largest, only by
// the bin at E_max); the other head sizes are rescaled so that the head holds
// H (or zeroed when the user bins alone reach H); the sizes are re-sorted
// descending with E_max's slot kept first unless a user gave it.
func embedUserSizes(times []int64, user map[int64]float64, p params) headPlan {
	h := len(times)
	val := headSizes(h, p)
	slotTime := make([]int64, h)
	slotUser := make([]bool, h)
	eMax := times[0]
	type ub struct {
		t   int64
		pct float64
	}
	var bins []ub
	for t, pct := range user {
		bins = append(bins, ub{t, pct})
	}
	slices.SortFunc(bins, func(a, b ub) int { return cmp.Or(cmp.Compare(b.pct, a.pct), cmp.Compare(a.t, b.t)) })
	for _, b := range bins {
		slot := 0
		if b.t != eMax {
			slot = -1
			for s := 1; s < h; s++ {
				if !slotUser[s] && (slot < 0 || abs(val[s]-b.pct) < abs(val[slot]-b.pct)) {
					slot = s
				}
			}
			if slot < 0 {
				continue // more user bins than head slots: Validate prevents it
			}
		}
		val[slot], slotTime[slot], slotUser[slot] = b.pct, b.t, true
	}
	userSum, rest := 0.0, 0.0
	for s := range val {
		if slotUser[s] {
			userSum += val[s]
		} else {
			rest += val[s]
		}
	}
	target := p.HeadMass - userSum
	head := 0.0
	for s := range val {
		if !slotUser[s] {
			if target <= 0 || rest <= 0 {
				val[s] = 0
			} else {
				val[s] *= target / rest
			}
		}
		head += val[s]
	}
	order := make([]int, h)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if !slotUser[0] && (a == 0 || b == 0) {
			return cmp.Compare(b2i(b == 0), b2i(a == 0)) // E_max's slot first
		}
		return cmp.Compare(val[b], val[a])
	})
	ttrOf := make(map[int64]int, h)
	for i, t := range times {
		ttrOf[t] = i
	}
	plan := headPlan{Sizes: make([]float64, h), Fixed: map[int]int{}, TailMass: max(0, 100-head)}
	for pos, s := range order {
		plan.Sizes[pos] = val[s]
		if slotUser[s] {
			plan.Fixed[ttrOf[slotTime[s]]] = pos + 1
		}
	}
	return plan
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
