package ibl

import (
	"math"
	"testing"
)

// A known linear value that is NaN, ±Inf or beyond ±2^53 is refused in
// an experience and in a query (±Inf features were accepted and a NaN
// query got an infinite interval with no error).
func TestNonFiniteValues(t *testing.T) {
	feats := []Feature{{"Queue", "nominal"}, {"Cores", "linear"}, {"Running", "bool"}}
	b, err := New(Config{Features: feats})
	if err != nil {
		t.Fatal(err)
	}
	good := func(c float64) []Value { return []Value{str("q"), num(c), flag(true)} }
	for i := range 10 {
		if err := b.Insert(Experience{In: good(float64(i)), Wait: float64(10 * i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300} {
		if err := b.Insert(Experience{In: good(x), Wait: 5}); err == nil {
			t.Errorf("Insert with Cores = %v: no error", x)
		}
		if p, err := b.Predict(good(x), 90); err == nil {
			t.Errorf("Predict with Cores = %v: %+v, no error", x, p)
		}
	}
	for _, w := range []float64{math.NaN(), math.Inf(1), -1, 1e300} {
		if err := b.Insert(Experience{In: good(1), Wait: w}); err == nil {
			t.Errorf("Insert with wait %v: no error", w)
		}
	}
	if b.Len() != 10 {
		t.Fatalf("%d experiences held, want 10", b.Len())
	}
	// Unknown values and the extremes allowed still answer finitely.
	for _, q := range [][]Value{{{}, {}, {}}, good(1 << 53), good(-(1 << 53))} {
		p, err := b.Predict(q, 90)
		if err != nil || math.IsNaN(p.Wait) || math.IsInf(p.Wait, 0) || math.IsNaN(p.HalfWidth) || math.IsInf(p.HalfWidth, 0) {
			t.Errorf("Predict(%v) = %+v, %v", q, p, err)
		}
	}
}

// System refuses jobs whose sums would wrap, and a negative start (−1
// marks a waiting job: a second Start then panicked on a missing index).
func TestSystemBounds(t *testing.T) {
	s := new(System)
	for _, j := range []Job{{ID: 1, Cores: -1}, {ID: 2, Cores: math.MaxInt64}, {ID: 3, Submit: -5}, {ID: 4, ReqTime: math.MaxInt64}} {
		if err := s.Submit(j); err == nil {
			t.Errorf("Submit(%+v): no error", j)
		}
	}
	if err := s.Submit(Job{ID: 9, Cores: 4, ReqTime: 600, Submit: 10}); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(9, -1); err == nil {
		t.Error("Start at −1: no error")
	}
	if err := s.Start(9, 20); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(9, 30); err == nil {
		t.Error("second Start: no error")
	}
	q := s.NotQueued(Job{ID: 10, Queue: "q", Cores: 1}, math.MinInt64)
	for i, v := range q {
		if v.Known && (math.IsNaN(v.F) || math.IsInf(v.F, 0)) {
			t.Errorf("feature %d = %v", i, v.F)
		}
	}
	if q[4].F < 0 || q[4].F > 4*600 {
		t.Errorf("Work at time −2^63 = %v, want within [0, 2400]", q[4].F)
	}
}

// Jobs System takes (2^40 cores asking 2^40 s) give queries the base
// takes: their Work, 2^80 core-seconds, was refused by Insert and Predict
// ("feature 4 (Work) = 1.2e24, want ... within ±2^53"), which ended a
// forecast replay of a log every other check found sane. Work and
// UserWork saturate at 2^53, beyond which no two loads differ usefully.
func TestSystemWorkWithinBase(t *testing.T) {
	s := new(System)
	for i := int64(1); i <= 3; i++ {
		if err := s.Submit(Job{ID: i, Queue: "q", User: "u", Cores: maxCores, ReqTime: maxReqTime, Submit: i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Start(1, 5); err != nil {
		t.Fatal(err)
	}
	nq, err := New(Config{Features: NotQueuedFeatures()})
	if err != nil {
		t.Fatal(err)
	}
	qd, err := New(Config{Features: QueuedFeatures()})
	if err != nil {
		t.Fatal(err)
	}
	in := s.NotQueued(Job{ID: 4, Queue: "q", Cores: maxCores, ReqTime: maxReqTime}, 10)
	if err := nq.Insert(Experience{In: in, Wait: 1}); err != nil {
		t.Error(err)
	}
	inQ, ok := s.Queued(3, 10)
	if !ok {
		t.Fatal("job 3 not waiting")
	}
	if err := qd.Insert(Experience{In: inQ, Wait: 1}); err != nil {
		t.Error(err)
	}
	if _, err := qd.Predict(inQ, 90); err != nil {
		t.Error(err)
	}
}
