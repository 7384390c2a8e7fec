package karnak

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// get fetches url with an Accept header (none when "").
func get(t *testing.T, url, accept string) (*http.Response, string) {
	t.Helper()
	if accept == "" {
		return doReq(t, "GET", url, "", "", "")
	}
	return doReq(t, "GET", url, "", "", "", "Accept", accept)
}

// wellFormed checks that a page is well-formed XML (the pages are
// written XHTML-compatible: void elements closed, attributes quoted, no
// named entities but XML's) with one root, html.
func wellFormed(t *testing.T, name, body string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(body))
	roots := 0
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Errorf("%s: not well-formed: %v", name, err)
			return
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if e.Name.Local != "html" {
					t.Errorf("%s: root <%s>, want <html>", name, e.Name.Local)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Errorf("%s: %d root elements", name, roots)
	}
}

var (
	inputID  = regexp.MustCompile(`<input [^>]*\sid="([^"]+)"`)
	labelFor = regexp.MustCompile(`<label [^>]*\sfor="([^"]+)"`)
)

// checkPage applies what every page must satisfy: HTML with the security
// headers, well-formed, no script, no inline style, every input labelled.
func checkPage(t *testing.T, name string, resp *http.Response, body string) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("%s: Content-Type %q", name, ct)
	}
	c := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(c, "default-src 'none'") || !strings.Contains(c, "style-src 'self'") || strings.Contains(c, "unsafe") || strings.Contains(c, "script-src") {
		t.Errorf("%s: Content-Security-Policy %q", name, c)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: no X-Content-Type-Options: nosniff", name)
	}
	wellFormed(t, name, body)
	low := strings.ToLower(body)
	for _, bad := range []string{"<script", " style=", "<style", "javascript:", ` on`} {
		if bad == ` on` {
			if m := regexp.MustCompile(` on[a-z]+="`).FindString(low); m != "" {
				t.Errorf("%s: event handler attribute %q", name, m)
			}
			continue
		}
		if strings.Contains(low, bad) {
			t.Errorf("%s: contains %q", name, bad)
		}
	}
	labels := map[string]bool{}
	for _, m := range labelFor.FindAllStringSubmatch(body, -1) {
		labels[m[1]] = true
	}
	for _, m := range inputID.FindAllStringSubmatch(body, -1) {
		if !labels[m[1]] {
			t.Errorf("%s: input %q has no label", name, m[1])
		}
	}
	if strings.Contains(low, `method="post"`) {
		t.Errorf("%s: a form that writes", name)
	}
}

// Every resource has an HTML page with its content.
// bareGoName is a Config field named without the flag that sets it
// (setting names both: "qserve -max-backstep; karnak.Config.MaxBackstep").
var bareGoName = regexp.MustCompile(`(^|[^.])\b(Max[A-Z][A-Za-z]*|Levels|Tokens)\b`)

func TestHTMLPages(t *testing.T) {
	s, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	ps, err := s.PredictJob("s1", 1002, 95, 90, 1800)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want []string
	}{
		{"/system/status.html", []string{"<h1>Systems</h1>", `href="/karnak/system/s1/status.html"`, "<td class=\"num\">3</td>"}},
		{"/system/s1/status.html", []string{"System s1", `href="/karnak/system/s1/queue/debug/summary.html"`, "24:00:00", `predict.html?loc=debug%40s1&amp;loc=normal%40s1`}},
		{"/system/s1/queue/normal/summary.html", []string{"Queue normal@s1", "<th scope=\"row\">1w</th>", "<svg", "Waits on normal@s1", "Cores on normal@s1"}},
		{"/system/s1/queue/all_jobs/summary.html", []string{"All jobs on s1", "<svg"}},
		{"/system/s1/job/waiting.html", []string{`href="/karnak/system/s1/job/1002/prediction/waittime.html"`, "1003"}},
		{"/system/s1/job/1002/prediction/waittime.html?within=00:30:00", []string{"Job 1002 on s1: predicted wait", "waits at most <strong>" + hms(ps.QBETS.Wait) + "</strong>",
			"Probability of starting within 00:30:00", `<label for="quantile">`, `value="00:30:00"`}},
		{"/system/s1/job/1002/prediction/starttime.html", []string{"predicted start", "IBL estimate"}},
		{"/system/s1/event/last.html", []string{"Sequence number"}},
		{"/stats.html", []string{"Predictions answered from the cache"}},
		{"/waittime/predict.html", []string{`<label for="cores">Cores</label>`, `value="debug@s1"`, `value="normal@s1"`}},
		{"/starttime/predict.html", []string{"Predict a job&#39;s start"}},
	} {
		resp, body := get(t, u+c.path, "")
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", c.path, resp.StatusCode, body)
			continue
		}
		checkPage(t, c.path, resp, body)
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: %q not in\n%s", c.path, w, body)
			}
		}
		// A setting is named by the operator's flag, then the
		// library's field, never by a bare Go name ("MaxBackstep").
		if _, txt := get(t, u+strings.Replace(c.path, ".html", ".txt", 1), ""); bareGoName.MatchString(body) || strings.HasPrefix(c.path, "/stats") && bareGoName.MatchString(txt) {
			t.Errorf("%s: a bare Go name %q", c.path, bareGoName.FindString(body+txt))
		}
	}
	resp, body := get(t, u+"/style.css", "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/css; charset=utf-8" || !strings.Contains(body, "svg .bound") {
		t.Errorf("style.css: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// /karnak/ leads to the list of systems.
	req, _ := http.NewRequest("GET", u+"/", nil)
	r2, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusSeeOther || r2.Header.Get("Location") != "/karnak/system/status.html" {
		t.Errorf("/karnak/: %d to %q", r2.StatusCode, r2.Header.Get("Location"))
	}
}

// The bare path answers in the representation the Accept header prefers;
// a browser's gets HTML.
func TestNegotiation(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak/system/s1/status"
	browser := "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"
	for _, c := range []struct{ accept, ctype string }{
		{browser, "text/html; charset=utf-8"},
		{"application/json", "application/json"},
		{"application/xml", "application/xml; charset=utf-8"},
		{"text/html;q=0.5, application/json", "application/json"},
		{"", "text/plain; charset=utf-8"},
		{"*/*", "text/plain; charset=utf-8"},
	} {
		resp, _ := get(t, u, c.accept)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype || resp.Header.Get("Vary") != "Accept" {
			t.Errorf("Accept %q: %d %q (Vary %q), want %q", c.accept, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"), c.ctype)
		}
	}
	if resp, _ := get(t, srv.URL+"/karnak/system/s1/job/1002/prediction/waittime", browser); resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("job prediction for a browser: %q", resp.Header.Get("Content-Type"))
	}
	if resp, _ := get(t, srv.URL+"/karnak/system/s1/status.pdf", browser); resp.StatusCode != 404 {
		t.Errorf("status.pdf: %d", resp.StatusCode)
	}
}

// The form answers a hypothetical job with, per location, the QBETS
// bound, the probability of starting within the time given and the IBL
// estimate with its interval — the values the API gives.
func TestPredictForm(t *testing.T) {
	s, srv := newTestServer(t)
	// Levels left empty keep their defaults (95% quantile, 90% confidence).
	q := url.Values{"cores": {"4"}, "wallTime": {"01:00:00"}, "quantile": {""}, "confidence": {""}, "within": {"00:30:00"}, "loc": {"normal@s1", "debug@s1"}}
	resp, body := get(t, srv.URL+"/karnak/waittime/predict.html?"+q.Encode(), "")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	checkPage(t, "answer", resp, body)
	ps, err := s.PredictHypothetical(&PredictRequest{Cores: 4, WallTime: 3600, Quantile: 95, Confidence: 90, Within: 1800,
		Locations: []Location{{"s1", "normal"}, {"s1", "debug"}}})
	if err != nil {
		t.Fatal(err)
	}
	n := ps[0]
	for _, w := range []string{
		"waits at most <strong>" + hms(n.QBETS.Wait) + "</strong>",
		"95% quantile at 90% confidence",
		fmt.Sprintf("<strong>%.0f%%</strong>", 100**n.ProbWithin),
		"waits about <strong>" + hms(int64(n.IBL.Wait+0.5)) + "</strong> " + strings.ReplaceAll(intervalText(n.IBL, "0 wait"), "+", "&#43;"),
		"90% interval", `<option value="95" selected="selected">95%</option>`,
		`value="normal@s1" checked="checked"`, `value="debug@s1" checked="checked"`, `value="00:30:00"`,
	} {
		if !strings.Contains(body, w) {
			t.Errorf("%q not in the answer\n%s", w, body)
		}
	}
	if d := ps[1]; d.QBETS != nil || !strings.Contains(body, d.QBETSReason) || !strings.Contains(body, "none without a QBETS bound") {
		t.Errorf("debug@s1 has no bound (%v); the page should say why", d.QBETS)
	}
	// The form offers the quantiles and the confidences the service
	// answers (Config.Levels, the default ones here), no others: until
	// this change it took any quantile 1–99 and any confidence 10–95,
	// and answered most of them with a reason naming a Go field.
	for name, want := range map[string]string{"quantile": "95 50 75 90", "confidence": "90 95"} {
		sel := regexp.MustCompile(`(?s)<select id="` + name + `".*?</select>`).FindString(body)
		var got []string
		for _, m := range regexp.MustCompile(`<option value="(\d+)"`).FindAllStringSubmatch(sel, -1) {
			got = append(got, m[1])
		}
		if strings.Join(got, " ") != want {
			t.Errorf("the form offers %ss %v, want %s", name, got, want)
		}
	}
	// Another pair of the levels is passed on: the page says what the
	// API says.
	q.Set("quantile", "75")
	q.Set("confidence", "95")
	ps, err = s.PredictHypothetical(&PredictRequest{Cores: 4, WallTime: 3600, Quantile: 75, Confidence: 95, Within: 1800, Locations: []Location{{"s1", "normal"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := html.EscapeString(ps[0].QBETSReason)
	if ps[0].QBETS != nil {
		want = "waits at most <strong>" + hms(ps[0].QBETS.Wait) + "</strong>, so starts by " + stamp(ps[0].QBETS.Start) + " UTC"
	}
	if resp, body = get(t, srv.URL+"/karnak/waittime/predict.html?"+q.Encode(), ""); resp.StatusCode != 200 || !strings.Contains(body, want) || !strings.Contains(body, "95% interval") {
		t.Errorf("levels 75/95: %d, %q not in\n%s", resp.StatusCode, want, body)
	}
	// A pair that is not one of the levels (from an address, or a
	// quantile and a confidence of two different levels) is a 400 beside
	// the quantile, listing the pairs and the operator's flag, no Go name.
	q.Set("confidence", "80")
	resp, body = get(t, srv.URL+"/karnak/waittime/predict.html?"+q.Encode(), "")
	if e := regexp.MustCompile(`<p class="error" id="quantile-err">([^<]*)</p>`).FindStringSubmatch(body); resp.StatusCode != 400 || e == nil ||
		!strings.Contains(e[1], "the 75% quantile at 80% confidence is not answered here: this service answers the quantile/confidence pairs 95/90, 50/90, 75/90, 90/90, 50/95, 75/95, 90/95, 95/95 (its operator chooses them: qserve -levels)") ||
		strings.Contains(body, "Config") || !strings.Contains(body, `<option value="80" selected="selected">80%</option>`) {
		t.Errorf("levels 75/80: %d %q\n%s", resp.StatusCode, e, body)
	}

	// Each invalid field gets its error beside it, and the page is a 400.
	bad := url.Values{"cores": {"four"}, "wallTime": {"1:99"}, "quantile": {"100"}, "confidence": {"5"}, "within": {"soon"}, "loc": {"<script>alert(1)</script>"}}
	resp, body = get(t, srv.URL+"/karnak/waittime/predict.html?"+bad.Encode(), "")
	if resp.StatusCode != 400 {
		t.Errorf("invalid form: %d", resp.StatusCode)
	}
	checkPage(t, "invalid form", resp, body)
	for _, f := range []string{"cores", "wallTime", "quantile", "confidence", "within"} {
		field := regexp.MustCompile(`(?s)<div class="field invalid">\s*<label for="` + f + `">[^<]*</label>\s*<(?:input|select) id="` + f + `" [^>]*aria-describedby="` + f + `-help ` + f + `-err" aria-invalid="true"(?:/>|>\s*(?:<option[^>]*>[^<]*</option>\s*)*</select>)\s*<small id="` + f + `-help">[^<]*</small>\s*<p class="error" id="` + f + `-err">&#34;[^<]*</p>\s*</div>`)
		if !field.MatchString(body) {
			t.Errorf("field %s: no error beside it\n%s", f, body)
		}
	}
	if !strings.Contains(body, `<p class="error" id="loc-err">&#34;&lt;script&gt;alert(1)&lt;/script&gt;&#34; is not queue@system</p>`) {
		t.Errorf("locations: no escaped error\n%s", body)
	}

	// A location that fails gets its error; the others their answer.
	part := url.Values{"cores": {"16"}, "wallTime": {"00:10:00"}, "loc": {"normal@s1", "debug@s1", "nope@s1"}}
	resp, body = get(t, srv.URL+"/karnak/waittime/predict.html?"+part.Encode(), "")
	if resp.StatusCode != 200 || !strings.Contains(body, "locations[1] (debug@s1): cores: 16 exceeds") || !strings.Contains(body, "locations[2] (nope@s1): queue") ||
		!strings.Contains(body, `value="nope@s1" checked="checked"`) || !strings.Contains(body, "waits at most") {
		t.Errorf("partial answer: %d\n%s", resp.StatusCode, body)
	}
	// Every location failing is the status of the first failure, beside
	// the locations.
	resp, body = get(t, srv.URL+"/karnak/waittime/predict.html?cores=1&wallTime=60&loc=nope@s1", "")
	if resp.StatusCode != 404 || !strings.Contains(body, `<p class="error" id="loc-err">locations[0] (nope@s1): queue`) {
		t.Errorf("all locations failing: %d\n%s", resp.StatusCode, body)
	}
	// Karnak's own parameter names.
	if resp, body = get(t, srv.URL+"/karnak/waittime/predict.html?system=s1&queue=normal@s1&cores=1&hours=1&minutes=5&confidence=90", ""); resp.StatusCode != 200 ||
		!strings.Contains(body, `value="1:5:00"`) || !strings.Contains(body, "01:05:00 requested") {
		t.Errorf("Karnak's form parameters: %d\n%s", resp.StatusCode, body)
	}
	// Bounded inputs.
	many := url.Values{"cores": {"1"}, "wallTime": {"60"}}
	for i := range maxLocations + 1 {
		many.Add("loc", fmt.Sprintf("q%d@s1", i))
	}
	if resp, body = get(t, srv.URL+"/karnak/waittime/predict.html?"+many.Encode(), ""); resp.StatusCode != 400 || !strings.Contains(body, "101 queues chosen, at most 100") {
		t.Errorf("101 locations: %d", resp.StatusCode)
	}
	if resp, _ = get(t, srv.URL+"/karnak/waittime/predict.html?cores="+strings.Repeat("9", maxQuery), ""); resp.StatusCode != http.StatusRequestURITooLong {
		t.Errorf("a 64 KiB query: %d", resp.StatusCode)
	}
	// The pages only read.
	if code, _ := do(t, "POST", srv.URL+"/karnak/waittime/predict.html", "application/x-www-form-urlencoded", q.Encode()); code != http.StatusMethodNotAllowed {
		t.Errorf("POST to the form: %d", code)
	}
}

// A hypothetical POST can ask for HTML (and XML) too.
func TestHypotheticalHTML(t *testing.T) {
	_, srv := newTestServer(t)
	hypo := `{"cores": 4, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1", "debug@s1"]}`
	for _, c := range []struct{ url, accept, ctype, want string }{
		{"/karnak/waittime/prediction/?format=html", "", "text/html; charset=utf-8", "<h2><a href=\"/karnak/system/s1/queue/debug/summary.html\">debug@s1</a></h2>"},
		{"/karnak/starttime/prediction/", "text/html", "text/html; charset=utf-8", "so starts by"},
		{"/karnak/waittime/prediction/?format=xml", "", "application/xml; charset=utf-8", "<predictions><prediction><system>s1</system>"},
	} {
		req, _ := http.NewRequest("POST", srv.URL+c.url, strings.NewReader(hypo))
		req.Header.Set("Content-Type", "application/json")
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %d %q\n%s", c.url, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
		if strings.HasPrefix(c.ctype, "text/html") {
			checkPage(t, c.url, resp, string(b))
		}
	}
}

// Names come from clients (events, queries): the templates escape them.
func TestHTMLEscapes(t *testing.T) {
	_, srv := newTestServer(t)
	// Names are restricted to letters, digits, '.', '_' and '-', so the
	// free text of an event (user, project, name) is the way in.
	ev := `{"kind":"submit","system":"s1","job":3000,"time":%NOW%,"queue":"debug","cores":1,"wallTime":60,"user":"<img src=x onerror=alert(1)>","name":"\"><script>x</script>"}`
	if code, body := do(t, "POST", srv.URL+"/karnak/events", "application/json", ev); code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	resp, body := get(t, srv.URL+"/karnak/system/s1/event/last.html", "")
	checkPage(t, "last", resp, body)
	if !strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt;") || !strings.Contains(body, "&#34;&gt;&lt;script&gt;x&lt;/script&gt;") {
		t.Errorf("not escaped:\n%s", body)
	}
}

// BenchmarkQueuePageHTML is the server's side of a queue page view with
// its charts (cached after the first view), without the network.
func BenchmarkQueuePageHTML(b *testing.B) {
	s, err := NewService(nil, func() int64 { return testNow })
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	req := httptest.NewRequest("GET", "/karnak/system/s1/queue/normal/summary.html", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// With tokens configured the pages need none (they only read), and the
// write path still refuses a request without one.
func TestPagesReadOnlyWithTokens(t *testing.T) {
	_, srv := newTestServer(t, Config{Tokens: []Token{{Name: "site", Secret: "0123456789abcdef", Systems: []string{"s1"}}}})
	for _, p := range []string{"/system/s1/queue/normal/summary.html", "/waittime/predict.html?cores=1&wallTime=60&loc=normal@s1"} {
		if resp, body := get(t, srv.URL+"/karnak"+p, ""); resp.StatusCode != 200 {
			t.Errorf("%s without a token: %d %s", p, resp.StatusCode, body)
		}
	}
	ev := `{"kind":"submit","system":"s1","job":3000,"time":%NOW%,"queue":"debug","cores":1}`
	if code, _ := do(t, "POST", srv.URL+"/karnak/events", "application/json", ev); code != http.StatusUnauthorized {
		t.Errorf("an event without a token: %d, want 401", code)
	}
}

// Every representation of the waiting jobs lists at most maxListRows of
// them, from ?offset= or after ?after=, and says how many there are (X-Total-Count, the
// text's last line, the page's note) and where the next ones are (Link,
// the text, the page). A page of every job cost 1.7 s and 119 MB for
// 40,000 waiting jobs to one anonymous request, the JSON 72 ms and 29 MB,
// and MaxLiveJobs allows 262,144.
func TestWaitingPageBounded(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	evs := []Event{{Kind: "queue", System: "big", Time: testNow - 3600, Queue: "q", Cores: 64, WallTime: 86400}}
	n := maxListRows + 200
	for j := 1; j <= n; j++ {
		evs = append(evs, Event{Kind: "submit", System: "big", Job: int64(j), Time: testNow - 3000, Queue: "q", Cores: 1 + int64(j%64), WallTime: 3600})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	// Some leave, so the list has empty slots to pass over (ibl.System).
	for j := 1; j <= n; j += 7 {
		if err := s.Ingest([]Event{{Kind: "end", System: "big", Job: int64(j), Time: testNow - 2000}}); err != nil {
			t.Fatal(err)
		}
		n--
	}
	h := s.Handler()
	get := func(path string, code int) *httptest.ResponseRecorder {
		t.Helper()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != code {
			t.Fatalf("%s: %d %.200s, want %d", path, w.Code, w.Body.String(), code)
		}
		return w
	}
	const base = "/karnak/system/big/job/waiting"
	page := get(base+".html", 200).Body.String()
	if rows := strings.Count(page, `<tr><th scope="row">`); rows != maxListRows {
		t.Errorf("the page shows %d jobs, want %d", rows, maxListRows)
	}
	first := get(base+".json?limit=1000", 200)
	var js []WaitingJob
	if err := json.Unmarshal(first.Body.Bytes(), &js); err != nil || len(js) != maxListRows {
		t.Fatalf("the first JSON page: %d jobs, %v", len(js), err)
	}
	after := fmt.Sprintf("?after=%d.%d&limit=%d", js[maxListRows-1].Submit, js[maxListRows-1].Job, maxListRows)
	next := strings.ReplaceAll(after, "&", "&amp;")
	if want := fmt.Sprintf("Jobs 1–%d of the %d waiting", maxListRows, n); !strings.Contains(page, want) || !strings.Contains(page, next) {
		t.Errorf("the page does not say %q or link %q", want, next)
	}
	var ids []int64
	for _, q := range []string{"", after} {
		w := get(base+".json"+q, 200)
		var js []WaitingJob
		if err := json.Unmarshal(w.Body.Bytes(), &js); err != nil {
			t.Fatal(err)
		}
		if tc := w.Header().Get("X-Total-Count"); tc != strconv.Itoa(n) {
			t.Errorf("%s: X-Total-Count %q, want %d", q, tc, n)
		}
		link := w.Header().Get("Link")
		if q == "" && (len(js) != maxListRows || link != "<"+base+".json"+after+">; rel=\"next\"") {
			t.Errorf("the first JSON page: %d jobs, Link %q", len(js), link)
		}
		if q != "" && (len(js) != n-maxListRows || link != "") {
			t.Errorf("the last JSON page: %d jobs, Link %q", len(js), link)
		}
		for _, j := range js {
			ids = append(ids, j.Job)
		}
	}
	if len(ids) != n || !slices.IsSorted(ids) || len(slices.Compact(ids)) != n {
		t.Errorf("the two pages list %d jobs, want the %d in order, each once", len(ids), n)
	}
	txt := get(base+".txt", 200).Body.String()
	if lines := strings.Count(txt, "\n"); lines != 1+maxListRows+1 || !strings.HasSuffix(txt, fmt.Sprintf("of the %d waiting, in submission order; next: %s\n", n, after)) {
		t.Errorf("the text: %d lines, ending %q", lines, txt[max(0, len(txt)-120):])
	}
	if xs := strings.Count(get(base+".xml?limit=10", 200).Body.String(), "<waitingJob>"); xs != 10 {
		t.Errorf("the XML with limit 10: %d jobs", xs)
	}
	// No job is an empty array, not null (a client loops over it): with
	// ?limit=0, past the end, and on a service with no system at all.
	for _, q := range []string{"?limit=0", fmt.Sprintf("?offset=%d", n)} {
		if w := get(base+".json"+q, 200); strings.TrimSpace(w.Body.String()) != "[]" || w.Header().Get("X-Total-Count") != strconv.Itoa(n) {
			t.Errorf("%s: %.200q, X-Total-Count %q, want [] and %d", q, w.Body.String(), w.Header().Get("X-Total-Count"), n)
		}
	}
	none, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	none.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/status.json", nil))
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != "[]" {
		t.Errorf("no system: %d %.200q, want []", w.Code, w.Body.String())
	}
	// Past the end, at the largest offset: no job, and the number said
	// is the offset's, not wrapped to a negative one.
	for _, f := range []string{"txt", "html"} {
		if out := get(base+"."+f+"?offset=9223372036854775807", 200).Body.String(); !strings.Contains(out, fmt.Sprintf("one of the %d waiting jobs from number 9223372036854775808 on", n)) || strings.Contains(out, "-9223372036854775808") {
			t.Errorf("%s past the end: %.300q", f, out[max(0, len(out)-300):])
		}
	}
	// With nothing changed between them, ?offset=1000 is the page Link
	// gives.
	if w := get(base+".json"+fmt.Sprintf("?offset=%d", maxListRows), 200); w.Body.String() != get(base+".json"+after, 200).Body.String() {
		t.Errorf("?offset=%d and %s differ", maxListRows, after)
	}
	for _, q := range []string{"limit=1001", "limit=-1", "limit=x", "offset=-1", "offset=1e3", "offset=99999999999999999999"} {
		get(base+".json?"+q, 400)
	}
}
