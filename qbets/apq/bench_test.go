package apq

import (
	"fmt"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// BenchmarkPredict measures one APQ prediction against a full history of
// 10,000 SDSC-SP2 jobs (the Spearman weights are cached; their refresh is
// BenchmarkWeights).
func BenchmarkPredict(b *testing.B) {
	jobs := loadTrace(b, tracetest.SDSCSP2)
	for _, rep := range []Representation{Summary, Distribution} {
		b.Run(rep.String(), func(b *testing.B) {
			p, targets := history10k(b, jobs, rep)
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

// BenchmarkWeights measures one recomputation of the 22 Spearman weights
// over a 10,000-job history (the paper does one per history change).
func BenchmarkWeights(b *testing.B) {
	jobs := loadTrace(b, tracetest.SDSCSP2)
	p, _ := history10k(b, jobs, Distribution)
	b.ResetTimer()
	for b.Loop() {
		p.updateWeights()
	}
}

// history10k fills a Predictor with the first 10,000 started jobs of the
// replay and returns the Points of the next 500 arrivals as targets.
func history10k(b *testing.B, jobs []TraceJob, rep Representation) (*Predictor, []Point) {
	p, err := New(Config{History: 10000, Rep: rep})
	if err != nil {
		b.Fatal(err)
	}
	pending := map[int64]Point{}
	var targets []Point
	stop := fmt.Errorf("done")
	err = Replay(jobs, func(ev Event, i int, sys *System) error {
		j := &jobs[i]
		switch ev {
		case Submitted:
			pt := p.Describe(j.Job, j.Submit, sys)
			pending[j.ID] = pt
			if p.Len() == 10000 {
				targets = append(targets, pt)
				if len(targets) == 500 {
					return stop
				}
			}
		case Started:
			if p.Len() < 10000 {
				return p.Add(pending[j.ID], float64(j.Start-j.Submit))
			}
		}
		return nil
	})
	if err != stop {
		b.Fatalf("history of 10,000 not reached: %v", err)
	}
	p.refresh()
	return p, targets
}

// BenchmarkEvaluate is a full evaluation run per trace: the paper's test
// jobs #20001–60000 (or the last third of a shorter log) predicted with the
// distribution representation after a causal replay from the first job.
func BenchmarkEvaluate(b *testing.B) {
	for _, name := range []string{tracetest.SDSCSP2, tracetest.SDSCPar, tracetest.SDSCBlue, tracetest.CEACurie} {
		b.Run(name[:9], func(b *testing.B) {
			jobs := loadTrace(b, name)
			from, to := PaperTestFrom, min(PaperTestTo, len(jobs))
			if len(jobs) < PaperTestFrom+1000 {
				from, to = len(jobs)*2/3, len(jobs)
			}
			b.ResetTimer()
			for b.Loop() {
				res, err := Evaluate(jobs, EvalConfig{Config: Config{Rep: Distribution, WeightRefresh: 10}, TestFrom: from, TestTo: to})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(res.AAE(), "AAE-h")
			}
			b.ReportMetric(float64(b.N*(to-from))/b.Elapsed().Seconds(), "predictions/s")
		})
	}
}
