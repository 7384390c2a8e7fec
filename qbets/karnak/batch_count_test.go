package karnak

import (
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// A batch of more than maxEvents events is refused (413) by the strict
// scan, before it is decoded: its count was checked once decoded, and
// 4 MiB of "{}," (1.4 million events) allocated 1.1 GB, a heap of
// 670 MB, for a writer's one request (any loopback peer's, without
// tokens). Now the request allocates about its body twice over. A
// batch of exactly maxEvents passes the scan.
func TestEventsCountedFirst(t *testing.T) {
	feed := Token{Name: "f", Secret: "feed-secret-0123456789", Systems: []string{"*"}}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1, Tokens: []Token{feed}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, body := range []string{
		"[" + strings.Repeat(`{},`, (4<<20)/3-10) + "{}]",
		`{"batch":"b","events":[` + strings.Repeat(`{"kind":"end"},`, (4<<20)/15-10) + "{}]}",
	} {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		r := httptest.NewRequest("POST", "/karnak/events", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+feed.Secret)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		runtime.ReadMemStats(&m1)
		if w.Code != 413 || w.Body.String() != "events: more than 20000 in one batch\n" {
			t.Errorf("%.30s… (%d bytes): %d %q, want 413", body, len(body), w.Code, w.Body.String())
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 32<<20 {
			t.Errorf("%.30s… (%d bytes): %d MB allocated, want at most 32", body, len(body), a>>20)
		}
	}
	if err := strictJSONValues([]byte("["+strings.Repeat(`{},`, maxEvents-1)+"{}]"), arrayBound{key: "events", top: true, n: maxEvents}); err != nil {
		t.Errorf("%d events: %v, want taken by the scan", maxEvents, err)
	}
	if err := strictJSONValues([]byte("["+strings.Repeat(`{},`, maxEvents)+"{}]"), arrayBound{key: "events", top: true, n: maxEvents}); err == nil {
		t.Errorf("%d events: taken by the scan, want refused", maxEvents+1)
	}
}

// A body whose value is not the object wanted (an array for a request,
// a number for an event) is a 400 saying so, naming none of the
// package's types: it said "cannot unmarshal array into the field  of
// type karnak.jsonRequest".
func TestBodyNotAnObject(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, body, want string }{
		{"/karnak/waittime/prediction/", `[1,2,3]`, "body: malformed JSON: json: cannot unmarshal array: want an object\n"},
		{"/karnak/starttime/prediction/", `"x"`, "body: malformed JSON: json: cannot unmarshal string: want an object\n"},
		{"/karnak/events", `[1]`, "body: malformed JSON: json: cannot unmarshal number: want an object\n"},
		{"/karnak/events", `{"events":[[]]}`, "body: malformed JSON: json: cannot unmarshal array into the field events: want an object\n"},
	} {
		r := httptest.NewRequest("POST", c.path, strings.NewReader(c.body))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = "127.0.0.1:1234"
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if w.Code != 400 || w.Body.String() != c.want {
			t.Errorf("%s %s: %d %q, want 400 %q", c.path, c.body, w.Code, w.Body.String(), c.want)
		}
	}
}

// An array deeper than a batch's events (a field of an event) is no
// count of events: a 400 naming the field, as for a short one, not a 413
// saying "more than 20000 in one batch" for one event. It is skipped by
// the decoder, not stored: the request allocates a few times its body.
func TestEventsCountedOnlyEvents(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	long := "[" + strings.Repeat(`{},`, maxEvents) + "{}]"
	for _, body := range []string{
		`{"batch":"b","events":[{"kind":` + long + `}]}`,
		`[{"kind":"submit","user":` + long + `}]`,
		`{"kind":"submit","system":` + long + `}`,
		`{"events":[{"kind":"end"}],"batch":` + long + `}`,
	} {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		r := httptest.NewRequest("POST", "/karnak/events", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = "127.0.0.1:1234"
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		runtime.ReadMemStats(&m1)
		if w.Code != 400 || !strings.Contains(w.Body.String(), "cannot unmarshal array into the field ") {
			t.Errorf("%.40s… (%d bytes): %d %.120q, want a 400 naming the field", body, len(body), w.Code, w.Body.String())
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 8*uint64(len(body)) {
			t.Errorf("%.40s…: %d bytes allocated for a body of %d", body, a, len(body))
		}
	}
}
