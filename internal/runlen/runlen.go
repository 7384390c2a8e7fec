// Package runlen holds the run-length table of QBETS's change-point
// detector (spec qbets-varq-coalloc §2.3): the smallest run of consecutive
// misses that is as rare under lag-1 autocorrelation ρ as a run of 3 is in
// an i.i.d. series, and the lag-1 autocorrelation it is looked up by.
package runlen

// tol absorbs rounding at the grid points.
const tol = 1e-12

// Row is one row of the table.
type Row struct {
	Rho float64
	R   int
}

// Table returns the shipped table (spec §2.3).
func Table() []Row {
	out := make([]Row, len(runThresholdGrid))
	for i, g := range runThresholdGrid {
		out[i] = Row{g.rho, g.r}
	}
	return out
}

// runThresholdGrid is the spec §2.3 table: the smallest run of consecutive
// exceedances of the 0.95 quantile as rare (≤ 0.05³) in a Gaussian AR(1)
// series with lag-1 correlation rho as a run of 3 is in an i.i.d. series.
var runThresholdGrid = []struct {
	rho float64
	r   int
}{{0, 3}, {0.1, 4}, {0.2, 4}, {0.3, 5}, {0.4, 5}, {0.5, 6}, {0.6, 7}, {0.7, 9}, {0.75, 10}, {0.8, 12}, {0.85, 16}, {0.9, 23}}

// RunThreshold returns the change-point run length for lag-1
// autocorrelation rho, flooring rho to the table's grid (3 below 0.1,
// including negative rho; 23 at 0.9 and above).
func RunThreshold(rho float64) int {
	r := 3
	for _, g := range runThresholdGrid {
		if rho+tol >= g.rho {
			r = g.r
		}
	}
	return r
}

// Lag1 is the lag-1 autocorrelation of xs (0 when undefined), the ρ that
// RunThreshold takes; the detector computes it on ln(1+wait) of a
// history (spec §2.3 [R]).
func Lag1(xs []float64) float64 {
	n := len(xs)
	if n < 3 {
		return 0
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	var num, den float64
	for i, x := range xs {
		d := x - mean
		den += d * d
		if i > 0 {
			num += d * (xs[i-1] - mean)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}
