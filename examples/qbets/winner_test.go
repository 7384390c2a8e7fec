package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
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

// TestWinnerTie: correct methods that share the lowest RMS tie, and the
// cell says so. In a queue where every job waits the same 600 s every
// method's bound is that wait, exact, and the rule's first in table
// order, BM, was named the winner (and counted among BM's wins).
func TestWinnerTie(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&b, "%d %d 600 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n", i, 60*i)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "same.swf"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := measure(dir, 100, tableConfigs(qbets.ClusterFixedProcs), io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, rows := range m.rows {
		if len(rows) != 1 {
			t.Fatalf("table %d: %d rows, want 1", k, len(rows))
		}
		x := &rows[0]
		var correct []string
		for _, m := range methods {
			if s := x.r.Of(m); s.Correctness() >= 0.95 && s.RMS() == x.r.Of(methods[0]).RMS() {
				correct = append(correct, m.String())
			}
		}
		if len(correct) < 2 {
			t.Fatalf("table %d: no tie to test (tied at BM's RMS: %v)", k, correct)
		}
		t.Logf("table %d: tied %v", k, correct)
		want := "tie: " + strings.Join(correct, ", ")
		if got := winner(x); got != want {
			t.Errorf("table %d: winner %q, want %q", k, got, want)
		}
		if got := tally(rows); !strings.Contains(got, "tied 1 (no single winner)") || !strings.HasPrefix(got, "BM 0,") {
			t.Errorf("table %d: tally %q; want the row tied, not BM's", k, got)
		}
	}
}

// TestWinnerTiePrinted: two correct methods whose RMS differ past what
// the table prints (accuracy ratios 1.00 and 1.00) tie; exact equality
// named the lower alone, a choice the reader of the row cannot check.
// One whose ratio reads higher still wins alone.
func TestWinnerTiePrinted(t *testing.T) {
	score := func(upper float64) replay.Score {
		var s replay.Score
		for range 20 {
			s.Answers = append(s.Answers, replay.Outcome{Upper: upper, Wait: 10})
		}
		return s
	}
	for _, c := range []struct {
		logN float64
		want string
	}{
		{110 + 1e-7, "tie: BM, LogN"},
		{110 - 1e-7, "tie: BM, LogN"},
		{90, "LogN"},
	} {
		x := row{name: "q", jobs: 20, waited: 20}
		x.r.Methods = []replay.Score{score(110), score(c.logN), score(210), score(5)}
		x.r.Score = x.r.Methods[replay.BM]
		if got := winner(&x); got != c.want {
			t.Errorf("LogN's bound %v: winner %q, want %q (acc LogN %s)", c.logN, got, c.want, ratio(x.r.Ratio(replay.LogNormal)))
		}
	}
}
