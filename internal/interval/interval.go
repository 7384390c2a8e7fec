// Package interval holds the confidence interval the examples print for a
// mean over independent runs (seeds, shaken inputs).
package interval

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Mean95 returns the mean of xs and the half-width of its two-sided 95%
// Student-t interval (n − 1 degrees of freedom). With fewer than two
// values the half-width is NaN: one run says nothing about the spread.
func Mean95(xs []float64) (mean, half float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	return mean, t * sd / math.Sqrt(float64(len(xs)))
}
