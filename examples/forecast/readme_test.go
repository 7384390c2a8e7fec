package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// The README's scoreboard, one region per log, by the SHA-256 of its text
// (IBL and APQ take hours of CPU on the larger logs, so the runs are behind
// BATCHQ_LONG; each log is a subtest, so that one log can be regenerated
// alone). Regenerate and print the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/forecast -run 'TestReadmeScoreboard/^KTH-SP2$' -timeout 6h
var scoreboardDigests = map[string]string{
	"log-KTH-SP2":   "d5b540f03a7f3b0e83e0ce434744514e2ba2fa9daa76572d5280a95b4a4b480a",
	"log-SDSC-Par":  "ee37cc17c9290ae4276a8f47f213993c793112902cc82ae5f8436d5572f4e2a1",
	"log-OSC-Clust": "f3cfea0a029ca9fca587bb459676b18445f9ab136ba9dea4cfc8acdb50fe79f3",
	"log-SDSC-SP2":  "c6214a7efef105263550e3bdc8940943ad52dd571fd2de7385d0f93a54a5095d",
	"log-CTC-SP2":   "22a3bfbb8d1e7f5fbc1fefb44671a3ce725500534794bfae9f80a42bd10680b2",
	"log-LANL-CM5":  "e043fa784648fd3d12f5b3bbc00dd55d9620b224477e6118a6c57d85e9f46105",
	"log-SDSC-BLUE": "4376ea1be66a7d22db3483ce796fdf80e03b4a7471dc985f7d3656749c967e2b",
	"log-CEA-Curie": "4ec71b13a818f8c9c8a5a8190001130f8a3f68de5902f60b7a60c653e2666ed7",
}

// rowsEnv, with the long run, names the predictors (comma-separated) to
// score again: only their rows of each table are replaced, the others
// are kept as the README has them (for a change that touches one
// predictor: the whole scoreboard takes hours, IBL's rows of the six
// larger logs about 4.4 minutes on the 2-core Xeon of 2026-11-30).
const rowsEnv = "BATCHQ_ROWS"

// spliceRows is the README's region with the rows of table (a logTable of
// some of its predictors) put in place of its own rows of those
// predictors; the header line must be the same.
func spliceRows(region string, table []byte) ([]byte, error) {
	readmeMu.Lock()
	doc, err := os.ReadFile("README.md")
	readmeMu.Unlock()
	if err != nil {
		return nil, err
	}
	old, err := readme.Region(doc, region)
	if err != nil {
		return nil, err
	}
	fresh := map[string]string{}
	lines := strings.Split(string(table), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "| ") {
			fresh[strings.SplitN(l, " |", 2)[0]] = l
		}
	}
	out := strings.Split(string(old), "\n")
	if out[0] != lines[0] {
		return nil, fmt.Errorf("%s: the log's line changed (%q, README %q): regenerate every row", region, lines[0], out[0])
	}
	for i, l := range out {
		k := strings.SplitN(l, " |", 2)[0]
		if n, ok := fresh[k]; ok && strings.HasPrefix(l, "| ") {
			out[i] = n
			delete(fresh, k)
		}
	}
	// A predictor the table did not have yet (APQ, first scored on the
	// larger logs) goes before the first row of a predictor after it in
	// allPredictors' order, as a whole run would print it.
	for _, l := range lines {
		k := strings.SplitN(l, " |", 2)[0]
		if _, ok := fresh[k]; !ok {
			continue
		}
		at := len(out)
		for i, o := range out {
			if strings.HasPrefix(o, "| ") && predictorRank(o) > predictorRank(l) {
				at = i
				break
			}
		}
		out = slices.Insert(out, at, l)
	}
	return []byte(strings.Join(out, "\n")), nil
}

// predictorRank is the place in allPredictors of a table row's predictor
// ("| qbets (95% bound) | …" is qbets), -1 for the header and rules.
func predictorRank(row string) int {
	name, _, _ := strings.Cut(strings.TrimPrefix(row, "| "), " ")
	return slices.Index(allPredictors, name)
}

// readmeMu serializes the subtests' README rewrites.
var readmeMu sync.Mutex

func TestReadmeScoreboard(t *testing.T) {
	for _, l := range readmeLogs {
		name := tracetest.ShortName(l.file)
		t.Run(name, func(t *testing.T) {
			region := regionName(traceInfo{name: name})
			d, ok := scoreboardDigests[region]
			if !ok && !readme.Long() {
				t.Skipf("%s is not generated yet; generate it with %s=1 %s=1", name, readme.LongEnv, readme.UpdateEnv)
			}
			var got map[string][]byte
			if readme.Long() {
				t.Parallel() // (go test -parallel 2: two logs at a time)
				preds := l.predictors
				if only := os.Getenv(rowsEnv); only != "" {
					preds = slices.DeleteFunc(slices.Clone(preds), func(p string) bool { return !slices.Contains(strings.Split(only, ","), p) })
				}
				rows, info, err := score(context.Background(), tracetest.Path(t, l.file), 0, preds, nil)
				if err != nil {
					t.Fatal(err)
				}
				table := logTable(logResult{info, rows})
				if len(preds) < len(l.predictors) {
					if table, err = spliceRows(region, table); err != nil {
						t.Fatal(err)
					}
				}
				got = map[string][]byte{regionName(info): table}
			}
			readmeMu.Lock() // the parallel subtests rewrite one file
			defer readmeMu.Unlock()
			readme.CheckLong(t, "README.md", map[string]string{region: d}, func() map[string][]byte { return got })
		})
	}
}

// The goals table is computed from the log tables as the README prints
// them (cheap: no replay).
func TestReadmeGoals(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var gs []goal
	for _, l := range readmeLogs {
		name := tracetest.ShortName(l.file)
		region, err := readme.Region(doc, regionName(traceInfo{name: name}))
		if err != nil {
			t.Fatal(err)
		}
		if len(region) == 0 {
			continue // not generated yet
		}
		g, err := goalOf(name, region)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	readme.Check(t, "README.md", "goals", goalsTable(gs))
}

// The default run re-scores the smallest log with the cheap predictors
// (forecast, estimates, naive, qbets: about 3 s of CPU) and checks that
// their rows are the README's, line for line.
func TestReadmeKTHCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("replays KTH-SP2")
	}
	path := tracetest.Path(t, tracetest.KTH)
	rows, info, err := score(context.Background(), path, 0, cheap, nil)
	if err != nil {
		t.Fatal(err)
	}
	region := readme.RegionOf(t, "README.md", regionName(info))
	lines := strings.Split(string(logTable(logResult{info, rows})), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "| ") && !strings.Contains(region, l+"\n") {
			t.Errorf("README region %s lacks the recomputed row\n%s", regionName(info), l)
		}
	}
}

// TestReadmeSliceIBL is the CI slice of TestReadmeScoreboard
// (BATCHQ_LONG=1; CI runs it with -run): IBL, which the default run leaves
// out, on the two smallest logs, KTH-SP2 and SDSC-Par (4 s of CPU each),
// through score. Its row of each log's table must be the README's, line for
// line (TestReadmeKTHCheap checks the cheap predictors' rows on KTH-SP2;
// each region is pinned by its digest).
func TestReadmeSliceIBL(t *testing.T) {
	if !readme.Long() {
		t.Skipf("IBL replays KTH-SP2 and SDSC-Par: set %s=1", readme.LongEnv)
	}
	for _, l := range readmeLogs[:2] {
		checkRecomputedRow(t, l, "ibl")
	}
}

// TestReadmeSliceAPQ is the CI slice of APQ's rows: KTH-SP2's (about 38 s
// of CPU with a CI run beside it; its replay took 133 s before APQ kept
// its weights sorted).
func TestReadmeSliceAPQ(t *testing.T) {
	if !readme.Long() {
		t.Skipf("APQ replays KTH-SP2: set %s=1", readme.LongEnv)
	}
	checkRecomputedRow(t, readmeLogs[0], "apq")
}

// checkRecomputedRow scores log l with predictor p alone and finds its row
// in the README's table of that log, as printed.
func checkRecomputedRow(t *testing.T, l readmeLog, p string) {
	t.Helper()
	if !slices.Contains(l.predictors, p) {
		t.Fatalf("%s is not scored with %s in the README", l.file, p)
	}
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, info, err := score(context.Background(), tracetest.Path(t, l.file), 0, []string{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	region, err := readme.Region(doc, regionName(info))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for row := range strings.Lines(string(logTable(logResult{info, rows}))) {
		if strings.HasPrefix(row, "| ") && !strings.HasPrefix(row, "| predictor |") {
			n++
			if !strings.Contains(string(region), row) {
				t.Errorf("README region %s lacks the recomputed row\n%s", regionName(info), row)
			}
		}
	}
	if n != 1 {
		t.Errorf("%s: %d rows recomputed, want %s's", info.name, n, p)
	}
}
