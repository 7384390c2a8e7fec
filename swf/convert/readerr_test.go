package convert

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestFirstReadErrorNotEmpty: an input whose first read fails (a broken
// pipe, a disk error, examples/convert's copier refusing a second file in
// UTF-16) is that error for every format: sacct --json, slurmrestd, the
// GPU tables and the Alibaba pod list said "the input is empty (no line
// but blank ones)", the error lost.
func TestFirstReadErrorNotEmpty(t *testing.T) {
	boom := errors.New("boom: the disk failed")
	for name, conv := range map[string]func(io.Reader) (*Result, error){
		"sacct":      func(r io.Reader) (*Result, error) { return Sacct(r, Options{}) },
		"sacct-json": func(r io.Reader) (*Result, error) { return SacctJSON(r, Options{}) },
		"jobcomp":    func(r io.Reader) (*Result, error) { return Jobcomp(r, Options{}) },
		"pbs":        func(r io.Reader) (*Result, error) { return PBS(r, Options{}) },
		"snapshot": func(r io.Reader) (*Result, error) {
			_, err := QueueSnapshot(r, Options{})
			return nil, err
		},
		"nodes": func(r io.Reader) (*Result, error) {
			_, _, err := Nodes(r, Options{})
			return nil, err
		},
		"gpu":     func(r io.Reader) (*Result, error) { return GPUTrace(r, Options{}) },
		"alibaba": func(r io.Reader) (*Result, error) { return Alibaba(r, Options{}) },
	} {
		_, err := conv(iotest.ErrReader(boom))
		if !errors.Is(err, boom) || strings.Contains(err.Error(), "is empty") {
			t.Errorf("%s: first read fails: %v; want the read's error", name, err)
		}
	}
}
