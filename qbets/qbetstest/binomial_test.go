package qbetstest

import (
	"testing"

	"github.com/batchq/batchq/qbets"
)

// The coverage check's exact tail: 4 misses in 60 at C = 0.99 happen
// (P ≈ 0.003); 10 misses do not (P < 1e-6).
func TestBinomialCDF(t *testing.T) {
	if p := binomialCDF(56, 60, 0.99); p < 0.002 || p > 0.005 {
		t.Errorf("P(X ≤ 56 | 60, 0.99) = %g, want about 0.003", p)
	}
	if p := binomialCDF(50, 60, 0.99); p >= 1e-6 {
		t.Errorf("P(X ≤ 50 | 60, 0.99) = %g, want < 1e-6", p)
	}
	if p := binomialCDF(60, 60, 0.5); p != 1 {
		t.Errorf("P(X ≤ n) = %g, want 1", p)
	}
}

// The thesis's detector (RunLength) passes the contract check and its own
// choices: it trims to exactly the minimum history, and only after a run
// of at least 3 misses.
func TestRunLengthThesis(t *testing.T) { checkTrimmer(t, qbets.RunLength, true) }
