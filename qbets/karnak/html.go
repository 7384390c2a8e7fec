package karnak

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
)

// The HTML representation of every resource, and the form for a
// hypothetical job (html_form.go), rendered on the server with
// html/template: no script, no inline style (the Content-Security-Policy
// below forbids both), plain links and a GET form, so the pages work
// without JavaScript, and one stylesheet that lays them out for a phone
// as well as a desktop. The pages only read: nothing on them changes the
// service; the write path (POST /karnak/events, the repairs) is
// unchanged and needs its tokens.

//go:embed templates
var templateFS embed.FS

// csp allows nothing but the pages' own stylesheet and forms: no script
// at all, no inline style, no frames, no other origin.
const csp = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// pageTemplates parses the embedded templates once, on first use (not at
// init); they are fixed, so a parse error is a bug the tests catch.
var pageTemplates = sync.OnceValues(func() (*template.Template, error) {
	return template.New("").Funcs(template.FuncMap{
		"hms":        hms,
		"stamp":      stamp,
		"gpus":       gpuText,
		"secs":       func(s float64) string { return hms(int64(math.Round(s))) },
		"interval":   func(e *EstimatePart) string { return intervalText(e, "0 wait") },
		"fwaits":     forecastWaits,
		"neighbours": neighbours,
		"cores": func(n int64) string {
			if n == 1 {
				return "1 core"
			}
			return fmt.Sprint(n, " cores")
		},
		"f1":         func(f float64) string { return fmt.Sprintf("%.1f", f) },
		"pct":        func(p *float64) string { return fmt.Sprintf("%.0f%%", 100**p) },
		"lower":      func(p *int64) string { return hms(*p) },
		"job":        func(p *int64) int64 { return *p },
		"predictFor": predictFor,
		"field": func(name, label, help, value, err, mode string) fieldView {
			return fieldView{Name: name, Label: label, Help: help, Value: value, Err: err, Mode: mode}
		},
		"choice": func(name, label, help, value, err string, levels []Level) fieldView {
			return fieldView{Name: name, Label: label, Help: help, Value: value, Err: err, Options: levelOptions(levels, name == "confidence", value)}
		},
		"setting":   setting,
		"predictAt": func(queue, system string) string { return predictLink(queue + "@" + system) },
	}).ParseFS(templateFS, "templates/*.html")
})

// predictFor is a system page's link to the form: with the system's
// queues chosen, or, when they are more than a prediction takes
// (maxLocations), with the system's queues shown for the user to choose
// among (?sys=, as Show queues does). The link chose them all, which the
// form did not take: past maxParams it was a 414, and past maxLocations
// the form checked the first maxLocations and left the others unchecked
// without a word (TestPagesLinksAnswer).
func predictFor(system string, qs []QueueStatus) link {
	if len(qs) > maxLocations {
		return link{"/karnak/waittime/predict.html?" + url.Values{"sys": {system}}.Encode(),
			fmt.Sprintf("Predict a job's wait on some of these queues (choose at most %d of the %d)", maxLocations, len(qs))}
	}
	locs := make([]string, len(qs))
	for i, q := range qs {
		locs[i] = q.Queue + "@" + system
	}
	return link{predictLink(locs...), "Predict a job's wait on these queues"}
}

// page is what every template gets: the title, the breadcrumb trail, the
// other representations of the resource, and the resource itself.
type page struct {
	Title  string
	System string // the system of the page, if any
	Crumbs []link // from the list of systems down to this page's parent
	Alt    []link // the same resource as text, JSON and XML
	// AltNote says that Alt's links leave out the page's query (maxAltQuery).
	AltNote string
	Data    any
	Charts  template.HTML // the queue page's SVG charts (chart.go)
	Form    *predictForm  // the hypothetical-job form and its answer
	Query   *levelsForm   // a queued job's levels (prediction page)
	// ListNote says which items a page of a list shows ("" when it
	// shows the whole list), and ListNext and ListPrev link the next
	// and the previous page.
	ListNote, ListNext, ListPrev string
}

type link struct{ Href, Text string }

// fieldView is one labelled text field of a form, with its help and its
// error (the "field" template), or a select of Options (the "choice"
// template: the quantiles and confidences the service answers).
type fieldView struct {
	Name, Label, Help, Value, Err, Mode string
	Options                             []option
}

// handleHTML adds the routes that exist only for the pages: the
// stylesheet and the icon, the form for a hypothetical job, and /karnak/
// itself (to the list of systems).
func (s *Service) handleHTML(m *http.ServeMux) {
	m.HandleFunc("GET /karnak/style.css", s.serveFile("style.css", "text/css; charset=utf-8"))
	m.HandleFunc("GET /karnak/favicon.svg", s.serveFile("favicon.svg", "image/svg+xml"))
	m.HandleFunc("GET /karnak/waittime/predict.html", s.predictPage)
	m.HandleFunc("GET /karnak/starttime/predict.html", s.predictPage)
	m.HandleFunc("GET /karnak/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/karnak/system/status.html", http.StatusSeeOther)
	})
}

// serveFile serves an embedded file (the stylesheet, the icon).
func (s *Service) serveFile(name, ctype string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := templateFS.ReadFile("templates/" + name)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(b) //nolint:errcheck // the client went away
	}
}

// writeHTML renders a resource's value (the one its JSON shows) as the
// page named page.
func (s *Service) writeHTML(w http.ResponseWriter, r *http.Request, name string, out render) {
	v := out.json
	sys, queue := r.PathValue("sys"), r.PathValue("queue")
	systems := link{"/karnak/system/status.html", "Systems"}
	sysLink := link{"/karnak/system/" + sys + "/status.html", sys}
	p := &page{Data: v, System: sys}
	p.Alt, p.AltNote = alternatives(r)
	if l := out.list; l != nil && l.partial() {
		p.ListNote = strings.ToUpper(l.note()[:1]) + l.note()[1:]
		if q := l.next(); q != "" {
			p.ListNext = r.URL.EscapedPath() + q
		}
		if q := l.prev(); q != "" {
			p.ListPrev = r.URL.EscapedPath() + q
		}
	}
	switch name {
	case "systems":
		p.Title = "Systems"
	case "status":
		p.Title, p.Crumbs = "System "+sys, []link{systems}
	case "summary":
		p.Title, p.Crumbs = "Queue "+queue+"@"+sys, []link{systems, sysLink}
		if queue == allJobs {
			p.Title = "All jobs on " + sys
		}
		if sy, err := s.lookup(sys); err == nil {
			p.Charts = s.queueCharts(sy, queue)
		}
	case "waiting":
		p.Title, p.Crumbs = "Waiting jobs on "+sys, []link{systems, sysLink}
	case "last":
		p.Title, p.Crumbs = "Last event of "+sys, []link{systems, sysLink}
	case "stats":
		p.Title, p.Crumbs = "Prediction cache", []link{systems}
	case "prediction":
		what := strings.TrimSuffix(path.Base(r.URL.Path), path.Ext(r.URL.Path))
		p.Title = "Job " + r.PathValue("id") + " on " + sys + ": predicted " + map[bool]string{true: "start", false: "wait"}[what == "starttime"]
		p.Crumbs = []link{systems, sysLink, {"/karnak/system/" + sys + "/job/waiting.html", "waiting jobs"}}
		p.Query = levelsOf(r, s.opt.Levels)
	case "predictions":
		p.Title, p.Crumbs, p.Alt = "Predictions for a hypothetical job", []link{systems}, nil
	}
	s.renderPage(w, r, http.StatusOK, name, p)
}

// renderPage executes the template name into memory and writes it with
// the security headers (a template error is a 500, not half a page).
func (s *Service) renderPage(w http.ResponseWriter, r *http.Request, status int, name string, p *page) {
	t, err := pageTemplates()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b bytes.Buffer
	b.Grow(len(p.Charts) + 16<<10) // one allocation for the page
	if err := t.ExecuteTemplate(&b, name+".html", p); err != nil {
		s.writeError(w, r, err)
		return
	}
	writePage(w, status, b.Bytes())
}

// writePage writes a rendered page with the security headers.
func writePage(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(status)
	w.Write(bytes.Map(printable, b)) //nolint:errcheck // the client went away
}

// printable is r, or U+FFFD for a control character other than a tab or
// a line end: html/template escapes markup, not controls, and a user or
// job name from the feed (or a query value echoed in an error) with a
// terminal's escape sequence would reach a terminal through `qserve …
// -format html`. XML gets U+FFFD from encoding/xml the same way.
func printable(r rune) rune {
	if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7f && r <= 0x9f {
		return '\uFFFD'
	}
	return r
}

// maxAltQuery bounds the query a page copies into its three alternative
// links. Every page took any query (it reads a few parameters and
// ignores the others) and copied it whole, escaped ('"' is %22) into
// each: a 64 KiB query came back as a 590 KB page, nine times its size
// (TestAltLinksBounded). A page's own parameters take some 100 bytes
// (?quantile=&confidence=&within=, ?after=&limit=), each at most maxEcho
// (queryParams): a longer query is left out of the links, which say so.
const maxAltQuery = 1024

// alternatives links a GET resource's other representations, with the
// same query if at most maxAltQuery bytes, else without it and a note
// saying so.
func alternatives(r *http.Request) (out []link, note string) {
	dir, file := path.Split(r.URL.Path)
	name, _, _ := strings.Cut(file, ".")
	q := ""
	switch raw := r.URL.RawQuery; {
	case len(raw) > maxAltQuery:
		note = fmt.Sprintf("the links leave out this page's query: %d bytes, at most %d are copied", len(raw), maxAltQuery)
	case raw != "":
		q = "?" + raw
	}
	for _, ext := range []string{"txt", "json", "xml"} {
		out = append(out, link{dir + name + "." + ext + q, ext})
	}
	return out, note
}
