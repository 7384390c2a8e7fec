package karnak

import (
	"testing"
)

// /karnak/events takes POST only: GET and HEAD fell to the stats route
// (GET /karnak/{file}) and got 404, and another method got 405 with
// Allow: GET, HEAD, POST. Every method but POST is a 405 with Allow: POST,
// as on the other routes (the mux's own answer).
func TestEventsMethodNotAllowed(t *testing.T) {
	s, err := NewService(nil, func() int64 { return testNow })
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, m := range []string{"GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		rec, _ := serveFrom(h, m, "/karnak/events", "127.0.0.1:1", "")
		if rec.Code != 405 || rec.Header().Get("Allow") != "POST" {
			t.Errorf("%s /karnak/events: %d, Allow %q, want 405, Allow POST", m, rec.Code, rec.Header().Get("Allow"))
		}
		if ct := rec.Header().Get("Content-Type"); m != "HEAD" && ct != "text/plain; charset=utf-8" {
			t.Errorf("%s /karnak/events: Content-Type %q", m, ct)
		}
	}
	// The mux's 405 on another route, for comparison: the same answer.
	rec, _ := serveFrom(h, "GET", "/karnak/admin/system/x/drop", "127.0.0.1:1", "")
	if rec.Code != 405 || rec.Header().Get("Allow") != "POST" {
		t.Errorf("GET on a repair: %d, Allow %q", rec.Code, rec.Header().Get("Allow"))
	}
	// GET on the other one-segment names is still the stats route.
	if rec, _ := serveFrom(h, "GET", "/karnak/stats.json", "127.0.0.1:1", ""); rec.Code != 200 {
		t.Errorf("GET /karnak/stats.json: %d", rec.Code)
	}
}
