package swf

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestReadIntoMatchesRead reads the same input by Read and by ReadInto
// into one Job reused from line to line, set to garbage before each call
// (a demand pointer included): the same jobs, errors and Stats, in strict
// and lenient mode, and the zero Job on every error.
func TestReadIntoMatchesRead(t *testing.T) {
	in := "; Version: 2.2\n; MaxJobs: 4\n" +
		";= nodes=2 cores=32\n" +
		goodLine + "\n" +
		goodLine + "\r\n" +
		"1 2 3\n" + // malformed: 3 fields
		";= gpus=4\n" + goodLine + "\n" +
		"; a late comment\n" +
		"  7 100 -1 50 4 1.5 -1 4 60 -1 1 3 -1 -1 2 -1 -1 -1\n" +
		"8 99 0 10 1 -1 -1 1 -1 -1 0 3 1 1 1 1 -1 0" // no line end, an earlier submit
	for _, lenient := range []bool{false, true} {
		a := NewReader(strings.NewReader(in))
		b := NewReader(strings.NewReader(in))
		a.Lenient, b.Lenient = lenient, lenient
		garbage := Job{ID: 99, Submit: 42, AvgCPUTime: 3.5, ReqTime: 7, Status: 4, ThinkTime: 9, Demand: &Demand{Nodes: 3}}
		var j Job
		for k := 0; ; k++ {
			want, werr := a.Read()
			j = garbage
			err := b.ReadInto(&j)
			if !reflect.DeepEqual(j, want) || (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("lenient %v, job %d: ReadInto %+v, %v; Read %+v, %v", lenient, k, j, err, want, werr)
			}
			if err != nil {
				if err != io.EOF && lenient {
					t.Fatalf("lenient: %v", err)
				}
				var pe *ParseError
				if err != io.EOF && !errors.As(err, &pe) {
					t.Fatalf("error %v, want a *ParseError", err)
				}
				if j != (Job{}) {
					t.Fatalf("on error *j = %+v, want the zero Job", j)
				}
				break
			}
		}
		if sa, sb := a.Stats(), b.Stats(); !reflect.DeepEqual(sa, sb) {
			t.Errorf("lenient %v: Stats %+v, Read's %+v", lenient, sb, sa)
		}
	}
}
