package conformal_test

import (
	"math"
	"testing"

	"github.com/batchq/batchq/qbets/conformal"
)

// A floor of +Inf passed Validate and made every residual NaN
// (ln(Inf/Inf)) and every interval's lower end NaN.
func TestFloorInf(t *testing.T) {
	if _, err := conformal.NewCalibrator(conformal.Config{Floor: math.Inf(1)}); err == nil {
		t.Error("Floor +Inf accepted")
	}
}

// A NaN point or outcome given to Update is no outcome: it entered the
// window as the lowest residual, and the interval whose lower quantile is
// the lowest residual (level 0.5 over 2 residuals: the first smallest)
// was NaN.
func TestUpdateNaN(t *testing.T) {
	nan := math.NaN()
	for _, pa := range [][2]float64{{nan, 100}, {100, nan}, {nan, nan}} {
		ref, _ := conformal.NewCalibrator(conformal.Config{MinClass: 1})
		c, _ := conformal.NewCalibrator(conformal.Config{MinClass: 1})
		for _, a := range []float64{200, 400} {
			ref.Update(1, 100, a)
			c.Update(1, 100, a)
		}
		c.Update(1, pa[0], pa[1])
		for i := range c.Levels() {
			lo, hi := c.Interval(1, 100, i)
			wlo, whi := ref.Interval(1, 100, i)
			if lo != wlo || hi != whi {
				t.Errorf("after Update(%v, %v), level %d: [%v, %v], want [%v, %v] as without it", pa[0], pa[1], i, lo, hi, wlo, whi)
			}
		}
	}
}

// An interval around a point of +Inf is [0, +Inf] when its lower tail is
// unbounded: +Inf·e^{−Inf} made the lower end NaN.
func TestIntervalInfPoint(t *testing.T) {
	c, _ := conformal.NewCalibrator(conformal.Config{})
	for i := range c.Levels() {
		if lo, hi := c.Interval(1, math.Inf(1), i); lo != 0 || !math.IsInf(hi, 1) {
			t.Errorf("no residual, point +Inf, level %d: [%v, %v], want [0, +Inf]", i, lo, hi)
		}
	}
}
