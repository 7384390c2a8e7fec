package main

import (
	"context"
	"os"
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
	"log-KTH-SP2":   "de9dffc4349d09a58b127dfdcb2b74fd5e3f742605ff3d262a990bff2d6d53b2",
	"log-SDSC-Par":  "981433c92acb7e624a22a0347dc8f64cdb6e1999b1bd9c3462a352472f951f07",
	"log-OSC-Clust": "f8f2f1ba53883cd52660c272940298ca5f8b4a03c86c5a3893860959ae3026d9",
	"log-SDSC-SP2":  "58c00bd5be02c6dcf28e4b655ee65a28a8620f8c896f1c4c96a4813395f327f0",
	"log-CTC-SP2":   "2cd2bad569b87f3fab3deb40d07e233a092878d04442cdafd705bd61e10eb0a4",
	"log-LANL-CM5":  "fe98b7431f454971f9825a3c75565e0f740c86dfbcb1aaad066ac9d5d8a7502c",
	"log-SDSC-BLUE": "c3467cc7779a1f8048bd4746abc60c0e3da2a8f0fa58435afaa3a376925c9dc5",
	"log-CEA-Curie": "3825b62c088cef7fb28e16869605247f5a0df1184902dbce7d97750f158b511a",
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
				rows, info, err := score(context.Background(), tracetest.Path(t, l.file), 0, l.predictors, nil)
				if err != nil {
					t.Fatal(err)
				}
				got = map[string][]byte{regionName(info): logTable(logResult{info, rows})}
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
