package apq

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ridge fits a ridge regression of y on the rows of x (all of length p)
// and evaluates it at target (spec §2.8): every column is z-scored with the
// training mean and population standard deviation (a constant column
// becomes 0), y is centred, β = (ZᵀZ + λI)⁻¹Zᵀy, and the intercept, the
// mean of y, is not penalized. It fails on an empty training set or
// mismatched lengths.
func ridge(x [][]float64, y, target []float64, lambda float64) (float64, error) {
	n := len(x)
	if n == 0 || len(y) != n {
		return 0, fmt.Errorf("apq: Ridge: %d rows for %d targets", n, len(y))
	}
	p := len(target)
	mu := make([]float64, p)
	sd := make([]float64, p)
	var ym float64
	for i, row := range x {
		if len(row) != p {
			return 0, fmt.Errorf("apq: Ridge: row %d has %d columns, want %d", i, len(row), p)
		}
		for c, v := range row {
			mu[c] += v
		}
		ym += y[i]
	}
	for c := range mu {
		mu[c] /= float64(n)
	}
	ym /= float64(n)
	for _, row := range x {
		for c, v := range row {
			sd[c] += (v - mu[c]) * (v - mu[c])
		}
	}
	for c := range sd {
		sd[c] = math.Sqrt(sd[c] / float64(n))
	}
	// Accumulate the upper triangle of ZᵀZ and Zᵀy in plain slices (the
	// hot loop), then hand them to gonum.
	acc := make([]float64, p*p)
	zy := make([]float64, p)
	z := make([]float64, p)
	for i, row := range x {
		zscore(z, row, mu, sd)
		yc := y[i] - ym
		for a := range p {
			if z[a] == 0 {
				continue
			}
			zy[a] += z[a] * yc
			r := acc[a*p:]
			for b := a; b < p; b++ {
				r[b] += z[a] * z[b]
			}
		}
	}
	for a := range p {
		acc[a*p+a] += lambda
		for b := 0; b < a; b++ {
			acc[a*p+b] = acc[b*p+a]
		}
	}
	ztz := mat.NewSymDense(p, acc)
	zty := mat.NewVecDense(p, zy)
	var ch mat.Cholesky
	if !ch.Factorize(ztz) {
		return 0, fmt.Errorf("apq: Ridge: ZᵀZ + λI is not positive definite (λ = %v)", lambda)
	}
	var beta mat.VecDense
	if err := ch.SolveVecTo(&beta, zty); err != nil {
		return 0, fmt.Errorf("apq: Ridge: %w", err)
	}
	zscore(z, target, mu, sd)
	pred := ym
	for a := range p {
		pred += beta.AtVec(a) * z[a]
	}
	return pred, nil
}

func zscore(dst, row, mu, sd []float64) {
	for c, v := range row {
		if sd[c] > 0 {
			dst[c] = (v - mu[c]) / sd[c]
		} else {
			dst[c] = 0
		}
	}
}
