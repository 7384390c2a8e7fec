package predict_test

import (
	"math"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

// fuzzEdges are the values an op byte below len(fuzzEdges) stands for.
var fuzzEdges = []int64{
	math.MinInt64, math.MinInt64 + 1, -math.MaxInt64 / 2, -1 << 40, -2, -1, 0, 1,
	2, 1 << 31, 1 << 40, 1<<62 - 1, 1 << 62, math.MaxInt64/2 + 1, math.MaxInt64 - 1, math.MaxInt64,
}

// fuzzVal is the int64 an op byte stands for: an edge, a small number
// (−16..95) or 60·k (a run time or estimate of a log).
func fuzzVal(b byte) int64 {
	switch {
	case int(b) < len(fuzzEdges):
		return fuzzEdges[b]
	case b < 128:
		return int64(b) - 32
	default:
		return 60 * int64(b-127)
	}
}

// fuzzOp is one call a simulation makes: Predict at arrival or
// Terminated at the end, of a job built from the op's bytes.
type fuzzOp struct {
	terminate bool
	now       int64
	j         swf.Job
}

const fuzzOpLen = 7 // kind, user, ID and submit, run, estimate, size, now

// fuzzOps decodes at most 200 ops from data.
func fuzzOps(data []byte) []fuzzOp {
	var ops []fuzzOp
	for len(data) >= fuzzOpLen && len(ops) < 200 {
		b := data[:fuzzOpLen]
		data = data[fuzzOpLen:]
		ops = append(ops, fuzzOp{
			terminate: b[0]&1 == 1,
			now:       fuzzVal(b[6]),
			j: swf.Job{
				ID: fuzzVal(b[2]), Submit: fuzzVal(b[2]), RunTime: fuzzVal(b[3]), ReqTime: fuzzVal(b[4]),
				AllocProcs: fuzzVal(b[5]), ReqProcs: fuzzVal(b[5]), User: fuzzUser(b[1]),
			},
		})
	}
	return ops
}

// fuzzUser is a user number: one at the edges of UserHistory's dense
// slice and its map (−1, 2^16 − 1, 2^16, ±extremes) or one of 0..31.
func fuzzUser(b byte) int64 {
	switch b % 8 {
	case 0:
		return -1
	case 1:
		return 1<<16 - 1 // the last dense one
	case 2:
		return 1 << 16
	case 3:
		return math.MinInt64
	case 4:
		return math.MaxInt64
	}
	return int64(b / 8) // 0..31
}

// fuzzConfig decodes a HistoryConfig from c: every field, a window of
// 0..7, 1000 or the invalid 1001 and −1.
func fuzzConfig(c uint16) predict.HistoryConfig {
	windows := []int{0, 1, 2, 3, 4, 5, 7, 1000, 1001, -1}
	return predict.HistoryConfig{
		Window:           windows[int(c&15)%len(windows)],
		Type:             []string{"", "all", "immediate", "extended", "bogus"}[int(c>>4&7)%5],
		Metric:           []string{"", "average", "median", "min", "max"}[int(c>>7&7)%5],
		Partial:          c>>10&1 == 1,
		RelativeFallback: c>>11&1 == 1,
		ByTermination:    c>>12&1 == 1,
		Propagate:        c>>13&1 == 1,
	}
}

// sat2 is 2p held at ±(2^63 − 1), as X2 promises.
func sat2(p int64) int64 {
	switch {
	case p > math.MaxInt64/2:
		return math.MaxInt64
	case p < -math.MaxInt64/2:
		return -math.MaxInt64
	}
	return 2 * p
}

// historyModel is UserHistory as plain lists and big integers: every
// prediction it gives is [lo, hi], exact (lo = hi) but for the relative
// fallback, which is only bounded: e times a mean accuracy in [0, 1].
type historyModel struct {
	cfg   predict.HistoryConfig
	users map[int64]*modelUser
}

type modelEntry struct{ key, run, est int64 }

type modelUser struct {
	all   []modelEntry
	byEst map[int64][]modelEntry
	acc   bool // a job with a positive estimate has terminated
}

// add keeps the n entries of largest key in key order, a new key after
// the equal ones; in a full window one below all kept ones is ignored.
func modelAdd(l []modelEntry, n int, x modelEntry) []modelEntry {
	if len(l) == n {
		if x.key < l[0].key {
			return l
		}
		l = l[1:]
	}
	i := len(l)
	for i > 0 && l[i-1].key > x.key {
		i--
	}
	return slices.Insert(slices.Clone(l), i, x)
}

func (m *historyModel) terminated(j *swf.Job, now int64) {
	u := m.users[j.User]
	if u == nil {
		u = &modelUser{byEst: map[int64][]modelEntry{}}
		m.users[j.User] = u
	}
	x := modelEntry{j.Submit, j.RunTime, j.ReqTime}
	if m.cfg.ByTermination {
		x.key = now
	}
	u.all = modelAdd(u.all, m.cfg.Window, x)
	u.byEst[j.ReqTime] = modelAdd(u.byEst[j.ReqTime], m.cfg.Window, x)
	u.acc = u.acc || j.ReqTime > 0
}

func (m *historyModel) predict(j *swf.Job) (lo, hi int64) {
	e := j.ReqTime
	lo, hi = e, e
	u := m.users[j.User]
	if u == nil {
		return lo, hi
	}
	if m.cfg.RelativeFallback && u.acc {
		lo, hi = min(0, e), max(0, e)
	}
	l := u.all
	if m.cfg.Type == "extended" {
		l = u.byEst[e]
	}
	if len(l) == m.cfg.Window || m.cfg.Partial && len(l) > 0 {
		var runs []int64
		for _, x := range l {
			if m.cfg.Type == "immediate" && x.est != e {
				runs = nil
				break
			}
			runs = append(runs, x.run)
		}
		if runs != nil {
			switch m.cfg.Metric {
			case "min":
				lo = slices.Min(runs)
			case "max":
				lo = slices.Max(runs)
			default:
				lo = bigMetric(m.cfg.Metric, runs)
			}
			hi = lo
		}
	}
	if e > 0 {
		lo, hi = min(lo, e), min(hi, e)
	}
	return lo, hi
}

// FuzzPredictors runs a hostile sequence of the calls a simulation makes
// (Predict at arrival, Terminated at the end; jobs of run times and
// estimates of −1, 0 or up to 2^63 − 1, negative and repeated users and
// IDs, sizes ≤ 0, terminations of jobs never predicted or terminated
// twice) through every predictor of the package: Perfect, X2{}, X2 of
// Perfect, UserHistory of every configuration and X2 of it. No panic or
// hang; Perfect predicts r, X2 twice its inner prediction held at
// ±(2^63 − 1); UserHistory what a model of plain lists and big integers
// predicts (so never above a positive estimate, and never a wrapped
// mean); the same answers twice.
func FuzzPredictors(f *testing.F) {
	op := func(kind, user, submit, run, est, size, now byte) []byte {
		return []byte{kind, user, submit, run, est, size, now}
	}
	// Two jobs of 2^62 s, then a prediction with an estimate of 2^63 − 1.
	f.Add(uint16(0), slices.Concat(op(1, 8, 20, 12, 15, 20, 20), op(1, 8, 21, 12, 15, 20, 21), op(0, 8, 22, 0, 15, 20, 22)))
	// The relative fallback, estimate 2^63 − 1, one accurate job.
	f.Add(uint16(1<<11|4), slices.Concat(op(1, 8, 20, 15, 15, 20, 20), op(0, 8, 22, 0, 15, 20, 22)))
	// Estimates ≤ 0, −1 run times, the same job terminated twice, users
	// −1 and 2^63 − 1, sizes ≤ 0, partial median windows.
	f.Add(uint16(3<<4|2<<7|1<<10), slices.Concat(op(1, 0, 5, 5, 5, 6, 6), op(1, 0, 5, 5, 5, 6, 6), op(0, 0, 7, 0, 5, 5, 7),
		op(1, 4, 0, 15, 6, 0, 0), op(0, 4, 1, 0, 6, 0, 0), op(0, 4, 1, 0, 0, 4, 0)))
	// Long sequences of one user, keys repeated and out of order, run
	// times about the estimate: EASY++'s window (the pair paths), and
	// immediate windows of 3 with now and then another estimate.
	var pair, imm []byte
	for i := range 90 {
		est := byte(140)
		if i%7 == 6 {
			est = 141
		}
		o := op(byte(i%3)&1, 16, byte(16+i*5%4), byte(128+i*7%25), est, 40, byte(16+i))
		pair = append(pair, o...)
		imm = append(imm, o...)
	}
	f.Add(uint16(0), pair)
	f.Add(uint16(3|2<<4), imm)
	f.Fuzz(func(t *testing.T, c uint16, data []byte) {
		ops := fuzzOps(data)
		cfg := fuzzConfig(c)
		first := fuzzRun(t, cfg, ops)
		if second := fuzzRun(t, cfg, ops); !slices.Equal(first, second) {
			t.Fatalf("%+v: the same calls twice gave %v, then %v", cfg, first, second)
		}
	})
}

type fuzzPred struct {
	name string
	p    interface {
		Predict(*swf.Job, int64) int64
		Terminated(*swf.Job, int64)
	}
}

// fuzzRun makes ops on fresh predictors, checks each prediction and
// returns them all.
func fuzzRun(t *testing.T, cfg predict.HistoryConfig, ops []fuzzOp) []int64 {
	h, err := predict.NewUserHistory(cfg)
	if err != nil {
		if cfg.Validate() == nil {
			t.Fatalf("%+v: NewUserHistory: %v, but Validate passes", cfg, err)
		}
		h = nil
	} else if cfg.Validate() != nil {
		t.Fatalf("%+v: NewUserHistory accepted an invalid config", cfg)
	}
	var hx, hm *historyModel
	var h2 *predict.UserHistory
	if h != nil {
		h2, _ = predict.NewUserHistory(cfg)
		if h.Propagates() != cfg.Propagate {
			t.Fatalf("%+v: Propagates() = %v", cfg, h.Propagates())
		}
		full := h.Config()
		if full.Window == 0 || full.Type == "" || full.Metric == "" {
			t.Fatalf("%+v: Config() %+v has defaults left unfilled", cfg, full)
		}
		hm = &historyModel{cfg: full, users: map[int64]*modelUser{}}
		hx = &historyModel{cfg: full, users: map[int64]*modelUser{}}
	}
	x2h := predict.X2{P: h2}
	preds := []fuzzPred{{"Perfect", predict.Perfect{}}, {"X2", predict.X2{}}, {"X2 of Perfect", predict.X2{P: predict.Perfect{}}}}
	if h != nil {
		preds = append(preds, fuzzPred{"UserHistory", h}, fuzzPred{"X2 of UserHistory", x2h})
	}
	var out []int64
	for i, o := range ops {
		for _, pr := range preds {
			j := o.j // each gets its own copy: a predictor must not keep it
			if o.terminate {
				pr.p.Terminated(&j, o.now)
				continue
			}
			p := pr.p.Predict(&j, o.now)
			out = append(out, p)
			var lo, hi int64
			switch pr.name {
			case "Perfect":
				lo, hi = o.j.RunTime, o.j.RunTime
			case "X2":
				lo, hi = sat2(o.j.ReqTime), sat2(o.j.ReqTime)
			case "X2 of Perfect":
				lo, hi = sat2(o.j.RunTime), sat2(o.j.RunTime)
			case "UserHistory":
				lo, hi = hm.predict(&o.j)
				if e := o.j.ReqTime; e > 0 && p > e {
					t.Fatalf("%+v, op %d: %s predicted %d above the estimate %d", cfg, i, pr.name, p, e)
				}
			case "X2 of UserHistory":
				lo, hi = hx.predict(&o.j)
				lo, hi = sat2(lo), sat2(hi)
			}
			if p < lo || p > hi {
				t.Fatalf("%+v, op %d %+v: %s predicted %d, want %d..%d", cfg, i, o, pr.name, p, lo, hi)
			}
		}
		if o.terminate && hm != nil {
			hm.terminated(&o.j, o.now)
			hx.terminated(&o.j, o.now)
		}
	}
	return out
}
