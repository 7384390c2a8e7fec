package main

import "math"

// forecaster is a TEMPORARY stand-in until qbets lands: the empirical CDF
// of all observed waits in log-spaced bins (a point-quantile reading,
// ignoring the job's shape).
type forecaster struct {
	bins [200]int
	n    int
}

func newForecaster() *forecaster { return &forecaster{} }

func bin(wait int64) int {
	b := int(20 * math.Log10(1+float64(max(wait, 0))))
	return min(b, 199)
}

func (f *forecaster) observe(submit, start, nodes, walltime int64) {
	f.bins[bin(start-submit)]++
	f.n++
}

func (f *forecaster) ProbWithin(nodes int, walltime, within int64) float64 {
	if f.n < 59 {
		return 0
	}
	b := bin(within)
	c := 0
	for i := 0; i < b; i++ {
		c += f.bins[i]
	}
	return float64(c) / float64(f.n)
}
