package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// iblVariant is Karnak's not-queued prediction at arrival (as
// replay.NewIBL's) with the knobs the diagnosis turns: the target learned
// (the wait, or log(max(wait, 60 s)) answered as its exponential), the
// neighbour count, the base's size and the feature weights.
type iblVariant struct {
	sys  *ibl.System
	base *ibl.Base
	in   map[int64][]ibl.Value
	logT bool
}

func newIBLVariant(cfg ibl.Config, logT bool) (*iblVariant, error) {
	cfg.Features = ibl.NotQueuedFeatures()
	b, err := ibl.New(cfg)
	if err != nil {
		return nil, err
	}
	return &iblVariant{sys: &ibl.System{}, base: b, in: map[int64][]ibl.Value{}, logT: logT}, nil
}

func (v *iblVariant) Observe(ev replay.Event, j *swf.Job) error {
	ij := ibl.Job{ID: j.ID, Queue: fmt.Sprint("q", j.Queue), User: fmt.Sprint("u", j.User),
		Project: fmt.Sprint("g", j.Group), Name: fmt.Sprint("x", j.Executable), Cores: max(j.Size(), 0), ReqTime: j.ReqTime, Submit: j.Submit}
	switch ev {
	case replay.Arrive:
		v.in[j.ID] = v.sys.NotQueued(ij, j.Submit)
		return v.sys.Submit(ij)
	case replay.Start:
		w := float64(j.Wait)
		if v.logT {
			w = math.Log(max(w, floor))
		}
		if err := v.base.Insert(ibl.Experience{In: v.in[j.ID], Wait: w}); err != nil {
			return err
		}
		delete(v.in, j.ID)
		return v.sys.Start(j.ID, j.Submit+j.Wait)
	case replay.End:
		return v.sys.End(j.ID)
	}
	return nil
}

func (v *iblVariant) Predict(j *swf.Job, _ int64) (replay.Prediction, error) {
	pr, err := v.base.Predict(v.in[j.ID], 90)
	if err != nil {
		return replay.Prediction{Reason: err.Error()}, nil
	}
	p := pr.Wait
	if v.logT {
		p = math.Exp(p)
	}
	return replay.Prediction{OK: true, Point: p, Lower: math.NaN(), Upper: math.NaN()}, nil
}

// diagnosis is one predictor's errors: within ×2, mean |log10|, the median
// of log10(predicted / real) (its bias: > 0 over-predicts) and the shares
// of jobs it over- and under-predicts by more than ×2.
type diagnosis struct {
	within2, meanLog, medianLog, over, under float64
}

func diagnose(s *replay.Score) diagnosis {
	var d diagnosis
	var ls []float64
	for _, a := range s.Answers {
		l := math.Log10(math.Max(a.Point, floor) / math.Max(float64(a.Wait), floor))
		ls = append(ls, l)
		d.meanLog += math.Abs(l)
		switch {
		case l > math.Log10(2)+1e-12:
			d.over++
		case l < -math.Log10(2)-1e-12:
			d.under++
		default:
			d.within2++
		}
	}
	n := float64(len(ls))
	slices.Sort(ls)
	d.medianLog = ls[len(ls)/2]
	d.within2, d.meanLog, d.over, d.under = d.within2/n, d.meanLog/n, d.over/n, d.under/n
	return d
}

// diagnosisDigest pins the README's diagnosis region (KTH-SP2; about 6
// minutes of CPU, so behind BATCHQ_LONG like the scoreboard). Regenerate with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/forecast -run TestReadmeDiagnosis -timeout 1h
const diagnosisDigest = "9810920695c50a5e7f5276c9984c7b48287b4532c6c5dbc0ce8a6881b78bb69a"

// TestReadmeDiagnosis is the measurement behind the README's account of
// why IBL and APQ lose to the naive baseline: it replays KTH-SP2 with the
// naive baseline, APQ, IBL as configured by default and IBL with one knob
// turned at a time, and tabulates the errors of each.
func TestReadmeDiagnosis(t *testing.T) {
	readme.CheckLong(t, "README.md", map[string]string{"diagnosis": diagnosisDigest}, func() map[string][]byte {
		return map[string][]byte{"diagnosis": diagnosisTable(t, tracetest.KTH)}
	})
}

func diagnosisTable(t *testing.T, name string) []byte {
	type named struct {
		name string
		mk   func() (replay.Predictor, error)
	}
	ib := func(cfg ibl.Config, logT bool) func() (replay.Predictor, error) {
		return func() (replay.Predictor, error) { return newIBLVariant(cfg, logT) }
	}
	timeOff := []float64{1, 1, 1, 1, 1, 1, 0}
	ps := []named{
		{"naive", func() (replay.Predictor, error) { return &forecast.Naive{}, nil }},
		{"apq (paper defaults)", func() (replay.Predictor, error) { return replay.NewAPQ(apq.Config{}) }},
		{"ibl default: kernel mean of the waits, k = 56, base 10,000", ib(ibl.Config{}, false)},
		{"ibl, k = 8", ib(ibl.Config{N: 8}, false)},
		{"ibl, kernel mean of log wait", ib(ibl.Config{}, true)},
		{"ibl, log wait, k = 8", ib(ibl.Config{N: 8}, true)},
		{"ibl, log wait, k = 200", ib(ibl.Config{N: 200}, true)},
		{"ibl, log wait, base 1,000", ib(ibl.Config{MaxSize: 1000}, true)},
		{"ibl, log wait, no Time feature", ib(ibl.Config{Weights: timeOff}, true)},
	}
	path := tracetest.Path(t, name)
	_, jobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := replay.Queues(jobs)
	all, err := replay.All(q)
	if err != nil {
		t.Fatal(err)
	}
	var preds []replay.Predictor
	for _, p := range ps {
		x, err := p.mk()
		if err != nil {
			t.Fatal(err)
		}
		preds = append(preds, x)
	}
	sc, err := replay.Run(context.Background(), all, replay.Options{}, preds...)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s, at each submission after the first 10%%:\n\n", tracetest.ShortName(path))
	b.WriteString("| predictor | within ×2 % | mean \\|log10\\| | median log10(predicted / real) | over ×2 % | under ×2 % |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for i, p := range ps {
		d := diagnose(&sc[i])
		fmt.Fprintf(&b, "| %s | %.1f | %.3f | %+.2f | %.1f | %.1f |\n", p.name, 100*d.within2, d.meanLog, d.medianLog, 100*d.over, 100*d.under)
	}
	return b.Bytes()
}
