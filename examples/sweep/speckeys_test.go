package main

import (
	"strings"
	"testing"
)

// A key given twice in one object of a spec is refused, naming the key and
// where it is: encoding/json kept the last value silently ("loads" twice
// swept the second list only). Keys differing in case are the same field
// to encoding/json, so they count as the same key.
func TestSpecRepeatedKey(t *testing.T) {
	const base = `"traces":[{"log":"KTH"}],"policies":["EASY"]`
	for _, c := range []struct{ spec, want string }{
		{`{"name":"x",` + base + `,"loads":[0.5],"loads":[0.9]}`, `key "loads" given twice in the spec`},
		{`{"name":"x",` + base + `,"Name":"y"}`, `key "Name" given twice in the spec`},
		{`{"name":"x","traces":[{"log":"KTH"},{"name":"a","file":"f","machine":8,"machine":16}],"policies":["EASY"]}`,
			`key "machine" given twice in traces[1]`},
		{`{"name":"x",` + base + `,"predictor":{"window":[1],"type":["all"],"window":[2]}}`, `key "window" given twice in predictor`},
		{`{"name":"x",` + base + `,"options":{"ties":[true],"kill":[false],"ties":[false]}}`, `key "ties" given twice in options`},
		// Escaped, and letters that fold to the key's as encoding/json
		// folds them (long s, Kelvin sign): the decoder set the field twice.
		{`{"name":"x",` + base + `,"loads":[0.5],"lo\u0061ds":[0.9]}`, `key "loads" given twice in the spec`},
		{`{"name":"x",` + base + `,"loads":[0.5],"loadſ":[0.9]}`, `key "load\u017f" given twice in the spec`},
		{`{"name":"x",` + base + `,"options":{"kill":[true],"\u212aill":[false]}}`, `key "\u212aill" given twice in options`},
	} {
		_, err := ParseSpec([]byte(c.spec))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error with %q", c.spec, err, c.want)
		}
	}
	// The same key in two objects, a value equal to a key, and keys in
	// arrays of objects are not repeats.
	for _, ok := range []string{
		`{"name":"x","traces":[{"name":"a","file":"f","machine":8},{"name":"b","file":"g","machine":8}],"policies":["EASY"]}`,
		`{"name":"name",` + base + `,"predictor":{"type":["all"],"metric":["avg"]},"options":{"ties":[true]}}`,
	} {
		if _, err := ParseSpec([]byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// Nothing but white space may follow a spec: a closing brace or bracket
// too many was taken (the decoder's More is false before one), where any
// other byte was refused. A key's walk ends at the spec's end, so this is
// ParseSpec's to say.
func TestSpecTrailingData(t *testing.T) {
	const spec = `{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY"],"predictor":{"window":[1]}}`
	if _, err := ParseSpec([]byte(spec + " \n\t\r\n")); err != nil {
		t.Fatalf("a spec and white space: %v", err)
	}
	for _, tail := range []string{"}", "]", " }\n", "\n]]", "}}", " x", ",", "\u00a0", "{}"} {
		if _, err := ParseSpec([]byte(spec + tail)); err == nil || !strings.Contains(err.Error(), "trailing data") {
			t.Errorf("%q after the spec: %v, want trailing data refused", tail, err)
		}
	}
}
