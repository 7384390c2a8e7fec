package swf

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
)

// toUTF16 is s as UTF-16 with a byte-order mark, little- or big-endian,
// as an editor or Windows PowerShell's > saves a file.
func toUTF16(s string, bigEndian bool) string {
	var b strings.Builder
	put := func(u uint16) {
		if bigEndian {
			b.WriteByte(byte(u >> 8))
			b.WriteByte(byte(u))
		} else {
			b.WriteByte(byte(u))
			b.WriteByte(byte(u >> 8))
		}
	}
	put(0xfeff)
	for _, u := range utf16.Encode([]rune(s)) {
		put(u)
	}
	return b.String()
}

// A UTF-16 file is named as such at line 1, wrapping ErrSyntax: it failed
// as job number "\xff\xfe;\x00", not a number (and in lenient mode as
// every one of its lines), which did not say what was wrong.
func TestUTF16Named(t *testing.T) {
	text := "; MaxProcs: 8\n" + goodLine + "\n"
	for _, big := range []bool{false, true} {
		_, err := NewReader(strings.NewReader(toUTF16(text, big))).ReadAll()
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 1 || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "UTF-16 text") {
			t.Errorf("big-endian %v: %v; want a ParseError at line 1 naming UTF-16, wrapping ErrSyntax", big, err)
		}
		r := NewReader(strings.NewReader(toUTF16(text, big)))
		r.Lenient = true
		jobs, _ := r.ReadAll()
		if st := r.Stats(); len(jobs) != 0 || len(st.Errors) == 0 || !strings.Contains(st.Errors[0].Error(), "UTF-16 text") {
			t.Errorf("big-endian %v, lenient: %d jobs, errors %v; want none, the first naming UTF-16", big, len(jobs), st.Errors)
		}
	}
	// A UTF-8 file is read as before, byte-order mark or not, and so is a
	// first line that holds FF FE past its first bytes (a header's value
	// in Latin-1) or that is a job line read by next, not nextFast (a
	// file under 256 bytes).
	for _, in := range []string{text, "\xef\xbb\xbf" + text, goodLine + "\n", ";\xff\xfe\n" + goodLine + "\n", "; Note: \xff\xfe\n" + goodLine + "\n"} {
		if jobs, err := NewReader(strings.NewReader(in)).ReadAll(); err != nil || len(jobs) != 1 {
			t.Errorf("%q: %d jobs, %v", in[:3], len(jobs), err)
		}
	}
}

// UTF-16 is named where a second file begins too (cat a.swf b.swf, or a
// multi-member gzip): it was named at line 1 only, and the second file's
// first line failed as job number "\xff\xfe;\x00", not a number.
func TestUTF16NamedAfterFirstFile(t *testing.T) {
	first := "; MaxProcs: 8\n" + goodLine + "\n"
	for _, big := range []bool{false, true} {
		in := first + toUTF16(first, big)
		_, err := NewReader(strings.NewReader(in)).ReadAll()
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 3 || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "UTF-16 text") {
			t.Errorf("big-endian %v: %v; want a ParseError at line 3 naming UTF-16", big, err)
		}
		r := NewReader(strings.NewReader(in))
		r.Lenient = true
		jobs, _ := r.ReadAll()
		if st := r.Stats(); len(jobs) != 1 || len(st.Errors) == 0 || !strings.Contains(st.Errors[0].Error(), "line 3: UTF-16 text") {
			t.Errorf("big-endian %v, lenient: %d jobs, errors %v; want the first file's job, the first error naming UTF-16 at line 3", big, len(jobs), st.Errors)
		}
	}
}

// A UTF-16 byte-order mark at line 1 does not end the header (Lenient):
// the line is no job line. Checked with the job lines' errors, it set the
// mark of a first job line, and a header after it ("\xff\xfe\n; MaxProcs:
// 8") was read as late comments, MaxProcs 0.
func TestUTF16LineKeepsHeader(t *testing.T) {
	r := NewReader(strings.NewReader("\xff\xfe\n; MaxProcs: 8\n" + goodLine + "\n"))
	r.Lenient = true
	h, err := r.Header()
	if err != nil || h.MaxProcs != 8 {
		t.Fatalf("MaxProcs %d, %v; want 8", h.MaxProcs, err)
	}
	jobs, err := r.ReadAll()
	if st := r.Stats(); err != nil || len(jobs) != 1 || st.Skipped != 1 || st.LateComments != 0 || len(st.Warnings) != 0 {
		t.Errorf("%d jobs, %v, stats %+v; want 1 job, line 1 skipped, no late comment", len(jobs), err, st)
	}
}

// A UTF-8 byte-order mark where a second file begins (cat a.swf b.swf,
// b saved by an editor that writes one) is not text, as at line 1: the
// second file's first line, a job line or a comment, was malformed (a
// strict read failed at it).
func TestUTF8MarkAfterFirstFile(t *testing.T) {
	first := "; MaxProcs: 8\n" + goodLine + "\n"
	for _, second := range []string{goodLine + "\n", "; a second log\n" + goodLine + "\n"} {
		jobs, err := NewReader(strings.NewReader(first + "\xef\xbb\xbf" + second)).ReadAll()
		if err != nil || len(jobs) != 2 {
			t.Errorf("%q after a UTF-8 mark: %d jobs, %v; want 2, no error", second, len(jobs), err)
		}
	}
}
