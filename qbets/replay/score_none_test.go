package replay

import (
	"math"
	"testing"
)

// A figure that does not exist is NaN, not 0: a predictor of points alone
// (the naive baseline, APQ) has no correctness and no coverage, as it has
// no median ratio; a bound alone, [0, b] as QBETS answers, has both. They
// were 0, printed as "correct 0.000", bounds that never held.
func TestScoreNoBoundNoFigure(t *testing.T) {
	var s Score
	s.Add(Prediction{OK: true, Point: 60, Lower: math.NaN(), Upper: math.NaN()}, 30, 100)
	if c, v, r := s.Correctness(), s.Coverage(), s.MedianRatio(); !math.IsNaN(c) || !math.IsNaN(v) || !math.IsNaN(r) {
		t.Errorf("points only: correctness %v, coverage %v, median ratio %v; want NaN", c, v, r)
	}
	if got := (&Score{}).Correctness(); !math.IsNaN(got) {
		t.Errorf("no answer: correctness %v, want NaN", got)
	}
	s.Add(bound(100), 30, 100)
	s.Add(bound(10), 30, 100)
	if c, v := s.Correctness(), s.Coverage(); c != 0.5 || v != 0.5 {
		t.Errorf("two bounds, one held: correctness %v, coverage %v; want 0.5", c, v)
	}
}
