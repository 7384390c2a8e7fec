package karnak

import (
	"math"
	"strings"
	"testing"
)

// The neighbour count is set per system (or for all), validated with an
// error naming the setting, and used by that system's IBL estimates.
func TestNeighborsSetting(t *testing.T) {
	for _, c := range []struct {
		set  map[string]int
		want string // error substring; "" = valid
	}{
		{map[string]int{"": 5}, ""},
		{map[string]int{"s1": 1, "": 20}, ""},
		{map[string]int{"s1": 0}, "neighbors[s1]: 0, want a neighbour count in 1–10000"},
		{map[string]int{"": -3}, "neighbors: -3, want a neighbour count in 1–10000"},
		{map[string]int{"s1": 10001}, "neighbors[s1]: 10001"},
		{map[string]int{"bad name": 5}, `neighbors: "bad name" is not a system name`},
	} {
		_, err := NewServiceWith(nil, nil, Config{Neighbors: c.set})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Neighbors %v: error %v, want %q", c.set, err, c.want)
		}
	}
	if _, err := NewServiceWith(nil, nil, Config{History: -1}); err == nil || !strings.Contains(err.Error(), "history: -1") {
		t.Errorf("History -1: %v", err)
	}
	// Near the int limit QBETS's trim point (History + History/8)
	// wrapped negative; the bound is 2^30.
	if _, err := NewServiceWith(nil, nil, Config{History: math.MaxInt}); err == nil || !strings.Contains(err.Error(), "want 1–1073741824") {
		t.Errorf("History MaxInt: %v", err)
	}
	// s1 estimates from its 3 nearest experiences, s2 (not named) from
	// the default for all, 7.
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Neighbors: map[string]int{"s1": 3, "": 7}})
	if err != nil {
		t.Fatal(err)
	}
	evs := testEvents()
	for _, e := range testEvents() {
		e.System = "s2"
		evs = append(evs, e)
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	for sys, want := range map[string]int{"s1": 3, "s2": 7} {
		ps, err := s.PredictHypothetical(&PredictRequest{Cores: 4, WallTime: 3600, Confidence: 90, Quantile: 95,
			Locations: []Location{{System: sys, Queue: "normal"}}})
		if err != nil {
			t.Fatal(err)
		}
		if ps[0].IBL == nil || ps[0].IBL.Neighbors != want {
			t.Errorf("%s: IBL estimate %+v, want %d neighbours", sys, ps[0].IBL, want)
		}
	}
}
