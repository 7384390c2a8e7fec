package coalloc

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/varq"
)

// A resource without a forecaster is bad input: an error naming it, not a
// nil-pointer panic.
func TestNilForecasterIsError(t *testing.T) {
	reqs := []varq.Request{{Nodes: 1, Walltime: 600, Start: 3600}}
	res := []Resource{{Name: "alpha", Forecaster: constant(0.9)}, {Name: "beta"}}
	for _, rule := range []PointRule{AtMax, LatestMeeting} {
		_, err := NewPlan(reqs, res, 0.5, 0, Config{Point: rule})
		if err == nil || !strings.Contains(err.Error(), "beta") || !strings.Contains(err.Error(), "Forecaster") {
			t.Errorf("%v: NewPlan with a nil forecaster: err = %v, want one naming resource beta's Forecaster", rule, err)
		}
	}
}
