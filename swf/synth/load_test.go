package synth

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The spec's §8 derived numbers for the default 128-node typed model.
func TestClosedFormsAgainstSpec(t *testing.T) {
	c := Config{}
	p := c.params()
	cases := []struct {
		name      string
		got, want float64
		rel       float64
	}{
		{"E[r·n] batch", meanWork(&p[1], 128), 163472.7, 0.002},
		{"E[r·n] interactive", meanWork(&p[0], 128), 2960.0, 0.002},
		{"E[IA] batch", meanInterArrival(p[1].AArr*p[1].ARAR, p[1].BArr), 3516.93, 0.0005},
		{"E[IA] interactive", meanInterArrival(p[0].AArr*p[0].ARAR, p[0].BArr), 619.30, 0.0005},
		{"rho(128) typed", offeredLoad(p, false, 128, 1), 0.4005, 0.002},
	}
	tl := Config{Typeless: true}
	cases = append(cases, struct {
		name      string
		got, want float64
		rel       float64
	}{"rho(128) typeless", offeredLoad(tl.params(), true, 128, 1), 0.7221, 0.002})
	for _, c := range cases {
		if math.Abs(c.got-c.want) > c.rel*c.want {
			t.Errorf("%s = %.6g, spec %.6g", c.name, c.got, c.want)
		}
	}
	// §8 table: aarr factor for target loads on 128 nodes, typed.
	for _, tc := range []struct{ rho, k float64 }{{0.3, 1.06196}, {0.5, 0.95497}, {0.7, 0.89045}, {1.0, 0.82634}} {
		k, err := shapeScaleForLoad(p, false, 128, tc.rho)
		if err != nil || math.Abs(k-tc.k) > 0.002 {
			t.Errorf("factor for load %v = %.5f (%v), spec %.5f", tc.rho, k, err, tc.k)
		}
	}
}

// An unreachable target load names the range the model reaches, whatever
// the target: with -load 1e300 the range was computed as f(x)+target,
// which lost the load to rounding and printed "[0, 0]".
func TestUnreachableLoadRange(t *testing.T) {
	c := Config{}
	p := c.params()
	lo, hi := offeredLoad(p, false, 128, 8), offeredLoad(p, false, 128, 1.0/8)
	want := fmt.Sprintf("[%.3g, %.3g]", lo, hi)
	for _, target := range []float64{1e-9, 1e6, 1e300, math.MaxFloat64} {
		_, err := shapeScaleForLoad(p, false, 128, target)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("target %v: %v; want the range %s", target, err, want)
		}
	}
}
