package ibl

import (
	"fmt"
	"math"
)

// The defaults. N and KernelWidth are the Lonestar values in Karnak's
// predict/notes.txt (k = 56, kw = 1.0); MaxSize is the one setting the
// paper's GA tunes for which no value is published: 10,000 is inside its
// [1k, 50k] range and keeps brute-force search near 100 µs.
const (
	DefaultN           = 56
	defaultKernelWidth = 1.0
	DefaultMaxSize     = 10000
)

// Config is an experience base's prediction configuration. The zero value
// means the paper's base of a job not yet submitted (Table III), the
// defaults above, unit weights, the N nearest neighbours and Karnak's
// interval.
type Config struct {
	// Features is the schema of the inputs: Table III or IV come from
	// NotQueuedFeatures and QueuedFeatures. Empty means Table III, the
	// base a user asks before submitting (NotQueued's values); a base of
	// queued jobs names QueuedFeatures (replay.NewIBL does).
	Features []Feature
	// Weights w_f, one per feature, each ≥ 0; nil means all 1.
	Weights []float64
	// KernelWidth k of K(d) = exp(−(d/k)²); 0 means 1.0 (Karnak's
	// Lonestar value).
	KernelWidth float64
	// N is the neighbour count (§4.3); 0 means DefaultN. It is not used in
	// radius mode.
	N int
	// R > 0 selects radius mode (spec K2): an estimate uses every
	// experience within distance R, or the single nearest one when none is
	// that close. 0 means the N nearest.
	R float64
	// MaxSize is the experience-base capacity; the oldest experience is
	// dropped first (FIFO, §4.5). 0 means DefaultMaxSize.
	MaxSize int
	// Empirical computes the interval's half-width as the kernel-weighted
	// level-quantile of the neighbours' absolute residuals |wait − E|, the
	// spec's alternative (K1), which does not assume normal, symmetric
	// waits. By default it is Karnak's rule (§4.4): d = z·σ, σ the
	// kernel-weighted standard deviation of the neighbours' waits and z
	// from the code's table (1.96, 1.65, 1.44, 1.28, 1.15 at levels ≥ 95,
	// 90, 85, 80 and below).
	Empirical bool
	// Estimate is what the kernel regression averages (§4.4): "" or
	// "mean" is Karnak's kernel-weighted mean of the neighbours' waits;
	// "geomean" is the exponential of the kernel-weighted mean of
	// ln(max(wait, 60 s)); "median" is the kernel-weighted median of
	// the waits. Waits are skewed and often bimodal (most jobs start at
	// once, the rest wait hours): a few long waits pull the mean far above
	// the typical one, so the mean over-predicts most jobs by a ratio
	// (examples/forecast/README.md, "Why IBL and APQ lose to the naive
	// baseline"). With "geomean" or "median" the interval is the rule
	// above around that estimate: σ is then the kernel-weighted
	// root-mean-square deviation of the waits from it, not from their
	// mean.
	Estimate string
}

// geoFloor is the wait below which "geomean" counts a wait as 60 s: a
// wait of 0 s has no logarithm, and below a minute the difference
// between waits is not one a user sees (the scoreboard floors both the
// answer and the wait at 60 s for the same reason).
const geoFloor = 60

// Validate reports the first invalid field.
func (c Config) Validate() error {
	c = c.withFeatures()
	for i, f := range c.Features {
		if _, ok := kindNames[f.Kind]; !ok {
			return fmt.Errorf("ibl: Config.Features[%d] (%s): Kind %q, want linear, nominal or bool", i, f.Name, f.Kind)
		}
	}
	if c.Weights != nil {
		if len(c.Weights) != len(c.Features) {
			return fmt.Errorf("ibl: Config.Weights has %d entries for %d features", len(c.Weights), len(c.Features))
		}
		for i, w := range c.Weights {
			if !(w >= 0) || math.IsInf(w, 0) {
				return fmt.Errorf("ibl: Config.Weights[%d] = %v, want a finite value ≥ 0", i, w)
			}
		}
	}
	if !(c.KernelWidth >= 0) || math.IsInf(c.KernelWidth, 0) {
		return fmt.Errorf("ibl: Config.KernelWidth = %v, want > 0 (or 0 for the default)", c.KernelWidth)
	}
	if c.N < 0 {
		return fmt.Errorf("ibl: Config.N = %d, want ≥ 1 (or 0 for the default)", c.N)
	}
	if !(c.R >= 0) || math.IsInf(c.R, 0) {
		return fmt.Errorf("ibl: Config.R = %v, want > 0 for radius mode (or 0 for the N nearest)", c.R)
	}
	switch c.Estimate {
	case "", "mean", "geomean", "median":
	default:
		return fmt.Errorf("ibl: Config.Estimate = %q, want mean, geomean or median (or \"\" for mean)", c.Estimate)
	}
	if c.MaxSize < 0 {
		return fmt.Errorf("ibl: Config.MaxSize = %d, want ≥ 1 (or 0 for the default)", c.MaxSize)
	}
	return nil
}

// withFeatures fills in Table III for empty Features, before Validate
// checks Weights against them.
func (c Config) withFeatures() Config {
	if len(c.Features) == 0 {
		c.Features = NotQueuedFeatures()
	}
	return c
}

func (c Config) withDefaults() Config {
	c = c.withFeatures()
	if c.Weights == nil {
		c.Weights = make([]float64, len(c.Features))
		for i := range c.Weights {
			c.Weights[i] = 1
		}
	}
	if c.KernelWidth == 0 {
		c.KernelWidth = defaultKernelWidth
	}
	if c.N == 0 {
		c.N = DefaultN
	}
	if c.MaxSize == 0 {
		c.MaxSize = DefaultMaxSize
	}
	if c.Estimate == "" {
		c.Estimate = "mean"
	}
	return c
}

// z is Karnak's normal multiplier for a confidence level in percent
// (Confidence.getIntervalSize): 1.96 at ≥ 95, 1.65 at ≥ 90, 1.44 at ≥ 85,
// 1.28 at ≥ 80, and 1.15 below.
func z(level int) float64 {
	switch {
	case level >= 95:
		return 1.96
	case level >= 90:
		return 1.65
	case level >= 85:
		return 1.44
	case level >= 80:
		return 1.28
	}
	return 1.15
}
