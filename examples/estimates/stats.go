package main

import (
	"cmp"
	"slices"

	"github.com/batchq/batchq/estmodel"
)

// The statistics the thesis compares real estimates and the modal model
// by (Tab 5.1, 5.2, 5.5): the histogram of estimate values, its modes by
// popularity, and the mass disparity.

// histogram returns the distribution of the given estimates as bins
// ascending by time (Percent of all values, Jobs the count); negative
// values (unknown) are skipped.
func histogram(estimates []int64) []estmodel.Bin {
	count := map[int64]int{}
	n := 0
	for _, e := range estimates {
		if e >= 0 {
			count[e]++
			n++
		}
	}
	bins := make([]estmodel.Bin, 0, len(count))
	for t, c := range count {
		bins = append(bins, estmodel.Bin{Time: t, Jobs: c, Percent: 100 * float64(c) / float64(n)})
	}
	slices.SortFunc(bins, func(a, b estmodel.Bin) int { return cmp.Compare(a.Time, b.Time) })
	return bins
}

// byPopularity returns the bins sorted by job count, most popular first
// (ties by time).
func byPopularity(bins []estmodel.Bin) []estmodel.Bin {
	s := slices.Clone(bins)
	slices.SortStableFunc(s, func(a, b estmodel.Bin) int {
		return cmp.Or(cmp.Compare(b.Jobs, a.Jobs), cmp.Compare(a.Time, b.Time))
	})
	return s
}

// binsCovering is the mass disparity of Tab 5.2: the least number of bins
// (most popular first) that hold at least pct percent of the jobs.
func binsCovering(bins []estmodel.Bin, pct float64) int {
	total := 0
	for _, b := range bins {
		total += b.Jobs
	}
	got := 0
	for i, b := range byPopularity(bins) {
		got += b.Jobs
		if 100*float64(got) >= pct*float64(total) {
			return i + 1
		}
	}
	return len(bins)
}
