package rangeset

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Config holds the parameters of the range-set predictor. The zero
// value is the paper's: start from the 10 most recent same-key jobs and
// extend back until they span 90% of the key's whole runtime range (§3.3),
// compact per-job ranges wider than 20% of their median (§3.4, H15), merge
// ranges overlapping by more than 50% (of the shorter range, H16) and keep
// at most 25.
type Config struct {
	Recent     int     // relevant history starts with this many jobs (0: 10)
	SpanFrac   float64 // stop extending at this share of the key's full range (0: 0.9)
	CompactPct float64 // widest per-job range, % of its median (0: 20)
	// MaxRelevant caps the relevant history (0: no cap, as in the paper);
	// a key with thousands of jobs whose extremes are old would otherwise
	// make every prediction walk its whole past.
	MaxRelevant int
	// OverlapPct merges two ranges overlapping by more than this share of
	// the shorter one, in % (0: 50); at most MaxRanges are kept (0: 25).
	OverlapPct float64
	MaxRanges  int
	// RatioShift is NOT in the paper: a load function carries a history
	// job's runtime to the target's load as e_h · f(L̂)/f(L_h), the
	// function's relative change (the additive shift when f(L_h) ≤ 0). The
	// paper's, the default, is additive: e_h − f(L_h) + f(L̂), so a function
	// learned on hour-long jobs moves a one-minute job by the same number
	// of seconds.
	RatioShift bool
}

// Validate names the first parameter out of range.
func (c Config) Validate() error {
	switch {
	case c.Recent < 0:
		return fmt.Errorf("rangeset: Config.Recent = %d, need ≥ 0", c.Recent)
	case !(c.SpanFrac >= 0 && c.SpanFrac <= 1):
		return fmt.Errorf("rangeset: Config.SpanFrac = %v, need in [0, 1]", c.SpanFrac)
	case !(c.CompactPct >= 0) || math.IsInf(c.CompactPct, 0):
		return fmt.Errorf("rangeset: Config.CompactPct = %v, need ≥ 0", c.CompactPct)
	case c.MaxRelevant < 0:
		return fmt.Errorf("rangeset: Config.MaxRelevant = %d, need ≥ 0", c.MaxRelevant)
	case c.MaxRelevant > 0 && c.Recent > c.MaxRelevant:
		return fmt.Errorf("rangeset: Config.Recent %d above MaxRelevant %d", c.Recent, c.MaxRelevant)
	}
	return c.merge().validate()
}

// merge is c's merging parameters.
func (c Config) merge() mergeConfig {
	return mergeConfig{OverlapPct: c.OverlapPct, MaxRanges: c.MaxRanges}
}

func (c Config) withDefaults() Config {
	if c.Recent == 0 {
		c.Recent = 10
	}
	if c.SpanFrac == 0 {
		c.SpanFrac = 0.9
	}
	if c.CompactPct == 0 {
		c.CompactPct = 20
	}
	m := c.merge().withDefaults()
	c.OverlapPct, c.MaxRanges = m.OverlapPct, m.MaxRanges
	return c
}

// keyHist is one key's finished jobs, oldest first, with their runtimes
// alone (for assignProbabilities, on every prediction) and their extremes.
type keyHist struct {
	s      []LoadSample
	rt     []float64
	lo, hi float64
}

// History is the runtime history the predictor draws on: every
// finished job (runtime and actual load) grouped by key, in the order
// added. The zero History is empty and ready to use. Not safe for
// concurrent use.
type History struct {
	byKey map[Key]*keyHist
}

// Add appends a finished job; negative or NaN values are an error. A job
// without a user (Key.User < 0, SWF's −1) is no kind of job and is not
// kept: its key has no history, as a user never seen, rather than every
// user-less job's (every Alibaba GPU pod's) as if they were one user's.
func (h *History) Add(s LoadSample) error {
	if !(s.Runtime >= 0 && s.Runtime <= maxTime) || !(s.Load >= 0) || math.IsInf(s.Load, 0) {
		// Runtimes beyond 2^40 s would wrap where they become int64 times.
		return fmt.Errorf("rangeset: History.Add: runtime %v (need 0–2^40 s), load %v", s.Runtime, s.Load)
	}
	if s.Key.User < 0 {
		return nil
	}
	k := h.byKey[s.Key]
	if k == nil {
		if h.byKey == nil {
			h.byKey = map[Key]*keyHist{}
		}
		k = &keyHist{lo: s.Runtime, hi: s.Runtime}
		h.byKey[s.Key] = k
	}
	k.s = append(k.s, s)
	k.rt = append(k.rt, s.Runtime)
	k.lo, k.hi = min(k.lo, s.Runtime), max(k.hi, s.Runtime)
	return nil
}

// Len is the number of finished jobs of key k.
func (h *History) Len(k Key) int {
	if kh := h.byKey[k]; kh != nil {
		return len(kh.s)
	}
	return 0
}

// Span is [min, max] of key k's runtimes (the paper's baseline range);
// ok is false when the key has no history.
func (h *History) Span(k Key) (lo, hi float64, ok bool) {
	kh := h.byKey[k]
	if kh == nil {
		return 0, 0, false
	}
	return kh.lo, kh.hi, true
}

// Samples returns key k's history, oldest first (shared: do not modify).
func (h *History) Samples(k Key) []LoadSample {
	if kh := h.byKey[k]; kh != nil {
		return kh.s
	}
	return nil
}

// Relevant is key k's relevant history (§3.3, spec [R]): the most recent
// Recent jobs, extended one job at a time into the past until their
// runtimes span SpanFrac of the key's whole range (or the history, or
// MaxRelevant, is exhausted). A key whose runtimes are all equal stops at
// the first Recent jobs.
func (h *History) Relevant(k Key, cfg Config) []LoadSample {
	cfg = cfg.withDefaults()
	kh := h.byKey[k]
	if kh == nil {
		return nil
	}
	n := len(kh.s)
	i := max(n-cfg.Recent, 0)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range kh.s[i:] {
		lo, hi = min(lo, s.Runtime), max(hi, s.Runtime)
	}
	full := kh.hi - kh.lo
	for full > 0 && i > 0 && (hi-lo) < cfg.SpanFrac*full {
		if cfg.MaxRelevant > 0 && n-i >= cfg.MaxRelevant {
			break
		}
		i--
		lo, hi = min(lo, kh.s[i].Runtime), max(hi, kh.s[i].Runtime)
	}
	return kh.s[i:]
}

// Predictor predicts a runtime range set for a job of a key at a
// predicted load (§3.4–3.6). Funcs are the load functions (BuildLoadFuncs);
// with none, every history job predicts its own runtime (runtime does not
// depend on load). Not safe for concurrent use with History.Add.
type Predictor struct {
	Funcs   []LoadFunc
	History *History
	Config  Config
}

// Predict returns the range set of key k at predicted load l; ok is false
// when the key has no history (the caller decides what to do then).
func (p *Predictor) Predict(k Key, l float64) (rs Set, ok bool, err error) {
	if err := p.Config.Validate(); err != nil {
		return nil, false, err
	}
	if !(l >= 0) || math.IsInf(l, 1) {
		return nil, false, fmt.Errorf("rangeset: Predictor.Predict: predicted load %v, need a finite value ≥ 0", l)
	}
	if p.History == nil {
		return nil, false, errors.New("rangeset: Predictor.Predict: no History")
	}
	for i, f := range p.Funcs {
		if math.IsNaN(f.A) || math.IsInf(f.A, 0) || math.IsNaN(f.B) || math.IsInf(f.B, 0) {
			return nil, false, fmt.Errorf("rangeset: Predictor.Funcs[%d] = %+v is not finite", i, f)
		}
	}
	cfg := p.Config.withDefaults()
	rel := p.History.Relevant(k, cfg)
	if len(rel) == 0 {
		return nil, false, nil
	}
	funcs := p.Funcs
	if len(funcs) == 0 {
		funcs = []LoadFunc{{}}
	}
	ranges := make([]Range, 0, len(rel))
	preds := make([]float64, len(funcs))
	at := make([]float64, len(funcs)) // each function at the target's load
	for i, f := range funcs {
		at[i] = f.At(l)
	}
	for _, h := range rel {
		for i, f := range funcs {
			// Shift f through the history job's (load, runtime), read
			// it at the target's load.
			if fh := f.At(h.Load); cfg.RatioShift && fh > 0 {
				preds[i] = h.Runtime * max(at[i], 0) / fh
			} else {
				preds[i] = at[i] + (h.Runtime - fh)
			}
		}
		ranges = append(ranges, compact(preds, cfg.CompactPct))
	}
	rs, err = mergeRanges(ranges, cfg.merge())
	if err != nil {
		return nil, false, err
	}
	assignProbabilities(rs, p.History.byKey[k].rt)
	return rs, true, nil
}

// compact turns one history job's predictions into its range: [min, max],
// narrowed to within pct% of the median c, centred on c, when wider (H15),
// and never below 0. It sorts preds (the caller's scratch) in place.
func compact(preds []float64, pct float64) Range {
	s := preds
	slices.Sort(s)
	lo, hi := s[0], s[len(s)-1]
	c := s[len(s)/2]
	if len(s)%2 == 0 {
		c = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	if hi-lo > pct/100*c {
		h := pct / 200 * c
		lo, hi = max(lo, c-h), min(hi, c+h)
	}
	lo = max(lo, 0)
	hi = max(hi, lo)
	return Range{Lo: lo, Hi: hi}
}
