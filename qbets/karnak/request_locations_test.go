package karnak

import (
	"strings"
	"testing"
)

// locationsBody is a prediction request of about maxQuery bytes (the
// most the handler reads) whose locations are elem, repeated.
func locationsBody(elem string) []byte {
	var b strings.Builder
	b.WriteString(`{"cores": 1, "wallTime": 60, "locations": [`)
	for b.Len() < maxQuery-len(elem)-10 {
		b.WriteString(elem + ",")
	}
	b.WriteString(elem + `]}`)
	return []byte(b.String())
}

// A body of 64 KiB of string locations, which an anonymous client may
// send for one token, costs what it did before locations could be
// objects: the decoded locations were a struct of the text and a Location
// (56 bytes, a string's 16) and each escaped string was decoded twice, so
// that 2.2 MB allocated for "q@s" became 4.2 MB and 1.5 MB for
// "q\u0040s" 3.6 MB (33 and 23 bytes a body byte became 63 and 55).
// Checked: fails with the struct (request.go's wireLocation).
func TestLocationsCost(t *testing.T) {
	for _, c := range []struct {
		elem     string
		perByte  float64 // bytes allocated per byte of body, at most
		measured string
	}{
		{`"q@s"`, 40, "33"},
		{`"q\u0040s"`, 40, "37"},
		{`{"system": "s", "queue": "q"}`, 56, "47"}, // (a json.Decoder each)
	} {
		body := locationsBody(c.elem)
		allocs := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := decodePredictRequest("application/json", body); err == nil || !strings.Contains(err.Error(), "at most 100") {
					b.Fatalf("%s…: %v, want too many locations", body[:60], err)
				}
			}
		}).AllocedBytesPerOp()
		if per := float64(allocs) / float64(len(body)); per > c.perByte {
			t.Errorf("a body of %d bytes of %s: %d bytes allocated, %.0f a body byte, want at most %.0f (measured %s)",
				len(body), c.elem, allocs, per, c.perByte, c.measured)
		}
	}
}

// A location object is judged as the string form is: it names a system
// and a queue, strings, each once, and nothing else, and the names are
// valid (sysname: no '@', so "a@b" in an object is no way around it);
// nesting and size are the body's bounds (strictJSON, maxQuery).
func TestLocationObjectsHostile(t *testing.T) {
	for _, c := range []struct{ loc, want string }{
		{`{"system": "s1", "queue": "q", "System": "s2"}`, "given twice"},
		{`{"system": "s1", "queue": "q", "queue": "r"}`, "given twice"},
		{`{"system": {"name": "s1"}, "queue": "q"}`, "locations"},
		{`{"system": ["s1"], "queue": "q"}`, "locations"},
		{`{"system": null, "queue": "q"}`, "locations"},
		{`{"system": 1, "queue": "q"}`, "locations"},
		{`{"system": "s1", "queue": "q", "user": "u"}`, "locations"},
		{`{}`, "locations"},
		{`null`, "want queue@system"},
		{`{"system": "s1", "queue": "a@b"}`, "is not queue@system"},
		{`{"system": "s@1", "queue": "q"}`, "is not queue@system"},
		{`{"system": "", "queue": ""}`, "is not queue@system"},
		{`{"system": "` + strings.Repeat("s", 60000) + `", "queue": "q"}`, "is not queue@system"},
		{`{"system": "s1", "queue": "q\u00e9"}`, "is not queue@system"},
		{strings.Repeat(`{"system": `, 40) + `"s"` + strings.Repeat(`}`, 40), "nested deeper"},
	} {
		body := `{"cores": 1, "wallTime": 60, "locations": [` + c.loc + `]}`
		r, err := decodePredictRequest("application/json", []byte(body))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.80s: %v, %v; want an error with %q", c.loc, r, err, c.want)
		} else if len(err.Error()) > 300 {
			t.Errorf("%.80s: an error of %d bytes", c.loc, len(err.Error()))
		}
	}
	r, err := decodePredictRequest("application/json", []byte(`{"cores": 1, "wallTime": 60, "locations": [{"SYSTEM": "s1", "Queue": "q"}, "r@s2"]}`))
	if err != nil || len(r.Locations) != 2 || r.Locations[0] != (Location{System: "s1", Queue: "q"}) || r.Locations[1] != (Location{System: "s2", Queue: "r"}) {
		t.Errorf("an object and a string: %+v, %v", r, err)
	}
}
