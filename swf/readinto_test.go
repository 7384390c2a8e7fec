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

// TestReadIntoReused reads by ReadInto into one Job as each call leaves
// it, after Header has read the first job ahead: a job with a demand
// line, then a header key, a comment and a blank line, then a job
// without one, whose every field differs from the first's. The second
// job must be Read's, Demand nil, nothing left from the first.
func TestReadIntoReused(t *testing.T) {
	in := "; Version: 2.2\n;= nodes=2 gpus=4000\n" +
		"1 0 10 3600 16 142.00 35100.00 16 7200 512 1 1 1 2 3 4 5 6\n" +
		"; MaxNodes: 4\n; a comment\n\n" +
		"2 5 -1 60 4 2.5 -1 4 600 -1 0 2 -1 -1 1 -1 -1 -1\n"
	want, err := NewReader(strings.NewReader(in)).ReadAll()
	if err != nil || len(want) != 2 || want[0].Demand == nil || want[1].Demand != nil {
		t.Fatalf("ReadAll: %v, %+v", err, want)
	}
	r := NewReader(strings.NewReader(in))
	if _, err := r.Header(); err != nil {
		t.Fatal(err)
	}
	var j Job
	for k := range want {
		if err := r.ReadInto(&j); err != nil || !reflect.DeepEqual(j, want[k]) {
			t.Fatalf("job %d: ReadInto %+v, %v; want %+v", k, j, err, want[k])
		}
	}
	if err := r.ReadInto(&j); err != io.EOF || j != (Job{}) {
		t.Fatalf("at the end: %v, %+v; want io.EOF and the zero Job", err, j)
	}
	if err := r.ReadInto(&j); err != io.EOF {
		t.Fatalf("after the end: %v, want io.EOF again", err)
	}
	if st := r.Stats(); st.Jobs != 2 || st.Demands != 1 || st.LateComments != 2 || len(st.Warnings) != 1 {
		t.Fatalf("Stats %+v: want 2 jobs, 1 demand, 2 late comments, 1 warning (the late MaxNodes)", st)
	}
}
