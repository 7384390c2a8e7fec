package karnak

import (
	"net/http"
	"strconv"
	"strings"
)

// The representations of a resource, by extension: Karnak's four (spec
// karnak-ibl-service §2.1).
func knownFormat(ext string) bool {
	switch ext {
	case "txt", "json", "xml", "html":
		return true
	}
	return false
}

// negotiate picks the representation of a resource asked for without an
// extension from the Accept header: the supported type the client
// prefers most (highest q, then first listed), plain text when it names
// none (Karnak's thin clients). A browser's Accept gets HTML.
func negotiate(accept string) string {
	best, bestQ := "txt", 0.0
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, _ := strings.Cut(part, ";")
		ext := ""
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case "text/html", "application/xhtml+xml":
			ext = "html"
		case "application/json":
			ext = "json"
		case "application/xml", "text/xml":
			ext = "xml"
		case "text/plain":
			ext = "txt"
		default:
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f <= 1 {
					q = f
				}
			}
		}
		if q > bestQ {
			best, bestQ = ext, q
		}
	}
	return best
}

// pageOf names a resource's page (its template and XML root): the name
// its handler wants, except that ksystems and ksystem share "status".
func pageOf(r *http.Request, want string) string {
	if want == "status" && r.PathValue("sys") == "" {
		return "systems"
	}
	return want
}

// represent writes a resource's value in the representation ext; the
// XML and HTML ones are in xml.go and html.go.
func (s *Service) represent(w http.ResponseWriter, r *http.Request, ext, page string, out render) {
	w.Header().Add("Vary", "Accept")
	if out.list != nil {
		listHeaders(w, r, out.list)
	}
	switch ext {
	case "xml":
		s.writeXML(w, r, page, out.json)
	case "html":
		s.writeHTML(w, r, page, out)
	default:
		s.write(w, r, ext, out)
	}
}
