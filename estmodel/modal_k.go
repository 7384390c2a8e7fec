package estmodel

import "math"

// The breakpoints of the linear K model (Tab 5.3) and the slopes (new
// estimates per job) between them, as the reference implementation uses them.
var (
	kLinearN     = [...]int{0, 20, 200, 1000, 10000, 70000, 250000}
	kLinearK     = [...]int{0, 10, 20, 35, 90, 340, 565}
	kLinearSlope = [...]float64{1.0 / 2, 1.0 / 18, 1.0 / 53, 1.0 / 164, 1.0 / 240, 1.0 / 800}
)

// numEstimatesLinear is step 1 of the model (§5.7, Tab 5.3): the number of
// distinct estimates K among n jobs, K = K_{k−1} + round((n − N_{k−1})·slope_k)
// on the segment holding n. Beyond 250,000 jobs K is clamped at 565 unless
// extrapolate is set, which continues with the last slope (S23).
func numEstimatesLinear(n int, extrapolate bool) int {
	if n <= 0 {
		return 0
	}
	last := len(kLinearN) - 1
	if n > kLinearN[last] && !extrapolate {
		return kLinearK[last]
	}
	k := 1
	for k < last && n > kLinearN[k] {
		k++
	}
	return kLinearK[k-1] + int(math.Round(float64(n-kLinearN[k-1])*kLinearSlope[k-1]))
}

// numEstimatesPower is the optional power model K = round(α·n^β) (Fig 5.4).
func numEstimatesPower(n int, alpha, beta float64) int {
	if n <= 0 {
		return 0
	}
	return int(math.Round(alpha * math.Pow(float64(n), beta)))
}

// numEstimates applies the configured K rule. The power model never yields
// fewer values than there are user bins (reference implementation).
func (c ModalConfig) numEstimates() int {
	if c.K > 0 {
		return c.K
	}
	if c.KPower {
		p := c.params()
		return max(len(c.Bins), numEstimatesPower(c.N, p.KPowerAlpha, p.KPowerBeta))
	}
	return numEstimatesLinear(c.N, c.KExtrapolate)
}
