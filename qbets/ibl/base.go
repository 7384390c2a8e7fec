package ibl

import (
	"fmt"
	"math"
)

// Base is an experience base (§4.5): a FIFO of at most MaxSize experiences
// with the per-feature ranges the distance needs, kept equal to the ranges
// over the current contents (spec K11). Search is brute force, which the
// spec allows for tens of thousands of experiences.
//
// A Base is not safe for concurrent use; callers that share one guard it
// with a sync.RWMutex (Predict only reads).
type Base struct {
	cfg     Config
	kinds   []Kind
	ring    []Experience // FIFO: ring[head] is the oldest once full
	head    int
	ranges  []Range
	stale   bool // an evicted value sat on a range end; recompute before use
	added   int64
	dropped int64
}

// New returns an empty experience base with the given configuration.
func New(cfg Config) (*Base, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	kinds := make([]Kind, len(cfg.Features))
	for i, f := range cfg.Features {
		kinds[i] = f.Kind
	}
	return &Base{cfg: cfg, kinds: kinds, ranges: emptyRanges(len(kinds))}, nil
}

func emptyRanges(n int) []Range {
	r := make([]Range, n)
	for i := range r {
		r[i] = Range{Min: math.Inf(1), Max: math.Inf(-1)}
	}
	return r
}

// Config returns the configuration with defaults filled in.
func (b *Base) Config() Config { return b.cfg }

// Len is the number of experiences held.
func (b *Base) Len() int { return len(b.ring) }

// Added and Dropped count experiences inserted and evicted by FIFO.
func (b *Base) Added() int64   { return b.added }
func (b *Base) Dropped() int64 { return b.dropped }

// Insert adds an experience, evicting the oldest when the base is full.
// The experience must have one value per feature and a finite wait ≥ 0;
// the values are copied.
func (b *Base) Insert(e Experience) error {
	if len(e.In) != len(b.kinds) {
		return fmt.Errorf("ibl: experience has %d inputs for %d features", len(e.In), len(b.kinds))
	}
	if !(e.Wait >= 0) || math.IsInf(e.Wait, 0) {
		return fmt.Errorf("ibl: experience wait %v, want a finite value ≥ 0", e.Wait)
	}
	e.In = append([]Value(nil), e.In...)
	b.added++
	if len(b.ring) < b.cfg.MaxSize {
		b.ring = append(b.ring, e)
	} else {
		old := b.ring[b.head]
		b.ring[b.head] = e
		b.head = (b.head + 1) % len(b.ring)
		b.dropped++
		b.noteEvicted(old)
	}
	b.widen(e)
	b.refresh()
	return nil
}

func (b *Base) widen(e Experience) {
	for f, k := range b.kinds {
		if k != Linear || !e.In[f].Known {
			continue
		}
		v := e.In[f].F
		b.ranges[f].Min = math.Min(b.ranges[f].Min, v)
		b.ranges[f].Max = math.Max(b.ranges[f].Max, v)
	}
}

// noteEvicted marks the ranges stale when the evicted experience held a
// minimum or maximum, so Insert rescans the contents: O(n·F), but only
// when an extreme leaves, and it keeps Predict free of writes.
func (b *Base) noteEvicted(e Experience) {
	for f, k := range b.kinds {
		if k == Linear && e.In[f].Known && (e.In[f].F <= b.ranges[f].Min || e.In[f].F >= b.ranges[f].Max) {
			b.stale = true
			return
		}
	}
}

// Ranges returns the current per-feature ranges (linear features only;
// others are zero). A feature with no known value has Min > Max.
func (b *Base) Ranges() []Range {
	return append([]Range(nil), b.ranges...)
}

func (b *Base) refresh() {
	if !b.stale {
		return
	}
	b.ranges = emptyRanges(len(b.kinds))
	for _, e := range b.ring {
		b.widen(e)
	}
	b.stale = false
}
