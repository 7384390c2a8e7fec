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
	"log-KTH-SP2":   "75f06ab55a107e4b68af69e37464c43bf592e836ea1c07dd68c0d498c15cceb6",
	"log-SDSC-Par":  "d470c97da79dfe7c08de239b2cb8a4baae217aa4b7f5ee3c9aceebb1a9117406",
	"log-OSC-Clust": "cbf4834b1958cd10f998b966093de47031e0ca59b675d306ce2eb8fcf1d118d6",
	"log-SDSC-SP2":  "c4b8f3d737e3273620ec25af32ffadaf67086bec3f0597f940b9b78af45d076b",
	"log-CTC-SP2":   "5318907ba4a90105e6ba528e8d20a8c5697b796d1574e6993cfb9675bb700483",
	"log-LANL-CM5":  "34af6cda6991b2e598e5b9e8eb9ed54aec875d6b7c9cf7ed2cdbe725c0ea35f6",
	"log-SDSC-BLUE": "4092dc912847b56dc889dc49a0d58775f62dc616a2b88c60bf44545471fa661b",
	"log-CEA-Curie": "bab12847d3ee4311d8f21e85389c1a2be816569bb9d520033acb1514ecaed5d0",
}

// rowsEnv, with the long run, names the predictors (comma-separated) to
// score again: only their rows of each table are replaced, the others
// are kept as the README has them (for a change that touches one
// predictor: IBL alone takes hours on the larger logs).
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
		if n, ok := fresh[strings.SplitN(l, " |", 2)[0]]; ok && strings.HasPrefix(l, "| ") {
			out[i] = n
		}
	}
	return []byte(strings.Join(out, "\n")), nil
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
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	region, err := readme.Region(doc, regionName(info))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(logTable(logResult{info, rows})), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "| ") && !strings.Contains(string(region), l+"\n") {
			t.Errorf("README region %s lacks the recomputed row\n%s", regionName(info), l)
		}
	}
}

// TestReadmeSliceIBL is the CI slice of TestReadmeScoreboard
// (BATCHQ_LONG=1; CI runs it with -run): IBL, which the default run leaves
// out, on the two smallest logs, KTH-SP2 and SDSC-Par (4 s of CPU each),
// through score. Its row of each log's table must be the README's, line for
// line (TestReadmeKTHCheap checks the cheap predictors' rows on KTH-SP2;
// each region is pinned by its digest). APQ, scored on KTH-SP2 alone, is
// not in the slice: its replay takes about 170 s of CPU there.
func TestReadmeSliceIBL(t *testing.T) {
	if !readme.Long() {
		t.Skipf("IBL replays KTH-SP2 and SDSC-Par: set %s=1", readme.LongEnv)
	}
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range readmeLogs[:2] {
		if !slices.Contains(l.predictors, "ibl") {
			t.Fatalf("%s is not scored with IBL in the README", l.file)
		}
		rows, info, err := score(context.Background(), tracetest.Path(t, l.file), 0, []string{"ibl"}, nil)
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
			t.Errorf("%s: %d rows recomputed, want IBL's", info.name, n)
		}
	}
}
