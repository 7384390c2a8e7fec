package karnak

import (
	"encoding/json"
	"encoding/xml"
	"html"
	"net/http/httptest"
	"strings"
	"testing"
)

// An error answers in the representation the request asked for (the
// extension, a prediction POST's ?format=, or the Accept header where
// the route negotiates), with the same status as the text: it was text
// in every format, so a JSON client's decoder failed on a 404 and a
// browser got a bare line instead of a page.
func TestErrorsInTheFormatAsked(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	h := s.Handler()
	serve := func(method, target, accept, ctype, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		if ctype != "" {
			r.Header.Set("Content-Type", ctype)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	const bad = "processors 0\nrequestedWallTime 01:00:00\nlocation s1 normal\n"
	for _, c := range []struct {
		method, target, accept, body string
		format                       string
		code                         int
		names                        string // in the message
	}{
		{"GET", "/karnak/system/nosuch/status.json", "", "", "json", 404, "nosuch"},
		{"GET", "/karnak/system/nosuch/status.xml", "", "", "xml", 404, "nosuch"},
		{"GET", "/karnak/system/nosuch/status.html", "", "", "html", 404, "nosuch"},
		{"GET", "/karnak/system/nosuch/status.txt", "", "", "txt", 404, "nosuch"},
		{"GET", "/karnak/system/nosuch/status", "application/json", "", "json", 404, "nosuch"},
		{"GET", "/karnak/system/nosuch/status", "text/html,*/*;q=0.8", "", "html", 404, "nosuch"},
		{"GET", "/karnak/system/s1/job/waiting.json?limit=%2B5", "", "", "json", 400, "limit"},
		{"GET", "/karnak/system/s1/job/1002/prediction/waittime.xml?quantile=100", "", "", "xml", 400, "quantile"},
		{"GET", "/karnak/system/s1/job/x/prediction/starttime.json", "", "", "json", 400, "jobId"},
		{"POST", "/karnak/waittime/prediction/?format=json", "", bad, "json", 400, "cores"},
		{"POST", "/karnak/starttime/prediction/?format=xml", "", bad, "xml", 400, "cores"},
		{"POST", "/karnak/waittime/prediction/?format=html", "", bad, "html", 400, "cores"},
		{"POST", "/karnak/waittime/prediction/", "application/json", bad, "json", 400, "cores"},
		{"POST", "/karnak/waittime/prediction/", "", bad, "txt", 400, "cores"},
		{"GET", "/karnak/waittime/predict.html?cores=%zz", "", "", "html", 400, "cores"},
		{"GET", "/karnak/system/a/b/c/d/e/f.json", "", "", "json", 404, "path"},
		{"POST", "/karnak/system/status.json", "", "", "json", 405, "method"},
		{"GET", "/karnak/events", "application/json", "", "json", 405, "method"},
		{"GET", "/karnak/system/s1/status.json?" + strings.Repeat("a=1&", maxParams), "", "", "json", 414, "query"},
		// The event batches and the repairs choose no representation:
		// text, as slurmfeed's Client reads it.
		{"POST", "/karnak/events", "application/json", "{", "txt", 403, "authorization"},
	} {
		ctype := ""
		if c.body != "" {
			ctype = "text/plain"
			if c.target == "/karnak/events" {
				ctype = "application/json"
			}
		}
		w := serve(c.method, c.target, c.accept, ctype, c.body)
		negotiated := c.accept != "" && c.method == "GET" || c.target == "/karnak/waittime/prediction/"
		if vary := w.Header().Get("Vary") == "Accept"; vary != negotiated {
			t.Errorf("%s: Vary %q, want Accept when the Accept header chose the format", c.method+" "+c.target, w.Header().Values("Vary"))
		}
		what := c.method + " " + c.target[:min(len(c.target), 70)]
		if w.Code != c.code {
			t.Errorf("%s: %d, want %d", what, w.Code, c.code)
		}
		var got errorBody
		ct, out := w.Header().Get("Content-Type"), w.Body.String()
		switch c.format {
		case "json":
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || ct != "application/json" {
				t.Errorf("%s: %s %q: %v, want a JSON error", what, ct, out, err)
			}
		case "xml":
			var x struct {
				XMLName xml.Name `xml:"error"`
				errorBody
			}
			if err := xml.Unmarshal(w.Body.Bytes(), &x); err != nil || !strings.HasPrefix(ct, "application/xml") {
				t.Errorf("%s: %s %q: %v, want an XML error", what, ct, out, err)
			}
			got = x.errorBody
		case "html":
			if !strings.HasPrefix(ct, "text/html") || w.Header().Get("Content-Security-Policy") != csp || !strings.Contains(out, `<p class="error" id="error" role="alert">`) {
				t.Errorf("%s: %s, want an error page:\n%.300s", what, ct, out)
			}
			got = errorBody{Error: message(out), Status: w.Code}
		default:
			if !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("%s: %s %q, want text", what, ct, out)
			}
			got = errorBody{Error: out, Status: w.Code}
		}
		if got.Status != c.code || !strings.Contains(got.Error, c.names) {
			t.Errorf("%s: %+v, want status %d and a message naming %q", what, got, c.code, c.names)
		}
	}
}

// message is the message of an error answer in any of the formats (the
// tests that read a message whatever the format asked for).
func message(body string) string {
	var v errorBody
	switch {
	case strings.HasPrefix(body, "{"):
		if json.Unmarshal([]byte(body), &v) == nil {
			return v.Error
		}
	case strings.HasPrefix(body, "<?xml"):
		var x struct {
			XMLName xml.Name `xml:"error"`
			errorBody
		}
		if xml.Unmarshal([]byte(body), &x) == nil {
			return x.Error
		}
	case strings.HasPrefix(body, "<!DOCTYPE html>"):
		const open = `<p class="error" id="error" role="alert">`
		if _, rest, ok := strings.Cut(body, open); ok {
			msg, _, _ := strings.Cut(rest, "</p>")
			return html.UnescapeString(msg)
		}
	}
	return body
}
