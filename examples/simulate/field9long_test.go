package main

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestField9Long checks field9 on lines long enough for several rounds of
// its two-word loop (up to 300 bytes, blanks three times out of four, so
// that the ninth token often lies far in), with and without tabs, against
// a loop over each byte, from every first token position the line has.
func TestField9Long(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 60_000 {
		alphabet := []byte("1234567890-.;\x00\xff        ")
		if n%2 == 1 {
			alphabet = append(alphabet, "\t\t\t"...)
		}
		line := make([]byte, rng.IntN(300))
		for k := range line {
			line[k] = alphabet[rng.IntN(len(alphabet))]
		}
		i := 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		want := i
		for range 8 {
			for want < len(line) && line[want] != ' ' && line[want] != '\t' {
				want++
			}
			for want < len(line) && (line[want] == ' ' || line[want] == '\t') {
				want++
			}
		}
		if got := field9(line, i, true); got != want {
			t.Fatalf("field9(%q, %d) = %d, want %d", line, i, got, want)
		}
		if !bytes.Contains(line, []byte("\t")) {
			if got := field9(line, i, false); got != want {
				t.Fatalf("field9(%q, %d, no tabs) = %d, want %d", line, i, got, want)
			}
		}
	}
}
