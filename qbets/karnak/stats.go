package karnak

import (
	"slices"
	"sync"
)

// record is one job in a queue's recent history: when it started (or
// ended), its size and requested time, and its wait (or run time).
type record struct {
	at, cores, req, dur int64
}

// records is a time-ordered list of the last week of records.
type records []record

const week = 7 * 24 * 3600

// windows are kqueue's historical spans (§2.2): 1 h, 4 h, 1 day, 1 week.
var windows = []struct {
	name string
	secs int64
}{{"1h", 3600}, {"4h", 4 * 3600}, {"1d", 24 * 3600}, {"1w", week}}

// add appends r and forgets records more than a week older, copying only
// when more than half the slice is dead, so upkeep is O(1) amortized.
func (rs records) add(r record) records {
	rs = append(rs, r)
	i := 0
	for i < len(rs) && rs[i].at < r.at-week {
		i++
	}
	if i > 0 {
		if 2*i > len(rs) {
			return append(records(nil), rs[i:]...)
		}
		return rs[i:]
	}
	return rs
}

type history struct{ started, ended records }

// WindowStats is one row of kqueue's historical part: the jobs that
// started (waits) or ended (run times) within the window before now.
type WindowStats struct {
	Window       string  `json:"window" xml:"window"`
	Started      int     `json:"started" xml:"started"`
	MeanCores    float64 `json:"meanCores" xml:"meanCores"`     // of the started jobs
	MeanReqTime  float64 `json:"meanReqTime" xml:"meanReqTime"` // seconds, of the started jobs with a request
	MeanWait     float64 `json:"meanWait" xml:"meanWait"`       // seconds
	Ended        int     `json:"ended" xml:"ended"`
	MeanEndCores float64 `json:"meanEndedCores" xml:"meanEndedCores"`
	MeanEndReq   float64 `json:"meanEndedReqTime" xml:"meanEndedReqTime"`
	MeanRunTime  float64 `json:"meanRunTime" xml:"meanRunTime"` // seconds
}

// summarize scans back from the newest record; the lists hold at most a
// week, so the cost is bounded by a week of jobs.
func (h *history) summarize(now int64) []WindowStats {
	out := make([]WindowStats, len(windows))
	for i, w := range windows {
		ws := &out[i]
		ws.Window = w.name
		ws.Started, ws.MeanCores, ws.MeanReqTime, ws.MeanWait = h.started.means(now, w.secs)
		ws.Ended, ws.MeanEndCores, ws.MeanEndReq, ws.MeanRunTime = h.ended.means(now, w.secs)
	}
	return out
}

// means counts the records in (now−secs, now] and averages their cores,
// requested time (over the records that have one) and duration; a mean
// over no records is 0.
func (rs records) means(now, secs int64) (n int, cores, req, dur float64) {
	var nr int
	for k := len(rs) - 1; k >= 0 && rs[k].at > now-secs; k-- {
		r := rs[k]
		if r.at > now {
			continue
		}
		n++
		cores += float64(r.cores)
		dur += float64(r.dur)
		if r.req > 0 {
			req += float64(r.req)
			nr++
		}
	}
	if n > 0 {
		cores, dur = cores/float64(n), dur/float64(n)
	}
	if nr > 0 {
		req /= float64(nr)
	}
	return n, cores, req, dur
}

// summaries keeps each queue's last kqueue summary (and all_jobs's) with
// the state and the instant it was computed at: a summary scans the
// queue's last week of jobs (8 ms an anonymous request for 500,000 of
// them, on a loaded 2-core machine, until this cache), and a client
// asking again and again, or many asking at once, now costs one scan per
// queue, state and second of the system's clock (TestSummaryComputedOnce).
// It holds at most one entry per queue of the system.
type summaries struct {
	mu       sync.Mutex // held while computing: the others wait for one scan
	m        map[string]summaryAt
	computed int64 // scans made (for tests)
}

type summaryAt struct {
	gen uint64
	now int64
	ws  []WindowStats
}

// summary is h.summarize(now) for queue (allJobs: the system's), computed
// at most once per state and instant. The caller holds s.mu (read).
func (s *system) summary(queue string, h *history, now int64) []WindowStats {
	c := &s.sums
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[queue]; ok && e.gen == s.gen && e.now == now {
		return slices.Clone(e.ws)
	}
	ws := h.summarize(now)
	if c.m == nil {
		c.m = map[string]summaryAt{}
	}
	c.m[queue] = summaryAt{s.gen, now, ws}
	c.computed++
	return slices.Clone(ws)
}
