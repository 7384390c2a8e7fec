package main

import (
	"bytes"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestScanLines holds scanLines to lineEstimate's rule line by line
// (estimateRef) on texts of SWF-like lines without a tab: blank lines,
// comments, lines of 0 to 20 tokens (a line of fewer than nine before a
// longer one is what scanLines' count of lines catches: field9 reads on
// into the next line), tokens of every form the ninth can take.
func TestScanLines(t *testing.T) {
	toks := []string{"0", "1", "-1", "7200", "-7200", "1099511627776", "1099511627777",
		"999999999999999999", "1000000000000000000", "9223372036854775807", "-",
		"--5", "1.5", "12a", ";", "\x00", "\xff\x80", "00000000000000000001"}
	rapid.Check(t, func(t *rapid.T) {
		var text []byte
		wm, wok := rapid.Int64Range(-1, 1<<41).Draw(t, "m"), true
		m0 := wm
		for range rapid.IntRange(0, 12).Draw(t, "lines") {
			line := bytes.Repeat([]byte(" "), rapid.IntRange(0, 3).Draw(t, "lead"))
			switch rapid.IntRange(0, 9).Draw(t, "form") {
			case 0: // blank
			case 1:
				line = append(line, "; a comment 1 2 3 4 5 6 7 8 999999"...)
			default:
				for k := range rapid.IntRange(0, 20).Draw(t, "n") {
					if k > 0 {
						line = append(line, bytes.Repeat([]byte(" "), rapid.IntRange(1, 12).Draw(t, "sep"))...)
					}
					if rapid.IntRange(0, 3).Draw(t, "kind") == 0 {
						line = append(line, rapid.SampledFrom(toks).Draw(t, "tok")...)
					} else {
						line = strconv.AppendInt(line, rapid.Int64Range(0, 1<<40).Draw(t, "v")>>rapid.IntRange(0, 40).Draw(t, "shift"), 10)
					}
				}
			}
			line = append(line, bytes.Repeat([]byte(" "), rapid.IntRange(0, 3).Draw(t, "trail"))...)
			if wok {
				wm, wok = estimateRef(line, wm)
			}
			text = append(append(text, line...), '\n')
		}
		gm, gok := scanLines(text, m0)
		if gok != wok || gok && gm != wm {
			t.Fatalf("scanLines(%q, %d) = %d, %v; line by line %d, %v", text, m0, gm, gok, wm, wok)
		}
	})
}

// TestScanLinesShortLine: a line of three tokens before a line whose
// tokens would make its ninth a plain integer fails the scan, as it does
// line by line.
func TestScanLinesShortLine(t *testing.T) {
	text := []byte("1 2 3\n4 5 6 7 8 9 10 11 12 13\n")
	if m, ok := scanLines(text, 0); ok {
		t.Fatalf("scanLines(%q) = %d, ok; a line has 3 tokens", text, m)
	}
	if m, ok := scanLines(text[6:], 0); !ok || m != 12 {
		t.Fatalf("scanLines(%q) = %d, %v; want 12", text[6:], m, ok)
	}
}
