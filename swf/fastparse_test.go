package swf

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// stale returns a scratch for parseFast as a Reader may leave it: its
// buffer all blanks (what would make its loops run past the line if it
// read past its end mark) and its values garbage.
func stale() *fastScratch { return staleWith(" ") }

// staleWith is stale with the line copy's bytes fill repeated.
func staleWith(fill string) *fastScratch {
	s := new(fastScratch)
	for i := range s.b {
		s.b[i] = fill[i%len(fill)]
	}
	for f := range s.ints {
		s.ints[f], s.fracs[f] = -77, math.NaN()
	}
	return s
}

// sameParse checks parseJob on line against parseJobScan, the parser it
// puts parseFast in front of: the same job (%#v tells -0 from 0) or the
// same error. It reports whether parseFast took the line.
func sameParse(t interface {
	Helper()
	Fatalf(string, ...any)
}, line []byte) bool {
	t.Helper()
	var fast, scan, got Job
	took := parseFast(line, &fast, stale())
	srounded, serr := parseJobScan(line, &scan)
	grounded, gerr := parseJob(line, &got, stale())
	if grounded != srounded || took && srounded != 0 {
		t.Fatalf("%q: rounded fields %b, parseJobScan %b (parseFast took it: %v)", line, grounded, srounded, took)
	}
	if took && serr != nil {
		t.Fatalf("%q: parseFast took a line parseJobScan refuses (%v): %+v", line, serr, fast)
	}
	if took && fmt.Sprintf("%#v", fast) != fmt.Sprintf("%#v", scan) {
		t.Fatalf("%q: parseFast %#v, parseJobScan %#v", line, fast, scan)
	}
	if (gerr == nil) != (serr == nil) || gerr != nil && (gerr.Error() != serr.Error() || !errors.Is(gerr, errors.Unwrap(serr)) || gerr.Field != serr.Field || gerr.Value != serr.Value) {
		t.Fatalf("%q: parseJob error %v, parseJobScan %v", line, gerr, serr)
	}
	if gerr == nil && fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", scan) {
		t.Fatalf("%q: parseJob %#v, parseJobScan %#v", line, got, scan)
	}
	return took
}

// parseFast gives parseJobScan's job on every line it takes, and parseJob
// (parseFast, else parseJobScan) gives parseJobScan's job or error on any
// line: tokens near each of parseFast's bounds (15 and 16 digits, -0,
// -1, -2, -0.5, -1.5, "5.", ".5", exponents, signs), bytes
// that are neither digits nor blanks (a '\n', the buffer's own end mark,
// inside a line), 17 to 19 fields, blanks before, between and after, lines
// around parseFast's length limit.
func TestParseFastMatchesScan(t *testing.T) {
	tokens := rapid.OneOf(
		rapid.SampledFrom([]string{"0", "-0", "-1", "-2", "1", "2", "-9", "+7", "1.", "-1.", ".5", "-.5", "-0.5",
			"-1.0", "-1.5", "-0.00", "142.00", "35100.00", "1e3", "1E3", "-", ".", "1.2.3", "1a", "0x10", "--1",
			"9999999", "99999999", "1234567.1234567", "1234567.12345678", "12345678.1", "0.1234567", "0.12345678",
			"0000001", "00000001", "\n", "1\n", "\x00", "\xff", "١", "1\r", "\r", "\v1", "1\f"}),
		rapid.StringMatching(`-?[0-9]{1,17}(\.[0-9]{0,17})?`),
		rapid.StringMatching(`[-+.0-9eE\n\x00\xff]{1,6}`),
		rapid.Custom(func(t *rapid.T) string { return fmt.Sprint(rapid.Int64().Draw(t, "int")) }),
	)
	blank := rapid.StringMatching(`[ \t]{1,4}`)
	taken, lines := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		// Half the lines are in the forms parseFast takes but for one
		// hostile token at most; the others anything.
		clean := rapid.Bool().Draw(t, "clean")
		nf, hostile := NumFields, -1 // no hostile token: a line parseFast must take
		if rapid.Bool().Draw(t, "has hostile") {
			hostile = rapid.IntRange(0, NumFields-1).Draw(t, "hostile")
		}
		if !clean {
			nf = rapid.IntRange(16, 20).Draw(t, "fields")
		}
		var sb strings.Builder
		sb.WriteString(rapid.StringMatching(`[ \t]{0,2}`).Draw(t, "lead"))
		for f := range nf {
			if f > 0 {
				sb.WriteString(blank.Draw(t, "blank"))
			}
			if clean && f != hostile || !clean && rapid.IntRange(0, 15).Draw(t, "plain") > 0 {
				if f < NumFields && floatField[f] {
					sb.WriteString(rapid.StringMatching(`-1|[0-9]{1,6}(\.[0-9]{1,3})?`).Draw(t, "tok"))
				} else {
					sb.WriteString(rapid.StringMatching(`-1|[0-9]{1,9}`).Draw(t, "tok"))
				}
			} else {
				sb.WriteString(tokens.Draw(t, "tok"))
			}
		}
		sb.WriteString(rapid.StringMatching(`[ \t]{0,2}`).Draw(t, "trail"))
		line := sb.String()
		if !clean && rapid.Bool().Draw(t, "long") { // around maxFastLine
			pad := max(0, maxFastLine-len(line)+rapid.IntRange(-3, 3).Draw(t, "over"))
			line = strings.Repeat(" ", pad/2) + line + strings.Repeat("\t", pad-pad/2)
		}
		lines++
		took := sameParse(t, []byte(line))
		if took {
			taken++
		}
		if clean && hostile < 0 && len(line) <= maxFastLine && !took {
			t.Fatalf("%q: parseFast refused a line in its own forms", line)
		}
	})
	// Asserted line by line above, not as a share of the lines drawn: under
	// -short rapid draws 20 lines, and a share of so few failed by chance.
	t.Logf("parseFast took %d of %d lines", taken, lines)
}

// TestParseFastMinusOne pins parseFast's "-1 " taken whole at its edges:
// "-1" before a blank, a tab or the line's end (its last field, no blank
// after) is -1; "-10", "-1.5", "-1e3", "-1-", "-1" before a '\r' or a 0
// byte are not "-1" and go as they went before (parseJobScan's value or
// error), in an integer field, a float field, the status and the last.
func TestParseFastMinusOne(t *testing.T) {
	base := strings.Fields("1485 733164 12 236 32 163.38 7 32 3600 5 1 233 4 3 0 2 6 8")
	for _, c := range []struct {
		tok  string
		took [4]bool // in fields 1, 6 (a float), 11 (the status), 18
	}{
		{"-1", [4]bool{true, true, true, true}},
		{"-1\t", [4]bool{true, true, true, true}},
		{"-1 \t ", [4]bool{true, true, true, true}},
		{"-10", [4]bool{false, false, true, false}},
		{"-11", [4]bool{false, false, true, false}},
		{"-1.5", [4]bool{false, false, false, false}},
		{"-1.0", [4]bool{false, true, false, false}},
		{"-1e3", [4]bool{false, false, false, false}},
		{"-1-", [4]bool{false, false, false, false}},
		{"-1\r", [4]bool{false, false, false, false}},
		{"-1\x00", [4]bool{false, false, false, false}},
		{"-1;", [4]bool{false, false, false, false}},
		{"-", [4]bool{false, false, false, false}},
	} {
		for k, f := range []int{0, 5, 10, 17} {
			fields := slices.Clone(base)
			fields[f] = c.tok
			line := []byte(strings.Join(fields, " "))
			if took := sameParse(t, line); took != c.took[k] {
				t.Errorf("%q: parseFast took it %v, want %v", line, took, c.took[k])
			}
			j := poison()
			if parseFast(line, &j, stale()) && c.tok != "-10" && c.tok != "-11" {
				v := []float64{float64(j.ID), j.AvgCPUTime, float64(j.Status), float64(j.ThinkTime)}[k]
				if v != -1 {
					t.Errorf("%q: field %d is %v, want -1", line, f+1, v)
				}
			}
		}
	}
	// "-1" the last bytes of the longest line parseFast takes (the end
	// mark right after it), and of one byte more.
	base[17] = "-1"
	last := strings.Join(base, " ")
	for _, n := range []int{maxFastLine, maxFastLine + 1} {
		line := []byte(strings.Repeat(" ", n-len(last)) + last)
		j := poison()
		if took := sameParse(t, line); took != (n <= maxFastLine) || took && (!parseFast(line, &j, stale()) || j.ThinkTime != -1) {
			t.Errorf("a line of %d bytes ending in -1: parseFast took it %v, think time %d", n, took, j.ThinkTime)
		}
	}
}
