package main

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
	Window       string  `json:"window"`
	Started      int     `json:"started"`
	MeanCores    float64 `json:"meanCores"`   // of the started jobs
	MeanReqTime  float64 `json:"meanReqTime"` // seconds, of the started jobs with a request
	MeanWait     float64 `json:"meanWait"`    // seconds
	Ended        int     `json:"ended"`
	MeanEndCores float64 `json:"meanEndedCores"`
	MeanEndReq   float64 `json:"meanEndedReqTime"`
	MeanRunTime  float64 `json:"meanRunTime"` // seconds
}

// summarize scans back from the newest record; the lists hold at most a
// week, so the cost is bounded by a week of jobs.
func (h *history) summarize(now int64) []WindowStats {
	out := make([]WindowStats, len(windows))
	for i, w := range windows {
		ws := &out[i]
		ws.Window = w.name
		var sc, sr, sd float64
		var nr int
		for k := len(h.started) - 1; k >= 0 && h.started[k].at > now-w.secs; k-- {
			r := h.started[k]
			if r.at > now {
				continue
			}
			ws.Started++
			sc += float64(r.cores)
			sd += float64(r.dur)
			if r.req > 0 {
				sr += float64(r.req)
				nr++
			}
		}
		if ws.Started > 0 {
			ws.MeanCores, ws.MeanWait = sc/float64(ws.Started), sd/float64(ws.Started)
		}
		if nr > 0 {
			ws.MeanReqTime = sr / float64(nr)
		}
		sc, sr, sd, nr = 0, 0, 0, 0
		for k := len(h.ended) - 1; k >= 0 && h.ended[k].at > now-w.secs; k-- {
			r := h.ended[k]
			if r.at > now {
				continue
			}
			ws.Ended++
			sc += float64(r.cores)
			sd += float64(r.dur)
			if r.req > 0 {
				sr += float64(r.req)
				nr++
			}
		}
		if ws.Ended > 0 {
			ws.MeanEndCores, ws.MeanRunTime = sc/float64(ws.Ended), sd/float64(ws.Ended)
		}
		if nr > 0 {
			ws.MeanEndReq = sr / float64(nr)
		}
	}
	return out
}
