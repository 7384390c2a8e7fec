package swf

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A log saved by an editor that writes a UTF-8 byte order mark: its first
// line, a header comment, was read as a job line ("line 1, field 1 (job
// number): "\ufeff;": not a number"), so every command refused the file.
func TestOpenByteOrderMark(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bom.swf")
	if err := os.WriteFile(path, []byte("\ufeff; MaxProcs: 8\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, jobs, err := ReadFile(path)
	if err != nil || len(jobs) != 1 || h.MaxProcs != 8 {
		t.Errorf("ReadFile: %d jobs, error %v; want MaxProcs 8 and 1 job", len(jobs), err)
	}
}

// An odd machine-size header: a value that is not a number ("abc"), one
// past int64 ("99999999999999999999") or a key spelled "maxprocs" is not
// read as the size (";MaxProcs:100" is, since c37eb1d), and MachineSize said the header
// had "neither MaxProcs nor MaxNodes" (every command repeats it), which
// is false: it has one, unreadable. The error names the line, so that the
// user can mend it, and is still ErrNoMachineSize.
func TestMachineSizeUnreadable(t *testing.T) {
	for _, line := range []string{"; MaxProcs: abc", "; MaxProcs: 99999999999999999999", "; maxprocs: 100", ";maxprocs:100", ";MaxProcs:100"} {
		r := NewReader(strings.NewReader(line + "\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"))
		h, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		size, err := h.MachineSize()
		if err == nil && size == 100 {
			continue // read as intended
		}
		if err == nil || strings.Contains(err.Error(), "neither MaxProcs nor MaxNodes") || !errors.Is(err, ErrNoMachineSize) {
			t.Errorf("%q: MachineSize %d, %v; want the value read, or an error naming the unreadable line", line, size, err)
		}
	}
}

// A size in another notation was read as its leading digits: "1e3", "1.5"
// and "1,024" as a machine of 1 processor, "64k" as 64, in silence. Such a
// line is unreadable and named; prose after a blank or a bracket is still
// read past, as the archive's "338 (batch partition; 512 total)".
func TestMachineSizeOtherNotation(t *testing.T) {
	for line, want := range map[string]int64{
		"; MaxProcs: 1e3":   0,
		"; MaxProcs: 1.5":   0,
		"; MaxProcs: 1,024": 0,
		"; MaxProcs: 64k":   0,
		"; MaxProcs: 1_000": 0,
		"; MaxNodes: 338 (batch partition; 512 total)": 338,
		"; MaxProcs: 128 processors":                   128,
		"; MaxProcs: 400(48 interactive)":              400,
		// Punctuation that ends the number is prose: a full stop, a
		// comma before words.
		"; MaxProcs: 128.":                   128,
		"; MaxProcs: 128, of which 64 batch": 128,
	} {
		r := NewReader(strings.NewReader(line + "\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"))
		h, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		size, err := h.MachineSize()
		switch {
		case want > 0 && (err != nil || size != want):
			t.Errorf("%q: MachineSize %d, %v; want %d", line, size, err, want)
		case want == 0 && (err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(line, "; "))):
			t.Errorf("%q: MachineSize %d, %v; want an error naming the line", line, size, err)
		}
	}
}

// A standard key without the blank after its colon is read (";MaxProcs:8"
// was "gives no machine size"); prose such as "http://host" is not a key.
func TestStandardKeyWithoutBlank(t *testing.T) {
	r := NewReader(strings.NewReader(";MaxProcs:8\n;  UnixStartTime:5\n; Information: see http://x\n;http://x.org/y\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if size, err := h.MachineSize(); err != nil || size != 8 || h.UnixStartTime != 5 || len(h.Other) != 0 {
		t.Errorf("MachineSize %d, %v, UnixStartTime %d, Other %q; want 8, 5 and no other key", size, err, h.UnixStartTime, h.Other)
	}
}

// A standard key aligned by hand, "; MaxProcs  : 64", was no key at all
// (a blank in the key), so the header had "neither MaxProcs nor MaxNodes"
// and every command refused the log. It is read; another word written so
// ("; Remark : text") is still prose, kept in no field.
func TestStandardKeyBlankBeforeColon(t *testing.T) {
	r := NewReader(strings.NewReader("; MaxProcs  : 64\n; UnixStartTime\t: 7\n; Remark : see below\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if size, err := h.MachineSize(); err != nil || size != 64 || h.UnixStartTime != 7 || len(h.Other) != 0 {
		t.Errorf("MachineSize %d, %v, UnixStartTime %d, Other %q; want 64, 7 and no other key", size, err, h.UnixStartTime, h.Other)
	}
}

// Header keys are read ignoring case, as real logs vary: "; maxprocs: 128"
// set no size (every command said the header had none), "; MAXNODES: 64"
// and "; queue: 1 batch" nothing. Lines keep the text as written, a repeat
// in another case is still a repeat (the first value kept), and a warning
// names the key as written.
func TestHeaderKeysIgnoreCase(t *testing.T) {
	const log = "; maxprocs: 128\n;MAXNODES:64\n; queue: 1 batch\n; unixStartTime: 5\n; MaxProcs: 256\n" +
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
	r := NewReader(strings.NewReader(log))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if h.MaxProcs != 128 || h.MaxNodes != 64 || len(h.Queue) != 1 || h.Queue[0] != "1 batch" || h.UnixStartTime != 5 || len(h.Other) != 0 {
		t.Errorf("MaxProcs %d, MaxNodes %d, Queue %q, UnixStartTime %d, Other %v; want 128, 64, [1 batch], 5, none",
			h.MaxProcs, h.MaxNodes, h.Queue, h.UnixStartTime, h.Other)
	}
	if h.Lines[0] != "; maxprocs: 128" || h.Lines[1] != ";MAXNODES:64" {
		t.Errorf("Lines %q; want the text as written", h.Lines)
	}
	var sb strings.Builder
	for _, w := range r.Stats().Warnings {
		sb.WriteString(w.Error() + "\n")
	}
	if ws := sb.String(); !strings.Contains(ws, "MaxProcs") || !strings.Contains(ws, "256") {
		t.Errorf("warnings %q; want the repeated MaxProcs named", ws)
	}
}

// A key line whose value is no number sets nothing, so it does not make a
// later line of the key a repeat: with keys read ignoring case, prose
// such as "; maxprocs: see below" before "; MaxProcs: 128" lost the size
// (128 before keys ignored case), and MaxNodes' 64 was taken for it.
func TestUnreadableKeyClaimsNothing(t *testing.T) {
	r := NewReader(strings.NewReader("; maxprocs: see below\n; MaxProcs: 128\n; MaxNodes: 64\n; MaxProcs: 256\n" + goodLine + "\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	size, _ := h.MachineSize()
	ws := r.Stats().Warnings
	if size != 128 || len(ws) != 2 || !errors.Is(ws[0], ErrSyntax) || ws[0].Key != "maxprocs" || !errors.Is(ws[1], ErrRepeatedKey) || ws[1].Line != 4 {
		t.Errorf("machine size %d, warnings %v; want 128, the prose kept as text and line 4 a repeat", size, ws)
	}
}

// A header after the jobs (a log written jobs first) sets nothing, and
// MachineSize says why of its size line: it was told "gives no machine
// size (want N a whole number > 0)" of "; MaxProcs: 100". A size line
// with no size in it is still said so, and an indented one under a
// multi-line entry is said to continue it, not to follow the jobs.
func TestMachineSizeLateHeader(t *testing.T) {
	for log, want := range map[string]string{
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n; MaxProcs: 100\n":                `"; MaxProcs: 100" gives no machine size: it follows the first job line`,
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n; maxnodes: 64 (of 66)\n":         `"; maxnodes: 64 (of 66)" gives no machine size: it follows the first job line`,
		"; MaxProcs: 0\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n; MaxProcs: 100\n": `"; MaxProcs: 0" gives no machine size (want`,
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n; MaxProcs: abc\n":                `"; MaxProcs: abc" gives no machine size (want`,
		// a size line among the jobs; a second header block after them
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n; MaxNodes: 64\n2 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n": `"; MaxNodes: 64" gives no machine size: it follows the first job line`,
		"; Computer: x\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n; Computer: y\n; MaxProcs: 64\n":                `"; MaxProcs: 64" gives no machine size: it follows the first job line`,
		// an indented size line under a Note, before the jobs: it
		// continues the Note (it was said to follow the first job line)
		"; Note: a\n;    MaxProcs: 100\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n": `";    MaxProcs: 100" gives no machine size: it continues the multi-line entry above it`,
	} {
		r := NewReader(strings.NewReader(log))
		if _, err := r.ReadAll(); err != nil {
			t.Fatal(err)
		}
		h, _ := r.Header()
		size, err := h.MachineSize()
		if size != 0 || !errors.Is(err, ErrNoMachineSize) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: MachineSize %d, %v; want ErrNoMachineSize saying %q", log, size, err, want)
		}
	}
}

// A multi-line entry of many continuation lines is read in time and
// memory linear in its size: each line copied the entry so far ("+="),
// and 40 000 lines under a Note (1.7 MB) took 27 s to read (the bytes
// allocated are counted here, not the time). The entry reads back whole,
// and one ignored as a repeat keeps nothing.
func TestLongContinuationLinear(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("; Note: a\n")
	for range n {
		b.WriteString(";    continuation text of a note\n")
	}
	b.WriteString("; Version: 1\n; Version: 2\n")
	for range n {
		b.WriteString(";    continuation text of a repeat\n")
	}
	b.WriteString("1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := NewReader(strings.NewReader(b.String()))
	if _, err := r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	h, _ := r.Header()
	if want := "a" + strings.Repeat("\ncontinuation text of a note", n); len(h.Note) != 1 || h.Note[0] != want || h.Version != "1" {
		t.Errorf("Note of %d bytes, Version %q; want %d bytes and 1", len(h.Note[0]), h.Version, len(want))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("reading a header of %d bytes allocated %d MB", b.Len(), alloc>>20)
	}
}

// A whole number written with a zero fraction ("UnixStartTime: 1234.0")
// was refused with "not a number", which it is; it is read. A fraction
// that is not zero, or another notation, is kept as text with a warning
// that says what it is ("not a whole number"), once. A TimeZone past a
// day either way (2^63 − 1 was read in silence, and a time plus it
// wraps) is kept as text, its warning wrapping ErrRange, once; so is a
// UnixStartTime past 2^40 s either way of 1970 (2^63 − 1 was taken, and a
// library user adding a submit time to it wrapped).
func TestHeaderFractionAndTimeZone(t *testing.T) {
	const job = "1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
	for _, c := range []struct {
		line      string
		start, tz int64
		warn      string // "" none
		is        error
	}{
		{"; UnixStartTime: 1234.0", 1234, 0, "", nil},
		{"; UnixStartTime: 1234.000 (local)", 1234, 0, "", nil},
		{"; MaxRuntime: 1234.5", 0, 0, `header MaxRuntime: "1234.5": not a whole number in plain digits; kept as text in Header.Other`, ErrSyntax},
		{"; UnixStartTime: 1234.05", 0, 0, `header UnixStartTime: "1234.05": not a whole number in plain digits; kept as text in Header.Other`, ErrSyntax},
		{"; UnixStartTime: N/A", 0, 0, `header UnixStartTime: "N/A": not a number; kept as text in Header.Other`, ErrSyntax},
		{"; TimeZone: -28800", 0, -28800, "", nil},
		{"; TimeZone: 86400", 0, 86400, "", nil},
		{"; TimeZone: 9223372036854775807", 0, 0, `header TimeZone: "9223372036854775807": value out of range (a time zone offset is at most 86400 s either way of UTC); kept as text in Header.Other`, ErrRange},
		{"; TimeZone: -86401", 0, 0, `header TimeZone: "-86401": value out of range (a time zone offset is at most 86400 s either way of UTC); kept as text in Header.Other`, ErrRange},
		{"; UnixStartTime: 1099511627776", 1 << 40, 0, "", nil},
		{"; UnixStartTime: -1", -1, 0, "", nil},
		{"; UnixStartTime: 9223372036854775807", 0, 0, `header UnixStartTime: "9223372036854775807": value out of range (a Unix start time is at most 2^40 s either way of 1970); kept as text in Header.Other`, ErrRange},
		{"; UnixStartTime: 1099511627777", 0, 0, `header UnixStartTime: "1099511627777": value out of range (a Unix start time is at most 2^40 s either way of 1970); kept as text in Header.Other`, ErrRange},
		{"; UnixStartTime: -1099511627777", 0, 0, `header UnixStartTime: "-1099511627777": value out of range (a Unix start time is at most 2^40 s either way of 1970); kept as text in Header.Other`, ErrRange},
	} {
		r := NewReader(strings.NewReader(c.line + "\n" + job))
		h, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadAll(); err != nil {
			t.Fatal(err)
		}
		st := r.Stats()
		if h.UnixStartTime != c.start || h.TimeZone != c.tz {
			t.Errorf("%q: UnixStartTime %d, TimeZone %d; want %d, %d", c.line, h.UnixStartTime, h.TimeZone, c.start, c.tz)
		}
		switch {
		case c.warn == "" && len(st.Warnings) > 0:
			t.Errorf("%q: warnings %v, want none", c.line, st.Warnings)
		case c.warn != "" && (len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0].Error(), c.warn) || !errors.Is(st.Warnings[0], c.is)):
			t.Errorf("%q: warnings %v; want one, %q, wrapping %v", c.line, st.Warnings, c.warn, c.is)
		case c.warn != "" && (len(h.Other) != 1 || h.Other[0].Value != strings.TrimSpace(c.line[strings.IndexByte(c.line, ':')+1:])):
			t.Errorf("%q: Other %v; want the value kept as text", c.line, h.Other)
		}
	}
}
