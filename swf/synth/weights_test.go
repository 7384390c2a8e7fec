package synth

import (
	"math"
	"testing"
)

// Entries of the spec's §4 table (C output, 17 digits) against our weights,
// computed with gonum's regularized incomplete gamma.
func TestCycleWeightsMatchSpecTable(t *testing.T) {
	b, i, w := batch(), interactive(), typeless()
	cases := []struct {
		name string
		p    TypeParams
		k    int
		want float64
	}{
		{"batch", b, 0, 0.54615866412959957},
		{"batch", b, 9, 0.23536130665474361},
		{"batch", b, 10, 0.34715449125860265},
		{"batch", b, 26, 1.6659401623058907},
		{"batch", b, 47, 0.59394267125445821},
		{"interactive", i, 10, 0.11869380263618964},
		{"interactive", i, 28, 1.8809938195906353},
		{"interactive", i, 47, 0.57282279595798136},
		{"typeless", w, 10, 0.16491787324109236},
		{"typeless", w, 27, 1.8331139004134183},
	}
	for _, c := range cases {
		got := cycleWeights(c.p.ANum, c.p.BNum)[c.k]
		if math.Abs(got-c.want) > 1e-8*c.want {
			t.Errorf("%s w[%d] = %.17g, spec %.17g", c.name, c.k, got, c.want)
		}
	}
}
