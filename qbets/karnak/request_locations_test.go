package karnak

import (
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strconv"
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

// A body of 64 KiB of locations, which an anonymous client may send for
// one token, costs no more than a valid request of the same size at the
// limit (maxLocations locations, the rest white space): the body is
// refused at its location maxLocations+1, the others undecoded. The
// count was checked once all were decoded, and 64 KiB of "q@s" allocated
// 2.2 MB (33 bytes a body byte), of "q\u0040s" 2.4 MB, of objects
// 2.8–3.1 MB and of text lines 0.9 MB, where the valid requests took
// 14–380 KB (and now the refusals 0.5–20 KB).
// (Before that the decoded locations were a struct of the text and a
// Location and each escaped string was decoded twice, 4.2 MB for "q@s".)
// Checked: fails without the count (request.go, request_scan.go,
// strict.go's arrayBound).
func TestLocationsCost(t *testing.T) {
	const head = "processors 1\nrequestedWallTime 60\n"
	for _, c := range []struct {
		elem      string
		text      bool   // Karnak's text form, elem a line
		wantValid string // the valid request's first location
	}{
		{elem: `"q@s"`},
		{elem: `"q\u0040s"`},
		{elem: `{"system": "s", "queue": "q"}`}, // (a json.Decoder each)
		{elem: `{"System":"s","Queue":"q"}`},    // as json.Marshal writes a PredictRequest
		{elem: "location s q", text: true},
	} {
		var hostile, valid []byte
		if c.text {
			var b strings.Builder
			b.WriteString(head)
			for b.Len() < maxQuery-len(c.elem) {
				b.WriteString(c.elem + "\n")
			}
			hostile = []byte(b.String())
			lines := strings.Repeat(c.elem+"\n", maxLocations)
			valid = []byte(head + strings.Repeat("\n", len(hostile)-len(head)-len(lines)) + lines)
		} else {
			hostile = locationsBody(c.elem)
			elems := strings.Repeat(c.elem+",", maxLocations-1) + c.elem + "]}"
			pre := `{"cores": 1, "wallTime": 60, "locations": [`
			valid = []byte(pre + strings.Repeat(" ", len(hostile)-len(pre)-len(elems)) + elems)
		}
		if len(valid) != len(hostile) {
			t.Fatalf("%s: a valid body of %d bytes, a hostile one of %d", c.elem, len(valid), len(hostile))
		}
		if r, err := decodePredictRequest("", valid); err != nil || len(r.Locations) != maxLocations || r.Locations[0] != (Location{System: "s", Queue: "q"}) {
			t.Fatalf("%d locations %s: %v, want them taken", maxLocations, c.elem, err)
		}
		cost := func(body []byte, valid bool) uint64 {
			decode := func() {
				_, err := decodePredictRequest("", body)
				if valid != (err == nil) || !valid && !strings.Contains(err.Error(), "at most 100") {
					t.Fatalf("%.60s…: %v", body, err)
				}
			}
			decode()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			const runs = 50
			for range runs {
				decode()
			}
			runtime.ReadMemStats(&m1)
			return (m1.TotalAlloc - m0.TotalAlloc) / runs
		}
		h, v := cost(hostile, false), cost(valid, true)
		t.Logf("%d bytes of %s: %d bytes allocated, %d for %d locations", len(hostile), c.elem, h, v, maxLocations)
		if h > v+v/10 {
			t.Errorf("%d bytes of %s: %d bytes allocated, more than the %d of a valid body of %d locations",
				len(hostile), c.elem, h, v, maxLocations)
		}
	}
	// At the limit on the marshalled form, and one past it.
	req := PredictRequest{Cores: 1, WallTime: 60, Confidence: 90, Quantile: 95, Locations: make([]Location, maxLocations)}
	for i := range req.Locations {
		req.Locations[i] = Location{System: "s", Queue: "q" + strconv.Itoa(i)}
	}
	body, _ := json.Marshal(req)
	if got, err := decodePredictRequest("application/json", body); err != nil || !reflect.DeepEqual(*got, req) {
		t.Errorf("a marshalled request of %d locations: %v", maxLocations, err)
	}
	req.Locations = append(req.Locations, Location{System: "s", Queue: "q"})
	body, _ = json.Marshal(req)
	if _, err := decodePredictRequest("application/json", body); err != errTooManyLocations {
		t.Errorf("a marshalled request of %d locations: %v, want %v", maxLocations+1, err, errTooManyLocations)
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

// The locations strictJSONValues counts are never fewer than those
// encoding/json decodes (else a body of thousands slips past the count
// and is decoded whole), nor more (else a request of 100 is refused),
// whatever the body: the key in another case or escaped ("LOCATIONS",
// "loc\u0061tions", "location\u017f", all the same field to
// encoding/json), an array of that name deeper in the body, the key and
// commas inside strings, nested values in the array, white space,
// numbers past float64. A body encoding/json refuses as malformed is
// not decoded, whatever the count.
func FuzzLocationsCounted(f *testing.F) {
	l := func(n int, e string) string { return "[" + strings.Repeat(e+",", n-1) + e + "]" }
	for _, s := range []string{
		`{"locations":` + l(101, `"q@s"`) + `}`,
		`{"LOCATIONS":` + l(101, `"q@s"`) + `}`,
		`{"locAtions":` + l(101, `1`) + `}`,
		`{"loc\u0061tions":` + l(101, `"a"`) + `}`,
		`{"location\u017f":` + l(101, `"a"`) + `}`,
		`{"x":{"locations":` + l(101, `"a"`) + `},"locations":` + l(100, `"a"`) + `}`,
		`{"x":"\"locations\":[1,2,3]","locations":` + l(100, `{"a":[1,2],"b":"c,d"}`) + `}`,
		" {\t\"locations\"\n:\r" + l(101, ` [ 1 , 2 ] `) + `  } `,
		`{"locations":` + l(100, `1e999999`) + `}`,
		`{"locations":` + l(100, `"a\\"`) + `}`,
		`{"locations":` + l(101, `"a\\\","`) + `}`,
		`{"cores":1,"locations":[],"Locations":` + l(101, `"a"`) + `}`,
		`{"locations":` + l(101, `"a"`), // truncated
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var v struct {
			Locations []json.RawMessage `json:"locations"`
		}
		err := json.Unmarshal(body, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) || err != nil && strings.Contains(err.Error(), "unexpected end") {
			return // not decoded
		}
		switch err := strictJSONValues(body, arrayBound{key: "locations", n: maxLocations}); {
		case len(v.Locations) > maxLocations && err == nil:
			t.Fatalf("%d locations decoded, taken by the count: %.200q", len(v.Locations), body)
		case len(v.Locations) <= maxLocations && errors.Is(err, errLongArray):
			t.Fatalf("%d locations decoded, refused by the count: %.200q", len(v.Locations), body)
		}
	})
}
