package karnak

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// manySystems is a service of n systems of one queue each, named
// sys0000, sys0001, …, declared in an order that is not theirs (so the
// list's order is the service's doing). Its systems hold few live jobs
// (MaxLiveJobs 1,024): 5,000 of the default 262,144 are more than the
// limits' worst case allows (limitsBytes).
func manySystems(t *testing.T, n int) *Service {
	t.Helper()
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1, MaxSystems: n, MaxLiveJobs: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	evs := make([]Event, 0, n)
	for i := range n {
		k := (i*7919 + 13) % n // 7919 is prime, so a permutation when n is not a multiple of it
		evs = append(evs, Event{Kind: "queue", System: fmt.Sprintf("sys%04d", k), Time: testNow, Queue: "q", Cores: 64, WallTime: 3600})
	}
	if n == 0 {
		return s
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	nextLink = regexp.MustCompile(`<([^>]*)>; rel="next"`)
	prevLink = regexp.MustCompile(`<([^>]*)>; rel="prev"`)
	htmlSys  = regexp.MustCompile(`<tr><th scope="row"><a href="/karnak/system/([^/"]+)/status.html">`)
	htmlNav  = regexp.MustCompile(`<a href="([^"]*)">the (next|previous) ones</a>`)
	textNav  = regexp.MustCompile(`; (next|previous): (\?[^;\n]*)`)
)

// systemsOf reads the systems a page of the list names, in each
// representation, and the next and previous pages its body links (the
// text's last line, the page's note; "" where the body has none: JSON
// and XML have the Link header only).
func systemsOf(t *testing.T, ext, body string) (names []string, next, prev string) {
	t.Helper()
	var list []SystemStatus
	switch ext {
	case "json":
		if err := json.Unmarshal([]byte(body), &list); err != nil {
			t.Fatal(err)
		}
	case "xml":
		var v struct {
			Items []SystemStatus `xml:"systemStatus"`
		}
		if err := xml.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		list = v.Items
	case "txt":
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, "systems ") || strings.HasPrefix(l, "none of") {
				for _, m := range textNav.FindAllStringSubmatch(l, -1) {
					if m[1] == "next" {
						next = "/karnak/system/status.txt" + m[2]
					} else {
						prev = "/karnak/system/status.txt" + m[2]
					}
				}
				continue
			}
			names = append(names, strings.Fields(l)[0])
		}
		return names, next, prev
	case "html":
		for _, m := range htmlSys.FindAllStringSubmatch(body, -1) {
			names = append(names, m[1])
		}
		for _, m := range htmlNav.FindAllStringSubmatch(body, -1) {
			href := strings.ReplaceAll(m[1], "&amp;", "&")
			if m[2] == "next" {
				next = href
			} else {
				prev = href
			}
		}
		return names, next, prev
	}
	for _, st := range list {
		names = append(names, st.System)
	}
	return names, "", ""
}

// The list of systems is paged (maxListRows a page, ?after=, ?before=,
// ?limit=) in every representation: at 5,000 systems (MaxSystems) the
// whole list was one response, 956 KB as a page, 185–297 ms. Following
// the next pages from the first, or the previous ones from the last,
// visits every system once, in name order, and the body's own links
// (text, HTML) are the Link header's. A page at 5,000 systems is no
// larger than the whole list of its systems alone (a service of 1,000)
// but for its note, and a request costs its page, not the list: a page
// of 10 allocates the same at 5,000 systems as at 1,000 (the names were
// copied and sorted at every request).
//
// Under -short the walk is over 35 systems in pages of 10 (the same
// code, a tenth of the time under -race), without the two services of
// thousands the sizes and allocations are measured on.
func TestSystemsListPaged(t *testing.T) {
	n, limit := 5000, maxListRows
	if testing.Short() {
		n, limit = 35, 10
	}
	big := manySystems(t, n)
	get := func(s *Service, path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 {
			t.Fatalf("%s: %d %.300s", path, w.Code, w.Body)
		}
		return w
	}
	var small *Service
	if !testing.Short() {
		small = manySystems(t, maxListRows)
	}
	pages := (n + limit - 1) / limit
	for _, ext := range []string{"json", "txt", "xml", "html"} {
		whole := math.MaxInt
		if small != nil {
			whole = get(small, "/karnak/system/status."+ext).Body.Len()
		}
		for _, dir := range []string{"next", "prev"} {
			seen := map[string]int{}
			var order []string
			path, visited := "/karnak/system/status."+ext, 0
			if dir == "prev" {
				path += "?before=z" // a name after every system's: the last page
			}
			if limit != maxListRows {
				sep := "?"
				if dir == "prev" {
					sep = "&"
				}
				path += fmt.Sprintf("%slimit=%d", sep, limit)
			}
			for path != "" {
				if visited++; visited > pages+1 {
					t.Fatalf("%s, %s pages: more than %d pages", ext, dir, pages)
				}
				w := get(big, path)
				if whole < math.MaxInt && w.Body.Len() > whole+1<<10 { // (the note, the links either side, the query in the alternative links)
					t.Errorf("%s: %d bytes, more than the whole list of its %d systems (%d bytes) and 1 KiB of links", path, w.Body.Len(), maxListRows, whole)
				}
				if tc := w.Header().Get("X-Total-Count"); tc != fmt.Sprint(n) {
					t.Errorf("%s: X-Total-Count %q, want %d", path, tc, n)
				}
				names, bnext, bprev := systemsOf(t, ext, w.Body.String())
				if len(names) > limit {
					t.Errorf("%s: %d systems, at most %d", path, len(names), limit)
				}
				if dir == "prev" {
					order = append(append([]string(nil), names...), order...)
				} else {
					order = append(order, names...)
				}
				for _, nm := range names {
					seen[nm]++
				}
				var next, prev string
				if m := nextLink.FindStringSubmatch(w.Header().Get("Link")); m != nil {
					next = m[1]
				}
				if m := prevLink.FindStringSubmatch(w.Header().Get("Link")); m != nil {
					prev = m[1]
				}
				if (ext == "txt" || ext == "html") && (bnext != next || bprev != prev) {
					t.Errorf("%s: the body links next %q and previous %q, the Link header %q and %q", path, bnext, bprev, next, prev)
				}
				path = next
				if dir == "prev" {
					path = prev
				}
			}
			if visited != pages || len(seen) != n || len(order) != n {
				t.Errorf("%s, %s pages: %d pages, %d systems of %d, %d listed; want %d pages, each system once", ext, dir, visited, len(seen), n, len(order), pages)
			}
			for i, nm := range order {
				if want := fmt.Sprintf("sys%04d", i); nm != want {
					t.Errorf("%s, %s pages: system %d is %s, want %s (name order, each once)", ext, dir, i, nm, want)
					break
				}
			}
		}
	}
	// The README's example of the text's last line.
	if n == 5000 {
		const want = "systems 1001–2000 of the 5000, by name; next: ?after=sys1999&limit=1000; previous: ?before=sys1000&limit=1000"
		body := get(big, "/karnak/system/status.txt?after=sys0999&limit=1000").Body.String()
		readme, err := os.ReadFile("../../examples/qserve/README.md")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(body, "\n"+want+"\n") || !strings.Contains(string(readme), "`"+want+"`") {
			t.Errorf("the second page's last line is not %q, or examples/qserve/README.md does not quote it", want)
		}
	}
	if small == nil {
		return
	}
	// What a request allocates, at 5,000 systems and at 1,000: the same
	// page of 10 systems.
	alloc := func(s *Service, path string) uint64 {
		get(s, path) // (the templates parsed, the caches warm)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		const runs = 20
		for range runs {
			get(s, path)
		}
		runtime.ReadMemStats(&m1)
		return (m1.TotalAlloc - m0.TotalAlloc) / runs
	}
	for _, ext := range []string{"json", "html"} {
		path := "/karnak/system/status." + ext + "?after=sys0499&limit=10"
		a, b := alloc(big, path), alloc(small, path)
		t.Logf("%s: %d bytes allocated at %d systems, %d at %d", path, a, n, b, maxListRows)
		if a > b+b/4 {
			t.Errorf("%s: %d bytes allocated at %d systems, %d at %d: want about the same (a request costs its page)", path, a, n, b, maxListRows)
		}
	}
}

// The list of systems' page parameters are checked and bounded: a place
// is a system's name (at most 64 bytes; any name, known or not, is a
// place in the order), one of after and before, limit at most
// maxListRows; ?offset= is refused, not ignored (a client paging by it
// got the first page for ever). A system dropped leaves the list.
func TestSystemsListParams(t *testing.T) {
	s := manySystems(t, 30)
	get := func(q string) (int, string, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/status.txt"+q, nil))
		return w.Code, w.Body.String(), w.Header().Get("Link")
	}
	for q, want := range map[string]string{
		"?after=" + strings.Repeat("a", 65):  "after: \"" + strings.Repeat("a", 64) + "…\" is not a system name",
		"?before=a%2Fb":                      `before: "a/b" is not a system name`,
		"?after=sys0001&before=sys0009":      "after, before: give one of them, not both",
		"?offset=1000":                       "offset: the list of systems pages by name",
		"?limit=1001":                        `limit: "1001", want an integer in [0, 1000]`,
		"?limit=-1":                          `limit: "-1"`,
		"?limit=" + strings.Repeat("9", 100): `limit: "` + strings.Repeat("9", 64) + `…"`,
	} {
		if code, body, _ := get(q); code != 400 || !strings.Contains(body, want) || len(body) > 512 {
			t.Errorf("%.80s: %d %q, want 400 with %q, at most 512 bytes", q, code, body, want)
		}
	}
	// A name no system has is a place: sys0004a sorts between sys0004
	// and sys0005.
	if code, body, link := get("?after=sys0004a&limit=2"); code != 200 || !strings.Contains(body, "\nsys0005 ") || !strings.Contains(body, "\nsys0006 ") ||
		!strings.Contains(body, "systems 6–7 of the 30, by name; next: ?after=sys0006&limit=2; previous: ?before=sys0005&limit=2\n") ||
		link != `</karnak/system/status.txt?after=sys0006&limit=2>; rel="next", </karnak/system/status.txt?before=sys0005&limit=2>; rel="prev"` {
		t.Errorf("after a name no system has: %d %q Link %q", code, body, link)
	}
	if code, body, link := get("?before=sys0002&limit=5"); code != 200 || !strings.Contains(body, "systems 1–2 of the 30, by name; next: ?after=sys0001&limit=5\n") ||
		link != `</karnak/system/status.txt?after=sys0001&limit=5>; rel="next"` {
		t.Errorf("before the third: %d %q Link %q", code, body, link)
	}
	if err := s.Drop("sys0005"); err != nil {
		t.Fatal(err)
	}
	if code, body, _ := get("?after=sys0004&limit=1"); code != 200 || !strings.Contains(body, "\nsys0006 ") || !strings.Contains(body, "of the 29,") {
		t.Errorf("after a drop: %d %q, want sys0006 after sys0004, 29 systems", code, body)
	}
	if code, body, link := get(""); code != 200 || strings.Count(body, "\n") != 30 || link != "" {
		t.Errorf("the whole list: %d, %d lines, Link %q; want the header and 29 systems, no link", code, strings.Count(body, "\n"), link)
	}
}

// An empty page of a list of systems that is not empty, past its end
// (?after= the last name, or a stale next link whose systems were
// dropped since) or before its start (?before= the first), links to the
// nearest page that has systems, the last (rel="prev") or the first
// (rel="next"), in the Link header and in the text's and the page's own
// links, and says it is empty and why in every representation (JSON's
// [], XML's empty root, X-Total-Count; the text's last line, the page's
// note). It linked nowhere: a script paging by Link, or a person who
// followed a stale link, was stranded. ?limit=0 and an empty list link
// nowhere still.
func TestSystemsListEmptyPageLinksBack(t *testing.T) {
	s := manySystems(t, 30)
	get := func(path string) (string, string, string) {
		t.Helper()
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 {
			t.Fatalf("%s: %d %.300s", path, w.Code, w.Body)
		}
		return w.Body.String(), w.Header().Get("Link"), w.Header().Get("X-Total-Count")
	}
	for _, c := range []struct {
		query, rel, link, want, why string // want: the first system of the page the link gives
	}{
		{"?after=sys0029&limit=10", "prev", "?after=sys0019&limit=10", "sys0020", "after the last"},
		{"?after=zzz&limit=7", "prev", "?after=sys0022&limit=7", "sys0023", "after the last"},
		{"?after=zzz&limit=30", "prev", "?limit=30", "sys0000", "after the last"},
		{"?after=zzz", "prev", "?limit=1000", "sys0000", "after the last"},
		{"?before=sys0000&limit=10", "next", "?limit=10", "sys0000", "before the first"},
		{"?before=a&limit=1000", "next", "?limit=1000", "sys0000", "before the first"},
	} {
		for _, ext := range []string{"json", "xml", "txt", "html"} {
			path := "/karnak/system/status." + ext + c.query
			body, link, total := get(path)
			names, bnext, bprev := systemsOf(t, ext, body)
			wantLink := `</karnak/system/status.` + ext + c.link + `>; rel="` + c.rel + `"`
			if len(names) != 0 || link != wantLink || total != "30" {
				t.Errorf("%s: %d systems, Link %q, X-Total-Count %q; want none, %q, 30", path, len(names), link, total, wantLink)
			}
			blink := bprev
			if c.rel == "next" {
				blink = bnext
			}
			if (ext == "txt" || ext == "html") && (blink != "/karnak/system/status."+ext+c.link || bnext+bprev != blink) {
				t.Errorf("%s: the body links next %q, previous %q; want only its %s, %s", path, bnext, bprev, c.rel, c.link)
			}
			switch note := "none of the 30 systems on this page: its place is " + c.why; ext {
			case "json":
				if strings.TrimSpace(body) != "[]" {
					t.Errorf("%s: %q, want []", path, body)
				}
			case "txt":
				if !strings.Contains(body, "\n"+note+"; ") {
					t.Errorf("%s: %q, want the last line to say %q", path, body, note)
				}
			case "html":
				if !strings.Contains(body, "N"+note[1:]) || strings.Contains(body, "No system yet") {
					t.Errorf("%s: the page does not say %q, or says there is no system yet:\n%s", path, note, body)
				}
			}
			if ext != "json" {
				continue
			}
			// The link leads to systems.
			body, _, _ = get("/karnak/system/status.json" + c.link)
			if names, _, _ := systemsOf(t, ext, body); len(names) == 0 || names[0] != c.want {
				t.Errorf("%s: its %s page %s starts with %v, want %s", path, c.rel, c.link, names, c.want)
			}
		}
	}
	// The README's example of the empty page's last line.
	const line = "none of the 30 systems on this page: its place is after the last; previous: ?after=sys0019&limit=10"
	body, _, _ := get("/karnak/system/status.txt?after=sys0029&limit=10")
	readme, err := os.ReadFile("../../examples/qserve/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(body, "\n"+line+"\n") || !strings.Contains(strings.ReplaceAll(string(readme), "\n", " "), "`"+line+"`") {
		t.Errorf("the empty page's last line is not %q, or examples/qserve/README.md does not quote it:\n%s", line, body)
	}
	// A stale next link: the systems after the page were dropped.
	_, link, _ := get("/karnak/system/status.json?limit=25")
	m := nextLink.FindStringSubmatch(link)
	if m == nil {
		t.Fatalf("the first page of 25: Link %q, want a next page", link)
	}
	for i := 25; i < 30; i++ {
		if err := s.Drop(fmt.Sprintf("sys%04d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, link, total := get(m[1]); link != `</karnak/system/status.json?limit=25>; rel="prev"` || total != "25" {
		t.Errorf("%s after the systems it was to show were dropped: Link %q, X-Total-Count %q; want the first page, which is the last, as prev, and 25", m[1], link, total)
	}
	// Links nowhere: ?limit=0 (a page that linked to itself would be
	// followed for ever), and a service without systems.
	for _, q := range []string{"?limit=0", "?after=zzz&limit=0", "?before=a&limit=0"} {
		if _, link, total := get("/karnak/system/status.txt" + q); link != "" || total != "25" {
			t.Errorf("%s: Link %q, X-Total-Count %q; want none, 25", q, link, total)
		}
	}
	empty := manySystems(t, 0)
	for _, q := range []string{"", "?after=zzz", "?before=a"} {
		w := httptest.NewRecorder()
		empty.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/status.html"+q, nil))
		if w.Code != 200 || w.Header().Get("Link") != "" || !strings.Contains(w.Body.String(), "No system yet") {
			t.Errorf("no systems, %s: %d, Link %q; want 200, none, and the page's \"No system yet\"", q, w.Code, w.Header().Get("Link"))
		}
	}
}

// The waiting jobs' empty page past the end (?after= the last job's key,
// a stale next link whose jobs started since, or an ?offset= past the
// list) links the list's last page (rel="prev"), in the Link header,
// the text's last line and the page's note, as the list of systems
// does; it linked nowhere.
func TestWaitingEmptyPageLinksBack(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (string, string) {
		t.Helper()
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 {
			t.Fatalf("%s: %d %.300s", path, w.Code, w.Body)
		}
		return w.Body.String(), w.Header().Get("Link")
	}
	// The three waiting jobs and their keys.
	body, _ := get("/karnak/system/s1/job/waiting.json")
	var jobs []WaitingJob
	if err := json.Unmarshal([]byte(body), &jobs); err != nil || len(jobs) != 3 {
		t.Fatalf("the waiting jobs: %v %s", err, body)
	}
	key := func(j WaitingJob) string { return fmt.Sprintf("%d.%d", j.Submit, j.Job) }
	base := "/karnak/system/s1/job/waiting."
	for _, c := range []struct{ query, prev string }{
		{"?after=" + key(jobs[2]) + "&limit=2", "?after=" + key(jobs[0]) + "&limit=2"},
		{"?offset=99&limit=2", "?after=" + key(jobs[0]) + "&limit=2"},
		{"?offset=3", "?limit=1000"},
		{"?offset=9223372036854775807&limit=3", "?limit=3"},
	} {
		for _, ext := range []string{"json", "txt", "html"} {
			body, link := get(base + ext + c.query)
			want := "<" + base + ext + c.prev + `>; rel="prev"`
			if link != want {
				t.Errorf("%s%s: Link %q, want %q", ext, c.query, link, want)
			}
			switch ext {
			case "txt":
				if !strings.HasSuffix(body, ": its place is after the last; previous: "+c.prev+"\n") {
					t.Errorf("%s%s: the last line does not link %s:\n%s", ext, c.query, c.prev, body)
				}
			case "html":
				if !strings.Contains(body, `<a href="`+strings.ReplaceAll(base+ext+c.prev, "&", "&amp;")+`">the previous ones</a>`) {
					t.Errorf("%s%s: the page does not link %s:\n%s", ext, c.query, c.prev, body)
				}
			}
		}
		// The link leads to the last jobs.
		body, _ := get(base + "json" + c.prev)
		var page []WaitingJob
		if err := json.Unmarshal([]byte(body), &page); err != nil || len(page) == 0 || page[len(page)-1] != jobs[2] {
			t.Errorf("%s: its prev page %s is %s, want the last jobs", c.query, c.prev, body)
		}
	}
	if _, link := get(base + "txt?offset=5&limit=0"); link != "" {
		t.Errorf("?limit=0: Link %q, want none", link)
	}
}
