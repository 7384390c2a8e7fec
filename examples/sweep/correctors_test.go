package main

import (
	"testing"

	"github.com/batchq/batchq/sched"
)

func TestCorrectors(t *testing.T) {
	var g gradualCorrector
	for _, c := range []struct {
		p, e int64
		n    int
		want int64
	}{{100, 10000, 0, 160}, {160, 10000, 1, 1060}, {9000, 10000, 3, 10000}} {
		if got := g.Correct(c.p, c.e, c.n, 0); got != c.want {
			t.Errorf("gradual(%d, %d, %d) = %d, want %d", c.p, c.e, c.n, got, c.want)
		}
	}
	var x exponentialCorrector
	if got := x.Correct(1000, 10000, 0, 0); got != 1200 {
		t.Errorf("exponential: %d", got)
	}
	// Past the estimate all three step alike.
	for k := range 5 {
		want := sched.EstimateCorrector{}.Correct(10000, 10000, k, k)
		if g.Correct(10000, 10000, k, k) != want || x.Correct(10000, 10000, k, k) != want {
			t.Errorf("post-estimate step %d differs from EstimateCorrector's %d", k, want)
		}
	}
}
