package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// readmeLog is one log of the README's scoreboard and the predictors it
// is scored with (the whole set, or the cheap ones where IBL, APQ and
// QBETS would take hours of CPU on a shared 2-core machine).
type readmeLog struct {
	file       string
	predictors []string
}

// cheap are the predictors scored on every log.
var cheap = []string{"forecast", "estimates", "naive"}

// readmeLogs are the shipped logs with recorded waits (LLNL-Atlas,
// NASA-iPSC and the Lublin model have none).
var readmeLogs = []readmeLog{
	{"KTH-SP2-1996-2.1-cln.swf.gz", allPredictors},
	{"SDSC-Par-1996-3.1-cln.swf.gz", allPredictors},
	{"OSC-Clust-2000-3.1-cln.swf.gz", allPredictors},
	{"SDSC-SP2-1998-4.2-cln.swf.gz", allPredictors},
	{"CTC-SP2-1996-3.1-cln.swf.gz", allPredictors},
	{"LANL-CM5-1994-4.1-cln.swf.gz", cheap},
	{"SDSC-BLUE-2000-4.2-cln.swf.gz", cheap},
	{"CEA-Curie-2011-2.1-cln.swf.gz", cheap},
}

// logResult is one log's scored rows.
type logResult struct {
	info traceInfo
	rows []*row
}

// scoreLogs scores every README log in dir, two at a time.
func scoreLogs(ctx context.Context, dir string, logs []readmeLog) ([]logResult, error) {
	out := make([]logResult, len(logs))
	errs := make([]error, len(logs))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, l := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rows, info, err := score(ctx, filepath.Join(dir, l.file), 0, l.predictors, nil)
			out[i], errs[i] = logResult{info, rows}, err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// regionName is the README region of a log's table.
func regionName(info traceInfo) string { return "log-" + info.name }

// readmeRegions returns the README's generated regions: one table per log
// and the goals table.
func readmeRegions(res []logResult) map[string][]byte {
	out := map[string][]byte{}
	for _, r := range res {
		out[regionName(r.info)] = logTable(r)
	}
	out["goals"] = goalsTable(res)
	return out
}

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

// goal is the goals on one log.
type goal struct {
	log                 string
	forecast, best      float64 // within ×2
	bestName            string
	lowestLog           bool
	lowestName          string
	cov90               float64
	width90             float64
	forecastLog, minLog float64
}

func goals(res []logResult) []goal {
	var gs []goal
	for _, r := range res {
		g := goal{log: r.info.name, best: math.Inf(-1), minLog: math.Inf(1)}
		for _, w := range r.rows {
			w2 := w.share(w.within2)
			ml := w.absLog / float64(w.answered)
			switch w.name {
			case "forecast":
				g.forecast, g.forecastLog = w2, ml
				g.cov90, g.width90 = w.coverage(2), w.width(2)
			case "naive", "estimates":
				if w2 > g.best {
					g.best, g.bestName = w2, w.name
				}
			}
			if w.name != "forecast" && ml < g.minLog {
				g.minLog, g.lowestName = ml, w.name
			}
		}
		g.lowestLog = g.forecastLog < g.minLog
		gs = append(gs, g)
	}
	return gs
}

func mark(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

func goalsTable(res []logResult) []byte {
	gs := goals(res)
	var b bytes.Buffer
	b.WriteString("| log | forecast within ×2 | best of naive and estimates | margin (points) | ≥ 5 points | mean \\|log10\\| forecast / next best | lowest | 90% coverage | in 0.88–0.92 | median 90% width |\n")
	b.WriteString("|---|---:|---:|---:|---|---:|---|---:|---|---:|\n")
	var margins []float64
	over50 := 0
	for _, g := range gs {
		m := 100 * (g.forecast - g.best)
		margins = append(margins, m)
		if g.forecast >= 0.5 {
			over50++
		}
		fmt.Fprintf(&b, "| %s | %s | %s (%s) | %+.1f | %s | %.3f / %.3f (%s) | %s | %s | %s | %s |\n", g.log, pct(g.forecast), pct(g.best), g.bestName,
			m, mark(m >= 5), g.forecastLog, g.minLog, g.lowestName, mark(g.lowestLog), pct(g.cov90), mark(g.cov90 >= 0.88 && g.cov90 <= 0.92), dur(g.width90))
	}
	slices.Sort(margins)
	med := math.NaN()
	if n := len(margins); n > 0 {
		med = (margins[(n-1)/2] + margins[n/2]) / 2
	}
	fmt.Fprintf(&b, "\nMedian margin over the best baseline: %+.1f points (goal ≥ 10: %s); forecast ≥ 50%% within ×2 on %d of %d logs (goal: at least half: %s).\n",
		med, strings.TrimPrefix(mark(med >= 10), ""), over50, len(gs), mark(2*over50 >= len(gs)))
	return b.Bytes()
}
