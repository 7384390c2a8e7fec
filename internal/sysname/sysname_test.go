package sysname

import (
	"fmt"
	"testing"
)

func TestValid(t *testing.T) {
	for s, want := range map[string]bool{
		"slurm": true, "cluster-1.a_b": true, "x": true, ".x": true,
		"": false, ".": false, "..": false, "a b": false, "x/y": false, "q\x1b": false, "é": false,
		string(make([]byte, 65)): false,
	} {
		if got := Valid(s); got != want {
			t.Errorf("Valid(%q) = %v, want %v", s, got, want)
		}
	}
	long := "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd" // 64
	if !Valid(long) || Valid(long+"e") {
		t.Errorf("64 bytes must pass, 65 not")
	}
}

func ExampleValid() {
	fmt.Println(Valid("cluster-1"), Valid("../etc"))
	// Output: true false
}
