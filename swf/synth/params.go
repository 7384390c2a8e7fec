package synth

import (
	"fmt"
	"math"
)

// TypeParams are the model parameters of one job type (spec §2).
type TypeParams struct {
	SerialProb, Pow2Prob float64 // P(size 1); absolute share of power-of-two jobs
	ULow, UMed, UHi      float64 // two-stage uniform on log2(size)
	UProb                float64 // P(first stage [ULow, UMed])
	A1, B1, A2, B2       float64 // the two gammas of ln(run time), shape and scale
	PA, PB               float64 // mixing probability p = PA·size + PB, clamped to [0,1]
	AArr, BArr, ARAR     float64 // ln(inter-arrival) gamma; effective shape AArr·ARAR
	ANum, BNum           float64 // daily-cycle gamma (half-hour abscissa)
}

// batch returns the batch parameters for a 128-node machine (§2.1).
func batch() TypeParams {
	return TypeParams{0.2927, 0.6686, 1.2, 5, 7, 0.875, 6.57, 0.823, 639.1, 0.0156,
		-0.003, 0.6986, 6.0415, 0.8531, 1.0519, 6.1271, 5.2740}
}

// interactive returns the interactive parameters for 128 nodes (§2.1).
func interactive() TypeParams {
	return TypeParams{0.1541, 0.625, 1, 3, 5.5, 0.705, 3.8351, 0.6605, 7.073, 0.6856,
		-0.0118, 0.9156, 6.5510, 0.6621, 0.9797, 8.9186, 3.6680}
}

// typeless returns the whole-log parameters for 128 nodes (§2.2).
func typeless() TypeParams {
	return TypeParams{0.244, 0.576, 0.8, 4.5, 7, 0.86, 4.2, 0.94, 312, 0.03,
		-0.0054, 0.78, 10.2303, 0.4871, 1.0225, 8.1737, 3.9631}
}

// scaleTo applies the spec's recommended machine-size rule (§7): the default
// offsets below L = log2(P) are kept, clamped so that ULow ≤ UMed ≤ UHi.
func (p TypeParams) scaleTo(machine int64, hiOff, medOff float64) TypeParams {
	l := math.Log2(float64(machine))
	p.UHi = max(l-hiOff, p.ULow)
	p.UMed = min(max(l-medOff, p.ULow), p.UHi)
	return p
}

// Validate reports whether p is usable.
func (p TypeParams) Validate() error {
	probs := []float64{p.SerialProb, p.Pow2Prob, p.UProb}
	for _, v := range probs {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("synth: probability %v outside [0,1]", v)
		}
	}
	if p.SerialProb+p.Pow2Prob > 1 {
		return fmt.Errorf("synth: SerialProb+Pow2Prob = %v > 1", p.SerialProb+p.Pow2Prob)
	}
	if !(p.ULow >= 0 && p.ULow <= p.UMed && p.UMed <= p.UHi && p.UHi <= maxLog2Size) {
		return fmt.Errorf("synth: need 0 ≤ ULow ≤ UMed ≤ UHi ≤ %d, have %v %v %v", maxLog2Size, p.ULow, p.UMed, p.UHi)
	}
	if math.IsNaN(p.PA) || math.IsInf(p.PA, 0) || math.IsNaN(p.PB) || math.IsInf(p.PB, 0) {
		return fmt.Errorf("synth: mixing line PA %v, PB %v must be finite", p.PA, p.PB)
	}
	for _, v := range []float64{p.A1, p.B1, p.A2, p.B2, p.AArr, p.BArr, p.ARAR, p.ANum, p.BNum} {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("synth: gamma parameter %v must be positive", v)
		}
	}
	if p.BArr >= 1 || p.B1 >= 1 || p.B2 >= 1 {
		return fmt.Errorf("synth: gamma scales must be below 1 for finite means")
	}
	// The run-time and inter-arrival draws reject values above e^12 and
	// e^13 and draw again (the reference's TOO_MUCH_* limits), at a cost
	// linear in the shape: a gamma with (almost) no mass below the limit,
	// or a huge shape, would never finish.
	for _, g := range [][2]float64{{p.A1, p.B1}, {p.A2, p.B2}} {
		if g[0] > maxShape || gammaCDF(maxLogRuntime, g[0], g[1]) < minMass {
			return fmt.Errorf("synth: run-time gamma (shape %v, scale %v) needs shape ≤ %v and mass ≥ %v below ln(run time) = %d",
				g[0], g[1], maxShape, minMass, maxLogRuntime)
		}
	}
	if err := p.arrivalsReachable(1); err != nil {
		return err
	}
	w := cycleWeights(p.ANum, p.BNum)
	for _, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("synth: daily-cycle gamma (ANum %v, BNum %v) puts no mass on the day", p.ANum, p.BNum)
		}
	}
	return nil
}

// arrivalsReachable checks the inter-arrival gamma with its shape scaled
// by k (Config.ArrivalShapeScale).
func (p TypeParams) arrivalsReachable(k float64) error {
	a := p.AArr * p.ARAR * k
	if !(a <= maxShape) || gammaCDF(maxLogInterval, a, p.BArr) < minMass {
		return fmt.Errorf("synth: inter-arrival gamma (shape %v, scale %v) needs shape ≤ %v and mass ≥ %v below ln(gap) = %d",
			a, p.BArr, maxShape, minMass, maxLogInterval)
	}
	return nil
}

// Bounds of user parameter sets that keep the draws finite: sizes up to
// 2^62, gamma shapes up to 10^4 (the paper's largest is 639), at least
// 10^-3 of a gamma below its rejection limit (at most ~1,000 draws per
// value on average).
const (
	maxLog2Size = 62
	maxShape    = 1e4
	minMass     = 1e-3
)
