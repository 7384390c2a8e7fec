package qbets

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/batchq/batchq/internal/runlen"
)

// Trimmer is a change-point detector (spec §2.3): it watches one history's
// released waits and says when to forget old ones. The Predictor keeps one
// per cluster history (made by Config.Trimmer), tells it every wait added,
// in release order, and whether that wait exceeded the upper bound in force
// before it (a miss), and trims the history to the most recent keep waits
// when it answers keep > 0. Re-clustering rebuilds a cluster's history by
// calling Reset and feeding the cluster's waits again.
//
// An implementation should return keep = 0 (keep everything) or keep ≥ the
// minimum history it was made for; the Predictor raises a smaller keep to
// that minimum. qbetstest.Trimmer checks an implementation against this
// contract only: the thesis's own choices (a trim only after a run of at
// least 3 misses, and exactly to the minimum) are RunLength's, not
// requirements of a Trimmer.
//
// The Predictor calls a Trimmer under its own lock: an implementation
// need not be safe for concurrent use.
//
// A Trimmer that also implements encoding.BinaryMarshaler and
// encoding.BinaryUnmarshaler is saved and restored with its Predictor;
// otherwise restoring resets it and feeds it the kept history again.
type Trimmer interface {
	// Observe is told one released wait (seconds) and whether it was a
	// miss; it returns how many of the most recent waits, this one
	// included, to keep (0: all).
	Observe(wait int64, miss bool) (keep int)
	// Reset forgets everything observed.
	Reset()
}

// RunLength returns the thesis's change-point detector for a history whose
// minimum size is minHistory (n_min(q, C), spec §2.3): a change point is a
// run of consecutive misses at least as long as the run-length table gives
// for the lag-1 autocorrelation of ln(1+wait) over the waits since the last
// change point (3 for independent waits, up to 23 at ρ ≥ 0.9); the history
// is then trimmed to its most recent minHistory waits. It is the default
// Config.Trimmer.
func RunLength(minHistory int) Trimmer {
	// The ring grows by append past 1024: a huge minHistory must not
	// allocate up front.
	return &runLength{nMin: max(minHistory, 1), ring: make([]float64, 0, min(max(minHistory, 1), 1024))}
}

// runLength keeps the run of misses and the running sums of x = ln(1+w)
// over the waits since the last trim (for ρ in O(1)), and the last nMin
// values of x to restart the sums after a trim.
type runLength struct {
	nMin         int
	run          int
	n            int
	sx, sxx, sxy float64
	first, last  float64
	ring         []float64 // last nMin values of x, oldest at head once full
	head         int
}

func (r *runLength) Reset() {
	*r = runLength{nMin: r.nMin, ring: r.ring[:0]}
}

func (r *runLength) Observe(w int64, miss bool) int {
	x := math.Log1p(float64(max(w, 0)))
	if r.n == 0 {
		r.first = x
	} else {
		r.sxy += x * r.last
	}
	r.last = x
	r.n++
	r.sx += x
	r.sxx += x * x
	if len(r.ring) < r.nMin {
		r.ring = append(r.ring, x)
	} else {
		r.ring[r.head] = x
		r.head = (r.head + 1) % r.nMin
	}
	if miss {
		r.run++
	} else {
		r.run = 0
	}
	if r.run < 3 || r.run < runlen.RunThreshold(r.rho()) {
		return 0
	}
	// Change point: keep the last nMin values.
	r.run = 0
	r.n = len(r.ring)
	r.sx, r.sxx, r.sxy = 0, 0, 0
	for i := range r.ring {
		v := r.ring[(r.head+i)%len(r.ring)]
		if i == 0 {
			r.first = v
		} else {
			r.sxy += v * r.last
		}
		r.last = v
		r.sx += v
		r.sxx += v * v
	}
	return r.nMin
}

// rho is the lag-1 autocorrelation of x since the last trim.
func (r *runLength) rho() float64 {
	if r.n < 3 {
		return 0
	}
	nf := float64(r.n)
	m := r.sx / nf
	den := r.sxx - nf*m*m
	if den <= 1e-9*r.sxx || den <= 0 {
		return 0
	}
	num := r.sxy - m*(2*r.sx-r.first-r.last) + (nf-1)*m*m
	return num / den
}

func (r *runLength) MarshalBinary() ([]byte, error) {
	var e enc
	e.int(int64(r.nMin))
	e.int(int64(r.run))
	e.int(int64(r.n))
	for _, v := range []float64{r.sx, r.sxx, r.sxy, r.first, r.last} {
		e.float(v)
	}
	e.int(int64(len(r.ring)))
	for i := range r.ring {
		e.float(r.ring[(r.head+i)%len(r.ring)])
	}
	return e.b, nil
}

func (r *runLength) UnmarshalBinary(b []byte) error {
	d := dec{b: b}
	if int(d.int()) != r.nMin {
		return fmt.Errorf("%w: RunLength state is for another minimum history", ErrBadState)
	}
	r.run, r.n = int(d.int()), int(d.int())
	for _, p := range []*float64{&r.sx, &r.sxx, &r.sxy, &r.first, &r.last} {
		*p = d.float()
	}
	n := int(d.int())
	if d.err != nil || n < 0 || n > r.nMin {
		return fmt.Errorf("%w: corrupt RunLength state", ErrBadState)
	}
	r.ring, r.head = r.ring[:0], 0
	for range n {
		r.ring = append(r.ring, d.float())
	}
	return d.err
}

// enc and dec are the varint encoding of saved state.
type enc struct{ b []byte }

func (e *enc) int(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) float(v float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *enc) bytes(p []byte)  { e.int(int64(len(p))); e.b = append(e.b, p...) }
func (e *enc) bool(v bool) {
	if v {
		e.int(1)
	} else {
		e.int(0)
	}
}

type dec struct {
	b   []byte
	err error
}

var errCorrupt = fmt.Errorf("%w: corrupt", ErrBadState)

func (d *dec) int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) float() float64 {
	if d.err != nil || len(d.b) < 8 {
		d.err = errCorrupt
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *dec) bytes() []byte {
	n := d.int()
	if d.err != nil || n < 0 || n > int64(len(d.b)) {
		d.err = errCorrupt
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *dec) bool() bool { return d.int() != 0 }

// count reads a length that must fit in what is left of the input
// (each element takes at least one byte).
func (d *dec) count() int {
	n := d.int()
	if d.err == nil && (n < 0 || n > int64(len(d.b))) {
		d.err = errCorrupt
	}
	if d.err != nil {
		return 0
	}
	return int(n)
}
