package parametric

import (
	"testing"
)

// The shipped run-threshold table agrees with a fresh simulation. For each
// row r, the simulated P(run ≥ r) must not exceed the criterion by more than
// 3 standard errors, and P(run ≥ r−1) must not fall below it by more than 3
// standard errors: r is then the smallest run the simulation cannot show
// to be too frequent, within the Monte Carlo error (a 3-SE band fails a
// correct row with probability about 0.1% per side). The SE comes from
// batch means, so it includes the clustering of long runs at high ρ.
func TestRunThresholdTableSimulated(t *testing.T) {
	steps := 10_000_000 // ~3% SE at ρ = 0; about 2 s for the 12 rows
	if testing.Short() {
		steps = 1_000_000
	}
	rows, ests, err := SimulateRunThresholdTable(steps, 2026)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range RunThresholdTable() {
		e := ests[i]
		r := row.R
		t.Logf("ρ=%.2f table r=%d simulated r=%d  P(≥%d)=%.3g±%.2g  P(≥%d)=%.3g±%.2g  P(≥2)=%.4f",
			row.Rho, r, rows[i].R, r-1, e.P[r-1], e.SE[r-1], r, e.P[r], e.SE[r], e.P[2])
		if e.P[r] > RunThresholdCriterion+3*e.SE[r] {
			t.Errorf("ρ=%.2f: P(run ≥ %d) = %.3g ± %.2g is above the criterion %.3g", row.Rho, r, e.P[r], e.SE[r], RunThresholdCriterion)
		}
		if e.P[r-1] < RunThresholdCriterion-3*e.SE[r-1] {
			t.Errorf("ρ=%.2f: P(run ≥ %d) = %.3g ± %.2g is already below the criterion: table r too large", row.Rho, r-1, e.P[r-1], e.SE[r-1])
		}
	}
}

// At ρ = 0 runs are geometric: P(run ≥ r) = 0.05^r exactly, and the spec
// §2.3 P(run=2) row gives P(run ≥ 2) at every ρ (.0025 at 0, .0122 at 0.5,
// .0319 at 0.9, from exact integration). The simulation must reproduce them.
func TestSimulateRunTailExactValues(t *testing.T) {
	steps := 4_000_000
	if testing.Short() {
		steps = 1_000_000
	}
	for _, c := range []struct{ rho, p2 float64 }{{0, 0.0025}, {0.5, 0.0122}, {0.9, 0.0319}} {
		e, err := SimulateRunTail(c.rho, steps, 10, 7)
		if err != nil {
			t.Fatal(err)
		}
		if d := e.P[2] - c.p2; d > 4*e.SE[2]+0.00005 || -d > 4*e.SE[2]+0.00005 { // spec rounds to 4 decimals
			t.Errorf("ρ=%v: P(run ≥ 2) = %.5f ± %.5f, spec %.4f", c.rho, e.P[2], e.SE[2], c.p2)
		}
		if c.rho == 0 {
			if d := e.P[1] - 0.05; d > 4*e.SE[1] || -d > 4*e.SE[1] {
				t.Errorf("ρ=0: P(run ≥ 1) = %.5f ± %.5f, want 0.05", e.P[1], e.SE[1])
			}
		}
	}
}

func TestSimulateRunTailErrors(t *testing.T) {
	if _, err := SimulateRunTail(1, 1000, 5, 1); err == nil {
		t.Error("rho = 1 accepted")
	}
	if _, err := SimulateRunTail(0.5, 10, 5, 1); err == nil {
		t.Error("10 steps accepted")
	}
}

func TestRunThresholdLookup(t *testing.T) {
	for _, c := range []struct {
		rho  float64
		want int
	}{{-0.5, 3}, {0, 3}, {0.099, 3}, {0.1, 4}, {0.55, 6}, {0.75, 10}, {0.89, 16}, {0.9, 23}, {0.99, 23}} {
		if got := RunThreshold(c.rho); got != c.want {
			t.Errorf("RunThreshold(%v) = %d, want %d", c.rho, got, c.want)
		}
	}
}
