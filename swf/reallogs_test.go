package swf

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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

// The status keeps its negative codes; other fields read a value below
// -1 as -1, unknown, counted per field.
func TestBelowMinusOneOnlyForStatus(t *testing.T) {
	r := NewReader(strings.NewReader("1 0 0 1 1 -1 -1 1 1 -1 -7 1 1 1 1 1 1 1\n1 0 0 1 1 -1 -1 1 1 -1 6 1 1 1 1 1 1 1\n"))
	jobs, err := r.ReadAll()
	if err != nil || len(jobs) != 2 || jobs[0].Status != -7 || jobs[1].Status != 6 || r.Stats().BelowUnknown != 0 {
		t.Fatalf("%v %+v %+v", err, jobs, r.Stats())
	}
	r = NewReader(strings.NewReader("1 0 0 1 1 -1 -1 1 1 -1 1 -7 1 1 1 1 1 1\n"))
	jobs, err = r.ReadAll()
	if st := r.Stats(); err != nil || len(jobs) != 1 || jobs[0].User != -1 || st.BelowUnknown != 1 || st.BelowUnknownFields[11] != 1 {
		t.Fatalf("user -7: %v %+v %+v, want the job, user -1, one field 12 counted", err, jobs, st)
	}
}

// The per-value status counts stay bounded on hostile input, and the total
// still counts every job.
func TestOtherStatusBounded(t *testing.T) {
	var b []byte
	for i := range 1000 {
		j := Job{ID: int64(i), Status: Status(100 + i)}
		b = appendJob(b, &j)
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

// A header value that is not a number (Sandia-Ross: "MaxRuntime: N/A") is
// kept as text in Other and reported as a warning naming line and key, in
// strict mode too; the jobs are all read.
func TestHeaderNotANumberWarns(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		h, jobs, st := readTestdata(t, "ross-like.swf", lenient)
		if len(jobs) != 6 {
			t.Fatalf("lenient=%v: %d jobs, want 6", lenient, len(jobs))
		}
		if h.MaxRuntime != 0 || h.MaxMemory != 0 || h.MaxProcs != 1524 {
			t.Errorf("MaxRuntime %d MaxMemory %d MaxProcs %d", h.MaxRuntime, h.MaxMemory, h.MaxProcs)
		}
		wantOther := []KeyValue{{"MaxRuntime", "N/A"}, {"MaxMemory", "unknown, not recorded"}}
		if !slices.Equal(h.Other, wantOther) {
			t.Errorf("Other = %q, want %q", h.Other, wantOther)
		}
		if len(st.Warnings) != 2 || st.Skipped != 0 {
			t.Fatalf("warnings %v, skipped %d", st.Warnings, st.Skipped)
		}
		w := st.Warnings[0]
		if w.Line != 8 || w.Key != "MaxRuntime" || w.Value != "N/A" || !errors.Is(w, ErrSyntax) {
			t.Errorf("warning %+v", w)
		}
		if msg := w.Error(); !strings.Contains(msg, "line 8") || !strings.Contains(msg, "MaxRuntime") || !strings.Contains(msg, "kept as text") {
			t.Errorf("warning text %q", msg)
		}
		if st.Warnings[1].Line != 9 || st.Warnings[1].Key != "MaxMemory" {
			t.Errorf("second warning %+v", st.Warnings[1])
		}
	}
	// An integer too large for int64 is a warning too.
	r := NewReader(strings.NewReader("; MaxProcs: 99999999999999999999999\n; MaxNodes: 8\n" + goodLine + "\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := h.MachineSize(); n != 8 || len(r.Stats().Warnings) != 1 || !errors.Is(r.Stats().Warnings[0], ErrRange) {
		t.Errorf("machine size %d, warnings %v", n, r.Stats().Warnings)
	}
}

// A single-valued key given twice keeps its first value, with a warning;
// keys meant to repeat (Queue, Note, ...) and nonstandard keys collect every
// entry without one.
func TestHeaderRepeatedKeyFirstWins(t *testing.T) {
	in := `; MaxProcs: 128
; Version: 2.2
; Queue: 1 batch
; Queue: 2 debug
; Site: a
; Site: b
; MaxProcs: 64
; Version: 2.1
; Conversion: first
; Conversion: second
;       filter: user=5
; Note: kept
` + goodLine + "\n"
	for _, lenient := range []bool{false, true} {
		r := NewReader(strings.NewReader(in))
		r.Lenient = lenient
		h, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		if h.MaxProcs != 128 || h.Version != "2.2" || h.Conversion != "first" || len(h.Queue) != 2 || len(h.Other) != 2 || len(h.Note) != 1 {
			t.Errorf("header %+v", h)
		}
		var lines []int
		for _, w := range r.Stats().Warnings {
			if !errors.Is(w, ErrRepeatedKey) {
				t.Errorf("warning %v is not ErrRepeatedKey", w)
			}
			lines = append(lines, w.Line)
		}
		if !slices.Equal(lines, []int{7, 8, 10}) {
			t.Errorf("warnings on lines %v, want [7 8 10]", lines)
		}
		if w := r.Stats().Warnings[0]; w.Key != "MaxProcs" || w.Value != "64" {
			t.Errorf("warning %+v", w)
		}
		if len(h.Lines) != 12 {
			t.Errorf("%d raw lines, want 12", len(h.Lines))
		}
	}
}

// Header keys after the first job line change no field (the machine size
// a caller read from Header stays right), are kept in Lines and warned
// about, one warning each.
func TestHeaderAfterJobsIgnored(t *testing.T) {
	in := "; MaxProcs: 8\n" + goodLine + "\n; MaxProcs: 4\n; MaxNodes: 2\n; Site: x\n; just prose\n" + goodLine + "\n"
	r := NewReader(strings.NewReader(in))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil || len(jobs) != 2 {
		t.Fatalf("%d jobs, %v", len(jobs), err)
	}
	st := r.Stats()
	if h.MaxProcs != 8 || h.MaxNodes != 0 || len(h.Other) != 0 || len(h.Lines) != 5 || st.LateComments != 4 {
		t.Errorf("header %+v, LateComments %d", h, st.LateComments)
	}
	if len(st.Warnings) != 3 {
		t.Fatalf("warnings %v, want 3", st.Warnings)
	}
	for i, w := range st.Warnings {
		if !errors.Is(w, ErrLateHeader) || w.Line != 3+i {
			t.Errorf("warning %d: %v", i, w)
		}
	}
}

// Errors and warnings quote at most about 64 bytes of a bad value, cut at
// a rune boundary, so a hostile line cannot make a megabyte error.
func TestErrorValueClipped(t *testing.T) {
	huge := strings.Repeat("é", 500000)
	for _, in := range []string{
		"1 0 0 " + huge + " 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n",
		"; MaxProcs: " + huge + "\n" + goodLine + "\n",
		"; Version: 1\n; Version: " + huge + "\n" + goodLine + "\n",
		goodLine + "\n; MaxProcs: " + huge + "\n",
	} {
		r := NewReader(strings.NewReader(in))
		_, err := r.ReadAll()
		var pe *ParseError
		if err == nil {
			if len(r.Stats().Warnings) != 1 {
				t.Fatalf("no error and warnings %d", len(r.Stats().Warnings))
			}
			pe = r.Stats().Warnings[0]
		} else if !errors.As(err, &pe) {
			t.Fatalf("%v is not a *ParseError", err)
		}
		if len(pe.Value) > maxValue || !strings.HasSuffix(pe.Value, "…") || !utf8.ValidString(pe.Value) {
			t.Errorf("Value %q: %d bytes", pe.Value, len(pe.Value))
		}
		if msg := pe.Error(); len(msg) > 200 {
			t.Errorf("error is %d bytes: %.100s…", len(msg), msg)
		}
	}
	// A ParseError built by hand is clipped too, and a bad Field does not
	// panic.
	pe := &ParseError{Line: 1, Field: 99, Value: huge, Err: ErrSyntax}
	if msg := pe.Error(); len(msg) > 200 || !strings.Contains(msg, "field 99") {
		t.Errorf("error %.100q", msg)
	}
	if got := clip("short"); got != "short" {
		t.Errorf("clip(short) = %q", got)
	}
}

// A line with very many fields is reported by count, without quoting it.
func TestFieldCountHuge(t *testing.T) {
	_, err := NewReader(strings.NewReader(strings.Repeat("1 ", 1000000))).ReadAll()
	if !errors.Is(err, ErrFieldCount) || !strings.Contains(err.Error(), "1000000") || len(err.Error()) > 100 {
		t.Errorf("got %v", err)
	}
}
