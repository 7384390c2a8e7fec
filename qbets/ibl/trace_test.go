package ibl_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/swf"
)

// fromSWF converts the jobs that have a known submit, wait, run time and
// size; the rest are counted as skipped.
func fromSWF(jobs []swf.Job) (out []ibl.TraceJob, skipped int) {
	for _, j := range jobs {
		if j.Submit < 0 || j.Wait < 0 || j.RunTime < 0 || j.Size() <= 0 {
			skipped++
			continue
		}
		out = append(out, ibl.TraceJob{
			Job: ibl.Job{
				ID: j.ID, Queue: fmt.Sprint("q", j.Queue), User: fmt.Sprint("u", j.User),
				Project: fmt.Sprint("g", j.Group), Name: fmt.Sprint("x", j.Executable),
				Cores: j.Size(), ReqTime: j.ReqTime, Submit: j.Submit,
			},
			Start: j.Submit + j.Wait, RunTime: j.RunTime,
		})
	}
	return out, skipped
}

// The paper's Tables I and II (TeraGrid, August 2010) give, for 90%
// intervals, 79–86% (not yet queued) and 70–90% (queued) of actual waits
// inside the interval, and accuracies 0.34–0.57 and 0.33–0.45. This test
// runs the same replay on the archive traces with the default (untuned)
// configuration and checks only what the method guarantees by
// construction; the measured numbers are logged and tabulated in doc.go.
func TestEvaluateTraces(t *testing.T) {
	// The full table (3 traces × 2 interval rules) took 3 minutes (niced,
	// load average 26; 8 before the columnar base); the normal run keeps
	// KTH with Karnak's rule (6 s on a less loaded machine).
	traces, rules := []string{tracetest.KTH}, []ibl.Interval{ibl.Normal}
	if os.Getenv("BATCHQ_IBL_FULL") != "" {
		traces = []string{tracetest.KTH, tracetest.SDSCSP2, tracetest.CTC}
		rules = append(rules, ibl.Empirical)
	}
	// BATCHQ_IBL_N=1,5,56 repeats every replay at those neighbour counts
	// (both bases), for choosing examples/qserve's -neighbors; unset, the
	// default N only.
	ns := []int{0}
	if v := os.Getenv("BATCHQ_IBL_N"); v != "" {
		ns = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				t.Fatalf("BATCHQ_IBL_N: %q is not a neighbour count ≥ 1", f)
			}
			ns = append(ns, n)
		}
	}
	if testing.Short() {
		t.Skip("trace replay skipped in -short (about 6 s)")
	}
	for _, name := range traces {
		for _, iv := range rules {
			for _, n := range ns {
				t.Run(fmt.Sprintf("%s/%d/N=%d", name, iv, n), func(t *testing.T) {
					_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
					if err != nil {
						t.Fatal(err)
					}
					tj, skipped := fromSWF(jobs)
					// The short waits, which the accuracy metric scores near 0
					// for any estimate of minutes or more (doc.go).
					var underMin, underLong int
					for _, j := range tj {
						if w := j.Start - j.Submit; w < 60 {
							underMin++
							underLong++
						} else if w < ibl.LongWait {
							underLong++
						}
					}
					t.Logf("%s: %d usable jobs, %.1f%% wait under a minute, %.1f%% under 10 min", name, len(tj),
						100*float64(underMin)/float64(len(tj)), 100*float64(underLong)/float64(len(tj)))
					t0 := time.Now()
					res, err := ibl.Evaluate(tj, ibl.EvalConfig{NotQueued: ibl.Config{Interval: iv, N: n}, Queued: ibl.Config{Interval: iv, N: n}})
					if err != nil {
						t.Fatal(err)
					}
					for _, w := range []struct {
						name string
						s    ibl.Score
					}{{"not queued", res.NotQueued}, {"queued", res.Queued}} {
						s := w.s
						t.Logf("%s N=%d interval=%d %-10s jobs %6d (skipped %d unusable, %d cold) mean wait %.2f h accuracy %.2f rel.err %.2f mean CI ±%.2f h (%d unbounded) in CI %.1f%%; waits ≥ 10 min: %d jobs, accuracy %.2f (%+.2f)",
							name, n, iv, w.name, s.Jobs, skipped, s.Skipped, s.MeanWait, s.Accuracy, s.RelError, s.MeanHalf, s.Unbounded, s.InInterval,
							s.LongJobs, s.AccuracyLong, s.AccuracyLong-s.Accuracy)
						if s.Jobs == 0 || s.Accuracy < 0 || s.Accuracy > 1 || s.InInterval < 0 || s.InInterval > 100 {
							t.Errorf("%s: implausible score %+v", w.name, s)
						}
					}
					t.Logf("%s: %v", name, time.Since(t0))
				})
			}
		}
	}
}
