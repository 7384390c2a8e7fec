package slurmjson

import (
	"encoding/json"
	"fmt"
	"testing"
)

// Each form of a number, and what it reads as.
func TestNumForms(t *testing.T) {
	for in, want := range map[string]string{
		`42`: "42 set", `"42"`: "42 set", `null`: "0 null", `""`: "0", `4294967294`: "0", `18446744073709551614`: "0",
		`4294967295`: "0 set inf", `65535`: "65535 set", `65534`: "65534 set", `1e300`: "0 big", `-1e300`: "0 big", `18446744073709551621`: "0 big",
		`18446744073709551615`: "0 set inf", `18446744073709551610`: "0 big", `99999999999999999999999`: "0 big", `-5`: "-5 set",
		`{"set":true,"infinite":false,"number":42}`: "42 set", `{"set":false,"infinite":false,"number":42}`: "0",
		`{"set":true,"infinite":true,"number":0}`: "0 set inf", `{"set":true,"infinite":false,"number":1e300}`: "0 big",
		`"Unknown"`: "error", `true`: "error",
		// A fraction is refused (it read as 2, cut without a word); a
		// whole number written as a float is that number.
		`2.5`: "error", `"2.5"`: "error", `-0.5`: "error", `{"set":true,"infinite":false,"number":2.5}`: "error", `1e-3`: "error",
		`2.0`: "2 set", `1.7e9`: "1700000000 set", `"3.0"`: "3 set", `[1]`: "error", `{"set":"yes"}`: "error",
	} {
		var n Num
		got := "error"
		if json.Unmarshal([]byte(in), &n) == nil {
			got = fmt.Sprint(n.V)
			for _, f := range []struct {
				on   bool
				name string
			}{{n.Null, "null"}, {n.Set, "set"}, {n.Inf, "inf"}, {n.Big, "big"}} {
				if f.on {
					got += " " + f.name
				}
			}
		}
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// Each form of a state, and its base state.
func TestStateForms(t *testing.T) {
	for in, want := range map[string]string{
		`"PENDING"`: "PENDING", `["PENDING","COMPLETING"]`: "PENDING", `{"current":"COMPLETED","reason":"None"}`: "COMPLETED",
		`{"current":["FAILED"]}`: "FAILED", `null`: "", `[]`: "", `[" ","RUNNING"]`: "RUNNING", `5`: "error",
	} {
		var s State
		got := "error"
		if json.Unmarshal([]byte(in), &s) == nil {
			got = s.First()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
