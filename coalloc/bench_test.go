package coalloc

import (
	"testing"

	"github.com/batchq/batchq/varq"
)

// BenchmarkPlan12h plans two 12 h-ahead reservations over five resources:
// ten 1440-point trajectories and the boosting.
func BenchmarkPlan12h(b *testing.B) {
	var res []Resource
	for i, p := range []float64{0.9, 0.8, 0.85, 0.7, 0.6} {
		cut := int64(3600 * (i + 1))
		res = append(res, Resource{Name: "m", Forecaster: varq.ForecasterFunc(func(_ int, _, within int64) float64 {
			if within >= cut {
				return p
			}
			return p / 2
		})})
	}
	r := varq.Request{Nodes: 16, Walltime: 3600, Start: 43200}
	reqs := []varq.Request{r, r}
	for b.Loop() {
		if _, err := New(reqs, res, 0.9, 0, Config{}); err != nil {
			b.Fatal(err)
		}
	}
}
