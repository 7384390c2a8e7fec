package main

import (
	"maps"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Fields that held a number below -1, read as -1 (swf.Stats.BelowUnknown),
// are said in the text and in -json, by field: the lines were refused.
func TestBelowUnknownSaid(t *testing.T) {
	log := "; MaxProcs: 8\n1 0 -5 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n2 1 -7 100 4 -1 -1 4 200 -1 1 -2 1 1 1 1 -1 -1\n"
	r := clitest.Exec(run, log, "-")
	if want := "fields below -1 3 fields held a number below -1"; !has(r.Stdout, want) || !strings.Contains(r.Stdout, "(2 wait time, 1 user id;") {
		t.Errorf("output lacks %q and the fields:\n%s", want, r.Stdout)
	}
	s := summaryOf(t, log)
	if want := map[string]int{"wait time": 2, "user id": 1}; s.Jobs != 2 || s.BelowUnknown != 3 || !maps.Equal(s.BelowByField, want) {
		t.Errorf("-json: %d jobs, fields_below_unknown %d by field %v; want 2, 3, %v", s.Jobs, s.BelowUnknown, s.BelowByField, want)
	}
}
