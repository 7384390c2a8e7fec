package synth

import (
	"fmt"
	"math"
)

// meanInterArrival is E[e^G | G ≤ 13] for G ~ Gamma(a, b), the long-run mean
// gap of one type's stream whatever the daily weights (§8 closed form).
func meanInterArrival(a, b float64) float64 {
	return math.Pow(1-b, -a) * gammaCDF(maxLogInterval, a, b/(1-b)) / gammaCDF(maxLogInterval, a, b)
}

// meanRuntime is E[floor(e^h)] for a job of n nodes (§8; −0.5 for the floor).
func meanRuntime(p *TypeParams, n float64) float64 {
	prob := min(max(p.PA*n+p.PB, 0), 1)
	m := func(a, b float64) float64 {
		return math.Pow(1-b, -a) * gammaCDF(maxLogRuntime, a, b/(1-b))
	}
	f1, f2 := gammaCDF(maxLogRuntime, p.A1, p.B1), gammaCDF(maxLogRuntime, p.A2, p.B2)
	return (prob*m(p.A1, p.B1)+(1-prob)*m(p.A2, p.B2))/(prob*f1+(1-prob)*f2) - 0.5
}

// stageMass is the probability that the two-stage uniform falls in [x, y).
func stageMass(p *TypeParams, x, y float64) float64 {
	seg := func(lo, hi, w float64) float64 {
		if hi <= lo {
			if x <= lo && lo < y {
				return w
			}
			return 0
		}
		a, b := max(x, lo), min(y, hi)
		if b <= a {
			return 0
		}
		return w * (b - a) / (hi - lo)
	}
	return seg(p.ULow, p.UMed, p.UProb) + seg(p.UMed, p.UHi, 1-p.UProb)
}

// sizePMF returns P(size = n) for n = 0..machine under p, with the machine caps.
func sizePMF(p *TypeParams, machine int64) []float64 {
	pmf := make([]float64, machine+1)
	pmf[1] += p.SerialProb
	pow2Cap := int64(1) << uint(math.Floor(math.Log2(float64(machine))))
	for j := 0; float64(j) <= p.UHi+1; j++ {
		m := stageMass(p, float64(j)-0.5, float64(j)+0.5)
		n := int64(min(math.Floor(math.Pow(2, float64(j))+0.5), float64(pow2Cap))) // capped before the conversion
		pmf[n] += p.Pow2Prob * m
	}
	other := 1 - p.SerialProb - p.Pow2Prob
	top := math.Pow(2, p.UHi) + 1
	n := int64(1)
	for ; n <= machine && float64(n) <= top; n++ {
		m := stageMass(p, math.Log2(float64(n)-0.5), math.Log2(float64(n)+0.5))
		pmf[n] += other * m
	}
	if float64(n) <= top {
		// Sizes above the machine are capped to it: their mass in one
		// piece (a user's UHi may reach 2^62).
		pmf[machine] += other * stageMass(p, math.Log2(float64(n)-0.5), math.Log2(math.Floor(top)+0.5))
	}
	return pmf
}

// meanWork is E[run time · size] of one type (node-seconds per job).
func meanWork(p *TypeParams, machine int64) float64 {
	var w float64
	for n, q := range sizePMF(p, machine) {
		if q > 0 {
			w += q * float64(n) * meanRuntime(p, float64(n))
		}
	}
	return w
}

// offeredLoad is the model's offered load ρ = Σ_t E_t[r·n] / (P·E[IA_t])
// when the arrival shapes are multiplied by scale (§8).
func offeredLoad(params [2]TypeParams, typeless bool, machine int64, scale float64) float64 {
	var rho float64
	for t, p := range params {
		if typeless && t == batchType {
			continue
		}
		rho += meanWork(&p, machine) / (float64(machine) * meanInterArrival(p.AArr*p.ARAR*scale, p.BArr))
	}
	return rho
}

// shapeScaleForLoad solves offeredLoad(k) = target for k by bisection on
// log k in [1/8, 8]; the load falls as k grows.
func shapeScaleForLoad(params [2]TypeParams, typeless bool, machine int64, target float64) (float64, error) {
	lo, hi := math.Log(1.0/8), math.Log(8)
	load := func(x float64) float64 { return offeredLoad(params, typeless, machine, math.Exp(x)) }
	f := func(x float64) float64 { return load(x) - target }
	if f(lo) < 0 || f(hi) > 0 {
		// The range from the loads themselves: f(x)+target rounds to 0
		// for a huge target (1e300 printed "[0, 0]").
		return 0, fmt.Errorf("synth: target load %v outside the reachable range [%.3g, %.3g]",
			target, load(hi), load(lo))
	}
	for range 100 {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2), nil
}
