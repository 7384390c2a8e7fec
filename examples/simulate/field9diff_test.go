package main

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"pgregory.net/rapid"
)

// field9Ref is field9 by a loop over each byte.
func field9Ref(line []byte, i int) int {
	for range 8 {
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	return i
}

// field9Word is field9 as e650ea7 had it (one word a round, the masks as
// constants, the line cut by 8 at each word): the differential tests hold
// the two-word loop to it.
func field9Word(line []byte, i int, tabs bool) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		low7  = 0x7f7f7f7f7f7f7f7f
	)
	need := 9
	prev := uint64(0x80)
	for rest := line[i:]; len(rest) >= 8; rest = rest[8:] {
		w := binary.LittleEndian.Uint64(rest)
		s := w ^ (ones * ' ')
		tok := (s&low7 + low7 | s) & highs
		if tabs {
			t := w ^ (ones * '\t')
			tok &= t&low7 + low7 | t
		}
		blank := tok ^ highs
		starts := tok & (blank<<8 | prev)
		prev = blank >> 56
		if c := int((starts >> 7) * ones >> 56); c < need {
			need -= c
			i += 8
			continue
		}
		for range need - 1 {
			starts &= starts - 1
		}
		return i + bits.TrailingZeros64(starts)>>3
	}
	for ; i < len(line); i++ {
		blank := line[i] == ' ' || line[i] == '\t'
		if !blank && prev != 0 {
			if need--; need == 0 {
				return i
			}
		}
		prev = 0
		if blank {
			prev = 1
		}
	}
	return len(line)
}

// estimateRef is lineEstimate by fields: the ninth, an optional '-' and
// 1 to 18 digits, counts when not negative and at most MaxTime.
func estimateRef(line []byte, m int64) (int64, bool) {
	f := bytes.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
	if len(f) == 0 || f[0][0] == ';' {
		return m, true
	}
	if len(f) < 9 {
		return m, false
	}
	tok, neg := f[8], false
	if tok[0] == '-' {
		tok, neg = tok[1:], true
	}
	if len(tok) == 0 || len(tok) > 18 {
		return m, false
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return m, false
		}
	}
	v, _ := strconv.ParseInt(string(tok), 10, 64)
	if !neg && v > m && v <= sanitize.MaxTime {
		m = v
	}
	return m, true
}

// checkField9 holds field9 (with tabs, and without when line has none) to
// the byte loop and to e650ea7's word loop, and lineEstimate to fields.
// line lies in a buffer that goes on with more tokens after it: a read
// past its end would change the answer.
func checkField9(t interface {
	Fatalf(string, ...any)
}, line []byte, m int64) {
	buf := append(append([]byte(nil), line...), " 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"...)
	line = buf[:len(line)]
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	want := field9Ref(line, i)
	if old := field9Word(line, i, true); old != want {
		t.Fatalf("e650ea7's field9(%q, %d) = %d, the byte loop %d", line, i, old, want)
	}
	if got := field9(line, i, true); got != want {
		t.Fatalf("field9(%q, %d) = %d, want %d", line, i, got, want)
	}
	tabs := bytes.IndexByte(line, '\t') >= 0
	if !tabs {
		if got, old := field9(line, i, false), field9Word(line, i, false); got != want || old != want {
			t.Fatalf("field9(%q, %d, no tabs) = %d, e650ea7's %d, want %d", line, i, got, old, want)
		}
	}
	wm, wok := estimateRef(line, m)
	if gm, gok := lineEstimate(line, m, tabs); gm != wm || gok != wok {
		t.Fatalf("lineEstimate(%q, %d) = %d %v, fields %d %v", line, m, gm, gok, wm, wok)
	}
}

// TestField9Diff draws SWF-like lines (0 to 24 tokens of every form the
// ninth can take: small, negative, 18 and 19 digits, int64's ends, other
// bytes; blank runs up to 40 long, with or without tabs, leading blanks)
// cut at, just before or just after a multiple of 8 from the first token,
// and checks them as checkField9 does.
func TestField9Diff(t *testing.T) {
	toks := []string{"0", "1", "-1", "7200", "-7200", "1099511627776", "1099511627777",
		"999999999999999999", "1000000000000000000", "9223372036854775807", "-9223372036854775808",
		"-", "--5", "1.5", "12a", ";", "\x00", "\xff\x80", "\r", "\n", "00000000000000000001"}
	rapid.Check(t, func(t *rapid.T) {
		tabs := rapid.Bool().Draw(t, "tabs")
		blank := func(name string, min, max int) []byte {
			b := make([]byte, rapid.IntRange(min, max).Draw(t, name))
			for k := range b {
				b[k] = ' '
				if tabs && rapid.IntRange(0, 3).Draw(t, name+"tab") == 0 {
					b[k] = '\t'
				}
			}
			return b
		}
		line := blank("lead", 0, 3)
		first := len(line)
		for k := range rapid.IntRange(0, 20).Draw(t, "n") {
			if k > 0 {
				line = append(line, blank("sep", 1, 40)...)
			}
			if rapid.IntRange(0, 3).Draw(t, "kind") == 0 {
				line = append(line, rapid.SampledFrom(toks).Draw(t, "tok")...)
			} else {
				line = strconv.AppendInt(line, rapid.Int64().Draw(t, "v")>>rapid.IntRange(0, 63).Draw(t, "shift"), 10)
			}
		}
		line = append(line, blank("trail", 0, 20)...)
		if rapid.Bool().Draw(t, "cut") { // end at a word boundary (8 or 16 from the first token), or one off
			n := first + 8*rapid.IntRange(0, 12).Draw(t, "words") + rapid.IntRange(-1, 1).Draw(t, "off")
			line = line[:max(0, min(n, len(line)))]
		}
		checkField9(t, line, rapid.Int64Range(-1, 1<<41).Draw(t, "m"))
	})
}

// FuzzField9 checks any bytes as checkField9 does (go test -fuzz
// FuzzField9 ./examples/simulate/).
func FuzzField9(f *testing.F) {
	f.Add([]byte("    1     0     5    -1     3    -1    -1    64  7200    -1  1  1  1 -1 -1 -1 -1 -1"), int64(0))
	f.Add([]byte("1\t0\t5\t-1\t3\t-1\t-1\t64\t9223372036854775807\t-1"), int64(5))
	f.Add([]byte("a b c d e f g h                                 18446744073709551616"), int64(-1))
	f.Fuzz(func(t *testing.T, line []byte, m int64) {
		if bytes.IndexByte(line, '\n') >= 0 { // a line has no line end
			return
		}
		checkField9(t, line, m)
	})
}
