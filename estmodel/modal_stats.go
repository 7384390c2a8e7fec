package estmodel

import (
	"cmp"
	"slices"
)

// Histogram returns the distribution of the given estimates as bins ascending
// by time (Percent of all values, Jobs the count); negative values (unknown)
// are skipped. It is how a real log's estimates are compared with the model.
func Histogram(estimates []int64) []Bin {
	count := map[int64]int{}
	n := 0
	for _, e := range estimates {
		if e >= 0 {
			count[e]++
			n++
		}
	}
	bins := make([]Bin, 0, len(count))
	for t, c := range count {
		bins = append(bins, Bin{Time: t, Jobs: c, Percent: 100 * float64(c) / float64(n)})
	}
	slices.SortFunc(bins, func(a, b Bin) int { return cmp.Compare(a.Time, b.Time) })
	return bins
}

// ByPopularity returns the bins sorted by job count, most popular first (ties
// by time).
func ByPopularity(bins []Bin) []Bin {
	s := slices.Clone(bins)
	slices.SortStableFunc(s, func(a, b Bin) int { return cmp.Or(cmp.Compare(b.Jobs, a.Jobs), cmp.Compare(a.Time, b.Time)) })
	return s
}

// BinsCovering is the mass disparity of Tab 5.2: the least number of bins
// (most popular first) that hold at least pct percent of the jobs.
func BinsCovering(bins []Bin, pct float64) int {
	total := 0
	for _, b := range bins {
		total += b.Jobs
	}
	got := 0
	for i, b := range ByPopularity(bins) {
		got += b.Jobs
		if 100*float64(got) >= pct*float64(total) {
			return i + 1
		}
	}
	return len(bins)
}
