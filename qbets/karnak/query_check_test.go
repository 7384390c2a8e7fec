package karnak

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// A parameter whose pair cannot be read, a malformed %-escape or a ';'
// in it, is a 400 naming it, on the lists and the queued job's
// prediction: it was skipped, as url.ParseQuery skips it, so that
// ?after=%zz gave the first page, ?limit=5;x a page of 1,000 and
// ?quantile=50;x the default quantile, each a 200 answering another
// question than the one asked. Other parameters' bad pairs are still
// skipped, and a well-formed query is read as before.
func TestQuerySkippedRefused(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w.Code, w.Body.String()
	}
	for path, field := range map[string]string{
		"/karnak/system/status.txt?after=%zz":                                "after",
		"/karnak/system/status.txt?limit=5;x":                                "limit",
		"/karnak/system/status.json?before=s%2":                              "before",
		"/karnak/system/status.json?x=1&offset=%":                            "offset",
		"/karnak/system/s1/job/waiting.txt?after=1.1;x=2":                    "after",
		"/karnak/system/s1/job/waiting.json?limit=%G0":                       "limit",
		"/karnak/system/s1/job/waiting.json?offset;=3":                       "offset",
		"/karnak/system/s1/job/1001/prediction/waittime.txt?quantile=50;x":   "quantile",
		"/karnak/system/s1/job/1001/prediction/waittime.txt?within=%zz":      "within",
		"/karnak/system/s1/job/1001/prediction/starttime.json?confidence=9%": "confidence",
	} {
		if code, body := get(path); code != 400 || !strings.HasPrefix(message(body), field+": ") || !strings.Contains(body, "cannot be read") {
			t.Errorf("%s: %d %q, want a 400 naming %s", path, code, body, field)
		}
	}
	for _, path := range []string{
		"/karnak/system/status.txt?x=%zz&limit=1",
		"/karnak/system/s1/job/waiting.txt?limit=1&y=1;2",
		"/karnak/system/s1/job/1001/prediction/waittime.txt?quantile=50&within=00%3A30%3A00&z=%",
	} {
		if code, body := get(path); code != 200 {
			t.Errorf("%s: %d %q, want 200 (the bad pair is not one the resource reads)", path, code, body)
		}
	}
}

// A hypothetical job's ?format= whose pair cannot be read is a 400
// naming it, before the body is read: it was skipped as the lists'
// parameters were, and the Accept header chose the format (a JSON
// answer to ?format=txt;x). A well-formed one still chooses.
func TestFormatSkippedRefused(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	post := func(q string) (int, string, string) {
		r := httptest.NewRequest("POST", "/karnak/waittime/prediction/"+q, strings.NewReader(`{"cores": 4, "wallTime": "01:00:00", "locations": ["normal@s1"]}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json")
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		return w.Code, w.Header().Get("Content-Type"), w.Body.String()
	}
	for _, q := range []string{"?format=txt;x", "?format=%zz", "?format=t%xt", "?x=1&format;=txt"} {
		if code, _, body := post(q); code != 400 || !strings.HasPrefix(message(body), "format: ") || !strings.Contains(body, "cannot be read") {
			t.Errorf("%s: %d %q, want a 400 naming format", q, code, body)
		}
	}
	for q, ctype := range map[string]string{"?format=txt": "text/plain", "?format=t%78t": "text/plain", "": "application/json", "?x=%zz&format=txt": "text/plain"} {
		if code, got, body := post(q); code != 200 || !strings.HasPrefix(got, ctype) {
			t.Errorf("%s: %d %q %q, want 200 %s", q, code, got, body, ctype)
		}
	}
}

// The form's parameters whose pair cannot be read are a 400 naming them,
// as the lists' are: the form read its query with URL.Query, which skips
// such a pair, so that ?cores=%zz showed the empty form and
// ?quantile=50;x answered the default quantile, each a 200. Other
// parameters' bad pairs are still skipped, and a well-formed query (one
// with a ';' escaped, as a browser sends it) is read as before.
func TestFormQuerySkippedRefused(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w.Code, w.Body.String()
	}
	const ok = "loc=normal%40s1&cores=4&wallTime=01%3A00%3A00"
	for q, field := range map[string]string{
		"cores=%zz":                      "cores",
		ok + "&quantile=50;x":            "quantile",
		ok + "&confidence=9%":            "confidence",
		ok + "&within=%G0":               "within",
		ok + "&show=%zz":                 "show",
		"loc=normal%40s1;loc=debug%40s1": "loc",
		"queue=normal@s1%":               "queue",
		"x=1&wallTime;=3600":             "wallTime",
		"hours=1;minutes=2":              "hours",
		"minutes=%2":                     "minutes",
		"sys=s%zz":                       "sys",
	} {
		for _, page := range []string{"waittime", "starttime"} {
			path := "/karnak/" + page + "/predict.html?" + q
			if code, body := get(path); code != 400 || !strings.HasPrefix(message(body), field+": ") || !strings.Contains(body, "cannot be read") {
				t.Errorf("%s: %d %q, want a 400 naming %s", path, code, body, field)
			}
		}
	}
	for _, q := range []string{"", "x=%zz", ok + "&y=1;2", ok + "&within=00%3A30%3A00&z=%"} {
		path := "/karnak/waittime/predict.html?" + q
		if code, _ := get(path); code != 200 {
			t.Errorf("%s: %d, want the form as before", path, code)
		}
	}
	// An escaped ';' is a value's: the form shows it again with its error.
	if code, body := get("/karnak/waittime/predict.html?" + ok + "&within=1%3B"); code != 400 || !strings.Contains(body, `&#34;1;&#34;: want hh:mm:ss`) {
		t.Errorf("within=1%%3B: %d, want the form with the field's error", code)
	}
}

// A rewind's ?time= that cannot be read is a 400 quoting what was sent,
// clipped: it said time: "" (URL.Query skipped the pair), as if no time
// had been sent. A time that is not Unix seconds is quoted as before.
func TestRewindTimeQuoted(t *testing.T) {
	admin := Token{Name: "admin", Secret: "admin-secret-0123456789", Systems: []string{"*"}, Admin: true}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1, Tokens: []Token{admin}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	rewind := func(q string) (int, string) {
		r := httptest.NewRequest("POST", "/karnak/admin/system/s1/rewind?"+q, nil)
		r.Header.Set("Authorization", "Bearer "+admin.Secret)
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	long := strings.Repeat("9", 300) + "%zz"
	for q, want := range map[string]string{
		"time=%zz":           `time: "time=%zz" cannot be read`,
		"time=1;x=2":         `time: "time=1;x=2" cannot be read`,
		"x=1&time=12%":       `time: "time=12%" cannot be read`,
		"time=" + long:       `time: "time=` + strings.Repeat("9", 40),
		"time=abc":           `time: "abc", want Unix seconds`,
		"time=" + long[:300]: `time: "` + strings.Repeat("9", 40),
		"":                   `time: "", want Unix seconds`,
	} {
		code, body := rewind(q)
		if code != 400 || !strings.HasPrefix(message(body), want) || len(body) > 300 || strings.Contains(body, `time: ""`) != (q == "") {
			t.Errorf("?%.40s: %d %q, want a 400 beginning %q, clipped", q, code, body, want)
		}
	}
}

// The form's answer to a query too long to read whole (formOverlong, a
// 414 with the form) reads the part it keeps as the form reads any
// query: a pair of the form's that cannot be read is a 400 naming it.
// It was left out (url.ParseQuery), so that ?cores=%zz with 300 queues
// showed the form with cores back at 1, where 3 queues got the 400.
func TestFormOverlongQuerySkippedRefused(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w.Code, w.Body.String()
	}
	many := strings.Repeat("&loc=normal%40s1", 300) // past maxParams: the 414 path
	for q, field := range map[string]string{
		"cores=%zz&wallTime=01%3A00%3A00" + many:  "cores",
		"cores=4&quantile=50;x" + many:            "quantile",
		"cores=4&loc=normal%40s1%" + many:         "loc",
		"cores=4&wallTime;=3600" + many:           "wallTime",
		"cores=4&x=" + strings.Repeat("a", 70000): "",
	} {
		for _, page := range []string{"waittime", "starttime"} {
			path := "/karnak/" + page + "/predict.html?" + q
			code, body := get(path)
			if field == "" {
				if code != 414 || !strings.Contains(body, "<form") {
					t.Errorf("%.80s…: %d, want the form's 414 (nothing unreadable)", path, code)
				}
				continue
			}
			if code != 400 || !strings.HasPrefix(message(body), field+": ") || !strings.Contains(body, "cannot be read") {
				t.Errorf("%.80s…: %d %.200q, want a 400 naming %s", path, code, body, field)
			}
		}
	}
	// A pair past the part read is not read: the 414 with the form.
	if code, body := get("/karnak/waittime/predict.html?cores=4" + many + "&within=%G0"); code != 414 || !strings.Contains(body, "<form") {
		t.Errorf("an unreadable pair past the part read: %d, want the form's 414", code)
	}
}

// A parameter given twice is a 400 naming it, on every path that checks
// its query (the lists, a job's prediction, a hypothetical job's
// format, a rewind, the form and its 414): the first was read and the
// second ignored, so ?limit=5&limit=50 was a page of 5 and
// ?quantile=50&quantile=95 the median, each a 200. The form's lists
// (loc, queue, sys) are given once a value, as a browser sends them.
func TestQueryRepeatedRefused(t *testing.T) {
	admin := Token{Name: "admin", Secret: "admin-secret-0123456789", Systems: []string{"*"}, Admin: true}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1, Tokens: []Token{admin}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	do := func(method, path string) (int, string) {
		var body io.Reader
		if strings.Contains(path, "/prediction/") && method == "POST" {
			body = strings.NewReader(`{"cores": 4, "wallTime": "01:00:00", "locations": ["normal@s1"]}`)
		}
		r := httptest.NewRequest(method, path, body)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+admin.Secret)
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	const ok = "loc=normal%40s1&cores=4&wallTime=01%3A00%3A00"
	many := strings.Repeat("&loc=normal%40s1", 300) // past maxParams: the form's 414
	for _, c := range []struct{ method, path, field string }{
		{"GET", "/karnak/system/status.txt?limit=5&limit=50", "limit"},
		{"GET", "/karnak/system/status.json?after=s0&x=1&after=s1", "after"},
		{"GET", "/karnak/system/s1/job/waiting.txt?limit=1&offset=0&offset=1", "offset"},
		{"GET", "/karnak/system/s1/job/waiting.json?l%69mit=1&limit=2", "limit"},
		{"GET", "/karnak/system/s1/job/1001/prediction/waittime.txt?quantile=50&quantile=95", "quantile"},
		{"GET", "/karnak/system/s1/job/1001/prediction/starttime.json?within=00%3A30%3A00&within", "within"},
		{"POST", "/karnak/waittime/prediction/?format=txt&format=json", "format"},
		{"POST", "/karnak/admin/system/s1/rewind?time=1&time=2", "time"},
		{"GET", "/karnak/waittime/predict.html?" + ok + "&cores=8", "cores"},
		{"GET", "/karnak/starttime/predict.html?" + ok + "&quantile=50&quantile=95", "quantile"},
		{"GET", "/karnak/waittime/predict.html?show=queues&show=queues", "show"},
		{"GET", "/karnak/waittime/predict.html?cores=4&cores=8" + many, "cores"},
	} {
		if code, body := do(c.method, c.path); code != 400 || !strings.HasPrefix(message(body), c.field+": ") || !strings.Contains(body, "given twice") {
			t.Errorf("%s %.80s: %d %.200q, want a 400 naming %s", c.method, c.path, code, body, c.field)
		}
	}
	for _, path := range []string{
		"/karnak/waittime/predict.html?" + ok + "&loc=debug%40s1&queue=normal%40s1&queue=debug%40s1",
		"/karnak/waittime/predict.html?sys=s1&sys=s2&show=queues",
		"/karnak/system/status.txt?x=1&x=2&limit=5",
	} {
		if code, body := do("GET", path); code != 200 {
			t.Errorf("%s: %d %.200q, want 200 (lists, or a parameter not read)", path, code, body)
		}
	}
}
