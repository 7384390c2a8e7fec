package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// The command's runs at once (-par): Table V's logs, each replayed by its
// own goroutine through its own predictors (qbets/apq's Predictor and
// System are not safe for concurrent use, and Describe writes the System's
// memo). Small synthetic logs, so that `go test -race -run
// TestRunsAtOnceShareNothing` checks that every goroutine's state is its
// own (.ci/run races the library only; 46 s under -race here, no race);
// without -race it checks that the runs at once print what one at a time
// prints.
func TestRunsAtOnceShareNothing(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf.gz", 900, 16)
	clitest.WriteTrace(t, dir, "SDSC-Par-1996-3.1-cln.swf.gz", 900, 16)
	report := func(par int) string {
		var b strings.Builder
		if err := reproduce(&b, options{Dir: dir, Only: "SP2,Par", Tables: "V", Quick: true, Par: par}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// (the times measured are left out of the comparison)
	strip := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, " ms") && !strings.Contains(l, "µs") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	at, alone := report(2), report(1)
	if !strings.Contains(at, "| SDSC SP2 |") || !strings.Contains(at, "| SDSC Paragon |") {
		t.Fatalf("report lacks a log's rows:\n%s", at)
	}
	if strip(at) != strip(alone) {
		t.Errorf("-par 2:\n%s\n-par 1:\n%s", at, alone)
	}
}

// The seed sweep's simulations at once share the log, its strategy set-up
// (history, load functions) and the baselines, nothing else: each seed's
// run has its own APQ (runStrategy), and the table is the one the runs
// one at a time print. Under -race: 300 s on the shared machine, no race.
func TestSeedRunsShareNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("twenty molding simulations of 3,000 jobs (-short)")
	}
	dir := t.TempDir()
	path := clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf.gz", 3000, 16)
	tr, err := loadTrace(path, "SDSC SP2", filterRan, 0)
	if err != nil {
		t.Fatal(err)
	}
	table := func(par int) string {
		var log bytes.Buffer
		e := &env{Traces: []*trace{tr}, Quick: true, Floor: floorOff, Seed: 1, Seeds: 2, Par: par, Log: &log}
		var b strings.Builder
		if err := tableSeeds(&b, e); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(log.String(), "\n"); n != 9 {
			t.Errorf("-par %d: %d log lines, want one a run (9: a baseline, -quick's windows alike, and 4 strategies × 2 seeds)", par, n)
		}
		return b.String()
	}
	if at, alone := table(2), table(1); at != alone {
		t.Errorf("-par 2:\n%s\n-par 1:\n%s", at, alone)
	}
}
