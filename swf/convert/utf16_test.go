package convert

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// An input in UTF-16 (a byte-order mark FF FE or FE FF, or without one a
// NUL beside every other byte, as an editor or Windows PowerShell's >
// saves it) is named as such, whatever format was
// asked: sacct's said its header lacked JobID, PBS's that none of its
// records was readable (each quoted with a NUL after every character).
func TestUTF16Named(t *testing.T) {
	sacct := strings.Join([]string{SacctFormat, strings.TrimSuffix(sacctLine(good("7")), "\n")}, "\n")
	le := "\xff\xfe"
	for _, r := range sacct {
		le += string([]byte{byte(r), 0})
	}
	be := "\xfe\xff"
	for _, r := range sacct {
		be += string([]byte{0, byte(r)})
	}
	// Without the mark: a NUL beside every other byte (sched/slurm's rule).
	noMark := []string{strings.TrimPrefix(le, "\xff\xfe"), strings.TrimPrefix(be, "\xfe\xff")}
	for name, conv := range map[string]func(string) error{
		"sacct":   func(in string) error { _, err := Sacct(strings.NewReader(in), Options{}); return err },
		"pbs":     func(in string) error { _, err := PBS(strings.NewReader(in), Options{}); return err },
		"jobcomp": func(in string) error { _, err := Jobcomp(strings.NewReader(in), Options{}); return err },
	} {
		for _, in := range append([]string{le, be}, noMark...) {
			err := conv(in)
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Saw != "utf-16" || !strings.Contains(err.Error(), "the input is UTF-16 text") {
				t.Errorf("%s: %v; want a FormatError that saw utf-16", name, err)
			}
		}
	}
}

// A short first line with one stray NUL is no mark of UTF-16: the
// records after it are converted, as they were before the rule came to
// sniff (a 4-byte line "ab\x00c" refused the whole jobcomp log as UTF-16
// text; UTF-16 of two characters or more has two NULs).
func TestStrayNULNotUTF16(t *testing.T) {
	text, err := os.ReadFile("testdata/jobcomp.txt")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Jobcomp(strings.NewReader(string(text)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Jobcomp(strings.NewReader("ab\x00c\n"+string(text)), Options{})
	if err != nil || len(res.Jobs) != len(plain.Jobs) || res.Report.Skipped[skipMalformed] != plain.Report.Skipped[skipMalformed]+1 {
		t.Errorf("got %v, %+v; want the %d jobs and one malformed record more", err, res, len(plain.Jobs))
	}
}
