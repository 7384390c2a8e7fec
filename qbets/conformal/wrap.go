package conformal

import (
	"math"
	"math/bits"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// Point is any point predictor of waits: the one method a Wrapper needs.
// Every replay.Predictor is one; if it also has replay's Observe method,
// the Wrapper forwards every event to it.
type Point interface {
	Predict(j *swf.Job, now int64) (replay.Prediction, error)
}

// Wrapper gives a point predictor calibrated intervals: a replay.Predictor
// whose answers are the inner point with the Calibrator's interval at the
// last level as [Lower, Upper]; when a job it answered for starts, the
// outcome calibrates its class. Jobs need unique IDs. Not safe for
// concurrent use.
type Wrapper struct {
	p   Point
	obs interface {
		Observe(replay.Event, *swf.Job) error
	}
	c       *Calibrator
	class   func(*swf.Job) int64
	pending map[int64]question
	last    question
}

// question is what a Wrapper keeps of an answer until the job starts.
type question struct {
	at     int64
	class  int64
	point  float64
	issued [][2]float64
}

// Wrap returns p with intervals from c, the classes given by class (nil:
// the job's power-of-two size class, 1, 2, 3–4, 5–8, … processors,
// numbered 0, 1, 2, 3, …: ⌈log2 size⌉, and 64 for a job without a size,
// its own class, as sched/forecast numbers it).
// The class of a job the Wrapper is not asked about, a hypothetical one
// forecast some other way, is that number (Wrapper.Class): c.Interval(class,
// point, i) gives its interval from the outcomes the Wrapper fed c.
func Wrap(p Point, c *Calibrator, class func(*swf.Job) int64) *Wrapper {
	w := &Wrapper{p: p, c: c, class: class, pending: make(map[int64]question)}
	w.obs, _ = p.(interface {
		Observe(replay.Event, *swf.Job) error
	})
	if w.class == nil {
		w.class = sizeClass
	}
	return w
}

// unknownSize is the default class of a job without a size (SWF's −1 in
// fields 5 and 8, or 0): its own, not one-processor jobs' class 0, whose
// intervals its residuals would calibrate (and theirs its): such a job is
// not one of one processor (4,571 of LLNL-Atlas's jobs, 19 of CEA-Curie's,
// 3 of LANL-CM5's, 1 of KTH-SP2's), and may be a population of its own
// (jobs cancelled before the log recorded a size). 64 is past every
// power-of-two class (an int64 size's is at most 63) and is
// sched/forecast's number for the same class.
const unknownSize = 64

// sizeClass is the default class: j's power-of-two size class, 0 for 1
// processor, 1 for 2, 2 for 3–4, 3 for 5–8, …, unknownSize without a size.
func sizeClass(j *swf.Job) int64 {
	n := j.Size()
	if n <= 0 {
		return unknownSize
	}
	return int64(bits.Len64(uint64(n - 1)))
}

// Observe forwards the event to the inner predictor and, when a job it
// answered for starts, calibrates with the wait from the question.
func (w *Wrapper) Observe(ev replay.Event, j *swf.Job) error {
	if w.obs != nil {
		if err := w.obs.Observe(ev, j); err != nil {
			return err
		}
	}
	if ev == replay.Start {
		if q, ok := w.pending[j.ID]; ok {
			delete(w.pending, j.ID)
			actual := float64(j.Submit + j.Wait - q.at)
			w.c.update(q.class, w.c.residual(q.point, actual), q.issued)
		}
	}
	return nil
}

// Predict answers the inner point with the interval at the last level.
// The interval is [0, +Inf) until the calibrator has residuals. An answer
// without a point (declined, or Point NaN: a bound predictor's, such as
// replay.NewQBETS's upper bound) is passed on as it is, neither calibrated
// nor calibrating: wrap a point predictor.
func (w *Wrapper) Predict(j *swf.Job, now int64) (replay.Prediction, error) {
	p, err := w.p.Predict(j, now)
	w.last = question{}
	if err != nil || !p.OK || math.IsNaN(p.Point) {
		return p, err
	}
	q := question{at: now, class: w.class(j), point: p.Point, issued: make([][2]float64, len(w.c.cfg.Levels))}
	for i := range q.issued {
		ql, qh := w.c.quantiles(q.class, i)
		q.issued[i] = [2]float64{ql, qh}
	}
	if _, dup := w.pending[j.ID]; !dup { // the first question of a job calibrates
		w.pending[j.ID] = q
	}
	w.last = q
	p.Lower, p.Upper = w.Interval(len(q.issued) - 1)
	return p, nil
}

// Class returns j's class as the Wrapper numbers it (the class function
// given to Wrap, or the size class), so that c.Interval(w.Class(j), point,
// i) is the interval of a job forecast some other way, such as a
// hypothetical one (sched/forecast's WhatIf), from the outcomes the
// Wrapper fed c.
func (w *Wrapper) Class(j *swf.Job) int64 { return w.class(j) }

// Interval returns the last answer's interval at level index i of the
// calibrator's Levels (NaN, NaN if the last question was not answered).
func (w *Wrapper) Interval(i int) (lo, hi float64) {
	if w.last.issued == nil || i < 0 || i >= len(w.last.issued) {
		return math.NaN(), math.NaN()
	}
	return w.c.ends(w.last.point, w.last.issued[i][0], w.last.issued[i][1])
}
