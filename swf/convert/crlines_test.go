package convert

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestCROnlyNamed: a text log whose lines end in CR alone (classic Mac OS)
// is a FormatError that says so: sacct read it as a header and no record,
// "0 jobs" with no reason, jobcomp as one record. JSON with CR line ends
// still reads.
func TestCROnlyNamed(t *testing.T) {
	for _, c := range []struct {
		file string
		conv func(string) (*Result, error)
	}{
		{"sacct-parsable2.txt", func(in string) (*Result, error) { return Sacct(strings.NewReader(in), Options{}) }},
		{"jobcomp.txt", func(in string) (*Result, error) { return Jobcomp(strings.NewReader(in), Options{}) }},
		{"sacct-23.11.json", func(in string) (*Result, error) { return SacctJSON(strings.NewReader(in), Options{}) }},
	} {
		b, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.conv(string(b))
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.conv(strings.ReplaceAll(string(b), "\n", "\r"))
		var fe *FormatError
		switch {
		case strings.HasSuffix(c.file, ".json"):
			if err != nil || len(res.Jobs) != len(want.Jobs) {
				t.Errorf("%s with CR line ends: %v; want its %d jobs", c.file, err, len(want.Jobs))
			}
		case !errors.As(err, &fe) || fe.Saw != "cr" || !strings.Contains(err.Error(), "lines ended by CR alone"):
			t.Errorf("%s with CR line ends: %v; want a FormatError that saw cr", c.file, err)
		}
	}
}
