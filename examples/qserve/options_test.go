package main

import (
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
		_, err := NewServiceWith(nil, nil, Options{Neighbors: c.set})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Neighbors %v: error %v, want %q", c.set, err, c.want)
		}
	}
	for _, c := range []struct{ flags, want string }{
		{"-neighbors 5 -neighbors s1=1", ""},
		{"-neighbors s1=x", `"s1=x", want N or system=N`},
		{"-neighbors s1=0", "neighbors[s1]: 0"},
		{"-neighbors 0", "neighbors: 0"},
		{"-history -1", "history: -1"},
	} {
		f := neighborsFlag{}
		var err error
		args := strings.Fields(c.flags)
		for i := 0; i+1 < len(args) && err == nil; i += 2 {
			if args[i] == "-history" {
				_, err = NewServiceWith(nil, nil, Options{History: -1})
				continue
			}
			err = f.Set(args[i+1])
		}
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: error %v, want %q", c.flags, err, c.want)
		}
		if c.want == "" && (f[""] != 5 || f["s1"] != 1 || f.String() != "5,s1=1") {
			t.Errorf("%s: parsed %v (%s)", c.flags, map[string]int(f), f)
		}
	}
	// s1 estimates from its 3 nearest experiences, s2 (not named) from
	// the default for all, 7.
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Options{Neighbors: map[string]int{"s1": 3, "": 7}})
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
