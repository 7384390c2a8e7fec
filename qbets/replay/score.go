package replay

import (
	"math"
	"slices"
)

// Outcome is one answered, scored prediction (as in Prediction) and what
// happened: Wait is the actual wait from the time of the prediction (at
// arrival, the job's wait; at a snapshot, what was left of it), Run the
// job's run time (negative: unknown).
type Outcome struct {
	Point, Lower, Upper float64
	Wait, Run           int64
}

// Score is one predictor's record over the scored jobs. Its metrics are
// computed from the answers on each call.
type Score struct {
	Scored  int            // predictions due (answered or not)
	Refused map[string]int // declined ones, by Reason
	Answers []Outcome      // answered ones, in replay order
	// Queued scores the snapshot predictions (Options.Snapshot; nil
	// without).
	Queued *Score
	// MadeUpIDs counts the replayed jobs without a number of their own
	// (ID below 1) that Run numbered 10^18 + their position in its jobs,
	// as sched's rule id_made_up: the same in every Score of one Run.
	MadeUpIDs int
}

// Add scores one prediction of a job that waited wait seconds from the
// time of the prediction and ran run seconds.
func (s *Score) Add(p Prediction, wait, run int64) {
	s.Scored++
	if !p.OK {
		if s.Refused == nil {
			s.Refused = map[string]int{}
		}
		s.Refused[p.Reason]++
		return
	}
	s.Answers = append(s.Answers, Outcome{p.Point, p.Lower, p.Upper, wait, run})
}

// Answered is the number of answered predictions.
func (s *Score) Answered() int { return len(s.Answers) }

// Declined is the number of scored predictions the predictor declined.
func (s *Score) Declined() int { return s.Scored - len(s.Answers) }

// Correct counts the answers with an upper bound that held (wait ≤ Upper).
func (s *Score) Correct() int {
	n := 0
	for _, o := range s.Answers {
		if float64(o.Wait) <= o.Upper {
			n++
		}
	}
	return n
}

// Correctness is the share of the answers with an upper bound whose wait
// was within it (thesis §4.3: success iff bound ≥ actual wait); NaN when
// there is none, as MedianRatio: a predictor that gives no bound (the
// naive baseline, APQ's point) has no correctness, and 0 read as bounds
// that never held.
func (s *Score) Correctness() float64 {
	n, ok := 0, 0
	for _, o := range s.Answers {
		if math.IsNaN(o.Upper) {
			continue
		}
		n++
		if float64(o.Wait) <= o.Upper {
			ok++
		}
	}
	return share(ok, n)
}

// RMS is the root-mean-square over-prediction Upper − wait over the
// correct answers, in seconds (the thesis's accuracy, spec §5.2 and Q21).
func (s *Score) RMS() float64 {
	n, sq := 0, 0.0
	for _, o := range s.Answers {
		if w := float64(o.Wait); w <= o.Upper {
			d := o.Upper - w
			sq += d * d
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(sq / float64(n))
}

// estimate is the point an answer is scored with: its Point, else its
// upper bound (as Hariharan et al. score QBETS), else NaN.
func (o *Outcome) estimate() float64 {
	if !math.IsNaN(o.Point) {
		return o.Point
	}
	return o.Upper
}

// AAE is the average absolute error |estimate − wait| in seconds, the
// estimate being Point or, for a bound predictor, Upper (Hariharan et al.
// §6); answers with neither are left out.
func (s *Score) AAE() float64 {
	n, sum := 0, 0.0
	for i := range s.Answers {
		if e := s.Answers[i].estimate(); !math.IsNaN(e) {
			sum += math.Abs(e - float64(s.Answers[i].Wait))
			n++
		}
	}
	return ratio(sum, float64(n))
}

// ScaledAAE is the mean of |estimate − wait| / response time (wait + run,
// at least 1 s; an unknown run counts 0), Hariharan et al.'s scaled AAE.
func (s *Score) ScaledAAE() float64 {
	n, sum := 0, 0.0
	for i := range s.Answers {
		o := &s.Answers[i]
		if e := o.estimate(); !math.IsNaN(e) {
			w := float64(o.Wait)
			sum += math.Abs(e-w) / max(w+float64(max(o.Run, 0)), 1)
			n++
		}
	}
	return ratio(sum, float64(n))
}

// MedianRatio is Brevik et al.'s accuracy: the median of Upper / wait over
// the answers with a finite upper bound, waits floored at 1 s (their §5.1
// [R]); lower is tighter. NaN when there is none.
func (s *Score) MedianRatio() float64 {
	var v []float64
	for _, o := range s.Answers {
		if !math.IsNaN(o.Upper) && !math.IsInf(o.Upper, 0) {
			v = append(v, o.Upper/float64(max(o.Wait, 1)))
		}
	}
	return median(v)
}

// MedianBound is the median finite upper bound, seconds; NaN when there is none.
func (s *Score) MedianBound() float64 {
	var v []float64
	for _, o := range s.Answers {
		if !math.IsNaN(o.Upper) && !math.IsInf(o.Upper, 0) {
			v = append(v, o.Upper)
		}
	}
	return median(v)
}

// Coverage is the share of the answers with an interval (Lower and Upper
// given; an infinite end holds everything) whose wait fell inside it; NaN
// when there is none (a bound or a point alone is no interval), as
// Correctness.
func (s *Score) Coverage() float64 {
	n, in := 0, 0
	for _, o := range s.Answers {
		if math.IsNaN(o.Lower) || math.IsNaN(o.Upper) {
			continue
		}
		n++
		if w := float64(o.Wait); o.Lower <= w && w <= o.Upper {
			in++
		}
	}
	return share(in, n)
}

// MeanWait is the mean actual wait of the answers, seconds.
func (s *Score) MeanWait() float64 {
	sum := 0.0
	for _, o := range s.Answers {
		sum += float64(o.Wait)
	}
	return ratio(sum, float64(len(s.Answers)))
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// share is k of n, NaN when n is 0: a share of nothing is no figure.
func share(k, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return float64(k) / float64(n)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
