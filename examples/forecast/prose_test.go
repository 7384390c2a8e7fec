package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// TestReadmeLANLProse: the figures of the prose on LANL-CM5 ("Where the
// margin is under 5 points") are those of the generated goals and
// lanl-who regions, which the digests pin: a regeneration that moves a
// table fails here until the prose follows (cheap: no replay).
func TestReadmeLANLProse(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	space := regexp.MustCompile(`\s+`)
	prose := space.ReplaceAllString(string(doc), " ")
	goals := readme.RegionOf(t, "README.md", "goals")
	who := readme.RegionOf(t, "README.md", "lanl-who")
	// row returns the cells of the table row of region that starts with
	// prefix (parseRows' cells: the first names the row).
	row := func(region, prefix string) []string {
		t.Helper()
		for name, c := range parseRows([]byte(region)) {
			if strings.HasPrefix("| "+name+" |", prefix) {
				return c
			}
		}
		t.Fatalf("no row %q", prefix)
		return nil
	}
	g := row(goals, "| LANL-CM5 |")
	margin, err := strconv.ParseFloat(g[3], 64)
	if err != nil {
		t.Fatal(err)
	}
	naive, _, _ := strings.Cut(g[2], " ")
	q9, q2 := row(who, "| 9 `prod_long` |"), row(who, "| 2 `production` |")
	q1 := row(who, "| 1 `development` |")
	big := row(who, "| 257–512 |")
	oracle, byEst, _ := strings.Cut(big[5], " / ")
	now := row(who, "| told ≤ 2 min")
	_, nowDev, _ := strings.Cut(now[3], ": ")
	misses := regexp.MustCompile(`The forecaster's ([0-9,]+) misses`).FindStringSubmatch(who)
	over := regexp.MustCompile(`questions \(([0-9.]+%)\)`).FindStringSubmatch(who)
	scored := regexp.MustCompile(`the ([0-9,]+) jobs scored`).FindStringSubmatch(who)
	known := row(who, "| 60 s for every job that waited ≤ 2 min (a perfect")
	median := row(who, "| 60 s for every job that waited ≤ 2 min, and")
	cells := row(who, "| per cell of queue")
	if misses == nil || over == nil || scored == nil {
		t.Fatal("lanl-who: the misses, the over-full questions or the jobs scored not found")
	}
	for _, want := range []string{
		fmt.Sprintf("LANL-CM5 misses the 5-point bar by %.1f points (%s: %s%% within ×2 against the naive baseline's %s%%)", 5-margin, g[3], g[1], naive),
		fmt.Sprintf("is right for %s%% of the jobs", naive),
		fmt.Sprintf("%s%% and %s%% of their jobs wait more than 2 minutes, against %s%% of queue 1's, `development`, which holds %s of the %s jobs", q2[2], q9[2], q1[2], q1[1], scored[1]),
		fmt.Sprintf("(257–512 processors: %s%% wait when a job of their size class is running at their submission, %s%% when none is;", strings.Split(big[3], ", ")[1], strings.Split(big[4], ", ")[1]),
		fmt.Sprintf("at %s of the questions", over[1]),
		fmt.Sprintf("while %s%% of the 17–32-processor jobs wait", row(who, "| 17–32 |")[2]),
		fmt.Sprintf("(queue 9: %s%% within ×2 against the baseline's %s%%; queue 2: %s%% against %s%%)", q9[3], q9[4], q2[3], q2[4]),
		fmt.Sprintf("%s of its %s misses are jobs told \"now\" (≤ 2 min) that waited longer (%s of them in the development queue)", now[1], misses[1], nowDev),
		fmt.Sprintf("for %s%% of the 257–512-processor jobs that waited, by its real run time (an oracle), but for %s%% by its user estimate", oracle, byEst),
		fmt.Sprintf("the forecaster's answers would be within ×2 for %s%% of the jobs (%s points)", known[1], known[2]),
		fmt.Sprintf("hour of submission to reach %s%% (%s)", median[1], median[2]),
		fmt.Sprintf("chosen with hindsight over the whole log, scores %s%% (%s)", cells[1], cells[2]),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("README prose on LANL-CM5 lacks, from the tables: %s", want)
		}
	}
}

// TestReadmeIBLAPQProse: the "IBL and APQ" bullet's ranges and the logs
// where either beats the naive baseline are read from the log tables as
// printed (cheap: no replay).
func TestReadmeIBLAPQProse(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := regexp.MustCompile(`\s+`).ReplaceAllString(string(doc), " ")
	lo := map[string]float64{"ibl": 101, "apq": 101}
	hi := map[string]float64{"ibl": -1, "apq": -1}
	above := map[string][]string{}
	for _, l := range readmeLogs {
		name := tracetest.ShortName(l.file)
		rows := parseRows([]byte(readme.RegionOf(t, "README.md", regionName(traceInfo{name: name}))))
		naive := cell(rows["naive"][2])
		for _, p := range []string{"ibl", "apq"} {
			c, ok := rows[p]
			if !ok {
				t.Fatalf("%s: no %s row", name, p)
			}
			v := cell(c[2])
			lo[p], hi[p] = min(lo[p], v), max(hi[p], v)
			if v >= naive {
				above[p] = append(above[p], fmt.Sprintf("%s (%s%% against %s%%)", name, c[2], rows["naive"][2]))
			}
		}
	}
	but := func(p string) string {
		if len(above[p]) == 0 {
			return "every log"
		}
		return "every log but " + strings.Join(above[p], ", ")
	}
	want := fmt.Sprintf("Within ×2, APQ scores %.1f–%.1f%% over the logs and IBL %.1f–%.1f%% (the issue measured 14–24%% and 20–31%% on four logs); APQ is below the naive baseline on %s, IBL on %s.",
		lo["apq"], hi["apq"], lo["ibl"], hi["ibl"], but("apq"), but("ibl"))
	if !strings.Contains(prose, want) {
		t.Errorf("README lacks, from the log tables:\n%s", want)
	}
}
