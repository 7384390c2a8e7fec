package apq

import (
	"cmp"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// BenchmarkPredict measures one APQ prediction against a full history of
// 10,000 SDSC-SP2 jobs (the spearman weights are cached; their refresh is
// BenchmarkWeights).
func BenchmarkPredict(b *testing.B) {
	jobs := tracetest.RanJobs(b, tracetest.SDSCSP2)
	for _, dist := range []bool{false, true} {
		b.Run(map[bool]string{false: "summary", true: "distribution"}[dist], func(b *testing.B) {
			p, targets := history10k(b, jobs, dist)
			b.ResetTimer()
			i := 0
			for b.Loop() {
				if _, err := p.Predict(targets[i%len(targets)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "predictions/s")
		})
	}
}

// BenchmarkWeights measures one recomputation of the 22 spearman weights
// over a 10,000-job history (the paper does one per history change).
func BenchmarkWeights(b *testing.B) {
	jobs := tracetest.RanJobs(b, tracetest.SDSCSP2)
	p, _ := history10k(b, jobs, true)
	b.ResetTimer()
	for b.Loop() {
		p.updateWeights()
	}
}

// history10k fills a Predictor with the first 10,000 started jobs of a
// causal replay (starts up to each arrival first, as qbets/replay orders
// them) and returns the Points of the next 500 arrivals as targets.
func history10k(b *testing.B, jobs []swf.Job, dist bool) (*Predictor, []Point) {
	p, err := New(Config{History: 10000, Distribution: dist})
	if err != nil {
		b.Fatal(err)
	}
	sys := new(System)
	pending := map[int64]Point{}
	var started []int // by start time
	var targets []Point
	for i := range jobs {
		j := &jobs[i]
		for len(started) > 0 && jobs[started[0]].Submit+jobs[started[0]].Wait <= j.Submit {
			s := &jobs[started[0]]
			started = started[1:]
			if err := sys.Start(s.ID, s.Submit+s.Wait); err != nil {
				b.Fatal(err)
			}
			if p.Len() < 10000 {
				if err := p.Add(pending[s.ID], float64(s.Wait)); err != nil {
					b.Fatal(err)
				}
			}
		}
		aj := Job{ID: j.ID, Submit: j.Submit, Start: j.Submit + j.Wait, Req: j.Size(), ERT: j.ReqTime, User: j.User, Queue: j.Queue}
		pt := p.Describe(aj, j.Submit, sys)
		pending[j.ID] = pt
		if err := sys.Submit(aj); err != nil {
			b.Fatal(err)
		}
		k, _ := slices.BinarySearchFunc(started, j.Submit+j.Wait, func(x int, t int64) int { return cmp.Compare(jobs[x].Submit+jobs[x].Wait, t) })
		for k < len(started) && jobs[started[k]].Submit+jobs[started[k]].Wait == j.Submit+j.Wait {
			k++
		}
		started = slices.Insert(started, k, i)
		if p.Len() == 10000 {
			if targets = append(targets, pt); len(targets) == 500 {
				p.refresh()
				return p, targets
			}
		}
	}
	b.Fatal("history of 10,000 not reached")
	return nil, nil
}
