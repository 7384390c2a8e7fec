package forecast

import (
	"math/bits"
	"slices"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// naiveWindow is the number of started jobs per size class the naive
// baseline takes the median of.
const naiveWindow = 100

// Naive is the baseline every forecast must beat: the median wait of the
// last 100 jobs of the job's size class that started before now (size
// classes are powers of two: 1, 2, 3–4, 5–8, …; a job of unknown size,
// SWF's −1 or 0, is of a class of its own, not one processor's), or of
// the last 100 of any size while its class has none. It is a
// replay.Predictor; the zero value is ready. Not safe for concurrent use.
type Naive struct {
	class map[int]*ring
	all   ring
	buf   []int64
}

// ring holds the last naiveWindow waits (the last size, when set).
type ring struct {
	w    []int64
	i    int
	size int
}

func (r *ring) add(w int64) {
	n := r.size
	if n == 0 {
		n = naiveWindow
	}
	if len(r.w) < n {
		r.w = append(r.w, w)
		return
	}
	r.w[r.i] = w
	r.i = (r.i + 1) % n
}

// unknownSize is the class of a job of unknown size (SWF's −1, or 0): its
// own, for such a job is not one of one processor (they were class 0 with
// them: 4,571 of LLNL-Atlas's jobs, 19 of CEA-Curie's, 3 of LANL-CM5's, 1
// of KTH-SP2's), and they may be a population of their own (jobs
// cancelled before the log recorded a size). Past every power-of-two class
// (an int64 size's is at most 63), and not −1, under which Online keys a
// queue's own ladder beside its queue-and-class ones.
const unknownSize = 64

// sizeClass is the power-of-two class of a job of n processors: 0 for 1,
// 1 for 2, 2 for 3–4, 3 for 5–8, …, and unknownSize for n ≤ 0.
func sizeClass(n int64) int {
	if n <= 0 {
		return unknownSize
	}
	return bits.Len64(uint64(n - 1))
}

// Observe records the wait of every job that starts.
func (b *Naive) Observe(ev replay.Event, j *swf.Job) error {
	if ev == replay.Start {
		b.add(j.Size(), j.Wait)
	}
	return nil
}

func (b *Naive) add(size, wait int64) {
	if b.class == nil {
		b.class = make(map[int]*ring)
	}
	k := sizeClass(size)
	r := b.class[k]
	if r == nil {
		r = &ring{}
		b.class[k] = r
	}
	r.add(wait)
	b.all.add(wait)
}

// Predict answers the median wait of j's size class (declines before any
// job has started).
func (b *Naive) Predict(j *swf.Job, _ int64) (replay.Prediction, error) {
	w, ok := b.median(j.Size())
	if !ok {
		return replay.Prediction{Reason: "no job started yet"}, nil
	}
	return point(w), nil
}

func (b *Naive) median(size int64) (float64, bool) {
	r := b.class[sizeClass(size)]
	if r == nil || len(r.w) == 0 {
		r = &b.all
	}
	if len(r.w) == 0 {
		return 0, false
	}
	return b.medianOf(r), true
}

// medianOf is the median of r's waits (r not empty).
func (b *Naive) medianOf(r *ring) float64 {
	b.buf = append(b.buf[:0], r.w...)
	slices.Sort(b.buf)
	n := len(b.buf)
	return float64(b.buf[(n-1)/2]+b.buf[n/2]) / 2
}
