package estmodel

import "math/rand/v2"

// logRanks is Tab 5.6: for each top-20 time rank (ttr 0 = E_max, ttr 1..19 the
// other head times ascending), the popularity rank that time has in each of
// the four modelled logs, in the order SDSC-106, CTC, KTH4H, BLUE.
var logRanks = [maxHead][4]int{
	{3, 1, 1, 1},
	{1, 3, 4, 6},
	{4, 4, 10, 5},
	{17, 2, 14, 3},
	{13, 12, 20, 7},
	{7, 9, 2, 2},
	{8, 8, 3, 18},
	{18, 18, 7, 19},
	{2, 6, 12, 4},
	{6, 7, 6, 11},
	{16, 11, 19, 20},
	{10, 20, 5, 9},
	{5, 16, 18, 10},
	{15, 5, 16, 14},
	{14, 14, 9, 13},
	{19, 13, 17, 16},
	{11, 10, 15, 15},
	{12, 15, 13, 17},
	{9, 17, 8, 8},
	{20, 19, 11, 12},
}

// rankBounds returns bound[R]: the largest ttr at which any log maps to rank R.
func rankBounds() [maxHead + 1]int {
	var b [maxHead + 1]int
	for ttr, row := range logRanks {
		for _, r := range row {
			b[r] = max(b[r], ttr)
		}
	}
	return b
}

// poolResult is the outcome of the pool algorithm.
type poolResult struct {
	// Rank[ttr] is the popularity rank (1-based) given to the head time of
	// time rank ttr.
	Rank []int
	// Fallbacks counts picks made because the pool was empty (only possible
	// with fewer than 20 head times); they take the smallest free rank.
	Fallbacks int
}

// poolMap is step 5 for the head (§5.10, reference semantics S26): it maps
// each of the h head time ranks to a distinct popularity rank 1..h. fixed maps
// a ttr to the rank a user bin gave it; those ranks are reserved. For ttr =
// 0..h−1 it inserts the ranks the four logs use at that ttr into a pool
// (unless taken), then picks: the fixed rank; else rank 1 for E_max (ttr 0);
// else the smallest free rank R whose bound (the last ttr at which a log put
// R) has passed; else the smaller of two uniform draws from the pool. Ranks
// above h are ignored (S25).
func poolMap(h int, fixed map[int]int, rng *rand.Rand) poolResult {
	h = min(h, maxHead)
	bound := rankBounds()
	taken := make([]bool, maxHead+1) // chosen or reserved
	for _, r := range fixed {
		if r >= 1 && r <= maxHead {
			taken[r] = true
		}
	}
	res := poolResult{Rank: make([]int, h)}
	var pool []int
	for ttr := 0; ttr < h; ttr++ {
		for _, r := range logRanks[ttr] {
			if r <= h && !taken[r] {
				pool = append(pool, r)
			}
		}
		pick := 0
		if r, ok := fixed[ttr]; ok {
			pick = r
		} else if ttr == 0 {
			pick = 1
		} else {
			for r := 1; r <= h; r++ {
				if !taken[r] && bound[r] <= ttr {
					pick = r
					break
				}
			}
			if pick == 0 && len(pool) > 0 {
				a, b := pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]
				pick = min(a, b)
			}
			if pick == 0 {
				res.Fallbacks++
				for r := 1; r <= h; r++ {
					if !taken[r] {
						pick = r
						break
					}
				}
			}
		}
		res.Rank[ttr] = pick
		taken[pick] = true
		kept := pool[:0]
		for _, r := range pool {
			if r != pick {
				kept = append(kept, r)
			}
		}
		pool = kept
	}
	return res
}
