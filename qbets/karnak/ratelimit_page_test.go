package karnak

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
)

// A rate-limited client costs the server less than a served one: the
// 429 answered to a browser is a small page (still HTML, saying when to
// retry, as Retry-After does), not the layout every page renders (the
// templates ran for every refused request: 105 allocations a 429 here,
// request and recorder included, against 35 for the text answer and
// 183 for the page served; 39 now). Pinned: the page's 429 costs at
// most 8 allocations more than the text one, and less than half a
// served page.
func TestRateLimitedPageCheap(t *testing.T) {
	s := ingested(t, Config{Rate: 1e-9, Burst: 1})
	h := s.Handler()
	get := func(accept string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/karnak/system/status", nil)
		r.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := get("text/html"); w.Code != 200 {
		t.Fatalf("the burst's request: %d", w.Code)
	}
	w := get("text/html")
	body := w.Body.String()
	if w.Code != 429 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") || w.Header().Get("Retry-After") == "" ||
		!strings.Contains(body, "<title>429 Too Many Requests</title>") || !strings.Contains(body, "rate limit: too many requests from 192.0.2.1") ||
		!strings.Contains(body, "Try again in "+w.Header().Get("Retry-After")+" s") {
		t.Errorf("the rate-limited page: %d %q (Retry-After %q)\n%s", w.Code, w.Header().Get("Content-Type"), w.Header().Get("Retry-After"), body)
	}
	if w.Header().Get("Content-Security-Policy") == "" {
		t.Error("the rate-limited page has no Content-Security-Policy")
	}
	page := testing.AllocsPerRun(50, func() { get("text/html") })
	text := testing.AllocsPerRun(50, func() { get("text/plain") })

	served, err := New(nil, Config{Rate: -1, Now: func() int64 { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	served.Load(context.Background())
	served.Ingest(testEvents())
	h = served.Handler()
	full := testing.AllocsPerRun(50, func() { get("text/html") })
	t.Logf("allocations: the 429 page %.0f, the 429 text %.0f, a served page %.0f", page, text, full)
	if page > text+8 || page > full/2 {
		t.Errorf("the 429 page costs %.0f allocations, want at most the text answer's %.0f + 8 and half a served page's %.0f", page, text, full)
	}
}

// So is the 503 a browser gets while the service loads its state from
// the store (every request is one then): it rendered the full layout,
// 3 times the text answer's allocations. The brief page escapes its
// message (a 429's names the client, a 403's the location asked for).
func TestLoadingPageCheap(t *testing.T) {
	s, err := New(nil, Config{Rate: -1, Now: func() int64 { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler() // not loaded: every request answers 503
	get := func(accept string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/karnak/system/status", nil)
		r.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	w := get("text/html")
	body := w.Body.String()
	if w.Code != 503 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") || w.Header().Get("Retry-After") != "5" ||
		!strings.Contains(body, "<title>503 Service Unavailable</title>") || !strings.Contains(body, errNotReady.Message) ||
		!strings.Contains(body, "Try again in 5 s") {
		t.Errorf("the loading page: %d %q (Retry-After %q)\n%s", w.Code, w.Header().Get("Content-Type"), w.Header().Get("Retry-After"), body)
	}
	page := testing.AllocsPerRun(50, func() { get("text/html") })
	text := testing.AllocsPerRun(50, func() { get("text/plain") })
	t.Logf("allocations: the 503 page %.0f, the 503 text %.0f", page, text)
	if page > text+8 {
		t.Errorf("the 503 page costs %.0f allocations, want at most the text answer's %.0f + 8", page, text)
	}
	if b := string(briefPage(429, `from <script>"x"&`, `1<b>`)); strings.Contains(b, "<script>") || strings.Contains(b, "<b>") ||
		!strings.Contains(b, "from &lt;script&gt;&#34;x&#34;&amp;") || !strings.Contains(b, "1&lt;b&gt;") {
		t.Errorf("briefPage does not escape:\n%s", b)
	}
}
