package synth

import (
	"math"
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
