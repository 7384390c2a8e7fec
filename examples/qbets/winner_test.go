package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets"
)

// TestWinnerNoWait: a queue in which no job waited (LANL-CM5's queue 6,
// SDSC-Par's queue 0) gets bounds of 0 s that all hold exactly, so every
// method ties at an RMS of 0 and the rule's first, BM, read as its
// winner, counted among BM's wins in the README's tally. Its row now says
// it is degenerate and the tally counts it apart, in both tables.
func TestWinnerNoWait(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 600; i++ {
		q, wait := 1+i%2, 0 // queue 1 never waits
		if q == 2 {
			wait = (i * 7919) % 3600
		}
		fmt.Fprintf(&b, "%d %d %d 100 4 -1 -1 4 200 -1 1 1 1 1 %d -1 -1 -1\n", i, 60*i, wait, q)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "quiet.swf"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := measure(dir, 100, tableConfigs(qbets.ClusterFixedProcs), io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, rows := range m.rows {
		var out strings.Builder
		table(&out, rows, k == 1)
		text := out.String()
		for l := range strings.Lines(text) {
			idle := strings.HasPrefix(l, "| quiet/1 |")
			if idle != strings.Contains(l, "| degenerate: no job waited |") {
				t.Errorf("table %d: want queue 1 alone degenerate:\n%s", k, text)
			}
		}
		if n := strings.Count(text, "| quiet/"); n != 3 {
			t.Fatalf("table %d: %d rows, want queues 1, 2 and ALL:\n%s", k, n, text)
		}
		// queue 2 and ALL are won (or none's); queue 1 is not counted as won.
		got := tally(rows)
		rest, ok := strings.CutSuffix(got, ", no job waited 1 (no winner)")
		won := 0
		for _, f := range strings.Split(rest, ", ") {
			var name string
			var n int
			if _, err := fmt.Sscanf(f, "%s %d", &name, &n); err != nil {
				t.Fatalf("tally %q: %q: %v", got, f, err)
			}
			won += n
		}
		if !ok || won != 2 {
			t.Errorf("table %d: tally %q; want 2 rows won (or none's) and 1 without a winner:\n%s", k, got, text)
		}
		t.Logf("table %d:\n%s%s", k, text, got)
	}
}
