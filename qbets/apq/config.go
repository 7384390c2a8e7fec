package apq

import (
	"fmt"
	"math"
)

// The defaults of spec §2.10: the middle of each Table IV range, and the
// validation history of 6000 jobs.
const (
	defaultHistory      = 6000
	defaultBins         = 20
	defaultKPct         = 3
	defaultOutlierFrac  = 0.5
	defaultEps          = 0.075
	defaultMinPts       = 3
	defaultSDMWindow    = 0.05
	defaultSDMDistThr   = 0.45
	defaultRidgeMaxDist = 0.7
	defaultRidgeLambda  = 1.0
	defaultKNN          = 10
	defaultKernelWidth  = 1.0
)

// Config holds every APQ parameter. The zero value means the defaults
// above (spec §2.10), the feature-summary distance and spearman weights
// recomputed on every history change, as the paper does. χ² distances are
// normalized per distribution by their maximum over the history (H2) and
// dbscan sees waits in seconds (H7).
type Config struct {
	// History is the FIFO history size H (Table IV: 2000–6000).
	History int
	// Bins is the histogram bin count B (Table IV: 5–50).
	Bins int
	// KPct is the closest fraction of the history, in percent, that dbscan
	// looks at (Table IV: 1–5).
	KPct float64
	// OutlierFrac is f: the neighbourhood is Case B when fewer than
	// f·|N_k| of the dbscan points are noise (Table IV: 0.10–0.90).
	OutlierFrac float64
	// Eps and MinPts are dbscan's ε (0.05–0.1, on unit-scaled axes) and
	// minPts (2–5).
	Eps    float64
	MinPts int
	// SDMWindow is the sdm window width w on the distance axis (0.01–0.1).
	SDMWindow float64
	// SDMMinJobs is the fewest jobs an sdm window needs to be admissible;
	// 0 means 2 (spec §2.7 [R]). With thousands of history jobs a two-job
	// window of equal waits has standard deviation 0 and wins by chance;
	// a larger minimum makes the window's std a real estimate.
	SDMMinJobs int
	// SDMDistThr is sdm's maximum distance T_dist (0.3–0.6).
	SDMDistThr float64
	// FarThr is the Case-A threshold on the mean distance of N_k; 0 means
	// SDMDistThr (spec §8-H5).
	FarThr float64
	// RidgeMaxDist is the summary distance within which history jobs train
	// the ridge regression (0.4–1.0).
	RidgeMaxDist float64
	// RidgeLambda is the ridge penalty λ (not given by the paper).
	RidgeLambda float64
	// KNN is k of the weighted-average fallback (1–20).
	KNN int
	// KernelWidth is b of the kernel K(d) = exp(−(d/b)²) of sdm and k-NN.
	KernelWidth float64
	// Distribution selects the state distance that classifies the
	// neighbourhood, by dbscan and by sdm (§2.5): the distribution-based
	// distance of Eq. 2 (request size, ERT and the χ² distances of the
	// six histograms) instead of the feature-summary distance of Eqs. 3–4
	// (16 features, the default). Ridge regression and the k-NN fallback
	// always use the feature summaries.
	Distribution bool
	// WeightRefresh recomputes the spearman weights after this many history
	// additions; 0 or 1 means after every addition (§2.4). Larger values
	// trade fidelity for speed: each refresh sorts the history 22 times.
	WeightRefresh int
	// LogWait makes APQ learn and answer ln(max(wait, 60 s)) instead of
	// the wait in seconds, a departure from the paper: every use of a
	// history job's wait (dbscan's wait axis, sdm's spread and mean, the
	// ridge target, the k-NN average, the Spearman weights) sees the
	// logarithm, and the prediction is its exponential. Waits are skewed
	// (most jobs start at once, a few wait hours): in seconds one long
	// wait squeezes every other point of dbscan's unit-scaled axis
	// together, so sdm answers nearly every job, with the mean of a window
	// of the history, which a few long waits put far above the typical
	// wait (examples/forecast/README.md, "Why IBL and APQ lose to the
	// naive baseline"). The paper scores AAE, which that mean serves.
	// The answer is at most the longest wait in the history (Predict).
	LogWait bool
	// PerQueue restricts the system state (Q and R) to the target's queue;
	// false means system-wide (spec §1 [R]).
	PerQueue bool
}

// Validate reports the first invalid parameter by name.
func (c Config) Validate() error {
	posInt := func(name string, v, lo, hi int) error {
		if v != 0 && (v < lo || v > hi) {
			return fmt.Errorf("apq: Config.%s = %d, want %d..%d (or 0 for the default)", name, v, lo, hi)
		}
		return nil
	}
	frac := func(name string, v, lo, hi float64) error {
		if math.IsNaN(v) || (v != 0 && (v < lo || v > hi)) {
			return fmt.Errorf("apq: Config.%s = %v, want in [%v, %v] (or 0 for the default)", name, v, lo, hi)
		}
		return nil
	}
	for _, err := range []error{
		posInt("History", c.History, 2, 1<<24),
		posInt("Bins", c.Bins, 1, 1000),
		frac("KPct", c.KPct, 1e-9, 100),
		frac("OutlierFrac", c.OutlierFrac, 1e-9, 1),
		frac("Eps", c.Eps, 1e-9, 1),
		posInt("MinPts", c.MinPts, 1, 1000),
		frac("SDMWindow", c.SDMWindow, 1e-9, 1),
		frac("SDMDistThr", c.SDMDistThr, 1e-9, 1),
		frac("FarThr", c.FarThr, 1e-9, 1),
		frac("RidgeMaxDist", c.RidgeMaxDist, 1e-9, 1),
		frac("RidgeLambda", c.RidgeLambda, 1e-12, 1e12),
		posInt("KNN", c.KNN, 1, 1<<20),
		posInt("SDMMinJobs", c.SDMMinJobs, 2, 1<<20),
		frac("KernelWidth", c.KernelWidth, 1e-9, 1e9),
		posInt("WeightRefresh", c.WeightRefresh, 1, 1<<30),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

func or[T int | float64](v, d T) T {
	if v == 0 {
		return d
	}
	return v
}

func (c Config) withDefaults() Config {
	c.History = or(c.History, defaultHistory)
	c.Bins = or(c.Bins, defaultBins)
	c.KPct = or(c.KPct, defaultKPct)
	c.OutlierFrac = or(c.OutlierFrac, defaultOutlierFrac)
	c.Eps = or(c.Eps, defaultEps)
	c.MinPts = or(c.MinPts, defaultMinPts)
	c.SDMWindow = or(c.SDMWindow, defaultSDMWindow)
	c.SDMDistThr = or(c.SDMDistThr, defaultSDMDistThr)
	c.SDMMinJobs = or(c.SDMMinJobs, 2)
	c.FarThr = or(c.FarThr, c.SDMDistThr)
	c.RidgeMaxDist = or(c.RidgeMaxDist, defaultRidgeMaxDist)
	c.RidgeLambda = or(c.RidgeLambda, defaultRidgeLambda)
	c.KNN = or(c.KNN, defaultKNN)
	c.KernelWidth = or(c.KernelWidth, defaultKernelWidth)
	c.WeightRefresh = or(c.WeightRefresh, 1)
	return c
}
