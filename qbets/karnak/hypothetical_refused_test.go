package karnak

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestPredictHypotheticalRefusesBadRequest: in the process, a request
// the HTTP interface refuses is refused too, as a 400 *Error naming the
// field, and nil is no panic. Before, a nil request panicked, one
// without locations returned an *Error with Code 0 and no message (a
// "temporary" refusal, by Temporary), and zero levels, cores or wall
// time were answered (levels 0 logging an internal error, with no QBETS
// bound and no IBL estimate).
func TestPredictHypotheticalRefusesBadRequest(t *testing.T) {
	s, _ := newTestServer(t)
	loc := []Location{{"s1", "normal"}}
	ok := PredictRequest{Cores: 4, WallTime: 3600, Quantile: 95, Confidence: 90, Locations: loc}
	if ps, err := s.PredictHypothetical(&ok); err != nil || len(ps) != 1 || ps[0].QBETS == nil {
		t.Fatalf("the valid request: %v, %+v", err, ps)
	}
	for _, c := range []struct {
		name  string
		r     *PredictRequest
		field string
	}{
		{"nil", nil, "request"},
		{"no locations", &PredictRequest{Cores: 4, WallTime: 3600, Quantile: 95, Confidence: 90}, "locations"},
		{"zero levels", &PredictRequest{Cores: 4, WallTime: 3600, Locations: loc}, "confidence"},
		{"zero cores", &PredictRequest{WallTime: 3600, Quantile: 95, Confidence: 90, Locations: loc}, "cores"},
		{"negative wall time", &PredictRequest{Cores: 4, WallTime: -5, Quantile: 95, Confidence: 90, Locations: loc}, "wallTime"},
		{"negative within", &PredictRequest{Cores: 4, WallTime: 3600, Quantile: 95, Confidence: 90, Within: -1, Locations: loc}, "within"},
	} {
		ps, err := s.PredictHypothetical(c.r)
		var ke *Error
		if !errors.As(err, &ke) || ke.Code != http.StatusBadRequest || ke.Temporary() || !strings.HasPrefix(ke.Message, c.field+": ") || ps != nil {
			t.Errorf("%s: %d predictions, error %#v; want a 400 *Error naming %s", c.name, len(ps), err, c.field)
		}
	}
}
