package karnak

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// FuzzHandler: any GET or POST to any path with any query and Accept
// header is routed and rendered without a panic or a 5xx, and what it
// answers 200 is well-formed in its type (HTML and XML parse, JSON is
// valid).
func FuzzHandler(f *testing.F) {
	for _, s := range [][4]string{
		{"GET", "/karnak/system/status.html", "", ""},
		{"GET", "/karnak/system/s1/queue/normal/summary", "", "text/html"},
		{"GET", "/karnak/system/s1/queue/all_jobs/summary.xml", "", ""},
		{"GET", "/karnak/system/s1/job/1002/prediction/starttime.html", "within=00:30:00&quantile=75", ""},
		{"GET", "/karnak/system/s1/job/1002/prediction/waittime", "confidence=95&within=600", "application/xml"},
		{"GET", "/karnak/waittime/predict.html", "cores=4&wallTime=01:00:00&loc=normal@s1&loc=debug@s1&within=00:10:00", ""},
		{"GET", "/karnak/starttime/predict.html", "queue=normal@s1&hours=1&minutes=5&cores=x", ""},
		{"GET", "/karnak/system/s1/event/last.txt", "", ""},
		{"GET", "/karnak/stats", "", "application/json"},
		{"POST", "/karnak/waittime/prediction/", "format=html", ""},
		{"GET", "/karnak/system/../status.html", "", ""},
		{"GET", "/karnak/system/s1/job/-1/prediction/waittime.json", "", ""},
		{"GET", "/karnak/system/s1/job/waiting.json", "after=100.1002&limit=2", ""},
		{"GET", "/karnak/system/s1/job/waiting", "after=99999999999999999999.1&offset=1", "text/html"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		f.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, method, path, query, accept string) {
		if method != "GET" && method != "POST" && method != "HEAD" {
			method = "GET"
		}
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(`{"cores":4,"wallTime":"01:00:00","within":600,"locations":["normal@s1","debug@s1"]}`)
		}
		req, err := http.NewRequest(method, "http://x/", body)
		if err != nil {
			return
		}
		req.URL = &url.URL{Path: path, RawQuery: query}
		req.RequestURI = req.URL.RequestURI()
		req.RemoteAddr = "127.0.0.1:1"
		req.Header.Set("Accept", accept)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 || rec.Code < 100 {
			t.Fatalf("%s %s?%s: %d %s", method, path, query, rec.Code, rec.Body.String())
		}
		if rec.Code != 200 || method == "HEAD" {
			return
		}
		ct := rec.Header().Get("Content-Type")
		b := rec.Body.String()
		switch {
		case strings.HasPrefix(ct, "text/html"):
			wellFormed(t, path, b)
		case strings.HasPrefix(ct, "application/xml"):
			d := xml.NewDecoder(strings.NewReader(b))
			for {
				_, err := d.Token()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("%s: XML not well-formed: %v", path, err)
				}
			}
		case strings.HasPrefix(ct, "application/json"):
			if !json.Valid([]byte(b)) {
				t.Fatalf("%s: invalid JSON: %s", path, b)
			}
		}
	})
}

// FuzzLoad: whatever rows a store holds at a restart (a store edited by
// hand, damaged, or written by another version), Load rebuilds from them
// or fails with an error naming the stored event, without a panic; a
// service that loaded answers its pages and its waiting jobs'
// predictions without a 5xx.
func FuzzLoad(f *testing.F) {
	var recs []Record
	for i, e := range testEvents()[:60] {
		recs = append(recs, Record{Seq: int64(i + 1), Event: e})
	}
	recs[0].Feed, recs[0].State = 30, []byte("not a qbets state")
	recs[5].Batch, recs[5].Digest = "b1", "1:00"
	seed, _ := json.Marshal(recs)
	f.Add(seed)
	f.Add([]byte(`[{"seq":1,"event":{"kind":"queue","system":"a","time":5,"queue":"q","cores":1,"wallTime":60}},{"seq":2,"event":{"kind":"submit","system":"a","job":1,"time":4,"queue":"q","cores":1}}]`))
	f.Add([]byte(`[{"seq":1,"event":{"kind":"start","system":"a","job":1,"time":5}}]`))
	f.Add([]byte(`[{"seq":1,"feed":-3,"state":"AAAA","event":{"kind":"queue","system":"..","time":-1,"queue":"q","cores":1,"wallTime":60}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var recs []Record
		if json.Unmarshal(data, &recs) != nil || len(recs) > 500 {
			return
		}
		st := &MemStore{}
		for i := range recs {
			if err := st.Append(recs[i : i+1]); err != nil {
				t.Fatal(err)
			}
		}
		s, err := New(st, Config{Now: func() int64 { return testNow }, Rate: -1, Logf: func(string, ...any) {}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load(context.Background()); err != nil {
			if !strings.Contains(err.Error(), "stored event") {
				t.Fatalf("a Load error that names no stored event: %v", err)
			}
			return
		}
		h := s.Handler()
		get := func(path string) {
			req := httptest.NewRequest("GET", path, nil)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("%s: %d %s", path, rec.Code, rec.Body.String())
			}
		}
		get("/karnak/system/status.json")
		for _, name := range s.systemNames() {
			get("/karnak/system/" + name + "/status.html")
			get("/karnak/system/" + name + "/queue/all_jobs/summary.html")
			sys, _ := s.lookup(name)
			sys.mu.RLock()
			var ids []int64
			for id := range sys.jobs {
				ids = append(ids, id)
			}
			sys.mu.RUnlock()
			slices.Sort(ids) // the same five jobs on every run, not the map's pick
			for _, id := range ids[:min(len(ids), 5)] {
				if _, err := s.PredictJob(name, id, 95, 90, 600); err != nil && statusOf(err) >= 500 {
					t.Fatalf("job %d: %v", id, err)
				}
			}
		}
	})
}
