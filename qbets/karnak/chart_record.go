package karnak

import (
	"math"
	"sync"

	"github.com/batchq/batchq/qbets"
)

// What the queue charts show (chart.go) that the state does not keep:
// the QBETS bound and the IBL estimate the service gave jobs when they
// were submitted, and each queue's running and waiting cores over time.
// The charts cover the last week of a system's clock, kqueue's widest
// window; the waits of the started jobs come from the statistics
// (history), which keep a week.
const (
	chartWindow  = week
	predictEvery = 300 // seconds of a system's clock between two prediction samples of a queue
	coresEvery   = 600 // and between two samples of its cores
)

// charts records the series as events are ingested, and caches the drawn
// charts (chart_cache.go). The series are sampled at most every
// predictEvery/coresEvery seconds of the system's clock, so their cost is
// O(1) per event and a week of them is at most 2,016 + 1,008 samples per
// queue. They are kept in memory only: a restart (Load) and a repair
// (Drop, Rewind) start them anew, and the charts show predictions from
// then on (the waits, rebuilt with the statistics, are all there).
type charts struct {
	mu     sync.Mutex
	series map[*system]*sysSeries
	drawn  map[chartKey]*drawnChart
	draws  int64 // charts drawn since the start (tests)
}

// sysSeries is one system's series. Its content is guarded by the
// system's mu: written under the write lock by observe, read under the
// read lock when a chart is drawn.
type sysSeries struct {
	nextCores int64
	queues    map[string]*queueSeries
	all       queueSeries // all_jobs: cores (its predictions are the queues')
}

type queueSeries struct {
	nextPred int64
	preds    []predSample
	cores    []coreSample
}

// predSample is what the service predicted for a job at its submission
// with the default levels (95% quantile, 90% confidence).
type predSample struct {
	at    int64   // the submission
	bound float64 // QBETS upper bound on the wait, seconds; -1: none
	est   float64 // IBL estimate, seconds; -1: none
	half  float64 // its interval's half-width, seconds; +Inf: unbounded
}

type coreSample struct{ at, running, waiting int64 }

// series returns sys's series, made when new.
func (c *charts) seriesOf(sys *system) *sysSeries {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.series == nil {
		c.series = map[*system]*sysSeries{}
	}
	ss := c.series[sys]
	if ss == nil {
		ss = &sysSeries{queues: map[string]*queueSeries{}}
		c.series[sys] = ss
	}
	return ss
}

// peek returns sys's series, nil when it has none yet.
func (c *charts) peek(sys *system) *sysSeries {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.series[sys]
}

// drop forgets a system's series and charts (it was dropped or rewound).
func (c *charts) drop(sys *system) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.series, sys)
	for k := range c.drawn {
		if k.sys == sys {
			delete(c.drawn, k)
		}
	}
}

// observe samples the series after e was applied to sys. The caller
// holds sys.mu for writing.
func (c *charts) observe(sys *system, e *Event) {
	ss := c.seriesOf(sys)
	if e.Kind == "submit" {
		qs := ss.queue(e.Queue)
		if e.Time >= qs.nextPred {
			qs.nextPred = e.Time - e.Time%predictEvery + predictEvery
			if p, ok := predictionAtSubmit(sys, e); ok {
				qs.preds = appendRecent(qs.preds, p, func(p predSample) int64 { return p.at })
			}
		}
	}
	if e.Time < ss.nextCores {
		return
	}
	ss.nextCores = e.Time - e.Time%coresEvery + coresEvery
	// Waiting cores are not kept by the state: one pass over the live
	// jobs, once per coresEvery of the system's clock.
	waiting := map[string]int64{}
	for _, j := range sys.jobs {
		if j.start < 0 {
			waiting[j.Queue] += j.Cores
		}
	}
	all := coreSample{at: e.Time}
	for name, q := range sys.queues {
		s := coreSample{at: e.Time, running: q.usedCores, waiting: waiting[name]}
		qs := ss.queue(name)
		qs.cores = appendRecent(qs.cores, s, func(s coreSample) int64 { return s.at })
		all.running += s.running
		all.waiting += s.waiting
	}
	ss.all.cores = appendRecent(ss.all.cores, all, func(s coreSample) int64 { return s.at })
}

func (ss *sysSeries) queue(name string) *queueSeries {
	if qs, ok := ss.queues[name]; ok {
		return qs
	}
	qs := &queueSeries{}
	ss.queues[name] = qs
	return qs
}

// predictionAtSubmit is the QBETS bound (the queue's default predictor)
// and the IBL estimate (the not-queued base, the job's features at its
// submission) for the job e just submitted.
func predictionAtSubmit(sys *system, e *Event) (predSample, bool) {
	j, q := sys.jobs[e.Job], sys.queues[e.Queue]
	if j == nil || q == nil {
		return predSample{}, false
	}
	p := predSample{at: e.Time, bound: -1, est: -1, half: math.Inf(1)}
	if pred := q.preds[qbKey{defaultQuantile, defaultConfidence}]; pred != nil {
		if f := pred.Forecast(qbets.Request{Nodes: int(e.Cores), Walltime: e.WallTime, At: e.Time}); f.OK {
			p.bound = float64(f.Upper)
		}
	}
	if j.inNQ != nil {
		if pr, err := sys.notQueued.Predict(j.inNQ, defaultConfidence); err == nil {
			p.est, p.half = pr.Wait, pr.HalfWidth
		}
	}
	return p, true
}

// appendRecent appends v to a time-ordered series and forgets what is
// more than chartWindow older, copying only when more than half the
// slice is dead (O(1) amortized, as records.add).
func appendRecent[T any](s []T, v T, at func(T) int64) []T {
	s = append(s, v)
	cut := at(v) - chartWindow
	i := 0
	for i < len(s) && at(s[i]) < cut {
		i++
	}
	if i == 0 {
		return s
	}
	if 2*i > len(s) {
		return append([]T(nil), s[i:]...)
	}
	return s[i:]
}
