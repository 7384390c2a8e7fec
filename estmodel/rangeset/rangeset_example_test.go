package rangeset_test

import (
	"fmt"

	"github.com/batchq/batchq/estmodel/rangeset"
)

// A user's 8-processor job ran 100–130 s at low load and 190–200 s at
// high load. Two load functions (one where runtime doubles from load 0.2
// to 0.8, one much flatter) carry each past run to the load predicted for
// the next job; each run gives a range, the overlapping ones merge, and
// ranges holding past runtimes get most of the probability.
func ExamplePredictor() {
	h := new(rangeset.History)
	k := rangeset.Key{User: 7, Size: 8}
	for _, s := range []struct{ rt, load float64 }{{100, 0.2}, {130, 0.25}, {190, 0.8}, {200, 0.85}} {
		if err := h.Add(rangeset.LoadSample{Key: k, Runtime: s.rt, Load: s.load}); err != nil {
			fmt.Println(err)
			return
		}
	}
	p := rangeset.Predictor{Funcs: []rangeset.LoadFunc{{A: 166.7, B: 66.7}, {A: 50, B: 150}}, History: h}
	rs, _, err := p.Predict(k, 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rs {
		fmt.Printf("[%.0f, %.0f) p=%.2f\n", r.Lo, r.Hi, r.P)
	}
	fmt.Printf("point %.0f s\n", rs.Point())
	// Output:
	// [149, 176) p=0.10
	// [176, 209) p=0.90
	// point 189 s
}
