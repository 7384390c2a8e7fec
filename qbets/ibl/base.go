package ibl

import (
	"fmt"
	"math"
	"sync"
)

// Base is an experience base (§4.5): a FIFO of at most MaxSize experiences
// with the per-feature ranges the distance needs, kept equal to the ranges
// over the current contents (spec K11). Search is brute force, which the
// spec allows for tens of thousands of experiences; the inputs are stored
// column by column as float64 (strings interned, unknown = NaN) so one
// search is a few tight loops over contiguous memory.
//
// A Base is not safe for concurrent use; callers that share one guard it
// with a sync.RWMutex (Predict only reads).
type Base struct {
	cfg   Config
	kinds []kind
	cols  [][]float64 // cols[f][slot]; slot = sequence number mod MaxSize
	waits []float64
	n     int   // experiences held
	added int64 // sequence number of the next insert
	names map[string]float64
	// lo[f] and hi[f] are monotonic deques of sequence numbers whose
	// fronts hold the minimum and maximum of linear feature f over the
	// window: FIFO eviction then costs O(1) amortized, where a rescan
	// would cost O(n·F) every time the oldest experience held an extreme
	// (always, for the Time feature).
	lo, hi  []deque
	scratch sync.Pool // *[]float64, one per concurrent Predict
}

// New returns an empty experience base with the given configuration.
func New(cfg Config) (*Base, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	nf := len(cfg.Features)
	b := &Base{cfg: cfg, kinds: make([]kind, nf), cols: make([][]float64, nf),
		names: map[string]float64{}, lo: make([]deque, nf), hi: make([]deque, nf)}
	for i, f := range cfg.Features {
		b.kinds[i] = kindNames[f.Kind]
	}
	return b, nil
}

// Config returns the configuration with defaults filled in.
func (b *Base) Config() Config { return b.cfg }

// Len is the number of experiences held.
func (b *Base) Len() int { return b.n }

// Added and Dropped count experiences inserted and evicted by FIFO.
func (b *Base) Added() int64   { return b.added }
func (b *Base) Dropped() int64 { return b.added - int64(b.n) }

// Insert adds an experience, evicting the oldest when the base is full.
// The experience must have one value per feature and a finite wait ≥ 0.
func (b *Base) Insert(e Experience) error {
	if len(e.In) != len(b.kinds) {
		return fmt.Errorf("ibl: experience has %d inputs for %d features", len(e.In), len(b.kinds))
	}
	if !(e.Wait >= 0 && e.Wait <= maxMagnitude) {
		return fmt.Errorf("ibl: experience wait %v, want a value in [0, 2^53]", e.Wait)
	}
	if err := b.checkValues("experience", e.In); err != nil {
		return err
	}
	seq := b.added
	slot := int(seq % int64(b.cfg.MaxSize))
	if b.n < b.cfg.MaxSize {
		for f := range b.cols {
			b.cols[f] = append(b.cols[f], 0)
		}
		b.waits = append(b.waits, 0)
		b.n++
	}
	first := seq - int64(b.n) + 1 // oldest sequence number still held after this insert
	for f, k := range b.kinds {
		v := b.encode(k, e.In[f], true)
		b.cols[f][slot] = v
		if k != linear {
			continue
		}
		col := b.cols[f]
		b.lo[f].expire(first)
		b.hi[f].expire(first)
		if !math.IsNaN(v) {
			b.lo[f].push(seq, func(s int64) bool { return col[b.slot(s)] >= v })
			b.hi[f].push(seq, func(s int64) bool { return col[b.slot(s)] <= v })
		}
	}
	b.waits[slot] = e.Wait
	b.added++
	return nil
}

// maxMagnitude bounds linear values and waits: 2^53 (every integer
// exact, 285 million years in seconds), so that ranges, kernel sums and
// variances stay finite.
const maxMagnitude = 1 << 53

// checkValues refuses a known linear value that is NaN, infinite or
// beyond ±2^53: one such value in the base makes its feature's range
// infinite and every distance NaN; in a query, it gave an infinite
// interval and no error. (An unknown value is Known: false.)
func (b *Base) checkValues(what string, in []Value) error {
	for f, k := range b.kinds {
		if v := in[f]; k == linear && v.Known && !(math.Abs(v.F) <= maxMagnitude) {
			return fmt.Errorf("ibl: %s feature %d (%s) = %v, want a finite value within ±2^53 (Known: false for unknown)",
				what, f, b.cfg.Features[f].Name, v.F)
		}
	}
	return nil
}

func (b *Base) slot(seq int64) int { return int(seq % int64(b.cfg.MaxSize)) }

// encode maps a value to its stored float: NaN when unknown, the interned
// id of a string (a query's string the base has never seen gets −1, equal
// to nothing stored), 0/1 for a bool.
func (b *Base) encode(k kind, v Value, intern bool) float64 {
	if !v.Known {
		return math.NaN()
	}
	switch k {
	case nominal:
		id, ok := b.names[v.S]
		if !ok {
			if !intern {
				return -1
			}
			id = float64(len(b.names))
			b.names[v.S] = id
		}
		return id
	case boolean:
		if v.B {
			return 1
		}
		return 0
	}
	return v.F
}

// ranges returns the current per-feature ranges (linear features only;
// others are zero). A feature with no known value has Min > Max.
func (b *Base) ranges() []valueRange {
	r := make([]valueRange, len(b.kinds))
	for f, k := range b.kinds {
		if k == linear {
			r[f] = b.rangeOf(f)
		}
	}
	return r
}

func (b *Base) rangeOf(f int) valueRange {
	first := b.added - int64(b.n)
	lo, okl := b.lo[f].front(first)
	hi, okh := b.hi[f].front(first)
	if !okl || !okh {
		return valueRange{Min: math.Inf(1), Max: math.Inf(-1)}
	}
	return valueRange{Min: b.cols[f][b.slot(lo)], Max: b.cols[f][b.slot(hi)]}
}

// deque is a monotonic queue of sequence numbers (sliding-window
// extreme); s[h:] is live.
type deque struct {
	s []int64
	h int
}

// push drops from the back every entry the new one dominates, then appends.
func (d *deque) push(seq int64, dominated func(int64) bool) {
	for len(d.s) > d.h && dominated(d.s[len(d.s)-1]) {
		d.s = d.s[:len(d.s)-1]
	}
	d.s = append(d.s, seq)
}

// expire drops entries older than first, compacting once half is dead so
// the slice stays O(window).
func (d *deque) expire(first int64) {
	for d.h < len(d.s) && d.s[d.h] < first {
		d.h++
	}
	if d.h > 64 && 2*d.h > len(d.s) {
		d.s = append(d.s[:0], d.s[d.h:]...)
		d.h = 0
	}
}

func (d *deque) front(first int64) (int64, bool) {
	for _, s := range d.s[d.h:] {
		if s >= first {
			return s, true
		}
	}
	return 0, false
}
