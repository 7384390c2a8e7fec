package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// fixedColumns are the fixed table's columns after the log: the
// scoreboard's rows (read from its regions as printed) and the fixed
// configurations (scored by TestReadmeFixed).
var fixedColumns = []struct{ head, pred string }{
	{"naive", "naive"},
	{"IBL default", "ibl"},
	{"IBL median, k = 8", "ibl-median8"},
	{"IBL geomean, k = 8", "ibl-geomean8"},
	{"APQ default", "apq"},
	{"APQ LogWait", "apq-logwait"},
	{"forecast", "forecast"},
}

// fixedDigest pins the README's fixed region (the eight logs with IBL
// twice and APQ once: 37 min of CPU under load, SDSC-BLUE 17 and
// CEA-Curie 10 of them). Regenerate with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/forecast -run TestReadmeFixed -timeout 6h
//
// or one log at a time (-run 'TestReadmeFixed/logs/^KTH-SP2$'): the rows
// of the logs not run are kept as the README has them; with BATCHQ_ROWS
// (rowsEnv) only the named predictors are scored and the other cells kept.
const fixedDigest = "83fa5915a1c739bfb71a1565a07ac01a8a363f0f2b57562f48c3cd9963ff07e6"

// TestReadmeFixed scores the diagnosis's fixed IBL (weighted median and
// geometric mean, k = 8) and APQ (LogWait) on every log of the scoreboard,
// through the scoreboard's own replay and scoring (score), and tabulates
// them beside the scoreboard's rows of the same logs.
func TestReadmeFixed(t *testing.T) {
	got := map[string]map[string]string{} // log → predictor → "within ×2 / mean |log10|"
	if readme.Long() {
		var mu sync.Mutex
		t.Run("logs", func(t *testing.T) {
			for _, l := range readmeLogs {
				t.Run(tracetest.ShortName(l.file), func(t *testing.T) {
					t.Parallel() // (go test -parallel 2: two logs at a time)
					preds := fixedPredictors
					if only := os.Getenv(rowsEnv); only != "" {
						preds = slices.DeleteFunc(slices.Clone(preds), func(p string) bool { return !slices.Contains(strings.Split(only, ","), p) })
					}
					rows, info, err := score(context.Background(), tracetest.Path(t, l.file), 0, preds, nil)
					if err != nil {
						t.Fatal(err)
					}
					mu.Lock()
					defer mu.Unlock()
					got[info.name] = fixedCells(rows)
				})
			}
		})
	}
	readme.CheckLong(t, "README.md", map[string]string{"fixed": fixedDigest}, func() map[string][]byte {
		return map[string][]byte{"fixed": fixedTable(t, got)}
	})
}

// fixedCells are the rows' cells of the fixed table.
func fixedCells(rows []*row) map[string]string {
	out := map[string]string{}
	for _, w := range rows {
		j := w.json()
		out[w.name] = fmt.Sprintf("%s / %.3f", pct(w.share(w.within2)), deref(j.MeanAbsLog10))
	}
	return out
}

// scoreboardCell is predictor p's cell of the fixed table, read from the
// log's scoreboard region as printed ("" when the log has no such row).
func scoreboardCell(t *testing.T, log, p string) string {
	t.Helper()
	c, ok := parseRows([]byte(readme.RegionOf(t, "README.md", regionName(traceInfo{name: log}))))[p]
	if !ok {
		return ""
	}
	return c[2] + " / " + c[5]
}

// fixedTable is the fixed region: per log, the scoreboard's cells and the
// fixed configurations' (from got, else the README's row as printed:
// a run of some logs keeps the others), then how often each fixed
// configuration beats its default and the naive baseline.
func fixedTable(t *testing.T, got map[string]map[string]string) []byte {
	old := parseFixed(readme.RegionOf(t, "README.md", "fixed"))
	var b bytes.Buffer
	b.WriteString("| log |")
	for _, c := range fixedColumns {
		b.WriteString(" " + c.head + " |")
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---:|", len(fixedColumns)))
	b.WriteString("\n")
	var table []map[string]string // per row: predictor → cell
	var missing []string
	for _, l := range readmeLogs {
		log := tracetest.ShortName(l.file)
		cells := map[string]string{"log": log}
		for i, c := range fixedColumns {
			switch {
			case !isFixed(c.pred):
				cells[c.pred] = scoreboardCell(t, log, c.pred)
			case got[log][c.pred] != "":
				cells[c.pred] = got[log][c.pred]
			case old[log] != nil:
				cells[c.pred] = old[log][i+1]
			}
		}
		if !isFixedComplete(cells) {
			missing = append(missing, log)
			continue
		}
		table = append(table, cells)
		b.WriteString("| " + log + " |")
		for _, c := range fixedColumns {
			b.WriteString(" " + cells[c.pred] + " |")
		}
		b.WriteString("\n")
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "\nNot scored yet with the fixed configurations: %s.\n", strings.Join(missing, ", "))
	}
	b.WriteString("\n")
	b.WriteString(fixedSummary(table))
	return b.Bytes()
}

func isFixed(p string) bool {
	for _, f := range fixedPredictors {
		if f == p {
			return true
		}
	}
	return false
}

func isFixedComplete(cells map[string]string) bool {
	for _, c := range fixedColumns {
		if cells[c.pred] == "" {
			return false
		}
	}
	return true
}

// parseFixed reads the fixed region's rows: log → cells.
func parseFixed(region string) map[string][]string {
	out := map[string][]string{}
	for l := range strings.Lines(region) {
		if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| log |") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		if len(cells) == len(fixedColumns)+1 {
			out[cells[0]] = cells
		}
	}
	return out
}

// fixedVsDefault are the fixed configurations and the default each
// replaces.
var fixedVsDefault = [][2]string{{"ibl-median8", "ibl"}, {"ibl-geomean8", "ibl"}, {"apq-logwait", "apq"}}

// fixedSummary counts, from the cells as printed, the logs on which each
// fixed configuration beats its default and the naive baseline within ×2
// (a higher share) and by mean |log10| (a lower error), and the forecaster
// within ×2, and names the logs where it is not above the baseline within
// ×2.
func fixedSummary(table []map[string]string) string {
	var b strings.Builder
	head := map[string]string{}
	for _, c := range fixedColumns {
		head[c.pred] = c.head
	}
	n := len(table)
	fmt.Fprintf(&b, "On how many of the %d logs each fixed configuration beats its default, the naive baseline and the forecaster (within ×2: a higher share; mean \\|log10\\|: a lower error):\n\n", n)
	b.WriteString("| configuration | within ×2 above its default | mean \\|log10\\| below its default's | within ×2 above naive | mean \\|log10\\| below naive's | within ×2 above forecast | not above naive within ×2 |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---|\n")
	for _, fd := range fixedVsDefault {
		var w2Def, logDef, w2Naive, logNaive, w2Fc int
		var lose []string
		for _, r := range table {
			f, d, nv, fc := split(r[fd[0]]), split(r[fd[1]]), split(r["naive"]), split(r["forecast"])
			if f[0] > d[0] {
				w2Def++
			}
			if f[1] < d[1] {
				logDef++
			}
			if f[0] > nv[0] {
				w2Naive++
			} else {
				lose = append(lose, fmt.Sprintf("%s (%.1f against %.1f)", r["log"], f[0], nv[0]))
			}
			if f[1] < nv[1] {
				logNaive++
			}
			if f[0] > fc[0] {
				w2Fc++
			}
		}
		if len(lose) == 0 {
			lose = []string{"none"}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %s |\n", head[fd[0]], w2Def, logDef, w2Naive, logNaive, w2Fc, strings.Join(lose, ", "))
	}
	return b.String()
}

// split reads a cell "within ×2 / mean |log10|".
func split(c string) [2]float64 {
	a, l, _ := strings.Cut(c, " / ")
	return [2]float64{cell(a), cell(l)}
}

// TestReadmeSliceFixed is the CI slice of TestReadmeFixed (BATCHQ_LONG=1):
// the fixed IBL configurations on KTH-SP2 (6.8 s of CPU for the two), through
// score, must give the README's cells as printed.
func TestReadmeSliceFixed(t *testing.T) {
	if !readme.Long() {
		t.Skipf("IBL replays KTH-SP2: set %s=1", readme.LongEnv)
	}
	preds := []string{"ibl-median8", "ibl-geomean8"}
	rows, info, err := score(context.Background(), tracetest.Path(t, tracetest.KTH), 0, preds, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := parseFixed(readme.RegionOf(t, "README.md", "fixed"))[info.name]
	if old == nil {
		t.Fatalf("README region fixed has no row of %s", info.name)
	}
	cells := fixedCells(rows)
	n := 0
	for i, c := range fixedColumns {
		if cells[c.pred] == "" {
			continue
		}
		n++
		if cells[c.pred] != old[i+1] {
			t.Errorf("%s, %s: recomputed %q, README %q", info.name, c.head, cells[c.pred], old[i+1])
		}
	}
	if n != len(preds) {
		t.Errorf("%d cells recomputed, want %d", n, len(preds))
	}
}

// TestReadmeFixedTable: the fixed region's scoreboard columns and its
// counts are those of the scoreboard's regions and of its own fixed cells
// as printed (cheap: no replay), so a scoreboard regenerated without
// TestReadmeFixed, or a count edited by hand, fails here.
func TestReadmeFixedTable(t *testing.T) {
	readme.Check(t, "README.md", "fixed", fixedTable(t, nil))
}

// TestReadmeFixedProse: the counts and margins in the prose under the
// fixed region are the region's (cheap: no replay; the region is pinned
// by its digest and by TestReadmeFixedTable).
func TestReadmeFixedProse(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := regexp.MustCompile(`\s+`).ReplaceAllString(string(doc), " ")
	region := readme.RegionOf(t, "README.md", "fixed")
	rows := parseFixed(region)
	counts := map[string][]string{}
	for l := range strings.Lines(region) {
		c := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		if len(c) == 7 {
			for i := range c {
				c[i] = strings.TrimSpace(c[i])
			}
			counts[c[0]] = c
		}
	}
	n := len(rows)
	// margins are the lowest and highest within-×2 margin (points, as
	// printed) of column i over the naive baseline's (column 1).
	margins := func(i int) (lo, hi float64, at string) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for log, r := range rows {
			m := split(r[i])[0] - split(r[1])[0]
			if m < lo || (m == lo && log < at) {
				lo, at = m, log
			}
			hi = max(hi, m)
		}
		return lo, hi, at
	}
	col := func(head string) int {
		for i, c := range fixedColumns {
			if c.head == head {
				return i + 1
			}
		}
		t.Fatalf("no column %q", head)
		return 0
	}
	var want []string
	for _, cfg := range []struct{ head, def string }{
		{"IBL median, k = 8", "the default IBL"}, {"IBL geomean, k = 8", "the default IBL"}, {"APQ LogWait", "the default APQ"},
	} {
		c, ok := counts[cfg.head]
		if !ok {
			t.Fatalf("fixed region: no count row %q", cfg.head)
		}
		lo, hi, at := margins(col(cfg.head))
		want = append(want, fmt.Sprintf("**%s**: within ×2 above %s on %s of %d logs (by mean \\|log10\\| on %s), above the naive baseline on %s of %d (by mean \\|log10\\| on %s), above the forecaster on %s of %d; its within-×2 margin over the naive baseline runs from %+.1f points (%s) to %+.1f",
			cfg.head, cfg.def, c[1], n, c[2], c[3], n, c[4], c[5], n, lo, at, hi))
	}
	// The logs, in the scoreboard's order, where APQ LogWait is not above
	// the paper's APQ within ×2, and where its log error is higher.
	var w2, lg []string
	for _, l := range readmeLogs {
		r, ok := rows[tracetest.ShortName(l.file)]
		if !ok {
			continue
		}
		f, d := split(r[col("APQ LogWait")]), split(r[col("APQ default")])
		if f[0] <= d[0] {
			w2 = append(w2, r[0])
		}
		if f[1] > d[1] {
			lg = append(lg, r[0])
		}
	}
	want = append(want, fmt.Sprintf("It is not a fix everywhere: on %s it is below the paper's APQ within ×2, and on %s its log error is higher than the paper's.",
		and(w2), and(lg)))
	for _, w := range want {
		if !strings.Contains(prose, w) {
			t.Errorf("README prose on the fixes lacks, from the region: %s", w)
		}
	}
}

// and lists names as prose does: "a", "a and b", "a, b and c".
func and(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
