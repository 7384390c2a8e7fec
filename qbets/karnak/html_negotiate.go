package karnak

import (
	"net/http"
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
//
// A weight is RFC 9110's qvalue (§12.4.2), read exactly (qvalue): it
// was strconv.ParseFloat's, which took "NaN", "Inf", "1e-3", hex floats
// and 1,000-digit strings, and a weight it could not read left the
// range at q=1, outranking every valid preference. RFC 9110 says
// nothing of a weight that is not a qvalue; a media range with one (or
// with two weights) is not a valid element of the list and is ignored,
// as a type the service does not serve is, so that the client's valid
// preferences decide. The cost is linear in the header and allocates
// nothing (EqualFold, not ToLower: "TEXT/HTML" a range allocated), so
// a header as long as the server takes (http.Server.MaxHeaderBytes,
// 1 MB by default, 64 KiB in qserve) is one pass over it.
func negotiate(accept string) string {
	best, bestQ := "txt", 0
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, _ := strings.Cut(part, ";")
		ext := mediaFormat(strings.TrimSpace(mt))
		if ext == "" {
			continue
		}
		q, ok := weight(params)
		if ok && q > bestQ {
			best, bestQ = ext, q
		}
	}
	return best
}

// mediaFormat is the representation of a media type (case-insensitive,
// RFC 9110 §8.3.1), "" for one the service does not serve.
func mediaFormat(mt string) string {
	for _, f := range [...]struct{ mt, ext string }{
		{"text/html", "html"}, {"application/xhtml+xml", "html"}, {"application/json", "json"},
		{"application/xml", "xml"}, {"text/xml", "xml"}, {"text/plain", "txt"},
	} {
		if strings.EqualFold(mt, f.mt) {
			return f.ext
		}
	}
	return ""
}

// weight is the q parameter among a media range's parameters, in
// thousandths (1000 when there is none), and whether the range is
// valid: false for a weight that is not a qvalue, or a second weight.
// The parameter's name is case-insensitive (RFC 9110 §5.6.6). Whitespace
// may stand around the ";" (OWS), not around the "=": RFC 9110 §5.6.6
// says a parameter allows none there, and §12.4.2 writes the weight
// `OWS ";" OWS "q=" qvalue`. So "q =0.5", "q= 0.5" and "q = 0.5" are
// each a weight that is not a qvalue, and the range is ignored, all three
// alike: "q =0.5" was read as a parameter named "q " (not a weight), and
// its range stood at q=1, above the client's valid preferences, where
// "q= 0.5" was ignored.
func weight(params string) (int, bool) {
	q, seen := 1000, false
	for p := range strings.SplitSeq(params, ";") {
		name, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		n := strings.TrimRight(name, " \t")
		if n != "q" && n != "Q" {
			continue
		}
		w, ok := qvalue(v)
		if !ok || seen || len(n) != len(name) {
			return 0, false
		}
		q, seen = w, true
	}
	return q, true
}

// qvalue reads RFC 9110's qvalue, "0" [ "." 0*3DIGIT ] / "1" [ "."
// 0*3("0") ], in thousandths; anything else (a sign, an exponent, a
// fourth decimal, spaces, quotes) is not one.
func qvalue(v string) (int, bool) {
	if len(v) == 0 || len(v) > 5 || v[0] != '0' && v[0] != '1' || len(v) > 1 && v[1] != '.' {
		return 0, false
	}
	q := int(v[0]-'0') * 1000
	scale := 100
	for _, c := range []byte(v[min(2, len(v)):]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		q += int(c-'0') * scale
		scale /= 10
	}
	return q, q <= 1000
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
