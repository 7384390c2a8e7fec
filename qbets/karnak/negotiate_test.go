package karnak

import (
	"regexp"
	"strings"
	"testing"
)

// Accept's weights are RFC 9110 qvalues, read exactly: "NaN", "Inf",
// "1e-3", hex floats and long digit strings were strconv.ParseFloat's
// to read (NaN, unreadable, left its range at q=1 and won), and a range
// whose weight is not a qvalue is now ignored, so that the valid
// preferences decide (TestNegotiation has the browsers' headers).
func TestNegotiateQValues(t *testing.T) {
	long := "0." + strings.Repeat("9", 1000)
	for _, c := range []struct{ accept, want string }{
		{"text/html;q=0.5, application/json", "json"},
		{"text/html;q=0.501, application/json;q=0.5", "html"},
		{"text/html;Q=0.4, application/json;q=0.5", "json"},
		{"text/html;q=1., application/json;q=0.999", "html"},
		{"text/html;q=0, text/plain;q=0.001", "txt"},
		{"TEXT/HTML;q=0.3, Application/JSON;q=0.2", "html"},
		{"text/html;level=1;q=0.2, application/json;q=0.1", "html"},
		// not qvalues: the range is ignored
		{"text/html;q=NaN, application/json;q=0.1", "json"},
		{"text/html;q=Inf, application/json;q=0.1", "json"},
		{"text/html;q=+Inf, application/json;q=0.1", "json"},
		{"text/html;q=1e-3, application/json;q=0.002", "json"},
		{"application/json;q=1e308, text/html;q=0.1", "html"},
		{"application/json;q=0x1p-2, text/html;q=0.1", "html"},
		{"application/json;q=0.0001, text/html;q=0.001", "html"},
		{"application/json;q=1.001, text/html;q=0.1", "html"},
		{"application/json;q=-0, text/html;q=0.1", "html"},
		{"application/json;q=.5, text/html;q=0.1", "html"},
		{"application/json;q=\"0.5\", text/html;q=0.1", "html"},
		{"application/json;q=, text/html;q=0.1", "html"},
		{"application/json;q=0.5;q=0.9, text/html;q=0.6", "html"},
		{"application/json;q=" + long + ", text/html;q=0.1", "html"},
		{"application/json;q=NaN", "txt"},
		// whitespace around "=": not a weight (RFC 9110 §5.6.6, §12.4.2),
		// each alike; around ";" it is OWS
		{"application/json;q =0.5, text/html;q=0.1", "html"},
		{"application/json;q= 0.5, text/html;q=0.1", "html"},
		{"application/json;q = 0.5, text/html;q=0.1", "html"},
		{"application/json;Q\t=0.5, text/html;q=0.1", "html"},
		{"application/json;q =0.5", "txt"},
		{"application/json ; q=0.5, text/html;q=0.1", "json"},
		{"application/json;\tq=0.5 , text/html;q=0.1", "json"},
		{"application/json;level =1;q=0.5, text/html;q=0.1", "json"},
	} {
		if got := negotiate(c.accept); got != c.want {
			t.Errorf("Accept %.80q: %s, want %s", c.accept, got, c.want)
		}
	}
	// One pass, nothing allocated, over a header as long as net/http's
	// default MaxHeaderBytes (1 MB) takes; upper case included
	// (ToLower allocated a copy of each range).
	big := strings.Repeat("TEXT/HTML;q=0.5;Q=NaN,", 1<<20/22)
	if a := testing.AllocsPerRun(3, func() { negotiate(big) }); a != 0 {
		t.Errorf("negotiate of a 1 MB Accept: %.0f allocations, want 0", a)
	}
}

// FuzzNegotiate: the answer is always one of the four formats, and a
// weight is taken exactly when RFC 9110's qvalue grammar matches it.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{"0", "1", "0.5", "1.000", "1.001", "NaN", "0x1p-2", "0.0001", "1.", ".5", "00"} {
		f.Add(s)
	}
	grammar := regexp.MustCompile(`^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$`)
	f.Fuzz(func(t *testing.T, v string) {
		_, ok := qvalue(v)
		if ok != grammar.MatchString(v) {
			t.Fatalf("qvalue(%q): %v, the grammar says %v", v, ok, !ok)
		}
		if got := negotiate("application/json;q=" + v + ", text/html;q=0.0"); !knownFormat(got) {
			t.Fatalf("negotiate: %q", got)
		}
		if got := negotiate(v); !knownFormat(got) {
			t.Fatalf("negotiate(%q): %q", v, got)
		}
	})
}
