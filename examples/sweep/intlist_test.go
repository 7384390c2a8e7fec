package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// An "a-b" range ending at the largest int expands once: n++ wrapped
// past it, so "9223372036854775807-9223372036854775807" looped for ever.
func TestIntListAtIntLimit(t *testing.T) {
	for in, want := range map[string]string{
		`["9223372036854775807-9223372036854775807"]`: "[9223372036854775807]",
		`["9223372036854775806-9223372036854775807"]`: "[9223372036854775806 9223372036854775807]",
		`[1,"3-5"]`:                  "[1 3 4 5]",
		`["0-9223372036854775807"]`:  "error",
		`["+1-9223372036854775807"]`: "error",
	} {
		var l IntList
		got := "error"
		if err := json.Unmarshal([]byte(in), &l); err == nil {
			got = fmt.Sprint([]int(l))
		}
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// A list's size is bounded as a whole: many ranges, each within the bound,
// expanded to 2·10^8 values (4.9 GB) before anything was checked; and a
// range of more than the bound said "want a ≤ b" of "1-1000000000".
func TestIntListBounded(t *testing.T) {
	many := `[` + strings.Repeat(`"0-10000",`, 2000) + `1]`
	// Numbers past the bound, then a range: without the check on the
	// list's length the range's room (bound − length) wrapped and a
	// range of 10^9 values passed.
	numbersFirst := `[` + strings.Repeat(`1,`, maxIntList+1) + `"0-1000000000"]`
	for in, want := range map[string]string{
		many:               "more than 10001 values",
		numbersFirst:       "more than 10001 values",
		`["1-1000000000"]`: "more than 10001 values",
		`[1, 2, "0-9999"]`: "more than 10001 values",
		`["b-a"]`:          "a ≤ b",
	} {
		var l IntList
		err := json.Unmarshal([]byte(in), &l)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40s: %v, want an error with %q", in, err, want)
		}
	}
	var l IntList
	if err := json.Unmarshal([]byte(`[1, "0-9999"]`), &l); err != nil || len(l) != 10001 {
		t.Errorf(`[1, "0-9999"]: %d values, %v; want 10001`, len(l), err)
	}
}
