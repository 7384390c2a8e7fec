package karnak

import (
	"fmt"
	"html"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var (
	hrefAttr  = regexp.MustCompile(`href="([^"]*)"`)
	formTag   = regexp.MustCompile(`(?s)<form method="get" action="([^"]*)"[^>]*>(.*?)</form>`)
	inputTag  = regexp.MustCompile(`<input [^>]*>`)
	selectTag = regexp.MustCompile(`(?s)<select [^>]*name="([^"]*)"[^>]*>(.*?)</select>`)
	optionTag = regexp.MustCompile(`<option value="([^"]*)"( selected="selected")?`)
	attrRe    = regexp.MustCompile(`\s([a-z]+)="([^"]*)"`)
	queueName = regexp.MustCompile(`\bq\d{3}\b`)
)

// formQuery is the query a browser sends for a GET form submitted as it
// is (its default button): every named input's value, a checkbox's only
// when checked, each select's selected option (the first if none is);
// and how many checkboxes are checked.
func formQuery(body string) (q url.Values, checked int) {
	q = url.Values{}
	for _, in := range inputTag.FindAllString(body, -1) {
		a := map[string]string{}
		for _, m := range attrRe.FindAllStringSubmatch(in, -1) {
			a[m[1]] = html.UnescapeString(m[2])
		}
		if a["name"] == "" || a["type"] == "checkbox" && a["checked"] == "" {
			continue
		}
		if a["type"] == "checkbox" {
			checked++
		}
		q.Add(a["name"], a["value"])
	}
	for _, m := range selectTag.FindAllStringSubmatch(body, -1) {
		opts := optionTag.FindAllStringSubmatch(m[2], -1)
		if len(opts) == 0 {
			continue
		}
		v := opts[0][1]
		for _, o := range opts {
			if o[2] != "" {
				v = o[1]
			}
		}
		q.Add(m[1], html.UnescapeString(v))
	}
	return q, checked
}

// Every link a page offers, and every form it offers filled in (a
// queue chosen, or a prediction's levels), answers without a 4xx, and a
// link to the form with queues chosen gets a form with each of them
// checked: a system's page linked to the form with all its queues
// chosen, which the form refused when they were more than a query holds
// (256 parameters: a 414), and of which it checked the first 100 (a
// prediction's most) and left the others out when they were more. The
// walk starts at /karnak/, and at the two lists' pages of one item
// (a list is paged only past 1,000 items: the walk must follow their
// next and previous links too), and follows every link and form of
// every HTML page it reaches (the text, JSON and XML are fetched, not
// read), but only three of the links that differ in a queue of the two
// large systems alone; systems of 2, 150 (more than 100) and 400 queues
// (more than 256, and the form then compact: 552 queues in all; 257
// under -short, the form not compact).
func TestPagesLinksAnswer(t *testing.T) {
	huge := 400
	if testing.Short() {
		huge = 257 // still past a query's 256 parameters; the form not compact (409 queues)
	}
	s, _ := newTestServer(t, Config{Rate: -1, MaxQueues: huge})
	var evs []Event
	for sys, n := range map[string]int{"wide": 150, "huge": huge} {
		for q := range n {
			evs = append(evs, Event{Kind: "queue", System: sys, Time: testNow, Queue: fmt.Sprintf("q%03d", q), Cores: 64, WallTime: 86400})
		}
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	seen, shapes := map[string]bool{}, map[string]int{}
	// The lists' pages of one item each, so that the walk follows their
	// next and previous links too (a list is paged past 1,000 items).
	todo := []string{"/karnak/", "/karnak/system/status.html?limit=1", "/karnak/system/s1/job/waiting.html?limit=1"}
	forms, fetched := 0, 0
	const most = 3000 // requests: the walk is bounded whatever it finds
	for len(todo) > 0 && len(seen) < most {
		u := todo[0]
		todo = todo[1:]
		if seen[u] {
			continue
		}
		seen[u] = true
		// Of the links that differ only in a queue of wide or huge (the
		// same route and template), the first three.
		if shape := queueName.ReplaceAllString(u, "Q"); shape != u {
			if shapes[shape]++; shapes[shape] > 3 {
				continue
			}
		}
		fetched++
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", u, nil))
		switch {
		case w.Code == 303:
			todo = append(todo, w.Header().Get("Location"))
			continue
		case w.Code >= 400:
			t.Errorf("%.200s: %d %.300s", u, w.Code, w.Body)
			continue
		case !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html"):
			continue
		}
		body := w.Body.String()
		for _, m := range hrefAttr.FindAllStringSubmatch(body, -1) {
			if l := html.UnescapeString(m[1]); strings.HasPrefix(l, "/karnak/") && !seen[l] {
				todo = append(todo, l)
			}
		}
		for _, m := range formTag.FindAllStringSubmatch(body, -1) {
			q, checked := formQuery(m[2])
			// A link to the form with queues chosen gets them all
			// checked (the form checked the first 100 and left the
			// others out without a word).
			if pu, err := url.Parse(u); err != nil {
				t.Fatal(err)
			} else if lq := pu.Query(); strings.HasSuffix(m[1], "/predict.html") && !lq.Has("cores") && len(lq["loc"]) != checked {
				t.Errorf("%.200s: %d queues chosen, %d checked on the form", u, len(lq["loc"]), checked)
			}
			if strings.HasSuffix(m[1], "/predict.html") && checked == 0 {
				continue // (the empty form: choosing a queue is the user's part)
			}
			if l := html.UnescapeString(m[1]) + "?" + q.Encode(); !seen[l] {
				forms++
				todo = append(todo, l)
			}
		}
	}
	if len(seen) >= most {
		t.Fatalf("more than %d pages: the walk did not end", most)
	}
	for _, want := range []string{"/karnak/system/wide/status.html", "/karnak/system/huge/status.html", "/karnak/system/s1/job/1002/prediction/waittime.html",
		"/karnak/system/status.html?after=s1&limit=1", "/karnak/system/status.html?before=wide&limit=1", "/karnak/system/status.txt?before=wide&limit=1"} {
		if !seen[want] {
			t.Errorf("the walk did not reach %s", want)
		}
	}
	waitingNext := false
	for u := range seen {
		waitingNext = waitingNext || strings.HasPrefix(u, "/karnak/system/s1/job/waiting.html?after=")
	}
	if !waitingNext {
		t.Errorf("the walk did not follow the waiting jobs' next page")
	}
	t.Logf("%d requests, %d of them forms sent; %d links left out as differing in a queue only", fetched, forms, len(seen)-fetched)
	if forms < 3 {
		t.Errorf("%d forms sent, want at least s1's, a prediction page's and their answers'", forms)
	}
}

// A link to the form that chooses more queues than a prediction takes
// (from elsewhere: the service's own pages no longer make one) gets the
// form with the first 100 checked and a note saying so; the others were
// left unchecked without a word.
func TestFormManyChosenNoted(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1, MaxQueues: 150})
	var evs []Event
	q := url.Values{}
	for i := range 150 {
		evs = append(evs, Event{Kind: "queue", System: "wide", Time: testNow, Queue: fmt.Sprintf("q%03d", i), Cores: 64, WallTime: 86400})
		q.Add("loc", fmt.Sprintf("q%03d@wide", i))
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/waittime/predict.html?"+q.Encode(), nil))
	const want = "150 queues chosen: the form checks the first 100 (a prediction asks about at most 100), not the others"
	if body := w.Body.String(); w.Code != 200 || strings.Count(body, `checked="checked"`) != maxLocations || !strings.Contains(body, want) {
		t.Errorf("150 queues chosen: %d, %d checked, note %v; want 200, %d checked, %q", w.Code, strings.Count(body, `checked="checked"`), strings.Contains(body, want), maxLocations, want)
	}
}
