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
	for _, rule := range []pointRule{atMax, latestMeeting} {
		_, err := NewPlan(reqs, res, 0.5, 0, Config{LatestMeeting: rule == latestMeeting})
		if err == nil || !strings.Contains(err.Error(), "beta") || !strings.Contains(err.Error(), "Forecaster") {
			t.Errorf("%v: NewPlan with a nil forecaster: err = %v, want one naming resource beta's Forecaster", rule, err)
		}
	}
}

// versioned is a constant forecaster with a version, so planning takes the
// memo path.
type versioned struct{ varq.Forecaster }

func (versioned) Version() uint64 { return 1 }

// A start far ahead is varq's horizon error, before any room is made for
// the trajectory, on both the plain and the memo path.
func TestFarHorizonIsError(t *testing.T) {
	reqs := []varq.Request{{Nodes: 1, Walltime: 600, Start: 10 * 365 * 86400}}
	res := []Resource{{Name: "alpha", Forecaster: constant(0.9)}}
	_, err := NewPlan(reqs, res, 0.5, 0, Config{Step: 1})
	if err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Errorf("NewPlan ten years ahead at 1 s: err = %v, want the points limit", err)
	}
	var m memo
	var rec recorder
	_, err = m.pointPlan(&rec, versioned{constant(0.9)}, reqs[0], 0, 1, 0.5, atMax)
	if err == nil || !strings.Contains(err.Error(), "more than the limit") || len(m.p) != 0 {
		t.Errorf("memo ten years ahead at 1 s: err = %v, %d slots, want the points limit before any", err, len(m.p))
	}
}
