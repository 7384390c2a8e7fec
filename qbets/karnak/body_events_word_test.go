package karnak

import (
	"strings"
	"testing"
)

// One event object whose queue, job name or user is "events" is that
// event: the body was told a batch object by the text "events" anywhere
// in it, and refused ("unknown field \"kind\""). A batch object is still
// one, and one with an event's fields beside its own is refused.
func TestDecodeEventNamedEvents(t *testing.T) {
	for _, body := range []string{
		`{"kind":"queue","system":"s1","time":5,"queue":"events","cores":4,"wallTime":60}`,
		`{"kind":"submit","system":"s1","job":1,"time":5,"queue":"q","cores":1,"name":"events"}`,
		` {"user":"events","kind":"submit","system":"s1","job":1,"time":5,"queue":"q","cores":1}`,
	} {
		batch, evs, err := decodeEvents([]byte(body))
		if err != nil || batch != "" || len(evs) != 1 || evs[0].System != "s1" || evs[0].Time != 5 {
			t.Errorf("%s: batch %q, events %+v, error %v; want the one event", body, batch, evs, err)
		}
	}
	batch, evs, err := decodeEvents([]byte(`{"events":[{"kind":"end","system":"s","job":1,"time":9}],"batch":"b"}`))
	if err != nil || batch != "b" || len(evs) != 1 || evs[0].Job != 1 {
		t.Errorf("batch object: %q, %+v, %v", batch, evs, err)
	}
	for _, body := range []string{
		`{"batch":"b","kind":"end","events":[{"kind":"end","system":"s","job":1,"time":9}]}`,
		`{"batch":"b","bogus":1,"events":[]}`,
		`{"batch":"b"}`,
	} {
		if _, _, err := decodeEvents([]byte(body)); err == nil || statusOf(err) != 400 {
			t.Errorf("%s: %v, want a 400", body, err)
		}
	}
	// A field of the wrong type is named as before (not "Event.cores").
	if _, _, err := decodeEvents([]byte(`{"kind":"submit","system":"s1","cores":"x"}`)); err == nil || !strings.Contains(err.Error(), "cores") || strings.Contains(err.Error(), "Event.") {
		t.Errorf("wrong type: %v", err)
	}
}
