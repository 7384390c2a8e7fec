package karnak

import (
	"strings"
	"testing"
)

// A name from the feed with terminal control sequences (a user or job
// named "\x1b[2J…"), or a query value with them, reaches an HTML page as
// U+FFFD, as encoding/xml writes it in XML: html/template escapes markup,
// not control characters, and `qserve … -format html` prints the page to
// a terminal.
func TestHTMLControlCharacters(t *testing.T) {
	s, srv := newTestServer(t)
	hostile := "q\x1b[2J\x07\x7f\u009b31m"
	if err := s.Ingest([]Event{
		{Kind: "submit", System: "s1", Job: 5001, Time: testNow - 50, Queue: "normal", Cores: 2, WallTime: 600, User: hostile, Name: hostile},
	}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/karnak/system/s1/event/last.html", "/karnak/waittime/predict.html?cores=%1b[2J&loc=%1b[2J"} {
		resp, body := get(t, srv.URL+p, "")
		if resp.StatusCode != 200 && resp.StatusCode != 400 {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
		if !strings.Contains(body, "\uFFFD[2J") {
			t.Errorf("%s: the hostile value is not shown with U+FFFD in place of its controls:\n%s", p, body)
		}
		for _, r := range body {
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7f && r <= 0x9f {
				t.Fatalf("%s: control character %U in the page", p, r)
			}
		}
	}
}
