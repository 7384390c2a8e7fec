package qbets

import (
	"errors"
	"math"
	"sync"

	"github.com/batchq/batchq/internal/ordstat"
)

// Config selects the quantile, the confidence and the features. The zero
// value means the thesis defaults: q = C = 0.95 with trimming.
type Config struct {
	Quantile   float64 // q; 0 means 0.95
	Confidence float64 // C; 0 means 0.95
	NoTrim     bool    // disable change-point trimming (§2.3)
}

// Validate reports an out-of-range quantile or confidence.
func (c Config) Validate() error {
	if c.Quantile < 0 || c.Quantile >= 1 {
		return errors.New("qbets: Quantile must be in (0, 1)")
	}
	if c.Confidence < 0 || c.Confidence >= 1 {
		return errors.New("qbets: Confidence must be in (0, 1)")
	}
	return nil
}

// Observation is one started job: its wait is Start − Submit.
type Observation struct {
	Submit, Start int64
	Nodes         int
	Walltime      int64
}

// Predictor is the online QBETS predictor of one queue.
type Predictor struct {
	mu       sync.Mutex
	q, c     float64
	trim     bool
	nMin     int
	set      ordstat.Set
	recent   []int64 // history in release order (what trimming keeps)
	run      int     // consecutive misses of the current bound
	trims    int
	cacheN   int
	cacheIdx int
	probN    int
	probIdx  [100]int // probIdx[k]: upper index at q' = k/100 for probN; 0 = none
}

// New returns a Predictor for cfg.
func New(cfg Config) (*Predictor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Quantile == 0 {
		cfg.Quantile = 0.95
	}
	if cfg.Confidence == 0 {
		cfg.Confidence = 0.95
	}
	return &Predictor{q: cfg.Quantile, c: cfg.Confidence, trim: !cfg.NoTrim,
		nMin: MinHistory(cfg.Quantile, cfg.Confidence), cacheN: -1, probN: -1}, nil
}

// Observe records a started job. Jobs must arrive in start order.
func (p *Predictor) Observe(o Observation) {
	w := max(o.Start-o.Submit, 0)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.trim {
		if b, ok := p.bound(); ok && w > b {
			p.run++
		} else {
			p.run = 0
		}
	}
	p.set.Insert(w)
	p.recent = append(p.recent, w)
	if p.trim && p.run >= 3 && p.run >= RunThreshold(p.rho()) {
		p.trimTo(p.nMin)
	}
}

// rho is the lag-1 autocorrelation of ln(1+wait) over the current history.
func (p *Predictor) rho() float64 {
	xs := make([]float64, len(p.recent))
	for i, w := range p.recent {
		xs[i] = math.Log1p(float64(w))
	}
	return lag1(xs)
}

func (p *Predictor) trimTo(n int) {
	if len(p.recent) <= n {
		return
	}
	keep := append([]int64(nil), p.recent[len(p.recent)-n:]...)
	p.recent = keep
	p.set.Clear()
	for _, w := range keep {
		p.set.Insert(w)
	}
	p.run = 0
	p.trims++
}

// bound is the current upper bound; the caller holds mu.
func (p *Predictor) bound() (int64, bool) {
	n := p.set.Len()
	if n != p.cacheN {
		p.cacheN = n
		p.cacheIdx, _ = UpperIndex(n, p.q, p.c)
	}
	if p.cacheIdx == 0 {
		return 0, false
	}
	return p.set.Kth(p.cacheIdx)
}

// Predict returns the upper level-C bound on the q-quantile of the wait of
// a job submitted now, in seconds; ok is false when the history is shorter
// than MinHistory(q, C).
func (p *Predictor) Predict(nodes int, walltime int64) (bound int64, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.bound()
}

// ProbWithin answers the inverted query of §2.7: the largest q' in
// {0.01, …, 0.99} whose level-C upper bound is ≤ within, or 0.
func (p *Predictor) ProbWithin(nodes int, walltime, within int64) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.set.Len()
	if n != p.probN {
		p.probN = n
		for k := range p.probIdx {
			p.probIdx[k] = -1 // not computed yet
		}
	}
	r := p.set.CountLE(within)
	idx := func(k int) int {
		if p.probIdx[k] < 0 {
			i, ok := UpperIndex(n, float64(k)/100, p.c)
			if !ok {
				i = n + 1
			}
			p.probIdx[k] = i
		}
		return p.probIdx[k]
	}
	// idx is nondecreasing in k: find the largest k with idx(k) ≤ r.
	lo, hi := 0, 99 // invariant: answer in [lo, hi]; k=0 means none
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if idx(mid) <= r {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return float64(lo) / 100
}

// Len is the size of the current (trimmed) history.
func (p *Predictor) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.set.Len()
}

// Trims is the number of change points detected so far.
func (p *Predictor) Trims() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.trims
}
