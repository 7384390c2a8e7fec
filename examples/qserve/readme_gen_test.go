package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// The README's accuracy tables of the IBL estimates (Karnak's §5 replay:
// 5-minute snapshots, every job scored before submission and while
// queued), generated here and checked by TestReadmeIBL.

// iblTraces are the traces of the tables.
var iblTraces = []string{tracetest.KTH, tracetest.SDSCSP2, tracetest.CTC}

// iblNeighbours are the neighbour counts of the -neighbors table; the
// last is Karnak's default.
var iblNeighbours = []int{1, 5, 20, 56}

// iblScore is one workload's row: the paper's metrics of one replay score.
type iblScore struct {
	jobs          int
	meanWait      float64 // hours
	accuracy      float64 // mean ibl.Accuracy
	relError      float64 // mean |E − A| / mean A
	meanHalf      float64 // mean half-width of the bounded intervals, hours
	bounded       int
	inInterval    float64 // share of the waits inside E ± half-width (an unbounded interval holds it)
	accuracyLong  float64 // mean accuracy over the waits ≥ ibl.LongWait
	long          int
	underMinute   int // scored waits under a minute
	underLongWait int // and under longWait
}

// iblAccuracy is the paper's per-job score (§V): 1 when the estimate
// equals the actual wait, else the smaller over the larger.
func iblAccuracy(est, act float64) float64 {
	if est == act {
		return 1
	}
	return min(est, act) / max(est, act)
}

// longWait is the paper's cut for "jobs that waited < 10 min" (§V).
const longWait = 600

func scoreIBL(s *replay.Score) iblScore {
	r := iblScore{jobs: s.Answered(), meanWait: s.MeanWait() / 3600, relError: s.AAE() / s.MeanWait(), inInterval: s.Coverage()}
	half := 0.0
	for _, o := range s.Answers {
		a := float64(o.Wait)
		acc := iblAccuracy(o.Point, a)
		r.accuracy += acc
		switch {
		case a < 60:
			r.underMinute++
			r.underLongWait++
		case a < longWait:
			r.underLongWait++
		default:
			r.long++
			r.accuracyLong += acc
		}
		if !math.IsInf(o.Upper, 1) {
			half += (o.Upper - o.Lower) / 2
			r.bounded++
		}
	}
	r.accuracy /= float64(max(r.jobs, 1))
	r.accuracyLong /= float64(max(r.long, 1))
	r.meanHalf = half / float64(max(r.bounded, 1)) / 3600
	return r
}

// iblRun is one trace replayed with one interval rule and neighbour count:
// the not-queued and the queued workload.
type iblRun struct{ notQueued, queued iblScore }

// evaluateIBL replays the usable jobs of a trace through IBL.
func evaluateIBL(jobs []swf.Job, cfg ibl.Config) (iblRun, error) {
	b, err := replay.NewIBL(cfg, cfg, 0)
	if err != nil {
		return iblRun{}, err
	}
	s, err := replay.Run(context.Background(), jobs, replay.Options{From: 0, To: len(jobs), Snapshot: 300}, b)
	if err != nil {
		return iblRun{}, err
	}
	return iblRun{scoreIBL(&s[0]), scoreIBL(s[0].Queued)}, nil
}

// usableJobs keeps the jobs with a known submit, wait, run time and size.
func usableJobs(jobs []swf.Job) []swf.Job {
	var out []swf.Job
	for _, j := range jobs {
		if j.Submit >= 0 && j.Wait >= 0 && j.RunTime >= 0 && j.Size() > 0 {
			out = append(out, j)
		}
	}
	return out
}

// iblKey is one replay of the tables.
type iblKey struct {
	trace     string
	empirical bool // ibl.Config.Empirical
	n         int
}

// iblRegions replays every trace with both interval rules at the default
// N and with the normal rule at every count of iblNeighbours, and prints
// the README's three tables and the sentences quoting them. The README's
// traces are iblTraces; the CI slice (TestReadmeSliceIBL) passes the
// first alone and gets its rows.
func iblRegions(dir string, traces []string, progress io.Writer) (map[string][]byte, error) {
	runs := map[iblKey]iblRun{}
	for _, name := range traces {
		_, jobs, err := swf.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		jobs = usableJobs(jobs)
		keys := []iblKey{{name, true, 0}}
		for _, n := range iblNeighbours {
			keys = append(keys, iblKey{name, false, n})
		}
		for _, k := range keys {
			fmt.Fprintf(progress, "ibl: %s, empirical interval %v, N = %d\n", name, k.empirical, k.n)
			r, err := evaluateIBL(jobs, ibl.Config{Empirical: k.empirical, N: k.n})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			runs[k] = r
		}
	}
	const def = 56 // Karnak's N, ibl.Config's default
	workloads := []struct {
		name string
		of   func(iblRun) iblScore
	}{{"not queued", func(r iblRun) iblScore { return r.notQueued }}, {"queued", func(r iblRun) iblScore { return r.queued }}}
	paper := map[string]string{
		"not queued": "| not queued | paper (5 TeraGrid systems) | 2.4k–43k | 0.83–7.14 h | 0.34–0.57 | — | 0.53–15.86 h | 79–86% |",
		"queued":     "| queued | paper | 1.1k–14k | 2.06–11.8 h | 0.33–0.45 | — | 2.76–25.89 h | 70–90% |",
	}
	paperAll := map[string]string{"not queued": "0.34–0.57 / — / 79–86%", "queued": "0.33–0.45 / — / 70–90%"}
	paperAcc := map[string]string{"not queued": "0.34–0.57", "queued": "0.33–0.45"}
	out := map[string][]byte{}
	var b bytes.Buffer
	fmt.Fprintln(&b, "| workload | trace | jobs | mean wait | accuracy | rel. error | mean CI | in CI (normal / empirical) |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|---|")
	for _, wl := range workloads {
		fmt.Fprintln(&b, paper[wl.name])
		for _, name := range traces {
			s, e := wl.of(runs[iblKey{name, false, def}]), wl.of(runs[iblKey{name, true, 0}])
			fmt.Fprintf(&b, "| %s | %s | %s | %.2f h | %.2f | %.2f | ±%.2f h | %.1f%% / %.1f%% |\n", wl.name, tracetest.ShortName(name),
				readme.Thousands(s.jobs), s.meanWait, s.accuracy, s.relError, s.meanHalf, 100*s.inInterval, 100*e.inInterval)
		}
	}
	out["ibl"] = clone(&b)
	fmt.Fprintf(&b, "| waits ≥ 10 min | %s | paper (all waits) |\n|---|%s\n", shortNames(traces), strings.Repeat("---|", len(traces)+1))
	for _, wl := range workloads {
		fmt.Fprintf(&b, "| %s |", wl.name)
		for i, name := range traces {
			s := wl.of(runs[iblKey{name, false, def}])
			jobs := readme.Thousands(s.long)
			if i == 0 {
				jobs += " jobs"
			}
			fmt.Fprintf(&b, " %.2f (%+.2f; %s) |", s.accuracyLong, s.accuracyLong-s.accuracy, jobs)
		}
		fmt.Fprintf(&b, " %s |\n", paperAcc[wl.name])
	}
	var under []string
	var underLong []float64
	for _, name := range traces {
		s := runs[iblKey{name, false, def}].notQueued
		under = append(under, fmt.Sprintf("%.0f%% (%s)", 100*float64(s.underMinute)/float64(s.jobs), tracetest.ShortName(name)))
		underLong = append(underLong, 100*float64(s.underLongWait)/float64(s.jobs))
	}
	fmt.Fprintf(&b, "\nOf the jobs scored before submission, %s waited under a minute (%s%% under 10 minutes).\n",
		strings.Join(under, ", "), readme.Span("%.0f", underLong))
	out["ibl-long"] = clone(&b)
	fmt.Fprint(&b, "| trace | workload |")
	for _, n := range iblNeighbours {
		if n == def {
			fmt.Fprintf(&b, " N = %d (Karnak, default) |", n)
		} else {
			fmt.Fprintf(&b, " N = %d |", n)
		}
	}
	fmt.Fprintf(&b, " paper: 5 TeraGrid systems, tuned N |\n|---|---|%s---|\n", strings.Repeat("---|", len(iblNeighbours)))
	for i, name := range traces {
		for _, wl := range workloads {
			fmt.Fprintf(&b, "| %s | %s |", tracetest.ShortName(name), wl.name)
			for _, n := range iblNeighbours {
				s := wl.of(runs[iblKey{name, false, n}])
				in := "—" // no bounded interval: one neighbour has no spread
				if s.bounded > 0 {
					in = fmt.Sprintf("%.1f%%", 100*s.inInterval)
				}
				fmt.Fprintf(&b, " %.2f / %.2f / %s / %.2f |", s.accuracy, s.relError, in, s.accuracyLong)
			}
			if i == 0 {
				fmt.Fprintf(&b, " %s |\n", paperAll[wl.name])
			} else {
				fmt.Fprintln(&b, " |")
			}
		}
	}
	out["ibl-n"] = clone(&b)
	return out, nil
}

func shortNames(traces []string) string {
	var s []string
	for _, t := range traces {
		s = append(s, tracetest.ShortName(t))
	}
	return strings.Join(s, " | ")
}

// clone returns b's bytes and empties it.
func clone(b *bytes.Buffer) []byte {
	defer b.Reset()
	return bytes.Clone(b.Bytes())
}
