package swf

import (
	"bytes"
	"maps"
	"os"
	"strings"
	"testing"
)

// readTestdata reads a file of testdata in the given mode, failing on any
// error.
func readTestdata(t *testing.T, name string, lenient bool) (*Header, []Job, Stats) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	r.Lenient = lenient
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("lenient=%v: %v", lenient, err)
	}
	return h, jobs, r.Stats()
}

// Status codes outside -1..5 (Sandia-Ross has -2 and -4) are kept as
// written and counted per value, in strict and lenient mode; lenient mode
// used to drop those lines.
func TestOtherStatusKept(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		_, jobs, st := readTestdata(t, "ross-like.swf", lenient)
		if len(jobs) != 6 || st.Jobs != 6 || st.Skipped != 0 {
			t.Fatalf("lenient=%v: %d jobs, stats %+v; want 6 jobs, none skipped", lenient, len(jobs), st)
		}
		if jobs[1].Status != -2 || jobs[3].Status != -4 || jobs[5].Status != -2 {
			t.Errorf("lenient=%v: statuses changed: %d %d %d", lenient, jobs[1].Status, jobs[3].Status, jobs[5].Status)
		}
		want := map[Status]int{-2: 2, -4: 1}
		if st.OtherStatus != 3 || !maps.Equal(st.OtherStatusCounts, want) {
			t.Errorf("lenient=%v: OtherStatus %d %v, want 3 %v", lenient, st.OtherStatus, st.OtherStatusCounts, want)
		}
	}
}

// Other fields still reject values below -1.
func TestBelowMinusOneOnlyForStatus(t *testing.T) {
	jobs, err := NewReader(strings.NewReader("1 0 0 1 1 -1 -1 1 1 -1 -7 1 1 1 1 1 1 1\n1 0 0 1 1 -1 -1 1 1 -1 6 1 1 1 1 1 1 1\n")).ReadAll()
	if err != nil || len(jobs) != 2 || jobs[0].Status != -7 || jobs[1].Status != 6 {
		t.Fatalf("%v %+v", err, jobs)
	}
	_, err = NewReader(strings.NewReader("1 0 0 1 1 -1 -1 1 1 -1 1 -7 1 1 1 1 1 1\n")).ReadAll()
	if pe, ok := err.(*ParseError); !ok || pe.Field != 12 {
		t.Fatalf("user -7: got %v, want a field 12 error", err)
	}
}

// The per-value status counts stay bounded on hostile input, and the total
// still counts every job.
func TestOtherStatusBounded(t *testing.T) {
	var b []byte
	for i := range 1000 {
		j := Job{ID: int64(i), Status: Status(100 + i)}
		b = AppendJob(b, &j)
		b = append(b, '\n')
	}
	r := NewReader(bytes.NewReader(b))
	if _, err := r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if st.OtherStatus != 1000 || len(st.OtherStatusCounts) != maxStatusValues {
		t.Errorf("OtherStatus %d, %d values kept", st.OtherStatus, len(st.OtherStatusCounts))
	}
}

// Unknown submit times (-1) are counted apart and never make a log look
// unsorted (LLNL-Thunder has 1,190 of them and no real disorder).
func TestUnknownSubmitNotOutOfOrder(t *testing.T) {
	_, jobs, st := readTestdata(t, "thunder-like.swf", false)
	if len(jobs) != 7 || st.UnknownSubmit != 3 || st.OutOfOrder != 1 {
		t.Errorf("%d jobs, UnknownSubmit %d, OutOfOrder %d; want 7, 3, 1", len(jobs), st.UnknownSubmit, st.OutOfOrder)
	}
}

// Stats is a snapshot: reading on does not change a returned value.
func TestStatsSnapshot(t *testing.T) {
	r := NewReader(strings.NewReader("1 0 0 1 1 -1 -1 1 1 -1 -2 1 1 1 1 1 1 1\n1 0 0 1 1 -1 -1 1 1 -1 -2 1 1 1 1 1 1 1\n"))
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	if st.OtherStatusCounts[-2] != 1 || r.Stats().OtherStatusCounts[-2] != 2 {
		t.Errorf("snapshot %v, now %v", st.OtherStatusCounts, r.Stats().OtherStatusCounts)
	}
}
