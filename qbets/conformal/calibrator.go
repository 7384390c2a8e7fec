package conformal

import (
	"fmt"
	"math"
	"slices"
)

// Config sets the levels, the window and the adaptation of a Calibrator.
// The zero value is adaptive conformal inference at 50, 80 and 90%, over
// the last 2,000 residuals of each class, step 0.005, floor 60 s.
type Config struct {
	// Levels are the nominal coverages in (0, 1), in increasing order;
	// nil means {0.5, 0.8, 0.9}. Answers carry the last (largest) one.
	Levels []float64
	// Window is the number of most recent residuals kept per class (and
	// over all classes, for a class that has fewer than MinClass): 0 means
	// 2000.
	Window int
	// MinClass is the number of residuals a class needs before its own
	// window is used: 0 means 100.
	MinClass int
	// Gamma is adaptive conformal inference's step γ: 0 means 0.005.
	Gamma float64
	// Split turns the adaptation off: plain split conformal on the window,
	// whose guarantee needs exchangeable residuals.
	Split bool
	// Floor is the wait below which waits are equal (both the point and
	// the outcome are floored before the log-ratio): 0 means 60 s.
	Floor float64
}

// Validate reports a configuration NewCalibrator would reject.
func (c Config) Validate() error {
	prev := 0.0
	for _, l := range c.Levels {
		if !(l > prev && l < 1) {
			return fmt.Errorf("conformal: levels %v not increasing in (0, 1)", c.Levels)
		}
		prev = l
	}
	switch {
	case c.Window < 0:
		return fmt.Errorf("conformal: Window %d, want ≥ 0 (0: 2000)", c.Window)
	case c.MinClass < 0:
		return fmt.Errorf("conformal: MinClass %d, want ≥ 0 (0: 100)", c.MinClass)
	case !(c.Gamma >= 0 && c.Gamma < 1):
		return fmt.Errorf("conformal: Gamma %v, want a step in [0, 1) (0: 0.005)", c.Gamma)
	case !(c.Floor >= 0) || math.IsInf(c.Floor, 1): // an infinite floor: every residual ln(Inf/Inf), NaN
		return fmt.Errorf("conformal: Floor %v, want a finite wait ≥ 0 (0: 60 s)", c.Floor)
	}
	return nil
}

// Calibrator turns point forecasts into intervals with a coverage
// guarantee, per class (a queue, a size class, any int64 the caller
// chooses). It keeps, per class, the last Window log-ratio residuals
// r = ln(max(actual, floor) / max(point, floor)) in sorted order, and for
// each level 1−α two tail levels, each starting at α/2; an interval is
// [p·e^{q_lo}, p·e^{q_hi}] with q_lo, q_hi the conformal quantiles of the
// residuals at the tail levels. Not safe for concurrent use.
//
// A window is kept sorted by insertion, so an interval costs O(levels) and
// an outcome O(Window) moves (a few hundred ns at the default 2,000).
type Calibrator struct {
	cfg   Config
	all   *classState
	class map[int64]*classState
}

// classState is one class's residual window and adaptive tail levels.
type classState struct {
	sorted []float64 // the window, sorted
	fifo   []float64 // the window, in arrival order (a ring)
	head   int
	alpha  [][2]float64 // per level: lower and upper tail's current level
}

// NewCalibrator returns an empty Calibrator.
func NewCalibrator(cfg Config) (*Calibrator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Levels == nil {
		cfg.Levels = []float64{0.5, 0.8, 0.9}
	}
	cfg.Levels = slices.Clone(cfg.Levels)
	if cfg.Window == 0 {
		cfg.Window = 2000
	}
	if cfg.MinClass == 0 {
		cfg.MinClass = 100
	}
	if cfg.Gamma == 0 {
		cfg.Gamma = 0.005
	}
	if cfg.Floor == 0 {
		cfg.Floor = 60
	}
	c := &Calibrator{cfg: cfg, class: make(map[int64]*classState)}
	c.all = c.newState()
	return c, nil
}

// Levels returns the calibrator's levels (defaults filled in).
func (c *Calibrator) Levels() []float64 { return slices.Clone(c.cfg.Levels) }

func (c *Calibrator) newState() *classState {
	s := &classState{alpha: make([][2]float64, len(c.cfg.Levels))}
	for i, l := range c.cfg.Levels {
		s.alpha[i] = [2]float64{(1 - l) / 2, (1 - l) / 2}
	}
	return s
}

func (c *Calibrator) state(class int64) *classState {
	s := c.class[class]
	if s == nil {
		s = c.newState()
		c.class[class] = s
	}
	return s
}

// Interval returns the interval at level index i (of Levels) around point
// for class: seconds, lo ≥ 0 (0 when the lower end is under the floor),
// hi possibly +Inf (too few residuals for the level). Before any residual
// it is [0, +Inf). A NaN point has the interval NaN, NaN.
func (c *Calibrator) Interval(class int64, point float64, i int) (lo, hi float64) {
	ql, qh := c.quantiles(class, i)
	return c.ends(point, ql, qh)
}

func (c *Calibrator) ends(point, ql, qh float64) (lo, hi float64) {
	p := math.Max(point, c.cfg.Floor)
	lo, hi = p*math.Exp(ql), p*math.Exp(qh)
	// (e^{ln(F/p)}·p is F only up to rounding; an unbounded tail is 0
	// even under a point of +Inf, where +Inf·e^{−Inf} is NaN.)
	if lo <= c.cfg.Floor*(1+1e-9) || math.IsInf(ql, -1) {
		lo = 0
	}
	if math.IsInf(qh, -1) { // (an empty upper tail)
		hi = 0
	}
	return lo, hi
}

// quantiles returns the residual quantiles of level i for class.
func (c *Calibrator) quantiles(class int64, i int) (ql, qh float64) {
	s := c.state(class)
	w := s
	if len(s.sorted) < c.cfg.MinClass {
		w = c.all
	}
	a := s.alpha[i]
	return lowerQ(w.sorted, a[0]), upperQ(w.sorted, a[1])
}

// upperQ is the split-conformal upper quantile at tail level a: the
// ⌈(n+1)(1−a)⌉-th smallest residual, +Inf past the n-th (Vovk et al.;
// the +1 is the test point's own rank); a ≥ 1 gives −Inf (an empty tail).
func upperQ(sorted []float64, a float64) float64 {
	n := len(sorted)
	if a >= 1 {
		return math.Inf(-1)
	}
	k := int(math.Ceil(float64(n+1) * (1 - a)))
	if k > n {
		return math.Inf(1)
	}
	return sorted[max(k, 1)-1]
}

// lowerQ mirrors upperQ: the ⌊(n+1)a⌋-th smallest, −Inf below the first.
func lowerQ(sorted []float64, a float64) float64 {
	n := len(sorted)
	if a >= 1 {
		return math.Inf(1)
	}
	k := int(math.Floor(float64(n+1) * a))
	if k < 1 {
		return math.Inf(-1)
	}
	return sorted[min(k, n)-1]
}

// residual is the log-ratio of the floored outcome to the floored point.
func (c *Calibrator) residual(point, actual float64) float64 {
	return math.Log(math.Max(actual, c.cfg.Floor) / math.Max(point, c.cfg.Floor))
}

// Update adds the outcome of a forecast: the actual value (wait) that
// followed the point forecast for class. The adaptive levels learn whether
// the interval the calibrator gives now would have held it; Wrap instead
// checks the interval it gave at the question, which is the guarantee's
// own bookkeeping when outcomes arrive late. A NaN point or actual value
// is no outcome and changes nothing.
func (c *Calibrator) Update(class int64, point, actual float64) {
	r := c.residual(point, actual)
	if math.IsNaN(r) {
		// A NaN point or outcome is no outcome (as Wrap asks nothing of
		// a NaN point): in the window it sorted below every residual
		// and, as the lowest quantile, made intervals NaN until 2,000
		// outcomes later.
		return
	}
	var issued [][2]float64
	for i := range c.cfg.Levels {
		ql, qh := c.quantiles(class, i)
		issued = append(issued, [2]float64{ql, qh})
	}
	c.update(class, r, issued)
}

// update adapts the tail levels from whether r fell inside each issued
// pair of quantiles (Gibbs & Candès 2021: α ← α + γ(α* − err)), then adds r
// to the class's window and to the common one.
func (c *Calibrator) update(class int64, r float64, issued [][2]float64) {
	s := c.state(class)
	if !c.cfg.Split {
		g := c.cfg.Gamma
		for i, l := range c.cfg.Levels {
			target := (1 - l) / 2
			errLo, errHi := 0.0, 0.0
			if r < issued[i][0] {
				errLo = 1
			}
			if r > issued[i][1] {
				errHi = 1
			}
			s.alpha[i][0] += g * (target - errLo)
			s.alpha[i][1] += g * (target - errHi)
		}
	}
	c.push(s, r)
	c.push(c.all, r)
}

// push adds r to a window, dropping its oldest residual when full. The
// window stays sorted by insertion (O(Window) moves, no allocation), so a
// quantile costs O(1).
func (c *Calibrator) push(s *classState, r float64) {
	if len(s.fifo) == c.cfg.Window {
		old := s.fifo[s.head]
		s.fifo[s.head] = r
		s.head = (s.head + 1) % c.cfg.Window
		k, _ := slices.BinarySearch(s.sorted, old)
		s.sorted = slices.Delete(s.sorted, k, k+1)
	} else {
		s.fifo = append(s.fifo, r)
	}
	k, _ := slices.BinarySearch(s.sorted, r)
	s.sorted = slices.Insert(s.sorted, k, r)
}
