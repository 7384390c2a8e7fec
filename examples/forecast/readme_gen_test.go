package main

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// readmeLog is one log of the README's scoreboard and the predictors it
// is scored with (every predictor on every log).
type readmeLog struct {
	file       string
	predictors []string
}

// cheap are the predictors scored on every log.
var cheap = []string{"forecast", "estimates", "naive", "qbets"}

// readmeLogs are the shipped logs with recorded waits (LLNL-Atlas,
// NASA-iPSC and the Lublin model have none).
var readmeLogs = []readmeLog{
	{"KTH-SP2-1996-2.1-cln.swf.gz", allPredictors},
	{"SDSC-Par-1996-3.1-cln.swf.gz", allPredictors},
	{"OSC-Clust-2000-3.1-cln.swf.gz", allPredictors},
	{"SDSC-SP2-1998-4.2-cln.swf.gz", allPredictors},
	{"CTC-SP2-1996-3.1-cln.swf.gz", allPredictors},
	{"LANL-CM5-1994-4.1-cln.swf.gz", allPredictors},
	{"SDSC-BLUE-2000-4.2-cln.swf.gz", allPredictors},
	{"CEA-Curie-2011-2.1-cln.swf.gz", allPredictors},
}

// logResult is one log's scored rows.
type logResult struct {
	info traceInfo
	rows []*row
}

// regionName is the README region of a log's table.
func regionName(info traceInfo) string { return "log-" + info.name }

func logTable(r logResult) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s jobs replayed, machine %s processors, scored after the first 10%%.\n\n",
		r.info.name, thousands(r.info.jobs), thousands(int(r.info.machine)))
	b.WriteString("| predictor | jobs | within ×2 | ≤ 1 min | ≤ 10 min | mean \\|log10\\| | AAE | coverage 50 / 80 / 90% | median width 50 / 80 / 90% |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, w := range r.rows {
		j := w.json()
		cov := fmt.Sprintf("%s / %s / %s", pct(w.coverage(0)), pct(w.coverage(1)), pct(w.coverage(2)))
		wid := fmt.Sprintf("%s / %s / %s", dur(w.width(0)), dur(w.width(1)), dur(w.width(2)))
		name := w.name
		if w.bound {
			name = "qbets (95% bound)"
			cov = "bound " + pct(w.coverage(2))
			wid = "median bound " + dur(w.width(2))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.3f | %s | %s | %s |\n", name, thousands(w.answered), pct(w.share(w.within2)),
			pct(w.share(w.within1m)), pct(w.share(w.within10)), deref(j.MeanAbsLog10), dur(deref(j.AAE)), cov, wid)
	}
	return b.Bytes()
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// goal is the goals on one log, read back from its README table.
type goal struct {
	log                 string
	forecast, best      float64 // within ×2, percent
	bestName            string
	forecastLog, minLog float64 // mean |log10|
	lowestName          string
	cov90               float64 // percent
	width90             string
}

// parseRows reads a log region's table: predictor → its cells.
func parseRows(region []byte) map[string][]string {
	rows := map[string][]string{}
	for _, l := range strings.Split(string(region), "\n") {
		if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| predictor") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(l, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows[cells[0]] = cells
	}
	return rows
}

func cell(s string) float64 {
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// goalOf reads one log's goals from its region.
func goalOf(name string, region []byte) (goal, error) {
	rows := parseRows(region)
	f, ok := rows["forecast"]
	if !ok {
		return goal{}, fmt.Errorf("%s: no forecast row", name)
	}
	g := goal{log: name, forecast: cell(f[2]), forecastLog: cell(f[5]), best: math.Inf(-1), minLog: math.Inf(1)}
	if cov := strings.Split(f[7], " / "); len(cov) == 3 {
		g.cov90 = cell(cov[2])
	}
	if w := strings.Split(f[8], " / "); len(w) == 3 {
		g.width90 = w[2]
	}
	for _, p := range slices.Sorted(maps.Keys(rows)) {
		c := rows[p]
		if p == "naive" || p == "estimates" {
			if v := cell(c[2]); v > g.best {
				g.best, g.bestName = v, p
			}
		}
		if v := cell(c[5]); p != "forecast" && v < g.minLog {
			g.minLog, g.lowestName = v, p
		}
	}
	return g, nil
}

func mark(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// goalsTable is the goals of issue 36 on every log, from the README's
// generated log tables (so it is computed from the figures as printed).
func goalsTable(gs []goal) []byte {
	var b bytes.Buffer
	b.WriteString("| log | forecast within ×2 % | best of naive and estimates % | margin (points) | ≥ 5 | mean \\|log10\\| forecast / lowest other | lowest | 90% coverage % | 88–92 | median 90% width |\n")
	b.WriteString("|---|---:|---:|---:|---|---:|---|---:|---|---:|\n")
	var margins []float64
	over50 := 0
	for _, g := range gs {
		m := g.forecast - g.best
		margins = append(margins, m)
		if g.forecast >= 50 {
			over50++
		}
		fmt.Fprintf(&b, "| %s | %.1f | %.1f (%s) | %+.1f | %s | %.3f / %.3f (%s) | %s | %.1f | %s | %s |\n", g.log, g.forecast, g.best, g.bestName,
			m, mark(m >= 5), g.forecastLog, g.minLog, g.lowestName, mark(g.forecastLog < g.minLog), g.cov90, mark(g.cov90 >= 88 && g.cov90 <= 92), g.width90)
	}
	slices.Sort(margins)
	med := math.NaN()
	if n := len(margins); n > 0 {
		med = (margins[(n-1)/2] + margins[n/2]) / 2
	}
	fmt.Fprintf(&b, "\nMedian margin over the best baseline: %+.1f points (goal ≥ 10: %s); the forecast is within ×2 for ≥ 50%% of the jobs on %d of %d logs (goal: at least half: %s).\n",
		med, mark(med >= 10), over50, len(gs), mark(2*over50 >= len(gs)))
	return b.Bytes()
}
