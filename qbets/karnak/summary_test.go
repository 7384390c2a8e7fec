package karnak

import (
	"cmp"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"
)

// kqueue's windows, computed by hand for a small history (now = 10^6):
//
//	job queue cores req    submit        start         end
//	1   q     2     600    now−2d−100    now−2d        now−2d+50
//	2   q     4     none   now−3h−300    now−3h        now−30m
//	3   q     8     3600   now−40m−60    now−40m       (running)
//	4   q     1     60     now−10m       (waiting)
//	5   r     16    120    now−20m−10    now−20m       (running)
func TestQueueSummaryNumbers(t *testing.T) {
	const now = 1_000_000
	const h, d = 3600, 86400
	evs := []Event{
		{Kind: "queue", System: "h", Time: 0, Queue: "q", Cores: 64, WallTime: d},
		{Kind: "queue", System: "h", Time: 0, Queue: "r", Cores: 64, WallTime: d},
		{Kind: "submit", System: "h", Job: 1, Time: now - 2*d - 100, Queue: "q", Cores: 2, WallTime: 600},
		{Kind: "start", System: "h", Job: 1, Time: now - 2*d},
		{Kind: "end", System: "h", Job: 1, Time: now - 2*d + 50},
		{Kind: "submit", System: "h", Job: 2, Time: now - 3*h - 300, Queue: "q", Cores: 4},
		{Kind: "start", System: "h", Job: 2, Time: now - 3*h},
		{Kind: "submit", System: "h", Job: 3, Time: now - 40*60 - 60, Queue: "q", Cores: 8, WallTime: 3600},
		{Kind: "start", System: "h", Job: 3, Time: now - 40*60},
		{Kind: "end", System: "h", Job: 2, Time: now - 30*60},
		{Kind: "submit", System: "h", Job: 5, Time: now - 20*60 - 10, Queue: "r", Cores: 16, WallTime: 120},
		{Kind: "start", System: "h", Job: 5, Time: now - 20*60},
		{Kind: "submit", System: "h", Job: 4, Time: now - 10*60, Queue: "q", Cores: 1, WallTime: 60},
	}
	slices.SortStableFunc(evs, func(a, b Event) int { return cmp.Compare(a.Time, b.Time) })
	s, err := NewService(nil, func() int64 { return now })
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	get := func(queue string) QueueSummary {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/karnak/system/h/queue/"+queue+"/summary.json", nil))
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", queue, rec.Code, rec.Body)
		}
		var v QueueSummary
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	type row struct {
		started              int
		cores, req, wait     float64
		ended                int
		eCores, eReq, runAvg float64
	}
	check := func(queue string, running, waiting int, used int64, want []row) {
		t.Helper()
		v := get(queue)
		if v.Running != running || v.Waiting != waiting || v.UsedCores != used {
			t.Errorf("%s now: %d running, %d waiting, %d cores; want %d, %d, %d", queue, v.Running, v.Waiting, v.UsedCores, running, waiting, used)
		}
		for i, w := range want {
			g := v.History[i]
			got := row{g.Started, g.MeanCores, g.MeanReqTime, g.MeanWait, g.Ended, g.MeanEndCores, g.MeanEndReq, g.MeanRunTime}
			if got != w {
				t.Errorf("%s %s: got %+v\n\twant %+v", queue, g.Window, got, w)
			}
		}
	}
	check("q", 1, 1, 8, []row{
		{1, 8, 3600, 60, 1, 4, 0, 9000},                 // 1h
		{2, 6, 3600, 180, 1, 4, 0, 9000},                // 4h: job 2 asked no time
		{2, 6, 3600, 180, 1, 4, 0, 9000},                // 1d
		{3, 14.0 / 3, 2100, 460.0 / 3, 2, 3, 600, 4525}, // 1w
	})
	check(allJobs, 2, 1, 24, []row{
		{2, 12, 1860, 35, 1, 4, 0, 9000},
		{3, 28.0 / 3, 1860, 370.0 / 3, 1, 4, 0, 9000},
		{3, 28.0 / 3, 1860, 370.0 / 3, 1, 4, 0, 9000},
		{4, 7.5, 1440, 117.5, 2, 3, 600, 4525},
	})
}
