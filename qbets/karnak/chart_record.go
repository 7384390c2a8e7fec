package karnak

import "sync"

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
// then on (the waits, rebuilt with the statistics, are all there). mu
// guards everything here.
type charts struct {
	mu     sync.Mutex
	series map[*system]*sysSeries
	drawn  map[chartKey]*drawnChart
	draws  int64 // charts drawn since the start (tests)
}

// sysSeries is one system's series.
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

// predSample is what the service answered, with the default levels (95%
// quantile, 90% confidence), for a hypothetical job of the shape of a job
// just submitted, right after its submission.
type predSample struct {
	at    int64   // when it answered (the system's clock)
	bound float64 // QBETS upper bound on the wait, seconds; -1: none
	est   float64 // IBL estimate, seconds; -1: none
	half  float64 // its interval's half-width, seconds; -1: unbounded
}

type coreSample struct{ at, running, waiting int64 }

// seriesOf returns sys's series, made when new. The caller holds mu.
func (c *charts) seriesOf(sys *system) *sysSeries {
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

// observeForCharts samples the series after e was applied to sys. It is
// called by IngestBatch with ingestMu held and sys.mu released, so the
// state is the one e left, and it asks the service as a client would
// (PredictHypothetical) for the prediction it samples: the answer at the
// system's clock, which is the submission's time when events arrive as
// they happen (a backlog sent late is answered, and drawn, at the clock).
func (s *Service) observeForCharts(sys *system, e *Event) {
	now := int64(0)
	if e.Kind == "submit" {
		sys.mu.RLock()
		now = s.clockOf(sys)
		sys.mu.RUnlock()
	}
	c := &s.charts
	c.mu.Lock()
	ss := c.seriesOf(sys)
	qs := ss.queue(e.Queue)
	predict := e.Kind == "submit" && now >= qs.nextPred
	if predict {
		qs.nextPred = now - now%predictEvery + predictEvery
	}
	cores := e.Time >= ss.nextCores
	if cores {
		ss.nextCores = e.Time - e.Time%coresEvery + coresEvery
	}
	c.mu.Unlock()
	if predict {
		if p, ok := s.predictionAtSubmit(sys, e); ok {
			c.mu.Lock()
			qs.preds = appendRecent(qs.preds, p, func(p predSample) int64 { return p.at })
			c.mu.Unlock()
		}
	}
	if cores {
		s.sampleCores(sys, ss, e.Time)
	}
}

// predictionAtSubmit is the service's answer for a hypothetical job of
// the shape of the job e submitted, at the default levels (computed, and
// counted by the prediction cache, as a client's request would be).
func (s *Service) predictionAtSubmit(sys *system, e *Event) (predSample, bool) {
	// Not PredictHypothetical, which refuses a wall time of 0: a submit
	// may give none, and its sample is drawn all the same.
	ps, err := s.predictHypothetical(&PredictRequest{Cores: e.Cores, WallTime: e.WallTime, Quantile: defaultQuantile,
		Confidence: defaultConfidence, Locations: []Location{{System: sys.name, Queue: e.Queue}}}, nil)
	if err != nil || len(ps) != 1 {
		return predSample{}, false // beyond the queue's limits: no answer to draw
	}
	p := predSample{at: ps[0].Now, bound: -1, est: -1, half: -1}
	if b := ps[0].QBETS; b != nil {
		p.bound = float64(b.Wait)
	}
	if est := ps[0].IBL; est != nil {
		p.est, p.half = est.Wait, est.HalfWidth
	}
	return p, true
}

// sampleCores records every queue's running and waiting cores at t.
// Waiting cores are not kept by the state: one pass over the live jobs,
// once per coresEvery of the system's clock.
func (s *Service) sampleCores(sys *system, ss *sysSeries, t int64) {
	waiting := map[string]int64{}
	running := map[string]int64{}
	sys.mu.RLock()
	for _, j := range sys.jobs {
		if j.start < 0 {
			waiting[j.Queue] += j.Cores
		}
	}
	for name, q := range sys.queues {
		running[name] = q.usedCores
	}
	sys.mu.RUnlock()
	s.charts.mu.Lock()
	defer s.charts.mu.Unlock()
	all := coreSample{at: t}
	for name, r := range running {
		cs := coreSample{at: t, running: r, waiting: waiting[name]}
		qs := ss.queue(name)
		qs.cores = appendRecent(qs.cores, cs, func(s coreSample) int64 { return s.at })
		all.running += cs.running
		all.waiting += cs.waiting
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
