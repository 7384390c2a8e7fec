package karnak

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// keysetService is a system "k" with 30 jobs waiting, submitted at one
// time with even ids 2…60 (so that a job submitted later at the same time
// with an odd id takes its place among them, as a job submitted out of
// order does), and its handler.
func keysetService(t testing.TB) (*Service, http.Handler) {
	t.Helper()
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	evs := []Event{{Kind: "queue", System: "k", Time: testNow - 3600, Queue: "q", Cores: 64, WallTime: 86400}}
	for id := int64(2); id <= 60; id += 2 {
		evs = append(evs, Event{Kind: "submit", System: "k", Job: id, Time: testNow - 600, Queue: "q", Cores: 1, WallTime: 3600})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	return s, s.Handler()
}

func getPage(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w
}

var (
	htmlJobRow = regexp.MustCompile(`<tr><th scope="row"><a href="[^"]*">(\d+)</a>`)
	htmlNext   = regexp.MustCompile(`<a href="([^"]*)">the next ones</a>`)
)

// pageIDs reads the job ids of a page of the waiting jobs in format f,
// and the query of the next page that its body gives (the text's last
// line, the page's link; "" for JSON and XML, which have the header only).
func pageIDs(t *testing.T, f, body string) (ids []int64, next string) {
	t.Helper()
	switch f {
	case "json":
		var js []WaitingJob
		if err := json.Unmarshal([]byte(body), &js); err != nil {
			t.Fatal(err)
		}
		for _, j := range js {
			ids = append(ids, j.Job)
		}
	case "xml":
		var v struct {
			Jobs []WaitingJob `xml:"waitingJob"`
		}
		if err := xml.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		for _, j := range v.Jobs {
			ids = append(ids, j.Job)
		}
	case "txt":
		for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n")[1:] {
			if id, err := strconv.ParseInt(strings.Fields(line)[0], 10, 64); err == nil {
				ids = append(ids, id)
			} else if _, q, ok := strings.Cut(line, "; next: "); ok {
				next = q
			}
		}
	case "html":
		for _, m := range htmlJobRow.FindAllStringSubmatch(body, -1) {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			ids = append(ids, id)
		}
		if m := htmlNext.FindStringSubmatch(body); m != nil {
			_, next, _ = strings.Cut(strings.ReplaceAll(m[1], "&amp;", "&"), "html")
		}
	}
	return ids, next
}

// linkNext is the path and query of a Link header's next page ("" none).
func linkNext(w *httptest.ResponseRecorder) string {
	l, ok := strings.CutSuffix(w.Header().Get("Link"), `>; rel="next"`)
	if !ok {
		return ""
	}
	return strings.TrimPrefix(l, "<")
}

// Paging the waiting jobs by following Link (?after=) lists, in every
// format, each job that waits from the first page to the last exactly
// once and in order, although between the pages jobs of the first page
// leave, one is submitted out of order onto it, and one arrives after the
// last: the same reads by ?offset= skip as many jobs as left before the
// offset. The text's last line and the page's link give the same next
// page as the header. With Link built from ?offset= (as before ?after=)
// the pages skip the jobs and the test fails.
func TestWaitingKeysetPaging(t *testing.T) {
	for _, f := range []string{"json", "xml", "txt", "html"} {
		t.Run(f, func(t *testing.T) {
			s, h := keysetService(t)
			base := "/karnak/system/k/job/waiting." + f
			w := getPage(t, h, base+"?limit=10")
			if w.Code != 200 {
				t.Fatalf("%d %s", w.Code, w.Body.String())
			}
			got, bodyNext := pageIDs(t, f, w.Body.String())
			next := linkNext(w)
			if want := base + "?after=" + strconv.FormatInt(testNow-600, 10) + ".20&limit=10"; next != want {
				t.Fatalf("Link's next page %q, want %q", next, want)
			}
			if f == "txt" || f == "html" {
				if bodyNext != strings.TrimPrefix(next, base) {
					t.Errorf("the body's next page %q, the header's %q", bodyNext, next)
				}
			}
			// Between the pages: job 7 is submitted at the same time as
			// the others (its key, before the cursor's, puts it on the
			// page already read, as a job submitted out of order),
			// three jobs of the first page start, one is cancelled, and
			// job 61 arrives after them all.
			if err := s.Ingest([]Event{{Kind: "submit", System: "k", Job: 7, Time: testNow - 600, Queue: "q", Cores: 1, WallTime: 60}}); err != nil {
				t.Fatal(err)
			}
			now := testNow - 300
			var evs []Event
			for _, id := range []int64{2, 4, 6} {
				evs = append(evs, Event{Kind: "start", System: "k", Job: id, Time: now})
			}
			evs = append(evs, Event{Kind: "end", System: "k", Job: 8, Time: now},
				Event{Kind: "submit", System: "k", Job: 61, Time: now, Queue: "q", Cores: 1, WallTime: 60})
			if err := s.Ingest(evs); err != nil {
				t.Fatal(err)
			}
			var offsetIDs []int64
			if w := getPage(t, h, base+"?offset=10&limit=10"); w.Code == 200 {
				offsetIDs, _ = pageIDs(t, f, w.Body.String())
			}
			for pages := 1; next != ""; pages++ {
				if pages > 10 {
					t.Fatal("more than 10 pages")
				}
				w := getPage(t, h, next)
				if w.Code != 200 {
					t.Fatalf("%s: %d %s", next, w.Code, w.Body.String())
				}
				ids, _ := pageIDs(t, f, w.Body.String())
				got = append(got, ids...)
				next = linkNext(w)
			}
			var want []int64
			for id := int64(2); id <= 60; id += 2 {
				want = append(want, id)
			}
			want = append(want, 61)
			if !slices.Equal(got, want) {
				t.Errorf("the pages list %v, want %v", got, want)
			}
			if slices.Contains(offsetIDs, 22) {
				t.Errorf("?offset=10 after the changes lists %v: the scenario no longer shifts the list", offsetIDs)
			}
		})
	}
}

// A cursor no page can have given is a 400 naming ?after=, in every
// format, never a panic or a 5xx: malformed, signed, too long, too large
// for an int64, with ?offset= too, naming a live job with a later submit
// time than the job's, or a submit time after the system's last event. A
// cursor naming a job that left, one the system never had, or a live
// job's id with an earlier time (the id of a job that left, come back)
// is a place in the list: the page starts after its key.
func TestWaitingCursorRefused(t *testing.T) {
	s, h := keysetService(t)
	at := strconv.FormatInt(testNow-600, 10)
	// Job 10 leaves, at the system's last event.
	if err := s.Ingest([]Event{{Kind: "start", System: "k", Job: 10, Time: testNow - 300}}); err != nil {
		t.Fatal(err)
	}
	bad := []string{
		"x", "1", "1.", ".1", "1.2.3", "-1.2", "1.-2", "+1.2", "1.+2", " 1.2", "1.2 ", "1e3.2", "0x1.2", "1,2", "1_0.2",
		"99999999999999999999.1", "1.99999999999999999999", strings.Repeat("0", maxCursor) + ".1", strings.Repeat("9", 5000),
		"%00.1", "1.%FF", "١.٢",
		strconv.FormatInt(testNow-400, 10) + ".4",  // job 4 waits, submitted before, at testNow-600
		strconv.FormatInt(testNow-400, 10) + ".10", // job 10 runs, submitted at testNow-600 too
		strconv.FormatInt(testNow-299, 10) + ".5",  // after the last event
	}
	for _, f := range []string{"json", "xml", "txt", "html"} {
		base := "/karnak/system/k/job/waiting." + f
		for _, c := range bad {
			w := getPage(t, h, base+"?after="+strings.ReplaceAll(c, " ", "%20"))
			if w.Code != 400 || !strings.Contains(w.Body.String(), "after: ") {
				t.Errorf("%s ?after=%.60q: %d %.200q, want 400 naming after", f, c, w.Code, w.Body.String())
			}
		}
		if w := getPage(t, h, base+"?after="+at+".10&offset=3"); w.Code != 400 || !strings.Contains(w.Body.String(), "not both") {
			t.Errorf("%s: ?after= and ?offset=: %d %.200q", f, w.Code, w.Body.String())
		}
	}
	// A live job's id with an earlier time than the job's may be the key
	// of a job that left and whose id came back: it places a page, here
	// before every job.
	if w := getPage(t, h, "/karnak/system/k/job/waiting.json?limit=1&after=100.12"); w.Code != 200 || !strings.HasPrefix(w.Body.String(), `[{"job":2,`) {
		t.Errorf("?after=100.12: %d %.100q, want job 2 first", w.Code, w.Body.String())
	}
	// Job 10's key still places a page, as does job 11's, which never
	// was: both start at job 12.
	for _, c := range []string{at + ".10", at + ".11", at + ".011"} {
		w := getPage(t, h, "/karnak/system/k/job/waiting.json?limit=2&after="+c)
		ids, _ := pageIDs(t, "json", w.Body.String())
		if w.Code != 200 || !slices.Equal(ids, []int64{12, 14}) || w.Header().Get("X-Total-Count") != "29" {
			t.Errorf("?after=%s: %d %v of %s, want jobs 12 and 14 of 29", c, w.Code, ids, w.Header().Get("X-Total-Count"))
		}
		if want := "/karnak/system/k/job/waiting.json?after=" + at + ".14&limit=2"; linkNext(w) != want {
			t.Errorf("?after=%s: next %q, want %q", c, linkNext(w), want)
		}
	}
	// The text says where the page is: jobs 5–6 (12 and 14) of 29.
	if out := getPage(t, h, "/karnak/system/k/job/waiting.txt?limit=2&after="+at+".10").Body.String(); !strings.Contains(out, "jobs 5–6 of the 29 waiting") {
		t.Errorf("the text's note: %q", out)
	}
	// After the last job: no job, no next page (the last page as the
	// previous one: TestWaitingEmptyPageLinksBack).
	w := getPage(t, h, "/karnak/system/k/job/waiting.json?after="+at+".60")
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != "[]" || linkNext(w) != "" {
		t.Errorf("after the last job: %d %q, Link %q", w.Code, w.Body.String(), w.Header().Get("Link"))
	}
}

// FuzzCursor: any ?after= value answers 200 or 400, never a panic or a
// 5xx, in every format; a cursor parseCursor takes is at most maxCursor
// bytes and reads back the same from its String.
func FuzzCursor(f *testing.F) {
	for _, c := range []string{"1700000000.12", "0.0", "1.", "-1.2", "99999999999999999999.1", "1.2.3", "٣.1", strings.Repeat("1", 41)} {
		f.Add(c, "json")
	}
	_, h := keysetService(f)
	f.Fuzz(func(t *testing.T, c, format string) {
		if cur, err := parseCursor(c); err == nil {
			if len(c) > maxCursor {
				t.Fatalf("%q: taken, %d bytes", c, len(c))
			}
			if back, err := parseCursor(cur.String()); err != nil || back != cur {
				t.Fatalf("%q: %v reads back as %v, %v", c, cur, back, err)
			}
		}
		if !knownFormat(format) {
			format = "json"
		}
		req := httptest.NewRequest("GET", "/karnak/system/k/job/waiting."+format, nil)
		req.URL.RawQuery = "after=" + url.QueryEscape(c) + "&limit=3"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 && w.Code != 400 {
			t.Fatalf("?after=%q: %d %s", c, w.Code, w.Body.String())
		}
	})
}
