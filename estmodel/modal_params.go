package estmodel

import (
	"errors"
	"fmt"
	"math"
)

// params are the fitted constants of the modal model (thesis Ch. 5; spec §7.1).
// Two sets exist: the rounded values printed in the thesis (thesisParams) and
// the full-precision values of the author's reference implementation
// (refParams, the default, because the spec's check values — e.g. the time
// curve a = 1.355 for CTC — are computed with them).
type params struct {
	// KPowerAlpha and KPowerBeta: the optional power model K = α·N^β (Fig 5.4).
	KPowerAlpha, KPowerBeta float64
	// HeadAlpha, HeadBeta, HeadGamma: head popularity p_j = α·e^(β·j) + γ, j = 2..20 (§5.9).
	HeadAlpha, HeadBeta, HeadGamma float64
	// HeadMass is H, the percentage of jobs held by the head (top-20) modes.
	HeadMass float64
	// TailOmega and TailRho: tail popularity ∝ ω·j^ρ, j = 21..K.
	TailOmega, TailRho float64
	// TimeC and TimeD: the time curve parameter a = 1 + C·K^(−D) (Fig 5.6).
	TimeC, TimeD float64
}

// refParams are the full-precision parameters of the reference implementation.
func refParams() params {
	return params{
		KPowerAlpha: 0.653566, KPowerBeta: 0.547761,
		HeadAlpha: 14.0491, HeadBeta: -0.177531, HeadGamma: 0.462513,
		HeadMass:  89.0,
		TailOmega: 795.6, TailRho: -2.267,
		TimeC: 12.1039, TimeD: 0.6026,
	}
}

// thesisParams are the rounded parameters printed in the thesis.
func thesisParams() params {
	return params{
		KPowerAlpha: 1.1, KPowerBeta: 0.5,
		HeadAlpha: 14.05, HeadBeta: -0.18, HeadGamma: 0.46,
		HeadMass:  89,
		TailOmega: 795.6, TailRho: -2.27,
		TimeC: 12.1, TimeD: 0.6,
	}
}

// UserBin is a user-supplied mode (§7.7): a time and either an exact job
// count or a percentage of the N jobs. The share of jobs at E_max, the model's
// "semi-mandatory" third parameter, is passed as the bin (E_max, x).
type UserBin struct {
	Time    int64   // seconds, 0 < Time ≤ E_max
	Jobs    int     // exact number of jobs; when 0, Percent is used
	Percent float64 // percentage of N, used when Jobs is 0
}

// The limits of a ModalConfig: far above every workload log (the linear K
// model stops at 565 distinct estimates), low enough that Generate and
// Distribution.Estimates finish and fit in memory.
const (
	maxJobs      = 1 << 28
	maxEstimates = 1 << 20
)

// ModalConfig configures the modal model. N and EMax are mandatory; every
// other zero field means the spec's recommended default.
type ModalConfig struct {
	N    int   // number of estimates to produce (jobs)
	EMax int64 // maximal estimate, seconds; at least one hour (reference implementation check; else ErrShortEMax)
	// Bins are up to 20 user-supplied modes, at most 19 of them below E_max.
	Bins []UserBin
	// K, when positive, fixes the number of distinct estimates.
	K int
	// KPower, when K is 0, derives K from N by the power model K = α·N^β
	// of Fig 5.4 instead of the piecewise-linear model of Tab 5.3 (the
	// default).
	KPower bool
	// KExtrapolate continues the linear K model beyond N = 250,000 with slope
	// 1/800 instead of clamping at 565 (S23; clamping is the default).
	KExtrapolate bool
	// ThesisParams uses the rounded fitted constants printed in the thesis
	// instead of the full-precision ones of the author's reference
	// implementation (the default, because the spec's check values — e.g.
	// the time curve a = 1.355 for CTC — are computed with them).
	ThesisParams bool
	// ThesisTail generates the tail times as the thesis does (§5.10): all K
	// values on x = i/K, the ones closest to the head times replaced by the
	// head times. The default is the reference implementation's (S24): K −
	// |head| tail values on x = i/K_tail, minute collisions resolved with
	// ±30/20/10 s offsets, the spec's recommendation.
	ThesisTail bool
}

func (c ModalConfig) params() params {
	if c.ThesisParams {
		return thesisParams()
	}
	return refParams()
}

// ErrShortEMax is wrapped by the error of Validate (and Generate) for an
// E_max below one hour, the least the model takes: a caller can then offer
// a longer E_max or another model, which it cannot for the other errors.
var ErrShortEMax = errors.New("below one hour")

// Validate reports whether the configuration is usable.
func (c ModalConfig) Validate() error {
	if c.N <= 0 {
		return errors.New("estmodel: N must be positive")
	}
	if c.N > maxJobs {
		// Distribution.Estimates holds N values; no workload log comes near.
		return fmt.Errorf("estmodel: N = %d is above %d jobs", c.N, maxJobs)
	}
	if c.EMax < 3600 {
		return fmt.Errorf("estmodel: E_max = %d s is %w", c.EMax, ErrShortEMax)
	}
	if c.K < 0 {
		return errors.New("estmodel: K must not be negative")
	}
	if c.K > c.N {
		return fmt.Errorf("estmodel: K = %d distinct estimates for N = %d jobs", c.K, c.N)
	}
	if k := c.numEstimates(); k > maxEstimates {
		// Generate costs O(K).
		return fmt.Errorf("estmodel: K = %d distinct estimates is above the limit %d", k, maxEstimates)
	}
	if len(c.Bins) > 20 {
		return fmt.Errorf("estmodel: %d user bins, at most 20", len(c.Bins))
	}
	seen := map[int64]bool{}
	below, jobs, pct := 0, 0, 0.0
	for i, b := range c.Bins {
		if b.Time <= 0 || b.Time > c.EMax {
			return fmt.Errorf("estmodel: user bin %d: time %d outside (0, E_max=%d]", i, b.Time, c.EMax)
		}
		if seen[b.Time] {
			return fmt.Errorf("estmodel: user bin %d: time %d given twice", i, b.Time)
		}
		seen[b.Time] = true
		if b.Time < c.EMax {
			below++
		}
		switch {
		case b.Jobs < 0 || !(b.Percent >= 0) || math.IsInf(b.Percent, 0):
			return fmt.Errorf("estmodel: user bin %d: size %d jobs, %v%% is negative, NaN or infinite", i, b.Jobs, b.Percent)
		case b.Jobs == 0 && b.Percent == 0:
			return fmt.Errorf("estmodel: user bin %d: neither jobs nor percent given", i)
		case b.Jobs > 0 && b.Percent > 0:
			return fmt.Errorf("estmodel: user bin %d: both jobs and percent given", i)
		}
		if b.Jobs > c.N-jobs { // (the sum compared as it grows: it wrapped past 2^63)
			return errors.New("estmodel: user bins hold more than all N jobs")
		}
		jobs += b.Jobs
		pct += b.Percent
	}
	if below > 19 {
		return fmt.Errorf("estmodel: %d user bins below E_max, at most 19", below)
	}
	if jobs > c.N || pct+100*float64(jobs)/float64(c.N) > 100+1e-9 {
		return errors.New("estmodel: user bins hold more than all N jobs")
	}
	p := c.params()
	if p.HeadMass <= 0 || p.HeadMass >= 100 {
		return fmt.Errorf("estmodel: head mass %g outside (0, 100)", p.HeadMass)
	}
	return nil
}

// percent returns the bin's share of n jobs in percent.
func (b UserBin) percent(n int) float64 {
	if b.Jobs > 0 {
		return 100 * float64(b.Jobs) / float64(n)
	}
	return b.Percent
}

// jobs returns the bin's exact job count out of n: Jobs, or the rounded
// percentage (at least one job).
func (b UserBin) jobs(n int) int {
	if b.Jobs > 0 {
		return b.Jobs
	}
	return max(1, int(math.Round(b.Percent*float64(n)/100)))
}
