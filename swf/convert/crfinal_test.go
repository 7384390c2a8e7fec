package convert

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestCROnlyWithFinalNewline: a log whose lines end in CR alone but
// whose last line ends in a newline (as examples/convert's copier, a
// cat, or an editor saving it leaves it) is named as CR-ended too: it was
// read as a header and no record, "0 jobs" (sacct, the Helios table, the
// Alibaba pod list) or a table without its columns, and no reason.
func TestCROnlyWithFinalNewline(t *testing.T) {
	for _, c := range []struct {
		file string
		conv func(string) (*Result, error)
	}{
		{"sacct-parsable2.txt", func(in string) (*Result, error) { return Sacct(strings.NewReader(in), Options{}) }},
		{"jobcomp.txt", func(in string) (*Result, error) { return Jobcomp(strings.NewReader(in), Options{}) }},
		{"gpu-helios.csv", func(in string) (*Result, error) { return GPUTrace(strings.NewReader(in), Options{}) }},
		{"pbs-torque.log", func(in string) (*Result, error) { return PBS(strings.NewReader(in), Options{}) }},
		{"snapshot/scontrol-show-job-o.txt", func(in string) (*Result, error) {
			_, err := QueueSnapshot(strings.NewReader(in), Options{})
			return nil, err
		}},
	} {
		b, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		in := strings.ReplaceAll(strings.TrimRight(string(b), "\n"), "\n", "\r") + "\n"
		_, err = c.conv(in)
		if fe := (*FormatError)(nil); !errors.As(err, &fe) || fe.Saw != "cr" {
			t.Errorf("%s with CR line ends and a final newline: %v; want a FormatError that saw cr", c.file, err)
		}
	}
}
