package slurmfeed

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestValidDeepIsJSONValid: within encoding/json's depth, validDeep says
// what json.Valid says, on JSON values drawn whole, on texts drawn byte by
// byte from JSON's punctuation and on JSON values mangled byte by byte.
// Half the texts are drawn JSON values: the two others are JSON in about
// one case in five, and the check below needs both kinds within the 20
// checks of -short (1% of seeds drew no JSON text without them).
func TestValidDeepIsJSONValid(t *testing.T) {
	const alphabet = "{}[]\",: \n\t0-1.e+tx\\u\"a"
	agree := map[bool]int{}
	rapid.Check(t, func(rt *rapid.T) {
		var b []byte
		if rapid.Bool().Draw(rt, "value") {
			b = []byte(drawJSON(rt, 0))
		} else if rapid.Bool().Draw(rt, "mangle") {
			b = []byte(rapid.SampledFrom([]string{
				`{"a": [1, -2.5e+3, true, false, null, "x\u0041\n"], "b": {}, "c": [[], {"d": ""}]}`,
				`[{"jobs": [{"job_id": 7, "x": [[]]}]}, 0, "\\", {"": []}]`,
			}).Draw(rt, "value"))
			for range rapid.IntRange(0, 3).Draw(rt, "edits") {
				at := rapid.IntRange(0, len(b)-1).Draw(rt, "at")
				c := rapid.SampledFrom([]byte(alphabet)).Draw(rt, "byte")
				switch rapid.IntRange(0, 2).Draw(rt, "edit") {
				case 0:
					b[at] = c
				case 1:
					b = append(b[:at], b[at+1:]...)
				default:
					b = append(b[:at], append([]byte{c}, b[at:]...)...)
				}
			}
		} else {
			b = rapid.SliceOfN(rapid.SampledFrom([]byte(alphabet)), 0, 12).Draw(rt, "text")
		}
		want := json.Valid(b)
		if got := validDeep(b); got != want {
			rt.Fatalf("validDeep(%q) = %v, json.Valid %v", b, got, want)
		}
		agree[want]++
	})
	if agree[true] == 0 || agree[false] == 0 {
		t.Errorf("valid, invalid texts drawn: %v", agree)
	}
}

// drawJSON draws a JSON value, nested up to four levels, with white
// space (JSON's four characters) around its tokens.
func drawJSON(rt *rapid.T, depth int) string {
	ws := func() string { return rapid.SampledFrom([]string{"", "", " ", "\n\t", "\r\n "}).Draw(rt, "space") }
	kinds := 3
	if depth < 4 {
		kinds = 5
	}
	var v string
	switch rapid.IntRange(0, kinds-1).Draw(rt, "kind") {
	case 0:
		v = rapid.SampledFrom([]string{"0", "-0", "7", "-12", "3.25", "1e9", "-2.5E-3", "0.0e+0", "123456789012345678901234567890"}).Draw(rt, "number")
	case 1:
		v = rapid.SampledFrom([]string{`""`, `"a"`, `"\u00e9\n"`, `"\\\""`, `"jobs"`, `"ſ"`, `"\ud83d\ude00"`, `"\/"`}).Draw(rt, "string")
	case 2:
		v = rapid.SampledFrom([]string{"true", "false", "null"}).Draw(rt, "literal")
	case 3:
		var elems []string
		for range rapid.IntRange(0, 3).Draw(rt, "elems") {
			elems = append(elems, drawJSON(rt, depth+1))
		}
		v = "[" + ws() + strings.Join(elems, ","+ws()) + "]"
	default:
		var members []string
		for range rapid.IntRange(0, 3).Draw(rt, "members") {
			k := rapid.SampledFrom([]string{`""`, `"a"`, `"job_id"`, `"\u0041"`}).Draw(rt, "key")
			members = append(members, k+ws()+":"+drawJSON(rt, depth+1))
		}
		v = "{" + ws() + strings.Join(members, ","+ws()) + "}"
	}
	return ws() + v + ws()
}

// TestValidDeepBeyondTheLimit: nested beyond the limit, what is not JSON
// is still found, and brackets mismatched far below the limit too.
func TestValidDeepBeyondTheLimit(t *testing.T) {
	deep := nested(30000)
	in := func(s string) string { return strings.Replace(deep, "[]", "["+s+"]", 1) }
	for s, want := range map[string]bool{
		deep:                                 true,
		in(`{"a": "\u00e9", "b": [1e3]}`):    true,
		in(`"\c"`):                           false,
		in(`tru`):                            false,
		in(`1 2`):                            false,
		in(`{"a" 1}`):                        false,
		in(`{"a": 1,}`):                      false,
		in(`1,`):                             false,
		strings.Replace(deep, "]]", "}]", 1): false,
		strings.Repeat("[{\"a\":", 20000) + "0" + strings.Repeat("}]", 20000): true,
		strings.Repeat("[{\"a\":", 20000) + "0" + strings.Repeat("]}", 20000): false,
		deep + " x": false,
		deep[1:]:    false,
	} {
		if got := validDeep([]byte(s)); got != want {
			t.Errorf("validDeep(%.40q…) = %v, want %v", s, got, want)
		}
	}
}
