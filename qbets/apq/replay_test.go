package apq_test

import (
	"context"
	"math"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// The paper's APQ test set (§6): jobs #20001–60000 of the log.
const (
	paperTestFrom = 20000
	paperTestTo   = 60000
)

// meanWait predicts the mean of the last 6000 waits (APQ's default history): the
// simplest causal predictor.
type meanWait struct{ ring []float64 }

func (m *meanWait) Observe(ev replay.Event, j *swf.Job) error {
	if ev == replay.Start {
		if m.ring = append(m.ring, float64(j.Wait)); len(m.ring) > 6000 {
			m.ring = m.ring[1:]
		}
	}
	return nil
}

func (m *meanWait) Predict(*swf.Job, int64) (replay.Prediction, error) {
	s := 0.0
	for _, w := range m.ring {
		s += w
	}
	return replay.Prediction{OK: true, Point: s / float64(len(m.ring)), Lower: math.NaN(), Upper: math.NaN()}, nil
}

// APQ on 1000 of the paper's SDSC-SP2 test jobs (#20001–21000, history of
// 6000, both representations), through qbets/replay beside the mean of the
// same 6000-job history: APQ must have the lower AAE. (On the full test
// range examples/apq measures 8.49 h against the paper's 7.84 h; see its
// README.)
func TestReplaySDSCSP2(t *testing.T) {
	if testing.Short() {
		t.Skip("real-trace run; skipped in -short mode")
	}
	jobs := tracetest.RanJobs(t, tracetest.SDSCSP2)
	from, to := paperTestFrom, paperTestFrom+1000
	var ps []replay.Predictor
	var aps []*replay.APQ
	for _, dist := range []bool{false, true} {
		a, err := replay.NewAPQ(apq.Config{Distribution: dist, WeightRefresh: 10})
		if err != nil {
			t.Fatal(err)
		}
		ps, aps = append(ps, a), append(aps, a)
	}
	ps = append(ps, &meanWait{})
	s, err := replay.Run(context.Background(), jobs, replay.Options{From: from, To: to}, ps...)
	if err != nil {
		t.Fatal(err)
	}
	naive := &s[2]
	best := math.Inf(1)
	for k := range aps {
		r := &s[k]
		t.Logf("%v: %d jobs, AAE %.2f h (history mean %.2f h), scaled %.2f (%.2f)",
			[]string{"summary", "distribution"}[k], r.Answered(), r.AAE()/3600, naive.AAE()/3600, r.ScaledAAE(), naive.ScaledAAE())
		if r.Answered() != to-from || r.Declined() != 0 {
			t.Errorf("%v: scored %d jobs (%d without prediction), want %d", []string{"summary", "distribution"}[k], r.Answered(), r.Declined(), to-from)
		}
		best = min(best, r.AAE())
	}
	if best >= naive.AAE() {
		t.Errorf("best APQ AAE %.2f h is not below the history mean's %.2f h", best/3600, naive.AAE()/3600)
	}
}

// BenchmarkReplay is a full evaluation run per trace through qbets/replay:
// the paper's test jobs #20001–60000 (or the last third of a shorter log)
// predicted with the distribution representation after a causal replay
// from the first job.
func BenchmarkReplay(b *testing.B) {
	for _, name := range []string{tracetest.SDSCSP2, tracetest.SDSCPar, tracetest.SDSCBlue, tracetest.CEACurie} {
		b.Run(name[:9], func(b *testing.B) {
			jobs := tracetest.RanJobs(b, name)
			from, to := paperTestFrom, min(paperTestTo, len(jobs))
			if len(jobs) < paperTestFrom+1000 {
				from, to = len(jobs)*2/3, len(jobs)
			}
			b.ResetTimer()
			for b.Loop() {
				a, err := replay.NewAPQ(apq.Config{Distribution: true, WeightRefresh: 10})
				if err != nil {
					b.Fatal(err)
				}
				s, err := replay.Run(context.Background(), jobs, replay.Options{From: from, To: to}, a)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(s[0].AAE()/3600, "AAE-h")
			}
			b.ReportMetric(float64(b.N*(to-from))/b.Elapsed().Seconds(), "predictions/s")
		})
	}
}
