// Package parametric holds the parametric comparators of QBETS's
// evaluation (spec qbets-varq-coalloc §2.2: log-normal with the
// non-central-t tolerance bound, log-uniform, Weibull) and the Monte Carlo
// study behind the run-length table of §2.3. They are used by the replay
// evaluator and its tests, not by the predictor.
package parametric

import (
	"errors"
	"github.com/batchq/batchq/internal/runlen"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// RunThresholdCriterion is the rarity the run threshold is calibrated to:
// a run of 3 exceedances of the 0.95 quantile in an i.i.d. series,
// 0.05³ = 1.25e-4 per time step (thesis §4.2.2: "three in a row occurs
// every 8000 values").
const RunThresholdCriterion = 0.05 * 0.05 * 0.05

// RunTailEstimate is a Monte Carlo estimate of the run statistics of a
// stationary Gaussian AR(1) series X_t = ρX_{t−1} + √(1−ρ²)ε_t.
// P[r] estimates P(run ≥ r): the probability that at a given step the last
// r values all exceed z_.95 (so P[1] ≈ 0.05). SE[r] is its standard error
// by batch means, which accounts for the dependence between steps.
type RunTailEstimate struct {
	Rho   float64
	Steps int
	P, SE []float64 // indexed by r = 0..MaxRun; P[0] = 1
}

// Threshold is the smallest r ≥ 1 whose estimated P(run ≥ r) is at most
// crit, or len(P) when no tabulated r qualifies.
func (e RunTailEstimate) Threshold(crit float64) int {
	for r := 1; r < len(e.P); r++ {
		if e.P[r] <= crit {
			return r
		}
	}
	return len(e.P)
}

// SimulateRunTail estimates P(run ≥ r) for r ≤ maxRun from steps draws of
// the AR(1) series with lag-1 correlation rho (the thesis's Monte Carlo
// study behind the run-threshold table, §2.3 / Q3). The series starts in
// its stationary law. Exceedance runs are invariant under monotone
// transforms, so the same estimate holds for a log-normal AR(1) whose log
// has correlation rho.
func SimulateRunTail(rho float64, steps, maxRun int, seed uint64) (RunTailEstimate, error) {
	if rho <= -1 || rho >= 1 || math.IsNaN(rho) {
		return RunTailEstimate{}, errors.New("parametric: SimulateRunTail rho must be in (−1, 1)")
	}
	const batches = 50 // batch means: 50 batches make the SE itself accurate to about ±10%
	if steps < batches || maxRun < 1 {
		return RunTailEstimate{}, errors.New("parametric: SimulateRunTail needs steps ≥ 50 and maxRun ≥ 1")
	}
	rng := rand.New(rand.NewPCG(seed, uint64(math.Float64bits(rho))))
	z := distuv.UnitNormal.Quantile(0.95)
	innov := math.Sqrt(1 - rho*rho)
	per := steps / batches
	counts := make([][]float64, batches) // counts[b][L]: steps in batch b whose current run is exactly L (capped at maxRun)
	x := rng.NormFloat64()
	run := 0
	for b := range counts {
		counts[b] = make([]float64, maxRun+1)
		for range per {
			x = rho*x + innov*rng.NormFloat64()
			if x > z {
				run++
			} else {
				run = 0
			}
			counts[b][min(run, maxRun)]++
		}
	}
	e := RunTailEstimate{Rho: rho, Steps: per * batches, P: make([]float64, maxRun+1), SE: make([]float64, maxRun+1)}
	est := make([]float64, batches)
	for r := 0; r <= maxRun; r++ {
		var mean float64
		for b, c := range counts {
			var tail float64
			for L := r; L <= maxRun; L++ {
				tail += c[L]
			}
			est[b] = tail / float64(per)
			mean += est[b]
		}
		mean /= batches
		var ss float64
		for _, v := range est {
			ss += (v - mean) * (v - mean)
		}
		e.P[r] = mean
		e.SE[r] = math.Sqrt(ss / (batches - 1) / batches)
	}
	return e, nil
}

// RunThresholdRow is one row of the run-threshold table.
type RunThresholdRow = runlen.Row

// RunThresholdTable returns the shipped table (spec §2.3).
func RunThresholdTable() []RunThresholdRow { return runlen.Table() }

// RunThreshold is the shipped table's lookup.
func RunThreshold(rho float64) int { return runlen.RunThreshold(rho) }

// SimulateRunThresholdTable recomputes the table by simulation: for each
// grid correlation, the smallest r with estimated P(run ≥ r) ≤
// RunThresholdCriterion, from steps draws seeded by seed. With 10^7 steps
// per row the estimate at the criterion has a relative standard error of
// about 3% at ρ = 0 and 10–20% at ρ ≥ 0.8 (long runs cluster), which is why
// neighbouring r can swap where P(run ≥ r) changes slowly in r.
func SimulateRunThresholdTable(steps int, seed uint64) ([]RunThresholdRow, []RunTailEstimate, error) {
	grid := runlen.Table()
	rows := make([]RunThresholdRow, len(grid))
	ests := make([]RunTailEstimate, len(grid))
	for i, g := range grid {
		e, err := SimulateRunTail(g.Rho, steps, 40, seed)
		if err != nil {
			return nil, nil, err
		}
		rows[i] = RunThresholdRow{Rho: g.Rho, R: e.Threshold(RunThresholdCriterion)}
		ests[i] = e
	}
	return rows, ests, nil
}
