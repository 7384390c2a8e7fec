package swf

import (
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A demand key's bytes reach the error text quoted when they are not
// printable ASCII: a named resource "+%1B[2J" (an escape sequence once
// unescaped) used to go raw to the terminal, and 62 bytes of 0xCD made a
// 403-byte error (FuzzReader's bound is 400).
func TestDemandKeyErrorText(t *testing.T) {
	for in, want := range map[string]string{
		";= +%1B[2J\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n": `demand "\x1b[2J"`,
		";= " + strings.Repeat("\xcd", 62) + "0\n":             `demand "\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd"…`,
		";= gpus=x\n": `demand gpus: "gpus=x"`,
	} {
		_, err := NewReader(strings.NewReader(in)).ReadAll()
		if err == nil || !strings.Contains(err.Error(), want) || len(err.Error()) > 400 {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
}

// Property: an error quotes a value in at most 2*maxValue bytes, whatever
// its bytes, and the quote reads back as a prefix of the value (then "…"
// when cut).
func TestQuoteBounded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 300).Draw(t, "n") // (SliceOfN alone draws short slices)
		b := rapid.SliceOfN(rapid.SampledFrom([]byte("a\x00\xcd\xe2\x80\xa6\"")), n, n).Draw(t, "b")
		v := clip(string(b))
		q := quote(v)
		u, err := strconv.Unquote(q)
		if len(q) > 2*maxValue || err != nil {
			t.Fatalf("quote(%q) = %s (%d bytes), %v", v, q, len(q), err)
		}
		if u != v && !strings.HasPrefix(v, strings.TrimSuffix(u, "…")) {
			t.Fatalf("quote(%q) = %s: not a prefix", v, q)
		}
	})
}
