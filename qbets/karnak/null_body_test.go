package karnak

import (
	"strings"
	"testing"
)

// A body of JSON null, or a null (or {}) where an event or the events
// are wanted, is named as such: it was read as an empty event, refused
// as `events[0].system: ""`, words about a field never sent.
func TestNullBodyNamed(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak/events"
	for _, c := range []struct{ body, want string }{
		{"null", "body: null; want one event"},
		{" null \n", "body: null; want one event"},
		{`[null]`, "events[0]: an empty event (null or {})"},
		{`[{}]`, "events[0]: an empty event (null or {})"},
		{`{}`, "body: an object without an event's fields"},
		{`{"events": null}`, "body: an object without an event's fields, and no batch or events (or null ones)"},
		{`{"batch": "b1", "events": null}`, "body: no events"},
		{`{"batch": "b1", "events": [null]}`, "events[0]: an empty event (null or {})"},
	} {
		code, out := do(t, "POST", u, "application/json", c.body)
		if code != 400 || !strings.Contains(out, c.want) {
			t.Errorf("%s: %d %s, want 400 with %q", c.body, code, out, c.want)
		}
	}
}
