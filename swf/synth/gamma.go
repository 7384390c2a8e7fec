package synth

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
)

// gammaRand draws Gamma(shape a, scale b) by the reference algorithm (§3.1):
// floor(a) exponentials plus Jöhnk's beta rejection for the fractional part.
func gammaRand(r *rand.Rand, a, b float64) float64 {
	n := math.Floor(a)
	var sum float64
	for i := 0; i < int(n); i++ {
		sum -= math.Log(r.Float64())
	}
	x := b * sum
	if f := a - n; f > 0 {
		for try := 0; ; try++ {
			u := math.Pow(r.Float64(), 1/f)
			v := math.Pow(r.Float64(), 1/(1-f))
			if u+v <= 1 && u+v > 0 {
				x += b * (u / (u + v)) * -math.Log(r.Float64())
				break
			}
			if try == maxJohnkRejects { // a broken Source: the fraction's mean
				x += b * f
				break
			}
		}
	}
	return x
}

// gammaCDF is F(x; shape a, scale b).
func gammaCDF(x, a, b float64) float64 {
	if x <= 0 {
		return 0
	}
	return mathext.GammaIncReg(a, x/b)
}
