package forecast

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestNilSnapshot: a nil snapshot is a bad snapshot, not a panic (it
// panicked on len(s.Running)); a running job started before time 0 is
// named as such (the message said "no start ≤ now" of a start below now).
func TestNilSnapshot(t *testing.T) {
	f, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Forecast(context.Background(), nil); !errors.Is(err, errSnapshot) {
		t.Errorf("Forecast(nil): %v, want a bad snapshot", err)
	}
	if at, err := f.WhatIf(context.Background(), nil, swf.Job{AllocProcs: 1, ReqTime: 10}); at != -1 || !errors.Is(err, errSnapshot) {
		t.Errorf("WhatIf(nil): %d, %v; want −1 and a bad snapshot", at, err)
	}
	s := &Snapshot{Now: 0, MachineSize: 4, Running: []swf.Job{{ID: 1, Submit: -600, AllocProcs: 4, ReqTime: 4200}}}
	_, err = f.Forecast(context.Background(), s)
	if !errors.Is(err, errSnapshot) || !strings.Contains(err.Error(), "running job 1 has no start in 0..now 0 (submit -600, wait 0)") {
		t.Errorf("a start before 0: %v", err)
	}
}
