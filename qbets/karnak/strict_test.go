package karnak

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// What the last rounds left open: a negative within was read as
// positive; "." and ".." were names and negative job ids were taken;
// duplicate JSON keys (the last won), a charset other than UTF-8 (read as
// UTF-8) and bytes that are not UTF-8 (turned into U+FFFD) were
// accepted. Each is now a 4xx naming the field.
func TestStrictInputs(t *testing.T) {
	s, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	ev := func(fields string) string {
		return fmt.Sprintf(`{"kind":"submit","system":"s1","job":7000,"time":%d,"queue":"debug","cores":1%s}`, testNow, fields)
	}
	for _, c := range []struct {
		method, path, ctype, body string
		code                      int
		want                      string
	}{
		{"GET", "/system/s1/job/1002/prediction/waittime.json?within=-00:30:00", "", "", 400, "within"},
		{"GET", "/system/s1/job/1002/prediction/waittime.json?within=%2B00:30:00", "", "", 400, "within"},
		{"GET", "/system/s1/job/1002/prediction/waittime.json?within=-1800", "", "", 400, "within"},
		{"GET", "/system/s1/job/-1002/prediction/waittime.json", "", "", 400, "jobId"},
		// Durations at most 2^40 s, as an event's: a within of 2^63−1 s
		// was taken from JSON and echoed, and 10^9 hours from a query.
		{"GET", "/system/s1/job/1002/prediction/waittime.json?within=999999999:00:00", "", "", 400, "within"},
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"wallTime":"01:00:00","within":9223372036854775807,"locations":["normal@s1"]}`, 400, "within"},
		{"POST", "/waittime/prediction/", "text/plain", "processors 4\nrequestedWallTime 01:00:00\nwithin 999999999:00:00\nlocation s1 normal\n", 400, "within"},
		{"GET", "/waittime/predict.html?cores=4&wallTime=01:00:00&loc=normal@s1&within=999999999:00:00", "", "", 400, "want hh:mm:ss"},
		{"POST", "/waittime/prediction/", "text/plain", "processors 4\nrequestedWallTime 01:00:00\nwithin -00:30:00\nlocation s1 normal\n", 400, "within"},
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"wallTime":"01:00:00","within":"-00:30:00","locations":["normal@s1"]}`, 400, "within"},
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"cores":64,"wallTime":"01:00:00","locations":["normal@s1"]}`, 400, "given twice"},
		// encoding/json matches keys to fields case-insensitively: "Cores"
		// after "cores" was the last winning (64 cores asked for).
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"Cores":64,"wallTime":"01:00:00","locations":["normal@s1"]}`, 400, "given twice"},
		{"POST", "/events", "application/json", ev(`,"CORES":8`), 400, "given twice"},
		{"POST", "/waittime/prediction/", "application/json; charset=ISO-8859-1", `{"cores":4,"wallTime":"01:00:00","locations":["normal@s1"]}`, 415, "charset"},
		{"POST", "/waittime/prediction/", "text/plain; charset=latin1", "processors 4\nrequestedWallTime 01:00:00\nlocation s1 normal\n", 415, "charset"},
		{"POST", "/waittime/prediction/", "text/plain", "processors 4\nrequestedWallTime 01:00:00\nlocation s1 norm\xe9l\n", 400, "UTF-8"},
		{"POST", "/events", "application/json", ev(",\"user\":\"caf\xe9\""), 400, "UTF-8"},
		{"POST", "/events", "application/json", ev(`,"user":"x\ud800y"`), 400, "surrogate"},
		{"POST", "/events", "application/json", ev(`,"cores":8`), 400, "given twice"},
		{"POST", "/events", "application/json", `{"batch":"a","batch":"b","events":[` + ev("") + `]}`, 400, "given twice"},
		{"POST", "/events", "application/json; charset=utf-16", ev(""), 415, "charset"},
		{"POST", "/events", "application/json", strings.Replace(ev(""), `"job":7000`, `"job":-7`, 1), 400, "events[0].job"},
		{"POST", "/events", "application/json", strings.Replace(ev(""), `"system":"s1"`, `"system":".."`, 1), 400, "events[0].system"},
		{"POST", "/events", "application/json", fmt.Sprintf(`{"kind":"queue","system":"s1","time":%d,"queue":".","cores":1,"wallTime":60}`, testNow), 400, "events[0].queue"},
		// A closing brace or bracket too many: json.Decoder.More is false
		// before one, so the check for trailing data took these bodies.
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"wallTime":"01:00:00","locations":["normal@s1"],"within":"00:30:00"}}`, 400, "trailing data"},
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"wallTime":"01:00:00","locations":["normal@s1"]} ]`, 400, "trailing data"},
		{"POST", "/events", "application/json", ev("") + "}", 400, "trailing data"},
		{"POST", "/events", "application/json", "[" + ev("") + "]]", 400, "trailing data"},
		{"POST", "/events", "application/json", `{"batch":"a","events":[` + ev("") + `]}]`, 400, "trailing data"},
	} {
		code, out := do(t, c.method, u+c.path, c.ctype, c.body)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%s %s %.60q: %d %q, want %d naming %q", c.method, c.path, c.body, code, out, c.code, c.want)
		}
	}
	// What is still fine: UTF-8 named in any case, a surrogate pair, the
	// same key in two objects.
	for _, c := range []struct{ ctype, body string }{
		{"application/json; charset=UTF-8", ev(`,"user":"\ud83d\ude00"`)},
		{"application/json; charset=utf8", `[` + strings.Replace(ev(`,"user":"a"`), "7000", "7002", 1) + `,` + strings.Replace(ev(`,"user":"a"`), "7000", "7001", 1) + `]`},
	} {
		if code, out := do(t, "POST", u+"/events", c.ctype, c.body); code != 200 {
			t.Errorf("%s %s: %d %s", c.ctype, c.body, code, out)
		}
	}
	if _, err := s.PredictJob("s1", -5, 95, 90, 0); statusOf(err) != http.StatusBadRequest {
		t.Errorf("PredictJob(-5): %v", err)
	}
	if _, err := s.PredictJob("s1", 1002, 95, 90, -1800); statusOf(err) != http.StatusBadRequest {
		t.Errorf("PredictJob(within -1800): %v", err)
	}
	for _, d := range []string{"-00:30:00", "+1800", "-0", " 60", "1_000", "01:-5:00"} {
		if v, err := parseDuration(d); err == nil {
			t.Errorf("parseDuration(%q) = %d", d, v)
		}
	}
}

// duplicateKeyRef is duplicateKey by encoding/json's tokens: the
// reference the fast scan is checked against.
func duplicateKeyRef(body []byte) bool {
	d := json.NewDecoder(bytes.NewReader(body))
	type obj struct {
		keys   []string
		expect bool
	}
	var stack []*obj
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		var top *obj
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &obj{expect: true})
			case '[':
				stack = append(stack, nil)
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1] != nil {
					stack[len(stack)-1].expect = true
				}
			}
			continue
		case string:
			if top != nil && top.expect {
				for _, k := range top.keys { // as encoding/json matches fields, case-insensitively
					if strings.EqualFold(k, t) {
						return true
					}
				}
				top.keys = append(top.keys, t)
				top.expect = false
				continue
			}
		}
		if top != nil {
			top.expect = true
		}
	}
}

// FuzzDuplicateKey: on valid JSON the byte scan finds a duplicate key
// exactly when encoding/json's tokens show one.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"a":2}`, `{"a":{"a":1},"b":[{"a":1},{"a":2}]}`, `{"a":"\"a\"","\u0061":1}`,
		`[{"x":1,"y":{"x":2,"x":3}}]`, `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k1":0}`,
		`{"a\\":1,"a\\\\":2}`, `"just a string"`, `{"":1,"":2}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) || !utf8.ValidString(s) { // strictJSON refuses those first
			duplicateKey([]byte(s)) // no panic
			return
		}
		err := duplicateKey([]byte(s))
		if depth, keys := jsonShape([]byte(s)); depth > maxDepth || keys > maxKeys {
			if err == nil || !strings.Contains(err.Error(), "nested deeper") && !strings.Contains(err.Error(), "keys") {
				t.Fatalf("%q: %d deep, an object of %d keys: %v, want the bound's error", s, depth, keys, err)
			}
			return
		}
		if got, want := err != nil, duplicateKeyRef([]byte(s)); got != want {
			t.Fatalf("%q: duplicate %v (%v), encoding/json says %v", s, got, err, want)
		}
	})
}

// jsonShape is the nesting depth of valid JSON and the most keys of one
// of its objects, by encoding/json's tokens.
func jsonShape(body []byte) (depth, keys int) {
	d := json.NewDecoder(bytes.NewReader(body))
	var stack []int // per open container: -1 an array, else the object's tokens so far
	for {
		tok, err := d.Token()
		if err != nil {
			return depth, keys
		}
		if t, ok := tok.(json.Delim); ok {
			switch t {
			case '{':
				stack = append(stack, 0)
			case '[':
				stack = append(stack, -1)
			default:
				stack = stack[:len(stack)-1]
			}
			depth = max(depth, len(stack))
			if t == '{' || t == '[' {
				if n := len(stack) - 1; n > 0 && stack[n-1] >= 0 {
					stack[n-1]++ // a value of the object
				}
			}
			continue
		}
		if n := len(stack); n > 0 && stack[n-1] >= 0 {
			stack[n-1]++
			keys = max(keys, (stack[n-1]+1)/2)
		}
	}
}

// Bodies that no event or request is, nested deep or with many keys in
// one object, are refused by the strict scan with memory bounded by
// maxDepth·maxKeys: 4 MiB of "[" allocated 985 MB, 4 MiB of keys 30 MB,
// before the bounds (a 64 KiB prediction request, anonymous, 13 MB).
func TestStrictBounded(t *testing.T) {
	var keys strings.Builder
	keys.WriteString("{")
	for i := 0; keys.Len() < 4<<20; i++ {
		fmt.Fprintf(&keys, `"%x":0,`, i)
	}
	keys.WriteString(`"z":0}`)
	for _, c := range []struct {
		name, body, want string
	}{
		{"4 MiB of [", strings.Repeat("[", 4<<20), "nested deeper than 32"},
		{"4 MiB of {\"a\":", strings.Repeat(`{"a":`, 4<<20/5), "nested deeper than 32"},
		{"4 MiB of keys", keys.String(), "more than 64 keys"},
	} {
		body := []byte(c.body)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err := strictJSON(body)
		runtime.ReadMemStats(&m1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if mb := float64(m1.TotalAlloc-m0.TotalAlloc) / (1 << 20); mb > 1 {
			t.Errorf("%s: %.1f MB allocated, want < 1 MB", c.name, mb)
		}
	}
	// At the bounds, a body is still judged as before.
	deep := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if err := strictJSON([]byte(deep)); err != nil {
		t.Errorf("%d deep: %v", maxDepth, err)
	}
	var obj strings.Builder
	obj.WriteString("{")
	for i := range maxKeys {
		fmt.Fprintf(&obj, `"k%d":%d,`, i, i)
	}
	if err := strictJSON([]byte(strings.TrimSuffix(obj.String(), ",") + "}")); err != nil {
		t.Errorf("%d keys: %v", maxKeys, err)
	}
	if err := strictJSON([]byte(obj.String() + `"k3":0}`)); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("%d keys and a duplicate: %v", maxKeys, err)
	}
}

// strictBatch is a batch of maxEvents submit events, the largest the
// service takes, for the benchmarks of the strict checks.
func strictBatch() []byte {
	var b bytes.Buffer
	b.WriteString(`{"batch":"b1","events":[`)
	for i := range maxEvents {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"kind":"submit","system":"s1","job":%d,"time":%d,"queue":"normal","cores":16,"reqTime":3600,"user":"u%d","group":"g1"}`, i, testNow+int64(i), i%97)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkDuplicateKey is the figure duplicateKey's comment quotes;
// BenchmarkDuplicateKeyByToken, the json.Decoder.Token scan it replaced.
func BenchmarkDuplicateKey(b *testing.B) {
	body := strictBatch()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := duplicateKey(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDuplicateKeyByToken(b *testing.B) {
	body := strictBatch()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		d := json.NewDecoder(bytes.NewReader(body))
		for {
			if _, err := d.Token(); err != nil {
				break
			}
		}
	}
}
