package karnak

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/internal/sysname"
	"github.com/batchq/batchq/qbets/ibl"
)

// Handler returns the REST interface (spec karnak-ibl-service §2.3), with
// a .txt, .json, .xml or .html representation chosen by the resource's
// extension, or, on the path without one, by the Accept header (a
// browser gets HTML; see negotiate):
//
//	GET  /karnak/system/status.{fmt}                              ksystems  ?after=<system> or ?before=<system>, &limit=1000 (at most 1,000 a response)
//	GET  /karnak/system/{sys}/status.{fmt}                        ksystem
//	GET  /karnak/system/{sys}/queue/{queue}/summary.{fmt}         kqueue (queue all_jobs = whole system)
//	GET  /karnak/system/{sys}/job/waiting.{fmt}                   kjobs   ?after=<submit>.<id> or ?offset=0, &limit=1000 (at most 1,000 a response)
//	GET  /karnak/system/{sys}/job/{id}/prediction/waittime.{fmt}  kwait   ?quantile=95&confidence=90&within=hh:mm:ss
//	GET  /karnak/system/{sys}/job/{id}/prediction/starttime.{fmt} kstart
//	GET  /karnak/system/{sys}/event/last.{fmt}                    the last stored event and its sequence number
//	POST /karnak/waittime/prediction/?format={fmt}                kwouldwait  (JSON or text body)
//	POST /karnak/starttime/prediction/?format={fmt}               kwouldstart
//	POST /karnak/events                                           ingest (JSON: one event, an array, or {"batch": id, "events": [...]})
//	POST /karnak/admin/system/{sys}/drop                          repair: Drop (admin token)
//	POST /karnak/admin/system/{sys}/rewind?time=T                 repair: Rewind to Unix time T (admin token)
//	GET  /karnak/stats.{fmt}                                      cache hits and misses
//	GET  /karnak/waittime/predict.html                            the form for a hypothetical job, and its answer (?sys=&show=: a system's queues)
//	GET  /karnak/starttime/predict.html                           (the same, Karnak's second name)
//	GET  /karnak/style.css                                        the pages' stylesheet
//
// The HTML pages (html.go) only read, work without JavaScript, and are
// served with a Content-Security-Policy that allows no script and only
// the served stylesheet; the queue page embeds SVG charts drawn at most
// once per queue and minute (chart.go).
//
// Karnak answered a POST with the path of a prediction resource to GET
// next; here the POST answers with the predictions directly (one round
// trip instead of two).
//
// Ingest answers 200 with the Ack as JSON once the batch is stored (a
// retried batch id gets the same 200 and Ack); 400 naming the event and
// field; 401 without a known bearer token (with Config.Tokens: checked
// before the body is read), 403 with one that may not feed the batch's
// systems, or, without Config.Tokens, for a client not on loopback; 409
// for a batch id reused with other events; 413 beyond 4 MiB or 20,000
// events; 415 unless the body is application/json in UTF-8; 408 for a
// body not received within the server's read timeout, 400 for one whose
// connection ended first or whose chunked encoding is malformed (every
// POST's body alike). An answer sent before a request's body is read
// (a 401, a 415, any route that reads none) does not wait for it: a body
// of at most 64 KiB that has arrived is dropped and the connection kept,
// else the answer closes it (releaseBody). Every
// request may get 429 (Config.Rate, with Retry-After) and, until Load is
// done, 503 with Retry-After. Every error answer is an Error, in the
// representation the request asked for (errorFormat: the extension, a
// prediction POST's ?format=, else on a GET the Accept header), with the
// same status in each: {"error": message, "status": code} as JSON,
// <error><error>message</error><status>code</status></error> as XML, a
// page whose paragraph id="error" holds the message (a 429's and a
// 503's a brief one, without the layout, saying when to retry), or the message as
// text; the event batches and the repairs, which choose no
// representation, answer text. The handler
// sets no timeouts: the http.Server that serves it should (ReadTimeout,
// WriteTimeout, IdleTimeout), as examples/qserve does.
//
// Paging. The systems are listed by name, at most ?limit= (1,000, the
// default and the most) a response, with Link's rel="next" page
// (?after=, the page's last name) and rel="prev" page (?before=, its
// first); the text's last line and the HTML page's note give the same.
// An empty page of a list that is not (a stale link, a place after the
// last item or before the first) links to the last page (prev) or the
// first (next) instead, and its note says why it is empty; so does the
// waiting jobs' past their last. A parameter whose pair cannot be read
// (a malformed %-escape, a ';') is a 400 naming it, not left out.
// A place is a name, so a system added or dropped between two pages
// moves no other from one page to the other, and a name no system has
// is a place like any other; one that is not a name (sysname's rule),
// both parameters at once, or ?offset= is a 400. The waiting jobs are
// listed in submission order (submit time, then job id: ibl.System's
// order, the one the queued-job predictions count the jobs ahead in), at
// most ?limit= (1,000, the default and the most) a response. Follow the
// Link header's rel="next" page (the text's
// last line and the HTML page's link give the same): it is
// ?after=<submit>.<id>, the key of the page's last job, and the next page
// starts with the first job after that key, so a job that waits from the
// first page to the last is listed exactly once however many start, end or
// arrive in between. A job submitted out of order (at the same time as
// jobs already waiting but with a smaller id; an earlier time is stored
// at its system's clock) takes its place by its key, in the list as in
// the predictions: before the cursor, it is on none of the pages after
// (X-Total-Count counts it). ?offset= (0 first) still works, for clients
// written before ?after=, but an offset counts jobs: a job that leaves
// before it between two requests moves the next page's first job to the
// page already read, skipped, and one that arrives before it repeats one.
// A cursor is two integers ≥ 0 joined by a
// dot, at most 39 bytes; one that is malformed, too long, given with
// ?offset=, naming a live job with a later submit time than the job's, or
// a submit time after the system's last event is a 400 naming after; one
// naming a job that has left (or never was) is a place in the list like
// any key.
//
// Threat model. The service is meant to be reachable by anyone on a
// campus network: readers are anonymous (every GET is open; it shows job
// sizes, queues and the user, project and job names feeds send), writers
// are the feeding sites, and one operator repairs. What an anonymous
// client can do is bounded: a read costs O(1) or a bounded computation
// (no work grows with a number it sends; a list, the systems or the
// waiting jobs, gives at most 1,000 items a response, at most ?limit=,
// with the whole list's length in X-Total-Count, the next page in Link,
// and both in a last line of the text and a note on the page when the
// response leaves items out),
// a request and its body are bounded (413; 414 beyond a path of 512
// bytes, a query of 64 KiB or of 256 parameters, on every route: the
// form's is the form again with its error, counting the queues checked),
// the form lists at most 512 queues at once (the systems beyond, as
// checkboxes to show theirs: formMaxChoices), and
// each client is rate-limited (Config.Rate, on by
// default; a hypothetical job's prediction counts one request per
// location, at most the burst, and one more per 100 jobs its forecast
// simulates when it runs a simulation; behind a reverse proxy name it in
// Config.TrustedProxies so that the limit applies to the clients, not
// to the proxy). Writes are
// closed by default: without Config.Tokens the handler takes event
// batches only from a loopback peer that forwards for no one (not one of
// Config.TrustedProxies, whatever it forwards), and no
// repair at all; with tokens, an event batch needs a bearer token scoped
// to each of its systems, and Drop and Rewind an admin token. The token
// is checked from the header before the body is read, so an
// unauthenticated batch of megabytes costs nothing. Bearer tokens are
// only as safe as the transport: serve over TLS (examples/qserve
// -tls-cert) or behind a proxy that terminates it. What a feeding
// site can do is bounded too: events are validated before they are
// stored (times at most Config.MaxSkew, 5 minutes, ahead of the
// service's clock, and per system up to Config.MaxBackstep before its
// last event, stored at it, so that one event ahead of its time never
// locks its system's real events out; sizes and durations at most 2^40,
// names at most 64 bytes, not "." or "..", free text 256 bytes of UTF-8,
// JSON without duplicate keys, nested at most 32 deep, at most 64 keys
// an object (as a prediction request's); at most MaxSystems systems, MaxQueues
// queues and MaxLiveJobs live jobs per system), no work grows with a gap
// in time, and Drop and Rewind repair a system fed bad events. Every
// refusal is an Error whose Code says whether retrying can help, the
// same in the process and over HTTP, and every 4xx names the field. Out
// of scope: a feeding site that sends plausible false events for its
// own systems, and a reader who learns what the feeds publish.
func (s *Service) Handler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /karnak/system/{file}", s.handle("status", s.systemsStatus))
	m.HandleFunc("GET /karnak/system/{sys}/{file}", s.handle("status", s.systemStatus))
	m.HandleFunc("GET /karnak/system/{sys}/queue/{queue}/{file}", s.handle("summary", s.queueSummary))
	m.HandleFunc("GET /karnak/system/{sys}/job/{file}", s.handle("waiting", s.waitingJobs))
	m.HandleFunc("GET /karnak/system/{sys}/event/{file}", s.handle("last", s.lastEvent))
	m.HandleFunc("GET /karnak/system/{sys}/job/{id}/prediction/{file}", s.jobPrediction)
	m.HandleFunc("POST /karnak/{what}/prediction/{$}", s.hypothetical)
	m.HandleFunc("POST /karnak/events", s.ingest)
	m.HandleFunc("POST /karnak/admin/system/{sys}/{op}", s.admin)
	m.HandleFunc("GET /karnak/{file}", s.handle("stats", s.stats))
	s.handleHTML(m)
	m.HandleFunc("/", s.unrouted(m))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every answer, not only the pages and http.Error's: a text or
		// JSON answer may quote a client's markup (a location asked
		// for), which a browser that guesses types could render.
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// A shallow copy: releaseBody and readBody take r.Body from the
		// handlers' request, and net/http's own must keep it (it closes a
		// connection whose body was left unread gently, waiting for the
		// client to stop sending, only when it sees that body: without,
		// a client still sending a 7 MiB body to its 413 got a reset).
		r = r.WithContext(r.Context())
		if !s.charge(w, r) {
			return
		}
		if err := checkRequestLine(r); err != nil {
			if p := r.URL.Path; r.Method == http.MethodGet && s.ready.Load() &&
				(p == "/karnak/waittime/predict.html" || p == "/karnak/starttime/predict.html") {
				s.formOverlong(w, r, err) // the form's own error, not a bare 414
				return
			}
			s.writeError(w, r, err)
			return
		}
		if !s.ready.Load() {
			w.Header().Set("Retry-After", "5")
			s.writeError(w, r, errNotReady)
			return
		}
		if !readsBody(r) {
			releaseBody(w, r) // (the others' refusals before the body do: writeError)
		}
		if r.URL.Path == "/karnak/events" && r.Method != http.MethodPost {
			// The mux's own 405, as on the other routes: GET and HEAD
			// matched the stats route (GET /karnak/{file}, a 404), and
			// its Allow added GET and HEAD to another method's.
			w.Header().Set("Allow", http.MethodPost)
			s.writeError(w, r, &Error{Code: http.StatusMethodNotAllowed, Message: "method: " + clip(r.Method) + " is not allowed here, want POST"})
			return
		}
		if !strings.HasPrefix(r.URL.Path, "/") {
			// A CONNECT's authority form (example.com:443) has no
			// path: the mux matches no pattern, not even "/", and
			// answered its own "404 page not found".
			s.writeError(w, r, notFound("path: %q is not a resource of the service", clip(r.URL.Path)))
			return
		}
		m.ServeHTTP(w, r)
	})
}

// unrouted answers a request the mux matches no route for (its pattern
// "/", which every path matches and any route's is more specific than):
// the mux's own 404, or its 405 with Allow for a path a route of another
// method matches, in the representation asked for, as every other error
// is (the mux wrote text). The mux still redirects to a clean path
// before. A route of its own rather than m.Handler before m.ServeHTTP:
// that matched every request twice, 3 allocations more on a routed GET.
func (s *Service) unrouted(m *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, method := range []string{http.MethodGet, http.MethodHead, http.MethodPost} { // (the routes' methods)
			probe := r.WithContext(r.Context())
			probe.Method = method
			if _, pattern := m.Handler(probe); pattern != "" && pattern != "/" {
				allow = append(allow, method)
			}
		}
		if len(allow) == 0 {
			s.writeError(w, r, notFound("path: %q is not a resource of the service", clip(r.URL.Path)))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.writeError(w, r, &Error{Code: http.StatusMethodNotAllowed, Message: "method: " + clip(r.Method) + " is not allowed here, want " + strings.Join(allow, ", ")})
	}
}

// checkRequestLine refuses (414) a path longer than maxPath, or a query
// longer than maxQuery or of more than maxParams parameters, on every
// route: a handler may be served with net/http's default MaxHeaderBytes
// (1 MB), and a page copies its query into its three alternative links
// (a 1 MB query made a 3 MB page, 39 MB allocated; 300,000 parameters on
// a prediction page 6.4 MB and 86 MB), an error quoted a 1 MB name back
// whole (TestRequestLineBounded).
func checkRequestLine(r *http.Request) error {
	if n := max(len(r.URL.Path), len(r.URL.RawPath)); n > maxPath {
		return &Error{Code: http.StatusRequestURITooLong, Message: fmt.Sprintf("path: %d bytes, at most %d", n, maxPath)}
	}
	q := r.URL.RawQuery
	if len(q) > maxQuery {
		return &Error{Code: http.StatusRequestURITooLong, Message: fmt.Sprintf("query: longer than %d bytes", maxQuery)}
	}
	if n := strings.Count(q, "&") + strings.Count(q, ";") + 1; n > maxParams {
		return &Error{Code: http.StatusRequestURITooLong, Message: fmt.Sprintf("query: %d parameters, at most %d", n, maxParams)}
	}
	return nil
}

// charge takes the rate limit's token of a request of the client's
// (Config.Rate) before it is routed, or answers 429 with Retry-After and
// reports false. A hypothetical request pays more once decoded (payer).
func (s *Service) charge(w http.ResponseWriter, r *http.Request) bool {
	if s.limiter == nil {
		return true
	}
	c := s.clientOf(r)
	if ok, wait := s.limiter.allowN(c.id, 1); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
		s.writeError(w, r, &Error{Code: http.StatusTooManyRequests, Message: "rate limit: too many requests from " + c.id})
		return false
	}
	return true
}

// errPayRefused is the cause of the 429 of a request whose forecasts'
// simulations its client's tokens did not cover (payer).
var errPayRefused = errors.New("rate limit: a simulation not paid for")

// payer is what r's hypothetical job pays with, once decoded, beyond the
// token its request took (charge): one token for each location after the
// first, since each is a prediction computed (QBETS, an IBL search of
// about 150 µs), and at one token a request a client at the default rate
// could ask for 100 locations 100 times a second; and, for each forward
// simulation its forecasts run (forecastHypothetical), tokens in
// proportion to the jobs simulated (simulationCost), taken when the
// simulation is about to run, so that a request answered from a
// simulation already run (the cache, or the same question a moment ago)
// costs nothing more. A request takes at most the burst in all, so that
// every request can be answered. Without a rate limit it pays nothing.
func (s *Service) payer(r *http.Request) payFunc {
	if s.limiter == nil {
		return func(int, string) error { return nil }
	}
	id := s.clientOf(r).id
	taken := 1 // by charge
	return func(n int, why string) error {
		if n = min(n, int(s.limiter.burst)-taken); n <= 0 {
			return nil
		}
		if ok, wait := s.limiter.allowN(id, n); !ok {
			// The request sent again pays again what this one took
			// before the refusal: its Retry-After waits for that too,
			// or a client that waits as told is one token short at
			// every retry, for ever (TestRetryAfterCoversTheRetry).
			extra := s.limiter.waitFor(float64(taken))
			wait = min(wait, math.MaxInt64-extra) + extra // (saturating)
			return &Error{Code: http.StatusTooManyRequests, Message: "rate limit: too many requests from " + id + why, err: errPayRefused, retry: wait}
		}
		taken += n
		return nil
	}
}

// locationsCharged says why a prediction for n locations was refused
// by the rate limit.
func locationsCharged(n int) string {
	return fmt.Sprintf(" (a prediction for %d locations counts as %d requests)", n, n)
}

// render writes v as JSON or calls text to write it as plain text. A
// list given in pages (the waiting jobs) says which page it is.
type render struct {
	json any
	text func(w io.Writer)
	list *listPage
}

// listPage is the place of a page of a list: its first item's offset
// (0 first), its length, the length of the whole list, the most items a
// page was asked for, and the sort keys of its last item and, for a list
// that pages both ways (the systems), of its first ("" otherwise).
type listPage struct {
	offset, n, total, limit int
	last, first             string
	systems                 bool // the list of systems (note's words)
	// lastAfter is, on an empty page past the end of the list, the
	// place (?after=) its last page starts after ("": the first page).
	lastAfter string
}

// pastEnd and beforeStart say that a page of a list is empty though the
// list is not, because its place is after the last item or (the list
// of systems) before the first: a stale link (the items it was to show
// gone since), a name or an offset given by hand. Such a page links to
// the nearest page that has items, the last (prev) or the first
// (next), so that neither a script following Link nor a person is
// stranded on it. (?limit=0 asks for no systems: its page links nowhere, as a page
// that links to itself would be followed for ever.)
func (l *listPage) pastEnd() bool {
	return l.n == 0 && l.limit > 0 && l.total > 0 && l.offset >= l.total
}

func (l *listPage) beforeStart() bool {
	return l.systems && l.n == 0 && l.limit > 0 && l.total > 0 && l.offset == 0
}

// partial says whether the page leaves items out.
func (l *listPage) partial() bool { return l.offset > 0 || l.offset+l.n < l.total }

// next is the query of the page after this one, or "" for the last: the
// items after this page's last, by its key (?after=), whichever way this
// page was asked for, so that following Link never skips or repeats an
// item when the list changes between pages.
func (l *listPage) next() string {
	if l.beforeStart() {
		return fmt.Sprintf("?limit=%d", l.limit) // the first page
	}
	if l.offset+l.n >= l.total || l.limit == 0 || l.n == 0 {
		return ""
	}
	return fmt.Sprintf("?after=%s&limit=%d", url.QueryEscape(l.last), l.limit)
}

// prev is the query of the page before this one, or "" for the first or
// a list that pages forward only: the items before this page's first
// (?before=).
func (l *listPage) prev() string {
	if l.pastEnd() { // the last page
		if l.lastAfter == "" {
			return fmt.Sprintf("?limit=%d", l.limit)
		}
		return fmt.Sprintf("?after=%s&limit=%d", url.QueryEscape(l.lastAfter), l.limit)
	}
	if l.first == "" || l.offset == 0 || l.n == 0 {
		return ""
	}
	return fmt.Sprintf("?before=%s&limit=%d", url.QueryEscape(l.first), l.limit)
}

// maxListRows bounds the items of one response of a list, in every
// representation: the waiting jobs number up to Config.MaxLiveJobs
// (262,144 by default), and a list of every one cost an anonymous
// request 72 ms and 29 MB as JSON and 1.7 s and 119 MB as a page for
// 40,000 jobs (a one-off probe, not committed, on a 2-core machine at a
// load average of 7); 1,000 cost 0.6 ms and 0.3 MB as JSON and 21 ms and
// 2.4 MB as a page (BenchmarkWaitingList, noisy). A client reads the
// rest by following Link (?after=, or ?offset=);
// X-Total-Count gives the whole list's length.
const maxListRows = 1000

// cursor is a place in the waiting list (?after=): the sort key of a job,
// its submit time and id, written "submit.id". The list is in that order
// (ibl.System), so a page that starts after a cursor starts at the same
// job whatever left or arrived before it since the cursor was given.
type cursor struct{ submit, id int64 }

func (c cursor) String() string { return fmt.Sprintf("%d.%d", c.submit, c.id) }

// maxCursor is the longest cursor: two int64s of 19 digits and the dot.
const maxCursor = 2*19 + 1

// parseCursor reads a cursor as String writes it: two integers ≥ 0 in
// decimal digits (no sign, no spaces), joined by a dot.
func parseCursor(s string) (cursor, error) {
	if len(s) > maxCursor {
		return cursor{}, badRequest("after: %d bytes, want at most %d: <submit time>.<job id>, as the Link header's next page gives it", len(s), maxCursor)
	}
	sub, id, _ := strings.Cut(s, ".")
	var c cursor
	var ok1, ok2 bool
	if c.submit, ok1 = number(sub); ok1 {
		if c.id, ok2 = number(id); ok2 {
			return c, nil
		}
	}
	return cursor{}, badRequest("after: %q, want <submit time>.<job id> (two integers ≥ 0), as the Link header's next page gives it", s)
}

// listQuery is where a page of a list starts and its most items: from
// offset (0 first), or, when after is set, after the cursor.
type listQuery struct {
	offset, limit int
	after         *cursor
}

// listParams reads offset (default 0) or after, and limit (default and
// at most maxListRows), from the URL query.
func listParams(r *http.Request) (q listQuery, err error) {
	v := query(r.URL.RawQuery)
	if err := v.check("offset", "after", "limit"); err != nil {
		return listQuery{}, err
	}
	q.limit = maxListRows
	var ok bool
	if s := v.Get("offset"); s != "" {
		if q.offset, ok = smallNumber(s); !ok {
			return listQuery{}, badRequest("offset: %q, want an integer ≥ 0", clip(s))
		}
	}
	if s := v.Get("after"); s != "" {
		if v.Get("offset") != "" {
			return listQuery{}, badRequest("after: give ?after= or ?offset=, not both")
		}
		c, err := parseCursor(s)
		if err != nil {
			return listQuery{}, err
		}
		q.after = &c
	}
	if s := v.Get("limit"); s != "" {
		if q.limit, ok = smallNumber(s); !ok || q.limit > maxListRows {
			return listQuery{}, badRequest("limit: %q, want an integer in [0, %d]", clip(s), maxListRows)
		}
	}
	return q, nil
}

// listHeaders sets X-Total-Count, and Link to the next and previous
// pages if any, on a page of a list.
func listHeaders(w http.ResponseWriter, r *http.Request, l *listPage) {
	w.Header().Set("X-Total-Count", strconv.Itoa(l.total))
	var links []string
	if q := l.next(); q != "" {
		links = append(links, "<"+r.URL.EscapedPath()+q+`>; rel="next"`)
	}
	if q := l.prev(); q != "" {
		links = append(links, "<"+r.URL.EscapedPath()+q+`>; rel="prev"`)
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
}

// pagesLine is the text representation's last line on a partial page
// of a list: which items it holds, and the queries of the pages either
// side (a whole list has none, as it always had).
func pagesLine(w io.Writer, l *listPage) {
	if !l.partial() {
		return
	}
	more := ""
	if q := l.next(); q != "" {
		more = "; next: " + q
	}
	if q := l.prev(); q != "" {
		more += "; previous: " + q
	}
	fmt.Fprintf(w, "%s%s\n", l.note(), more)
}

// format splits "name.ext" and checks both; without an extension the
// Accept header chooses.
func format(r *http.Request, file, want string) (string, error) {
	name, ext, dotted := strings.Cut(file, ".")
	if name != want {
		return "", notFound("%q is not a resource here, want %s.txt, .json, .xml or .html", clip(file), want)
	}
	if !dotted {
		return negotiate(r.Header.Get("Accept")), nil
	}
	if !knownFormat(ext) {
		return "", notFound("format: %q, want txt, json, xml or html", clip(ext))
	}
	return ext, nil
}

func (s *Service) handle(want string, f func(r *http.Request) (render, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ext, err := format(r, r.PathValue("file"), want)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := f(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.represent(w, r, ext, pageOf(r, want), out)
	}
}

func (s *Service) write(w http.ResponseWriter, r *http.Request, ext string, out render) {
	if ext == "json" {
		w.Header().Set("Content-Type", "application/json")
		b, err := marshalJSON(out.json)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Write(append(b, '\n')) //nolint:errcheck // the client went away
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	out.text(w)
}

// retryAfter sets Retry-After for an error that says when to retry: a
// 503 (the service is loading), a 429 (the client's rate limit).
func retryAfter(w http.ResponseWriter, err error) {
	var he *Error
	switch {
	case !errors.As(err, &he):
	case he.Code == http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "5")
	case he.retry > 0:
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(he.retry.Seconds())))))
	}
}

// readBody reads a POST body of at most limit bytes whose media type is
// one of types, in UTF-8: 415 for another type or charset, 413 beyond
// the limit, 400 for bytes that are not UTF-8.
func readBody(w http.ResponseWriter, r *http.Request, limit int64, types ...string) ([]byte, string, error) {
	if r.ContentLength > limit {
		// Refused before a byte is read: MaxBytesReader refuses only
		// once the bytes arrive, and a client that declared 4 MB and
		// sent none held its connection until the read timeout. The
		// connection closes (HTTP/1), or net/http would read up to
		// 256 KiB of the unread body before answering, waiting as long
		// (TestDeclaredLengthRefusedAtOnce).
		if r.ProtoMajor == 1 {
			w.Header().Set("Connection", "close")
		}
		return nil, "", &Error{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body: %d bytes declared (Content-Length), at most %d", r.ContentLength, limit)}
	}
	ct := r.Header.Get("Content-Type")
	mt, err := ct, error(nil)
	if !slices.Contains(types, ct) { // a bare media type needs no parsing
		mt, err = mediaType(ct)
	}
	if err != nil || !slices.Contains(types, mt) {
		why := ""
		if err != nil && mt != "" {
			why = ": " + err.Error()
		}
		return nil, "", &Error{Code: http.StatusUnsupportedMediaType, Message: fmt.Sprintf("Content-Type: %q%s, want %s in UTF-8", clip(ct), why, strings.Join(types, " or "))}
	}
	// The body is taken: what is left unread of it (past the limit,
	// after an error) is net/http's to settle (releaseBody).
	b := r.Body
	r.Body = http.NoBody
	body, err := io.ReadAll(http.MaxBytesReader(w, b, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, "", &Error{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("body: larger than %d bytes", limit)}
		}
		// The connection's error is not the client's to read: net's
		// text names the server's own address ("read tcp
		// 10.0.0.5:8080->…: i/o timeout"), which behind a proxy is
		// an internal one (TestBodyReadErrorsOwnWords).
		// A body that is not the connection's fault is one whose
		// chunked encoding net/http refused ("invalid byte in chunk
		// length"): the connection did not end, and saying it did sent
		// the client looking at its network (TestBodyMalformedChunks).
		var ne net.Error
		switch {
		case errors.As(err, &ne) && ne.Timeout():
			return nil, "", &Error{Code: http.StatusRequestTimeout, Message: "body: not received in time (the server's read timeout): send it again"}
		case ne != nil || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return nil, "", badRequest("body: not received whole (the connection ended before it did)")
		}
		return nil, "", badRequest("body: not received whole (its chunked encoding is malformed)")
	}
	if err := validUTF8(body); err != nil {
		return nil, "", badRequest("%v", err)
	}
	return body, mt, nil
}

// SystemStatus is one line of ksystems / the head of ksystem.
type SystemStatus struct {
	System    string `json:"system" xml:"system"`
	Now       int64  `json:"now" xml:"now"`
	Running   int    `json:"running" xml:"running"`
	Waiting   int    `json:"waiting" xml:"waiting"`
	UsedCores int64  `json:"usedCores" xml:"usedCores"`
	// Replay is "running" while a trace replay feeds the system (live
	// events and repairs are then refused), "ended" once it has fed the
	// log's last event (Now then stays there, and the system takes live
	// events, Drop and Rewind: the first live event, an estimate too, or
	// a repair, makes it a system fed live), and empty for a system fed
	// live.
	Replay string `json:"replay,omitempty" xml:"replay,omitempty"`
}

// QueueStatus is one line of ksystem.
type QueueStatus struct {
	Queue       string `json:"queue" xml:"queue"`
	MaxCores    int64  `json:"maxCores" xml:"maxCores"`
	MaxWallTime int64  `json:"maxWallTime" xml:"maxWallTime"`
	Running     int    `json:"running" xml:"running"`
	Waiting     int    `json:"waiting" xml:"waiting"`
	UsedCores   int64  `json:"usedCores" xml:"usedCores"`
}

func (s *Service) statusOf(sys *system) (SystemStatus, []QueueStatus) {
	return s.statusWith(sys, true)
}

// statusWith is statusOf, with the queues' lines only when queues is
// set: the list of systems has no use for them, and building and sorting
// them for every system was most of what it cost (256 systems of 64
// queues, the default limits: TestSystemsListCost).
func (s *Service) statusWith(sys *system, queues bool) (SystemStatus, []QueueStatus) {
	sys.mu.RLock()
	defer sys.mu.RUnlock()
	st := SystemStatus{System: sys.name, Now: s.clockOf(sys)}
	if sys.sim != nil {
		st.Replay = sys.sim.state()
	}
	var qs []QueueStatus
	if queues {
		qs = make([]QueueStatus, 0, len(sys.queues))
	}
	for _, q := range sys.queues {
		st.Running += q.running
		st.Waiting += q.waiting
		st.UsedCores += q.usedCores
		if queues {
			qs = append(qs, QueueStatus{q.name, q.maxCores, q.maxWall, q.running, q.waiting, q.usedCores})
		}
	}
	sortBy(qs, func(q QueueStatus) string { return q.Queue })
	return st, qs
}

// systemsStatus lists the systems by name, at most ?limit= of them
// (maxListRows, the default and the most): the first ones, those after
// the name ?after=, or the last ones before the name ?before= (the Link
// header's next and previous pages). At MaxSystems 5,000 the whole list
// was 956 KB as a page and took 185–297 ms (TestSystemsListPaged).
func (s *Service) systemsStatus(r *http.Request) (render, error) {
	after, before, limit, err := systemsParams(r)
	if err != nil {
		return render{}, err
	}
	page, first, total, lastAfter := s.systemsPage(after, before, limit)
	all := make([]SystemStatus, 0, len(page)) // none: [], not null
	for _, sys := range page {
		st, _ := s.statusWith(sys, false)
		all = append(all, st)
	}
	l := &listPage{offset: first, n: len(all), total: total, limit: limit, systems: true, lastAfter: lastAfter}
	if l.n > 0 {
		l.first, l.last = all[0].System, all[l.n-1].System
	}
	return render{json: all, list: l, text: func(w io.Writer) {
		fmt.Fprintf(w, "%-16s %8s %8s %10s\n", "system", "running", "waiting", "used cores")
		for _, st := range all {
			fmt.Fprintf(w, "%-16s %8d %8d %10d\n", st.System, st.Running, st.Waiting, st.UsedCores)
		}
		pagesLine(w, l)
	}}, nil
}

// systemsParams reads the list of systems' after or before (a system's
// name, or none) and limit (default and at most maxListRows). A place is
// a name, not an offset: a system added or dropped between two pages
// moves no other from one page to another. ?offset= is refused rather
// than ignored, which would give a client that pages the waiting jobs
// so the first page for ever.
func systemsParams(r *http.Request) (after, before string, limit int, err error) {
	v := query(r.URL.RawQuery)
	if err := v.check("after", "before", "limit", "offset"); err != nil {
		return "", "", 0, err
	}
	after, before, limit = v.Get("after"), v.Get("before"), maxListRows
	for _, p := range []struct{ name, v string }{{"after", after}, {"before", before}} {
		if p.v != "" && !validName(p.v) {
			return "", "", 0, badRequest("%s: %q is not a system name (%s): give the name of the system the page is to start after (end before), as the Link header's pages do", p.name, clip(p.v), sysname.Rule)
		}
	}
	switch {
	case after != "" && before != "":
		return "", "", 0, badRequest("after, before: give one of them, not both")
	case v.Get("offset") != "":
		return "", "", 0, badRequest("offset: the list of systems pages by name: ?after= or ?before=, as the Link header's pages give them")
	}
	if s := v.Get("limit"); s != "" {
		var ok bool
		if limit, ok = smallNumber(s); !ok || limit > maxListRows {
			return "", "", 0, badRequest("limit: %q, want an integer in [0, %d]", clip(s), maxListRows)
		}
	}
	return after, before, limit, nil
}

func (s *Service) systemStatus(r *http.Request) (render, error) {
	sys, err := s.lookup(r.PathValue("sys"))
	if err != nil {
		return render{}, err
	}
	st, qs := s.statusOf(sys)
	v := struct {
		SystemStatus
		Queues []QueueStatus `json:"queues" xml:"queues"`
	}{st, qs}
	return render{json: v, text: func(w io.Writer) {
		fmt.Fprintf(w, "system %s at %s: %d running, %d waiting, %d cores used%s\n", st.System, stamp(st.Now), st.Running, st.Waiting, st.UsedCores, replayNote(st.Replay))
		fmt.Fprintf(w, "%-16s %8s %8s %10s %9s %12s\n", "queue", "running", "waiting", "used cores", "max cores", "max walltime")
		for _, q := range qs {
			fmt.Fprintf(w, "%-16s %8d %8d %10d %9d %12s\n", q.Queue, q.Running, q.Waiting, q.UsedCores, q.MaxCores, hms(q.MaxWallTime))
		}
	}}, nil
}

// replayNote is what the status line adds about a replay that has ended:
// its clock stands at the log's last event.
func replayNote(state string) string {
	if state == "ended" {
		return " (replay ended: the clock stays at the log's last event until a live event)"
	}
	return ""
}

// QueueSummary is kqueue: the current state and the historical windows.
type QueueSummary struct {
	System    string        `json:"system" xml:"system"`
	Queue     string        `json:"queue" xml:"queue"`
	Now       int64         `json:"now" xml:"now"`
	Running   int           `json:"running" xml:"running"`
	Waiting   int           `json:"waiting" xml:"waiting"`
	UsedCores int64         `json:"usedCores" xml:"usedCores"`
	History   []WindowStats `json:"history" xml:"history"`
}

func (s *Service) queueSummary(r *http.Request) (render, error) {
	sys, err := s.lookup(r.PathValue("sys"))
	if err != nil {
		return render{}, err
	}
	qn := r.PathValue("queue")
	sys.mu.RLock()
	now := s.clockOf(sys)
	v := QueueSummary{System: sys.name, Queue: qn, Now: now}
	if qn == allJobs {
		for _, q := range sys.queues {
			v.Running += q.running
			v.Waiting += q.waiting
			v.UsedCores += q.usedCores
		}
		v.History = sys.summary(allJobs, &sys.all, now)
	} else if q := sys.queues[qn]; q != nil {
		v.Running, v.Waiting, v.UsedCores = q.running, q.waiting, q.usedCores
		v.History = sys.summary(qn, &q.hist, now)
	} else {
		sys.mu.RUnlock()
		return render{}, notFound("queue: %q is not a queue of system %q (or %s)", clip(qn), sys.name, allJobs)
	}
	sys.mu.RUnlock()
	return render{json: v, text: func(w io.Writer) {
		fmt.Fprintf(w, "queue %s@%s at %s: %d running, %d waiting, %d cores used\n", v.Queue, v.System, stamp(now), v.Running, v.Waiting, v.UsedCores)
		fmt.Fprintf(w, "%-6s %8s %10s %12s %10s   %8s %10s %12s %10s\n", "last", "started", "mean cores", "mean req.", "mean wait", "ended", "mean cores", "mean req.", "mean run")
		for _, h := range v.History {
			fmt.Fprintf(w, "%-6s %8d %10.1f %12s %10s   %8d %10.1f %12s %10s\n", h.Window,
				h.Started, h.MeanCores, hms(int64(math.Round(h.MeanReqTime))), hms(int64(math.Round(h.MeanWait))),
				h.Ended, h.MeanEndCores, hms(int64(math.Round(h.MeanEndReq))), hms(int64(math.Round(h.MeanRunTime))))
		}
	}}, nil
}

// WaitingJob is one line of kjobs. GPUs is the job's GPUs as its submit
// event gave them (Event.GPUs: thousandths of a GPU; 0 = none).
// ForecastStart is the job's forecast start (forecast.go; 0 when it has
// none: its prediction says why).
type WaitingJob struct {
	Job           int64  `json:"job" xml:"job"`
	Queue         string `json:"queue" xml:"queue"`
	Submit        int64  `json:"submit" xml:"submit"`
	Cores         int64  `json:"cores" xml:"cores"`
	GPUs          int64  `json:"gpus,omitempty" xml:"gpus,omitempty"`
	WallTime      int64  `json:"wallTime" xml:"wallTime"`
	ForecastStart int64  `json:"forecastStart,omitempty" xml:"forecastStart,omitempty"`
}

// waitingJobs lists the waiting jobs from ?offset= on, or after the job
// ?after= names, at most ?limit= of them (maxListRows).
func (s *Service) waitingJobs(r *http.Request) (render, error) {
	sys, err := s.lookup(r.PathValue("sys"))
	if err != nil {
		return render{}, err
	}
	lq, err := listParams(r)
	if err != nil {
		return render{}, err
	}
	sys.mu.RLock()
	if c := lq.after; c != nil {
		if err := sys.checkCursor(*c); err != nil {
			sys.mu.RUnlock()
			return render{}, err
		}
	}
	starts := sys.forecastStarts(s.clockOf(sys)) // one simulation per state and minute
	var page []ibl.Job
	l := &listPage{offset: lq.offset, limit: lq.limit}
	if c := lq.after; c != nil {
		page, l.offset, l.total = sys.feat.WaitingAfter(c.submit, c.id, lq.limit)
	} else {
		page, l.total = sys.feat.WaitingPage(lq.offset, lq.limit)
	}
	// No job is the JSON [], not null: a client loops over the array
	// (null made a system with none waiting, or ?limit=0, an error).
	js := make([]WaitingJob, 0, len(page))
	for _, j := range page {
		wj := WaitingJob{Job: j.ID, Queue: j.Queue, Submit: j.Submit, Cores: j.Cores, WallTime: j.ReqTime, ForecastStart: max(starts[j.ID], 0)}
		if sj := sys.jobs[j.ID]; sj != nil {
			wj.GPUs = sj.gpus
		}
		js = append(js, wj)
	}
	l.n = len(js)
	if l.pastEnd() && l.total > l.limit {
		// The last page's place: the key of the job before it.
		if before, _ := sys.feat.WaitingPage(l.total-l.limit-1, 1); len(before) == 1 {
			l.lastAfter = cursor{before[0].Submit, before[0].ID}.String()
		}
	}
	sys.mu.RUnlock()
	if l.n > 0 {
		l.last = cursor{page[l.n-1].Submit, page[l.n-1].ID}.String()
	}
	return render{json: js, list: l, text: func(w io.Writer) {
		fmt.Fprintf(w, "%-10s %-12s %-20s %8s %8s %12s %-20s\n", "job", "queue", "submitted", "cores", "GPUs", "req. time", "forecast start")
		for _, j := range js {
			fc := "-"
			if j.ForecastStart > 0 {
				fc = stamp(j.ForecastStart)
			}
			fmt.Fprintf(w, "%-10d %-12s %-20s %8d %8s %12s %-20s\n", j.Job, j.Queue, stamp(j.Submit), j.Cores, gpuText(j.GPUs), hms(j.WallTime), fc)
		}
		pagesLine(w, l)
	}}, nil
}

// checkCursor refuses a cursor no waiting list of the system can have
// given: one naming a job the system knows with a later submit time than
// the job's, or a submit time after the system's last event. A cursor
// naming a job the system no longer knows is fine: the job has left since
// the page that ended with it (that is what a cursor is for), and an id
// the system never knew cannot be told from one that left. Nor is an
// earlier submit time than the known job's refused: the cursor's job may
// have left and its id come back with a new job, submitted later (two
// live jobs never share an id, so a later time cannot be that). After
// an operator's Rewind the service's own earlier cursors may be refused
// so: the message says to start again from the first page. The caller
// holds mu.
func (s *system) checkCursor(c cursor) error {
	if j := s.jobs[c.id]; j != nil && j.Submit < c.submit {
		return badRequest("after: %s names job %d, which was submitted at %d, before %d: not a place in this list (a cursor from before the system was rewound, or from another list: start again from the first page)", c, c.id, j.Submit, c.submit)
	}
	if last := s.lastEvent(); c.submit > last {
		return badRequest("after: %s: submit time %d is after the last event of %q (%d): not a place in this list (a cursor from before the system was rewound, or from another list: start again from the first page)", c, c.submit, s.name, last)
	}
	return nil
}

// note says which items of the list a partial page holds.
func (l *listPage) note() string {
	if l.systems {
		switch {
		case l.pastEnd():
			return fmt.Sprintf("none of the %d systems on this page: its place is after the last", l.total)
		case l.beforeStart():
			return fmt.Sprintf("none of the %d systems on this page: its place is before the first", l.total)
		case l.n == 0:
			return fmt.Sprintf("none of the %d systems on this page", l.total)
		}
		return fmt.Sprintf("systems %d–%d of the %d, by name", l.offset+1, l.offset+l.n, l.total)
	}
	if l.n == 0 { // (offset+1 as a uint64: ?offset= may be the largest int)
		if l.pastEnd() {
			return fmt.Sprintf("none of the %d waiting jobs from number %d on: its place is after the last", l.total, uint64(l.offset)+1)
		}
		return fmt.Sprintf("none of the %d waiting jobs from number %d on", l.total, uint64(l.offset)+1)
	}
	return fmt.Sprintf("jobs %d–%d of the %d waiting, in submission order", l.offset+1, l.offset+l.n, l.total)
}

func (s *Service) stats(*http.Request) (render, error) {
	s.cache.mu.Lock()
	v := struct {
		Hits   int64 `json:"cacheHits" xml:"cacheHits"`
		Misses int64 `json:"cacheMisses" xml:"cacheMisses"`
		Raised int64 `json:"eventsRaised" xml:"eventsRaised"`
		// Ends sent before their job's start, stored at the clock.
		EndsEarly int64 `json:"endsBeforeStart" xml:"endsBeforeStart"`
		// Starts and ends stored before their queue was checked, whose
		// queue is not a name: found in the store by the last Load
		// (each load finds those still stored again, pruning deletes
		// those of ended jobs; not a running total).
		Cleared int64 `json:"queuesCleared" xml:"queuesCleared"`
	}{s.cache.hits, s.cache.misses, s.raised.Load(), s.endsEarly.Load(), s.queuesCleared.Load()}
	s.cache.mu.Unlock()
	return render{json: v, text: func(w io.Writer) {
		fmt.Fprintf(w, "prediction cache: %d hits, %d misses\n", v.Hits, v.Misses)
		fmt.Fprintf(w, "events stored at their system's clock (up to the maximum backstep before it: %s): %d\n", setting("MaxBackstep"), v.Raised)
		fmt.Fprintf(w, "ends sent before their job's start, stored at the clock (the job ran 0 s or more than sent; the feed's error, or a start raised to the clock): %d\n", v.EndsEarly)
		fmt.Fprintf(w, "starts and ends in the store whose queue is not a name, found at load and ignored (they do not use it; stored before it was checked; each load finds again those not yet pruned): %d\n", v.Cleared)
	}}, nil
}

// queryParams reads quantile, confidence and within from the URL query,
// with the same ranges as a hypothetical request, each at most maxEcho
// bytes (no valid one is longer, leading zeros aside): the prediction
// page shows them again in its form.
func queryParams(r *http.Request) (q, c int, within int64, err error) {
	q, c = defaultQuantile, defaultConfidence
	v := query(r.URL.RawQuery)
	if err := v.check("quantile", "confidence", "within"); err != nil {
		return 0, 0, 0, err
	}
	for _, k := range []string{"quantile", "confidence", "within"} {
		if n := len(v.Get(k)); n > maxEcho {
			return 0, 0, 0, badRequest("%s: %d bytes, at most %d", k, n, maxEcho)
		}
	}
	var ok bool
	if s := v.Get("quantile"); s != "" {
		if q, ok = smallNumber(s); !ok {
			return 0, 0, 0, badRequest("quantile: %q, want an integer percent in [1, 99]", clip(s))
		}
	}
	if s := v.Get("confidence"); s != "" {
		if c, ok = smallNumber(s); !ok {
			return 0, 0, 0, badRequest("confidence: %q, want an integer in [10, 95]", clip(s))
		}
	}
	if err := checkLevels(q, c); err != nil {
		return 0, 0, 0, badRequest("%v", err)
	}
	if s := v.Get("within"); s != "" {
		if within, err = parseDuration(s); err != nil {
			return 0, 0, 0, badRequest("within: %v", err)
		}
	}
	return q, c, within, nil
}

func (s *Service) jobPrediction(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	what, _, _ := strings.Cut(file, ".")
	if what != "waittime" && what != "starttime" {
		s.writeError(w, r, notFound("%q is not a prediction, want waittime.{txt,json,xml,html} or starttime.{txt,json,xml,html}", clip(file)))
		return
	}
	ext, err := format(r, file, what)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Digits only (number): "+1200" was job 1200.
	id, ok := number(r.PathValue("id"))
	if !ok {
		s.writeError(w, r, badRequest("jobId: %q is not a job id (an integer ≥ 0)", clip(r.PathValue("id"))))
		return
	}
	q, c, within, err := queryParams(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	p, err := s.PredictJob(r.PathValue("sys"), id, q, c, within)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.represent(w, r, ext, "prediction", render{json: p, text: func(w io.Writer) { textPrediction(w, &p, what == "starttime") }})
}

func (s *Service) hypothetical(w http.ResponseWriter, r *http.Request) {
	what := r.PathValue("what")
	if what != "waittime" && what != "starttime" {
		s.writeError(w, r, notFound("%q: want /karnak/waittime/prediction/ or /karnak/starttime/prediction/", clip(what)))
		return
	}
	// (A ?format= whose pair cannot be read is a 400, as the lists'
	// parameters: skipped, the Accept header chose another format.)
	v := query(r.URL.RawQuery)
	if err := v.check("format"); err != nil {
		s.writeError(w, r, err)
		return
	}
	ext := v.Get("format")
	switch ext {
	case "":
		ext = negotiate(r.Header.Get("Accept"))
	case "txt", "json", "xml", "html":
	default:
		s.writeError(w, r, badRequest("format: %q, want txt, json, xml or html", clip(ext)))
		return
	}
	body, mt, err := readBody(w, r, maxQuery, "application/json", "text/plain")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := decodePredictRequest(mt, body)
	if err != nil {
		s.writeError(w, r, badRequest("%v", err))
		return
	}
	pay := s.payer(r)
	if err := pay(len(req.Locations)-1, locationsCharged(len(req.Locations))); err != nil {
		s.writeError(w, r, err)
		return
	}
	ps, err := s.predictHypothetical(req, pay)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.represent(w, r, ext, "predictions", render{json: ps, text: func(w io.Writer) {
		for i := range ps {
			textPrediction(w, &ps[i], what == "starttime")
		}
	}})
}

func (s *Service) ingest(w http.ResponseWriter, r *http.Request) {
	// Who may write is settled before the body is read: an
	// unauthenticated batch of megabytes costs a header lookup.
	tk, err := s.authenticate(r, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, _, err := readBody(w, r, maxBody, "application/json")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	batch, evs, err := decodeEvents(body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if k := r.Header.Get("Idempotency-Key"); k != "" {
		if batch != "" && batch != k {
			s.writeError(w, r, badRequest("batch: %q differs from the Idempotency-Key header %q", clip(batch), clip(k)))
			return
		}
		batch = k
	}
	systems := make([]string, len(evs))
	for i := range evs {
		systems[i] = evs[i].System
	}
	if err := authorize(tk, systems); err != nil {
		s.writeError(w, r, err)
		return
	}
	// (A system a trace replay is feeding refuses them, as it refuses a
	// library caller's: fedBy, the one rule.)
	ack, err := s.IngestBatch(batch, evs)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.write(w, r, "json", render{json: ack})
}

// decodeEvents reads one event object, an array of them, or a batch
// object {"batch": id, "events": [...]}, rejecting unknown fields; errors
// are 400 and name the field, 413 beyond maxEvents.
func decodeEvents(body []byte) (string, []Event, error) {
	trim := bytes.TrimSpace(body)
	if err := strictJSONValues(trim, arrayBound{key: "events", top: true, n: maxEvents}); errors.Is(err, errLongArray) {
		return "", nil, &Error{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("events: more than %d in one batch", maxEvents)}
	} else if err != nil {
		return "", nil, badRequest("%v", err)
	}
	if string(trim) == "null" {
		// (Decoded, it was an empty event, refused as events[0].system:
		// "", a field never sent.)
		return "", nil, badRequest("body: null; want one event, an array of events or a batch object {\"batch\": id, \"events\": [...]}")
	}
	d := json.NewDecoder(bytes.NewReader(trim))
	d.DisallowUnknownFields()
	var evs []Event
	var batch string
	switch {
	case bytes.HasPrefix(trim, []byte("[")):
		if err := d.Decode(&evs); err != nil {
			return "", nil, badRequest("body: malformed JSON: %s", jsonError(err))
		}
	case bytes.HasPrefix(trim, []byte("{")):
		// A batch object or one event, told by its keys: told by the
		// text "events" anywhere, an event of a queue, job or user named
		// events was read as a batch and refused ("unknown field kind").
		var b struct {
			Batch  *string  `json:"batch" xml:"batch"`
			Events *[]Event `json:"events" xml:"events"`
			Event
		}
		if err := d.Decode(&b); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				te.Field = strings.TrimPrefix(te.Field, "Event.") // (the field's name, as in an array)
			}
			return "", nil, badRequest("body: malformed JSON: %s", jsonError(err))
		}
		switch {
		case b.Batch == nil && b.Events == nil && b.Event == Event{}:
			return "", nil, badRequest("body: an object without an event's fields, and no batch or events (or null ones); want one event or a batch object {\"batch\": id, \"events\": [...]}")
		case b.Batch == nil && b.Events == nil:
			evs = []Event{b.Event}
		case b.Event != Event{}:
			return "", nil, badRequest("body: an event's fields beside batch or events, want a batch object {\"batch\": id, \"events\": [...]} or one event")
		default:
			if b.Batch != nil {
				batch = *b.Batch
			}
			if b.Events != nil {
				evs = *b.Events
			}
		}
	default:
		var e Event
		if err := d.Decode(&e); err != nil {
			return "", nil, badRequest("body: malformed JSON: %s", jsonError(err))
		}
		evs = []Event{e}
	}
	if trailingData(trim, d) {
		return "", nil, badRequest("body: trailing data after the JSON value")
	}
	if len(evs) == 0 {
		return "", nil, badRequest("body: no events")
	}
	for i := range evs {
		if evs[i] == (Event{}) {
			// null or {}: refused as events[i].system: "", a field
			// never sent.
			return "", nil, badRequest("events[%d]: an empty event (null or {}); want an object with kind, system and time", i)
		}
	}
	if len(evs) > maxEvents {
		return "", nil, &Error{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("events: %d in one batch, at most %d", len(evs), maxEvents)}
	}
	return batch, evs, nil
}

func (s *Service) admin(w http.ResponseWriter, r *http.Request) {
	sys, op := r.PathValue("sys"), r.PathValue("op")
	if _, err := s.authenticate(r, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	var err error
	switch op {
	case "drop":
		err = s.Drop(sys)
	case "rewind":
		// A pair that cannot be read is refused quoting it, as the
		// lists' are: URL.Query skipped it, and the 400 said time: "".
		q := query(r.URL.RawQuery)
		if err := q.check("time"); err != nil {
			s.writeError(w, r, err)
			return
		}
		v := q.Get("time")
		t, ok := number(v)
		if !ok {
			s.writeError(w, r, badRequest("time: %q, want Unix seconds", clip(v)))
			return
		}
		err = s.Rewind(sys, t)
	default:
		err = notFound("%q is not a repair, want drop or rewind", clip(op))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	last, _ := s.Last(sys)
	s.write(w, r, "json", render{json: struct {
		System string  `json:"system" xml:"system"`
		Op     string  `json:"op" xml:"op"`
		Last   *Record `json:"last,omitempty" xml:"last,omitempty"`
	}{sys, op, recordOrNil(last)}})
}

func recordOrNil(r Record) *Record {
	if r.Seq == 0 {
		return nil
	}
	return &r
}

func (s *Service) lastEvent(r *http.Request) (render, error) {
	name := r.PathValue("sys")
	last, ok := s.Last(name)
	if !ok {
		return render{}, notFound("system: %q has no stored event", clip(name))
	}
	return render{json: last, text: func(w io.Writer) {
		e := last.Event
		queue := "" // start and end events name none: the job keeps its submission's
		if e.Queue != "" {
			queue = " queue " + e.Queue
		}
		fmt.Fprintf(w, "system %s: last event %d at %s: %s job %d%s\n", name, last.Seq, stamp(e.Time), e.Kind, e.Job, queue)
	}}, nil
}

// textPrediction is one block of kwait/kstart/kwouldwait/kwouldstart output.
func textPrediction(w io.Writer, p *Prediction, start bool) {
	head := p.Queue + "@" + p.System
	if p.Error != "" {
		fmt.Fprintf(w, "%s: %d cores, %s requested\n  error  %s\n", head, p.Cores, hms(p.WallTime), p.Error)
		return
	}
	if p.Job != nil {
		head = fmt.Sprintf("job %d (%s, submitted %s)", *p.Job, head, stamp(p.Submit))
	}
	fmt.Fprintf(w, "%s: %d cores, %s requested, at %s\n", head, p.Cores, hms(p.WallTime), stamp(p.Now))
	more, given := "", ""
	if p.Conditional {
		more, given = " more", ", given it has waited "+hms(p.Waited)
	}
	switch {
	case p.QBETS == nil:
		fmt.Fprintf(w, "  QBETS  %s\n", p.QBETSReason)
	case start:
		fmt.Fprintf(w, "  QBETS  starts by %s (%d%% quantile, %d%% confidence%s)\n", stamp(p.QBETS.Start), p.Quantile, p.Confidence, given)
	default:
		fmt.Fprintf(w, "  QBETS  waits at most %s%s (%d%% quantile, %d%% confidence%s)\n", hms(p.QBETS.Wait), more, p.Quantile, p.Confidence, given)
	}
	if p.ProbWithin != nil {
		fmt.Fprintf(w, "  QBETS  probability of starting within %s%s%s: %.2f\n", hms(p.Within), more, given, *p.ProbWithin)
	} else if p.ProbWithinReason != "" {
		fmt.Fprintf(w, "  QBETS  no probability of starting within %s%s: %s\n", hms(p.Within), more, p.ProbWithinReason)
	}
	switch {
	case p.IBL == nil:
		fmt.Fprintf(w, "  IBL    %s\n", p.IBLReason)
	case start:
		fmt.Fprintf(w, "  IBL    starts at %s %s (%d%% interval, %s)\n", stamp(p.IBL.Start), intervalText(p.IBL, "now"), p.Confidence, neighbours(p.IBL.Neighbors))
	default:
		fmt.Fprintf(w, "  IBL    waits %s %s (%d%% interval, %s)\n", hms(int64(math.Round(p.IBL.Wait))), intervalText(p.IBL, "0 wait"), p.Confidence, neighbours(p.IBL.Neighbors))
	}
	if sl := p.Slurm; sl != nil {
		what := "waits " + hms(sl.Wait)
		if start {
			what = "starts at " + stamp(sl.Start)
		}
		if p.Job != nil {
			fmt.Fprintf(w, "  Slurm  %s (squeue's expected start, read at %s)\n", what, stamp(sl.At))
		} else {
			fmt.Fprintf(w, "  Slurm  %s (sbatch --test-only for %d cores, %s, asked at %s)\n", what, sl.Cores, hms(sl.WallTime), stamp(sl.At))
		}
	}
	switch f := p.Forecast; {
	case f == nil:
		if p.ForecastReason != "" {
			fmt.Fprintf(w, "  Forecast %s\n", p.ForecastReason)
		}
	case start:
		fmt.Fprintf(w, "  Forecast starts at %s, %d%% interval %s (%s)\n", stamp(f.Start), f.Level, forecastStarts(f, p.Now), forecastNote(f))
	default:
		fmt.Fprintf(w, "  Forecast waits %s, %d%% interval %s (%s)\n", hms(f.Wait), f.Level, forecastWaits(f), forecastNote(f))
	}
}

// forecastWaits is f's interval as waits: "00:00:00–00:20:00", or
// "00:05:00–unbounded".
func forecastWaits(f *ForecastPart) string {
	if f.High < 0 {
		return hms(f.Low) + "–unbounded"
	}
	return hms(f.Low) + "–" + hms(f.High)
}

// forecastStarts is f's interval as start times, now being when it was
// asked.
func forecastStarts(f *ForecastPart, now int64) string {
	if f.High < 0 {
		return stamp(now+f.Low) + " – unbounded"
	}
	return stamp(now+f.Low) + " – " + stamp(now+f.High)
}

// forecastNote says where f comes from.
func forecastNote(f *ForecastPart) string {
	return fmt.Sprintf("forward simulation of %d jobs, interval calibrated on %d starts", f.Jobs, f.Calibrated)
}

func neighbours(n int) string {
	if n == 1 {
		return "1 neighbour"
	}
	return fmt.Sprint(n, " neighbours")
}

// intervalText is e's interval after its value: "±01:00:00", or, when its
// low end is clamped at floor (no wait: "0 wait", or "now" after a start
// time), the two ends apart and why: "−00:18:28 +01:20:48 (±01:20:48
// clamped at 0 wait)".
func intervalText(e *EstimatePart, floor string) string {
	switch {
	case e.HalfWidth < 0:
		return "± unbounded"
	case !e.LowClamped:
		return "±" + hms(int64(e.HalfWidth+0.5))
	}
	return fmt.Sprintf("−%s +%s (±%s clamped at %s)", hms(int64(e.Wait-e.Low+0.5)), hms(int64(e.High-e.Wait+0.5)), hms(int64(e.HalfWidth+0.5)), floor)
}

// gpuText shows thousandths of a GPU as GPUs: "2", "0.46".
func gpuText(milli int64) string {
	return strconv.FormatFloat(float64(milli)/1000, 'f', -1, 64)
}

// stamp formats Unix seconds in UTC.
func stamp(t int64) string { return time.Unix(t, 0).UTC().Format("2006-01-02 15:04:05") }
