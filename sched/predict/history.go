package predict

import (
	"cmp"
	"fmt"

	"github.com/batchq/batchq/swf"
)

// windowType is HistoryConfig.Type, parsed.
type windowType int

const (
	windowAll windowType = iota
	windowImmediate
	windowExtended
)

var windowTypes = map[string]windowType{"": windowAll, "all": windowAll, "immediate": windowImmediate, "extended": windowExtended}

// metric is HistoryConfig.Metric, parsed.
type metric int

const (
	metricAverage metric = iota
	metricMedian
	metricMin
	metricMax
)

var metrics = map[string]metric{"": metricAverage, "average": metricAverage, "median": metricMedian, "min": metricMin, "max": metricMax}

// HistoryConfig configures UserHistory. The zero value is EASY++'s predictor
// (Tab 4.13): window 2, type all, full window, average, estimate fallback,
// no propagation.
type HistoryConfig struct {
	Window int // N, 0 means 2
	// Type selects which of a user's terminated jobs form the window
	// (§4.6, spec §6.6): "all" (the default, "") the user's last N
	// terminated jobs (by submit time, or by termination time with
	// ByTermination); "immediate" the last N only if all have the new
	// job's estimate, else the fallback; "extended" the user's N most
	// recent jobs with the new job's estimate, searched over the whole
	// history.
	Type    string
	Partial bool // use a partly filled window (else the window must be full)
	// Metric is applied to the run times in the window: "average" (the
	// default, ""), "median", "min" or "max".
	Metric string
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
	if _, ok := windowTypes[c.Type]; !ok {
		return fmt.Errorf("predict: HistoryConfig.Type %q, want all, immediate or extended", c.Type)
	}
	if _, ok := metrics[c.Metric]; !ok {
		return fmt.Errorf("predict: HistoryConfig.Metric %q, want average, median, min or max", c.Metric)
	}
	return nil
}

// UserHistory is the user-history runtime predictor of EASY+/EASY++ (§6.2,
// the whole §6.6 family). The prediction is never larger than the estimate:
// the job would be killed at e anyway. An estimate ≤ 0 is none (sched fills
// one in before it predicts) and caps nothing. O(N) per event. Jobs
// without a user (SWF's −1) are one user, as in pyss's and predictsim's
// EASY++ (read in their source: the job's user is SWF field 12 as
// written, and EasyPlusPlusScheduler's and PredictorTsafrir's histories
// are dictionaries keyed by it, −1 included), which the peer modes must
// reproduce: on a trace without users a job is predicted from the
// machine's last run times. (The peer references, KTH-SP2 and SDSC-SP2,
// have no job without a user: TestUserHistoryNoUser pins the pooling.)
// The zero value is EASY++'s, as NewUserHistory(HistoryConfig{}) makes it.
type UserHistory struct {
	cfg    HistoryConfig
	typ    windowType
	metric metric
	// pair: EASY++'s window, the average of the last two of type all
	// without RelativeFallback, read and kept by fast paths (every
	// arrival and termination) rather than by the general loops.
	pair bool
	// dense holds the users numbered 0..len(dense)-1, as log user numbers
	// are (SWF numbers them from 1): an index instead of a map look-up
	// at every arrival and termination. users holds the others.
	dense []userState
	users map[int64]*userState
}

// maxDense bounds the user numbers kept in UserHistory.dense (a user
// state is 56 bytes).
const maxDense = 1 << 16

// A window holds up to n runtimes ordered by key (their jobs' submit or
// termination time), and their estimates when the window type reads them
// (immediate), in one list of m sections of c values: keys, run times
// (and estimates), c its room, so that a user's window is one allocation.
type window struct {
	k int     // values kept
	d []int64 // keys d[:c], run times d[c:2c], estimates d[2c:3c]
}

// room is the number of values each section of w has room for.
func (w *window) room(est bool) int {
	if est {
		return len(w.d) / 3
	}
	return len(w.d) / 2
}

// runs returns w's run times.
func (w *window) runs(est bool) []int64 {
	c := w.room(est)
	return w.d[c : c+w.k]
}

// ests returns w's estimates (est windows only).
func (w *window) ests() []int64 {
	c := w.room(true)
	return w.d[2*c : 2*c+w.k]
}

type userState struct {
	all   window
	byEst map[int64]*window // windowExtended only
	accN  int64             // RelativeFallback: number of terminated jobs
	accS  float64           // and the sum of their min(1, r/e)
}

// NewUserHistory returns a predictor with an empty history.
func NewUserHistory(cfg HistoryConfig) (*UserHistory, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	h := &UserHistory{}
	h.set(cfg)
	return h, nil
}

// set makes h the empty predictor of the valid cfg.
func (h *UserHistory) set(cfg HistoryConfig) {
	if cfg.Window == 0 {
		cfg.Window = 2
	}
	cfg.Type = cmp.Or(cfg.Type, "all")
	cfg.Metric = cmp.Or(cfg.Metric, "average")
	*h = UserHistory{cfg: cfg, typ: windowTypes[cfg.Type], metric: metrics[cfg.Metric], users: make(map[int64]*userState)}
	h.pair = h.typ == windowAll && h.metric == metricAverage && cfg.Window == 2 && !cfg.RelativeFallback
}

// ready makes the zero UserHistory EASY++'s (NewUserHistory never leaves
// a window of 0). Terminated calls it, not Predict: until a job has
// ended no user has a history, and every configuration predicts the
// estimate (fallback), the zero value too (TestUserHistoryZero), so that
// EASY++ pays for it once a job, not twice (3 instructions a call).
func (h *UserHistory) ready() {
	if h.cfg.Window == 0 {
		h.set(HistoryConfig{})
	}
}

// Config returns the configuration h was built with (defaults filled in).
func (h *UserHistory) Config() HistoryConfig {
	h.ready()
	return h.cfg
}

// Propagates reports whether waiting jobs' predictions should be recomputed
// when their user's history changes.
func (h *UserHistory) Propagates() bool { return h.cfg.Propagate }

// Predict returns the prediction for j, a job of user j.User with estimate
// j.ReqTime, at its arrival.
func (h *UserHistory) Predict(j *swf.Job, _ int64) int64 {
	e := j.ReqTime
	u := h.user(j.User)
	if h.pair { // (a window of 2 has room for 2: keys d[:2], run times d[2:])
		p := e
		if u != nil {
			switch w := &u.all; {
			case w.k == 2:
				p = mean2(w.d[2], w.d[3])
			case w.k == 1 && h.cfg.Partial:
				p = w.d[2]
			}
		}
		if e > 0 && p > e {
			p = e
		}
		return p
	}
	p := h.fallback(u, e)
	if u != nil {
		var w *window
		switch h.typ {
		case windowExtended:
			w = u.byEst[e]
		default:
			w = &u.all
		}
		if w != nil && (w.k == h.cfg.Window || h.cfg.Partial && w.k > 0) {
			ok := true
			if h.typ == windowImmediate {
				for _, x := range w.ests() {
					if x != e {
						ok = false
						break
					}
				}
			}
			if ok {
				p = metricOf(h.metric, w.runs(h.typ == windowImmediate))
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
		// The mean accuracy is at most 1, so e·a lies between 0 and e,
		// but float64(e) rounds away from zero (e = 2^63 − 1 is 2^63,
		// whose conversion wraps; e = −(2^63 − 1) is −2^63, below e):
		// at or past float64(e), e it is.
		p := float64(e) * u.accS / float64(u.accN)
		if e > 0 && p >= float64(e) || e < 0 && p <= float64(e) {
			return e
		}
		return int64(p)
	}
	return e
}

// user returns the state of user id, nil if it has none yet.
func (h *UserHistory) user(id int64) *userState {
	if uint64(id) < uint64(len(h.dense)) {
		return &h.dense[id]
	}
	if id >= 0 && id < maxDense {
		return nil
	}
	return h.users[id]
}

// newUser returns the state of user id, made if need be.
func (h *UserHistory) newUser(id int64) *userState {
	if id >= 0 && id < maxDense {
		if id >= int64(len(h.dense)) {
			h.dense = append(h.dense, make([]userState, int(id)+1-len(h.dense))...)
			// All the room append made, but none at or past maxDense:
			// those users are looked up in the map.
			h.dense = h.dense[:min(cap(h.dense), maxDense)]
		}
		return &h.dense[id]
	}
	u := h.users[id]
	if u == nil {
		u = &userState{}
		h.users[id] = u
	}
	return u
}

// Terminated adds j to its user's history.
func (h *UserHistory) Terminated(j *swf.Job, now int64) {
	h.ready()
	u := h.newUser(j.User)
	key := j.Submit
	if h.cfg.ByTermination {
		key = now
	}
	if w := &u.all; h.pair && w.k == 2 {
		// window.add on a full window of 2: the first leaves if key is
		// not below it, and key takes its place in order.
		switch d := w.d[:4]; {
		case key < d[0]:
		case key < d[1]:
			d[0], d[2] = key, j.RunTime
		default:
			d[0], d[2], d[1], d[3] = d[1], d[3], key, j.RunTime
		}
		return // (pair: type all, no RelativeFallback)
	}
	immediate := h.typ == windowImmediate
	u.all.add(h.cfg.Window, key, j, immediate)
	if h.typ == windowExtended {
		if u.byEst == nil {
			u.byEst = make(map[int64]*window)
		}
		w := u.byEst[j.ReqTime]
		if w == nil {
			w = &window{}
			u.byEst[j.ReqTime] = w
		}
		w.add(h.cfg.Window, key, j, false)
	}
	if h.cfg.RelativeFallback && j.ReqTime > 0 {
		a := float64(j.RunTime) / float64(j.ReqTime)
		u.accS += min(1, max(0, a))
		u.accN++
	}
}

// add keeps the n terminated jobs of largest key (submit time, or
// termination time): a job whose key is below all kept ones in a full window
// is ignored (§6.2). A new key goes after the kept ones equal to it. With
// est, the window keeps the jobs' estimates too. The moves are loops, not
// copies: a window is short (2 in EASY++).
func (w *window) add(n int, key int64, j *swf.Job, est bool) {
	m := 2
	if est {
		m = 3
	}
	c := w.room(est)
	if w.k == c && c < n { // room for min(n, 4), then twice as much
		nc := min(n, max(4, 2*c))
		d := make([]int64, m*nc)
		for s := range m {
			copy(d[s*nc:], w.d[s*c:s*c+w.k])
		}
		w.d, c = d, nc
	}
	k, run := w.d[:c], w.d[c:2*c]
	var es []int64
	if est {
		es = w.d[2*c : 3*c]
	}
	i := w.k
	if i < n {
		w.k++
		for ; i > 0 && k[i-1] > key; i-- {
			k[i] = k[i-1]
			run[i] = run[i-1]
			if est {
				es[i] = es[i-1]
			}
		}
	} else {
		if key < k[0] {
			return
		}
		// The first (smallest key) leaves: the kept keys not above key
		// move down one place, and key takes the place after them.
		i = 0
		for ; i+1 < n && k[i+1] <= key; i++ {
			k[i] = k[i+1]
			run[i] = run[i+1]
			if est {
				es[i] = es[i+1]
			}
		}
	}
	k[i] = key
	run[i] = j.RunTime
	if est {
		es[i] = j.ReqTime
	}
}
