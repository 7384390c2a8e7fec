package karnak

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// The mux's own answers, now given by the service's fallback route "/"
// (unrouted) rather than by matching every request twice: a 405 names
// the methods of the routes the path has (Allow, as the mux's), a path
// no route has is a 404, and a path to clean or to end with a slash is
// still redirected by the mux.
func TestUnroutedAnswers(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	h := s.Handler()
	for _, c := range []struct {
		method, target string
		code           int
		allow, loc     string
	}{
		{"POST", "/karnak/system/status.json", 405, "GET, HEAD", ""},
		{"PUT", "/karnak/system/s1/job/1002/prediction/waittime.json", 405, "GET, HEAD", ""},
		{"GET", "/karnak/waittime/prediction/", 405, "POST", ""},
		{"DELETE", "/karnak/admin/system/s1/drop", 405, "POST", ""},
		{"GET", "/", 404, "", ""},
		{"POST", "/nosuch", 404, "", ""},
		{"GET", "/karnak/system/a/b/c/d/e/f.json", 404, "", ""},
		{"GET", "/karnak", 307, "", "/karnak/"},
		{"GET", "/karnak//system/status.json", 307, "", "/karnak/system/status.json"},
		{"GET", "/karnak/system/status.json", 200, "", ""},
		{"CONNECT", "example.com:443", 404, "", ""}, // (no path: the mux's own 404 before)
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(c.method, c.target, nil))
		if w.Code == 404 && !strings.Contains(w.Body.String(), "path: ") {
			t.Errorf("%s %s: %q, want the service's 404 naming the path", c.method, c.target, w.Body.String())
		}
		if w.Code != c.code || w.Header().Get("Allow") != c.allow || w.Header().Get("Location") != c.loc {
			t.Errorf("%s %s: %d, Allow %q, Location %q; want %d, %q, %q", c.method, c.target, w.Code,
				w.Header().Get("Allow"), w.Header().Get("Location"), c.code, c.allow, c.loc)
		}
	}
}
