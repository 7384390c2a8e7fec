package ibl_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// accuracy is the paper's per-job score (§V): 1 when the estimate equals
// the actual wait, else the smaller over the larger, so it lies in [0, 1]
// and is 0 when exactly one of them is 0.
func accuracy(est, act float64) float64 {
	if est == act {
		return 1
	}
	if est > act {
		return act / est
	}
	return est / act
}

// longWait is the paper's cut for "jobs that waited < 10 min" (§V): it
// reports that leaving out the shorter waits lowers Table I's accuracies
// by 0.10 on average.
const longWait = 600

// §5.1 checks: (3600, 1800) → 0.5; (1800, 3600) → 0.5; (0, 0) → 1;
// E = 60, A = 0 → 0.
func TestAccuracyPaperChecks(t *testing.T) {
	for _, c := range []struct{ e, a, want float64 }{{3600, 1800, 0.5}, {1800, 3600, 0.5}, {0, 0, 1}, {60, 0, 0}, {0, 60, 0}} {
		if got := accuracy(c.e, c.a); got != c.want {
			t.Errorf("accuracy(%v, %v) = %v, paper %v", c.e, c.a, got, c.want)
		}
	}
}

// usable keeps the jobs that have a known submit, wait, run time and
// size; the rest are counted as skipped.
func usable(jobs []swf.Job) (out []swf.Job, skipped int) {
	for _, j := range jobs {
		if j.Submit < 0 || j.Wait < 0 || j.RunTime < 0 || j.Size() <= 0 {
			skipped++
			continue
		}
		out = append(out, j)
	}
	return out, skipped
}

// score is one workload's row of Tables I/II, plus the relative mean error.
type score struct {
	Jobs       int     // predicted and scored
	Skipped    int     // no experience yet when the prediction was due
	MeanWait   float64 // hours, of the scored jobs
	Accuracy   float64 // mean of accuracy(E, A)
	RelError   float64 // mean |E − A| / mean A
	MeanHalf   float64 // mean CI half-width, hours (spec K8), of the bounded intervals
	InInterval float64 // percent of actual waits within E ± half-width (an unbounded interval holds it)
	Unbounded  int     // predictions with an unbounded interval (one neighbour), not in MeanHalf
	// AccuracyLong is the mean accuracy over the LongJobs jobs that
	// waited at least longWait.
	AccuracyLong float64
	LongJobs     int
}

// iblScore computes the paper's metrics from a replay score.
func iblScore(s *replay.Score) score {
	r := score{Jobs: s.Answered(), Skipped: s.Declined(), InInterval: 100 * s.Coverage(), RelError: s.AAE() / s.MeanWait()}
	half, bounded := 0.0, 0
	for _, o := range s.Answers {
		a := float64(o.Wait)
		acc := accuracy(o.Point, a)
		r.Accuracy += acc
		if a >= longWait {
			r.LongJobs++
			r.AccuracyLong += acc
		}
		if math.IsInf(o.Upper, 1) {
			r.Unbounded++
		} else {
			half += (o.Upper - o.Lower) / 2
			bounded++
		}
	}
	r.MeanWait = s.MeanWait() / 3600
	r.Accuracy /= max(float64(r.Jobs), 1)
	r.AccuracyLong /= max(float64(r.LongJobs), 1)
	r.MeanHalf = half / max(float64(bounded), 1) / 3600
	return r
}

// evaluate replays jobs through IBL with 5-minute snapshots, scoring every
// job: the not-queued and the queued workload.
func evaluate(jobs []swf.Job, nq, q ibl.Config) (score, score, error) {
	b, err := replay.NewIBL(nq, q, 0)
	if err != nil {
		return score{}, score{}, err
	}
	s, err := replay.Run(context.Background(), jobs, replay.Options{From: 0, To: len(jobs), Snapshot: 300}, b)
	if err != nil {
		return score{}, score{}, err
	}
	return iblScore(&s[0]), iblScore(s[0].Queued), nil
}

// Three jobs, followed by hand (5-minute snapshots at multiples of 300 s):
//
//	job  submit  start  wait
//	1    0       1000   1000   queued at the 300 s snapshot (700 s left)
//	2    2000    2100    100   started before the 2100 s snapshot saw it waiting
//	3    2950    3700    750   queued at the 3000 s snapshot (700 s left)
//
// Not queued: job 1 finds an empty base (skipped); job 2 has one
// neighbour (job 1: estimate 1000 s, unbounded interval, accuracy 0.1);
// job 3 is the only wait ≥ 10 min. Queued: job 1 skipped, job 3
// predicted from job 1's queued experience alone (1000 − 300 = 700 s),
// which happens to be exact.
func TestReplayByHand(t *testing.T) {
	job := func(id, submit, start int64) swf.Job {
		return swf.Job{ID: id, Queue: 1, AllocProcs: 1, ReqTime: 60, Submit: submit, Wait: start - submit, RunTime: 10}
	}
	nq, q, err := evaluate([]swf.Job{job(3, 2950, 3700), job(1, 0, 1000), job(2, 2000, 2100)}, ibl.Config{}, ibl.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if nq.Jobs != 2 || nq.Skipped != 1 || nq.Unbounded != 1 || nq.LongJobs != 1 || math.Abs(nq.MeanWait-850.0/2/3600) > 1e-12 {
		t.Errorf("not queued: %+v", nq)
	}
	// The mean over both jobs is job 2's 0.1 and job 3's accuracy.
	if math.Abs(2*nq.Accuracy-0.1-nq.AccuracyLong) > 1e-12 || nq.AccuracyLong <= 0 || nq.AccuracyLong > 1 {
		t.Errorf("not queued accuracies %v (all) and %v (≥ 10 min) disagree", nq.Accuracy, nq.AccuracyLong)
	}
	if q.Jobs != 1 || q.Skipped != 1 || q.Unbounded != 1 || q.LongJobs != 1 || math.Abs(q.Accuracy-1) > 1e-12 ||
		math.Abs(q.MeanWait-700.0/3600) > 1e-12 || q.InInterval != 100 {
		t.Errorf("queued: %+v", q)
	}
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
	traces, rules := []string{tracetest.KTH}, []bool{false} // empirical interval?
	if os.Getenv("BATCHQ_IBL_FULL") != "" {
		traces = []string{tracetest.KTH, tracetest.SDSCSP2, tracetest.CTC}
		rules = append(rules, true)
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
				t.Run(fmt.Sprintf("%s/empirical=%v/N=%d", name, iv, n), func(t *testing.T) {
					_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
					if err != nil {
						t.Fatal(err)
					}
					tj, skipped := usable(jobs)
					// The short waits, which the accuracy metric scores near 0
					// for any estimate of minutes or more (doc.go).
					var underMin, underLong int
					for _, j := range tj {
						if w := j.Wait; w < 60 {
							underMin++
							underLong++
						} else if w < longWait {
							underLong++
						}
					}
					t.Logf("%s: %d usable jobs, %.1f%% wait under a minute, %.1f%% under 10 min", name, len(tj),
						100*float64(underMin)/float64(len(tj)), 100*float64(underLong)/float64(len(tj)))
					t0 := time.Now()
					nq, q, err := evaluate(tj, ibl.Config{Empirical: iv, N: n}, ibl.Config{Empirical: iv, N: n})
					if err != nil {
						t.Fatal(err)
					}
					for _, w := range []struct {
						name string
						s    score
					}{{"not queued", nq}, {"queued", q}} {
						s := w.s
						t.Logf("%s N=%d empirical=%v %-10s jobs %6d (skipped %d unusable, %d cold) mean wait %.2f h accuracy %.2f rel.err %.2f mean CI ±%.2f h (%d unbounded) in CI %.1f%%; waits ≥ 10 min: %d jobs, accuracy %.2f (%+.2f)",
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
