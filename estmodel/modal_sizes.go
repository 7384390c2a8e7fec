package estmodel

import "math"

// headSizes is step 4 for the head (§5.9): the percentages of the h most
// popular ranks. Ranks 2..h follow p_j = α·e^(β·j) + γ; rank 1, reserved for
// E_max, gets what is left of the head mass H: p_1 = H − Σ_{j=2}^{h} p_j.
// With the thesis parameters p_1 = 22.70%, with the reference ones 21.73%.
func headSizes(h int, p params) []float64 {
	if h <= 0 {
		return nil
	}
	s := make([]float64, h)
	rest := 0.0
	for j := 2; j <= h; j++ {
		s[j-1] = p.HeadAlpha*math.Exp(p.HeadBeta*float64(j)) + p.HeadGamma
		rest += s[j-1]
	}
	s[0] = p.HeadMass - rest
	return s
}

// tailSizes is step 4 for the tail (§5.9): the percentages of popularity
// ranks first..first+n−1, proportional to ω·j^ρ and scaled to sum to mass
// (100 − H unless user bins took more than H, S27).
func tailSizes(first, n int, mass float64, p params) []float64 {
	if n <= 0 {
		return nil
	}
	s := make([]float64, n)
	sum := 0.0
	for i := range s {
		s[i] = p.TailOmega * math.Pow(float64(first+i), p.TailRho)
		sum += s[i]
	}
	for i := range s {
		s[i] *= mass / sum
	}
	return s
}
