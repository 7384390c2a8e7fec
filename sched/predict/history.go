package predict

import (
	"fmt"

	"github.com/batchq/batchq/swf"
)

// WindowType selects which of a user's terminated jobs form the history
// window (§4.6, spec §6.6).
type WindowType int

const (
	// WindowAll uses the user's last N terminated jobs (by submit time, or
	// by termination time with HistoryConfig.ByTermination). Default.
	WindowAll WindowType = iota
	// WindowImmediate uses the last N only if all have the new job's estimate;
	// otherwise it falls back.
	WindowImmediate
	// WindowExtended uses the user's N most recent jobs with the new job's
	// estimate, searched over the whole history.
	WindowExtended
)

// HistoryMetric is applied to the runtimes in the window.
type HistoryMetric int

const (
	MetricAverage HistoryMetric = iota // default
	MetricMedian
	MetricMin
	MetricMax
)

// HistoryConfig configures UserHistory. The zero value is EASY++'s predictor
// (Tab 4.13): window 2, type all, full window, average, estimate fallback,
// no propagation.
type HistoryConfig struct {
	Window  int // N, 0 means 2
	Type    WindowType
	Partial bool // use a partly filled window (else the window must be full)
	Metric  HistoryMetric
	// RelativeFallback, when the window is not usable, predicts e × the
	// user's mean past accuracy r/e over all terminated jobs, clipped to
	// (0,1] (e without history), instead of the user's estimate e. The
	// thesis does not define it (S17): this is the spec's approximation.
	RelativeFallback bool
	// Propagate asks the simulator to recompute waiting jobs' predictions
	// when one of their user's jobs terminates (§6.6 "propagation"). The
	// simulator reads it through the Propagates method.
	Propagate bool
	// ByTermination orders the window by termination time: the user's last
	// N jobs to terminate, as pyss's EASY++ keeps them. The default orders
	// by submit time among the terminated jobs (S11).
	ByTermination bool
}

// Validate reports an invalid configuration.
func (c HistoryConfig) Validate() error {
	if err := validateWindow(c.Window); err != nil {
		return err
	}
	if c.Type < WindowAll || c.Type > WindowExtended {
		return fmt.Errorf("predict: unknown window type %d", c.Type)
	}
	if c.Metric < MetricAverage || c.Metric > MetricMax {
		return fmt.Errorf("predict: unknown history metric %d", c.Metric)
	}
	return nil
}

// UserHistory is the user-history runtime predictor of EASY+/EASY++ (§6.2,
// the whole §6.6 family). The prediction is never larger than the estimate:
// the job would be killed at e anyway. O(N) per event.
type UserHistory struct {
	cfg   HistoryConfig
	users map[int64]*userState
}

// A window holds up to n runtimes ordered by key (their jobs' submit or
// termination time).
type window struct {
	key, run, est []int64
}

type userState struct {
	all   window
	byEst map[int64]*window // WindowExtended only
	accN  int64             // RelativeFallback: number of terminated jobs
	accS  float64           // and the sum of their min(1, r/e)
}

// NewUserHistory returns a predictor with an empty history.
func NewUserHistory(cfg HistoryConfig) (*UserHistory, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Window == 0 {
		cfg.Window = 2
	}
	return &UserHistory{cfg: cfg, users: make(map[int64]*userState)}, nil
}

// Config returns the configuration h was built with (defaults filled in).
func (h *UserHistory) Config() HistoryConfig { return h.cfg }

// Propagates reports whether waiting jobs' predictions should be recomputed
// when their user's history changes.
func (h *UserHistory) Propagates() bool { return h.cfg.Propagate }

// Predict returns the prediction for j, a job of user j.User with estimate
// j.ReqTime, at its arrival.
func (h *UserHistory) Predict(j *swf.Job, _ int64) int64 {
	e := j.ReqTime
	u := h.users[j.User]
	p := h.fallback(u, e)
	if u != nil {
		var w *window
		switch h.cfg.Type {
		case WindowExtended:
			w = u.byEst[e]
		default:
			w = &u.all
		}
		if w != nil && (len(w.run) == h.cfg.Window || h.cfg.Partial && len(w.run) > 0) {
			ok := true
			if h.cfg.Type == WindowImmediate {
				for _, x := range w.est {
					if x != e {
						ok = false
						break
					}
				}
			}
			if ok {
				p = metricOf(h.cfg.Metric, w.run)
			}
		}
	}
	if e > 0 && p > e {
		p = e
	}
	return p
}

func (h *UserHistory) fallback(u *userState, e int64) int64 {
	if h.cfg.RelativeFallback && u != nil && u.accN > 0 {
		return int64(float64(e) * u.accS / float64(u.accN))
	}
	return e
}

// Terminated adds j to its user's history.
func (h *UserHistory) Terminated(j *swf.Job, now int64) {
	u := h.users[j.User]
	if u == nil {
		u = &userState{}
		h.users[j.User] = u
	}
	key := j.Submit
	if h.cfg.ByTermination {
		key = now
	}
	u.all.add(h.cfg.Window, key, j)
	if h.cfg.Type == WindowExtended {
		if u.byEst == nil {
			u.byEst = make(map[int64]*window)
		}
		w := u.byEst[j.ReqTime]
		if w == nil {
			w = &window{}
			u.byEst[j.ReqTime] = w
		}
		w.add(h.cfg.Window, key, j)
	}
	if h.cfg.RelativeFallback && j.ReqTime > 0 {
		a := float64(j.RunTime) / float64(j.ReqTime)
		u.accS += min(1, max(0, a))
		u.accN++
	}
}

// add keeps the n terminated jobs of largest key (submit time, or
// termination time): a job whose key is below all kept ones in a full window
// is ignored (§6.2).
func (w *window) add(n int, key int64, j *swf.Job) {
	if len(w.key) == n {
		if key < w.key[0] {
			return
		}
		w.key = append(w.key[:0], w.key[1:]...)
		w.run = append(w.run[:0], w.run[1:]...)
		w.est = append(w.est[:0], w.est[1:]...)
	}
	i := len(w.key)
	for i > 0 && w.key[i-1] > key {
		i--
	}
	w.key = insert(w.key, i, key)
	w.run = insert(w.run, i, j.RunTime)
	w.est = insert(w.est, i, j.ReqTime)
}

func insert(s []int64, i int, x int64) []int64 {
	s = append(s, 0)
	copy(s[i+1:], s[i:])
	s[i] = x
	return s
}
