package swf

import (
	"strings"
	"testing"
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
