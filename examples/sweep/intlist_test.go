package main

import (
	"encoding/json"
	"fmt"
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
