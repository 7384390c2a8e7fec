package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlicesCoverSaneJobs: on a log with a -1 and a 2^63-1 submit time
// (a hostile log's extremes, both rejected by the simulators) around 51
// sane jobs a minute apart, the 50 progress slices span the sane jobs:
// each holds one or two of them and the last ends at the last sane
// submit. Sliced between -1 and 2^63-1, the first slice held all 51.
func TestSlicesCoverSaneJobs(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	b.WriteString("1 -1 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n")
	for i := range 51 {
		fmt.Fprintf(&b, "%d %d 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n", i+2, 60*i)
	}
	b.WriteString("99 9223372036854775807 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n")
	path := filepath.Join(t.TempDir(), "extremes.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := fromTrace(path, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	ends := sliceEnds(w.jobs, 50)
	if len(ends) != 50 || ends[49] != 3000 {
		t.Fatalf("%d slices, the last ending at %v; want 50 ending at 3000", len(ends), ends[len(ends)-1:])
	}
	prev := int64(-1 << 62)
	for k, end := range ends {
		n := 0
		for _, j := range w.jobs {
			if j.Submit > prev && j.Submit <= end && j.Submit >= 0 && j.Submit <= 3000 {
				n++
			}
		}
		if n < 1 || n > 2 {
			t.Errorf("slice %d (%d, %d] holds %d sane jobs, want 1 or 2", k+1, prev, end, n)
		}
		prev = end
	}
	// and the run over that log completes, each variant in 50 slices
	calls := 0
	if _, err := simulate(context.Background(), "EASY", w.machine, w.jobs, func(float64) { calls++ }); err != nil || calls != 50 {
		t.Errorf("EASY: %d slices, error %v; want 50, nil", calls, err)
	}
}
