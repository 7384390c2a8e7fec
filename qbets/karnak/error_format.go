package karnak

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"html"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
)

// errorBody is an error answer in JSON and XML: the Error's message and
// the HTTP status, {"error": "...", "status": 404}, or
// <error><error>...</error><status>404</status></error> (the XML's names
// are the JSON's, as every resource's are).
type errorBody struct {
	Error  string `json:"error" xml:"error"`
	Status int    `json:"status" xml:"status"`
}

// errorFormat is the representation r asked for, which an error answers
// in too: the path's extension (.txt, .json, .xml, .html), else a
// prediction POST's ?format=, else, for a GET without one, the Accept
// header (negotiate: a browser gets a page); text otherwise (the event
// batches and the repairs, which choose no representation, every path
// under /karnak/admin/ included, and a format that is not one).
// byAccept says the Accept header chose.
func errorFormat(r *http.Request) (ext string, byAccept bool) {
	// The repairs' path is theirs whatever it ends with: a mistyped
	// repair ("drop.xml") is a repair's error, text, not a resource's
	// (its 401 and 404 were XML). A path no route has otherwise answers
	// in the format its extension names, as a resource's error does.
	if strings.HasPrefix(r.URL.Path, "/karnak/admin/") {
		return "txt", false
	}
	if base := path.Base(r.URL.Path); strings.Contains(base, ".") {
		if ext := path.Ext(base)[1:]; knownFormat(ext) {
			return ext, false
		}
		return "txt", false
	}
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/prediction/") && len(r.URL.RawQuery) <= maxQuery:
		// (a query over the bound, refused 414 by checkRequestLine, is
		// not read for its ?format=: up to 1 MB unescaped for an error)
		if f := query(r.URL.RawQuery).Get("format"); knownFormat(f) {
			return f, false
		} else if f != "" {
			return "txt", false
		}
		return negotiate(r.Header.Get("Accept")), true
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		return negotiate(r.Header.Get("Accept")), true
	}
	return "txt", false
}

// writeError answers with the error's status (4xx for bad requests) and
// its message, which names the offending field, in the representation
// the request asked for (errorFormat): text, a JSON object or an XML
// element with the message and the status (errorBody), or a page. An
// error that is not the service's own (*Error: a template's, an
// encoder's, an embedded file's) is a 500 numbered as the store's errors
// are (internal): its text, Go's words about the service's types and
// files, was the body. The one writer of every error answer.
func (s *Service) writeError(w http.ResponseWriter, r *http.Request, err error) {
	releaseBody(w, r)
	err = s.internal(err)
	code := statusOf(err)
	retryAfter(w, err)
	v := errorBody{Error: err.Error(), Status: code}
	h := w.Header()
	h.Del("Content-Length")
	h.Set("X-Content-Type-Options", "nosniff")
	ext, byAccept := errorFormat(r)
	if byAccept && !slices.Contains(h.Values("Vary"), "Accept") { // (represent may have set it)
		h.Add("Vary", "Accept")
	}
	switch ext {
	case "json":
		b, _ := json.Marshal(v) // (a string and an int)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(code)
		w.Write(append(b, '\n')) //nolint:errcheck // the client went away
		return
	case "xml":
		var b bytes.Buffer
		b.WriteString(xml.Header)
		if xml.NewEncoder(&b).Encode(struct {
			XMLName xml.Name `xml:"error"`
			errorBody
		}{errorBody: v}) == nil {
			h.Set("Content-Type", "application/xml; charset=utf-8")
			w.WriteHeader(code)
			w.Write(append(b.Bytes(), '\n')) //nolint:errcheck // the client went away
			return
		}
	case "html":
		if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
			writePage(w, code, briefPage(code, v.Error, h.Get("Retry-After")))
			return
		}
		p := &page{Title: strconv.Itoa(code) + " " + http.StatusText(code), Data: v,
			Crumbs: []link{{"/karnak/system/status.html", "Systems"}}}
		if t, terr := pageTemplates(); terr == nil {
			var b bytes.Buffer
			if t.ExecuteTemplate(&b, "error.html", p) == nil {
				writePage(w, code, b.Bytes())
				return
			}
		}
	}
	http.Error(w, v.Error, code) // text, and the others' fallback
}

// briefPage is the page of a 429 and of a 503 (the service loading):
// the status, the message and when to retry, without the layout
// (navigation, stylesheet, the templates' run) that every other page
// has: a client refused for asking too much must cost the server less
// than one it serves (the layout's 429 took 105 allocations, the text
// answer 35, this one 39, a served page 183: TestRateLimitedPageCheap),
// one refused while the service loads must not slow the load (101
// allocations, now 35: TestLoadingPageCheap), and links to more pages
// are no help to either.
func briefPage(code int, msg, retry string) []byte {
	title := strconv.Itoa(code) + " " + http.StatusText(code)
	b := make([]byte, 0, 256+len(msg))
	b = append(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>"...)
	b = append(b, title...)
	b = append(b, "</title></head>\n<body>\n<h1>"...)
	b = append(b, title...)
	b = append(b, "</h1>\n<p id=\"error\" role=\"alert\">"...)
	b = append(b, html.EscapeString(msg)...)
	b = append(b, "</p>\n"...)
	if retry != "" {
		b = append(b, "<p>Try again in "...)
		b = append(b, html.EscapeString(retry)...)
		b = append(b, " s.</p>\n"...)
	}
	return append(b, "</body>\n</html>\n"...)
}
