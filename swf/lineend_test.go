package swf

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"pgregory.net/rapid"
)

// Lines end in "\n", "\r\n" or a lone "\r" (old Mac files), in any mix;
// CR-only files used to read as one comment line and 0 jobs.
func TestLineEndings(t *testing.T) {
	header := []string{"; Version: 2.2", "; MaxProcs: 8", "; Note: a", ";       b"}
	body := []string{goodLine, "", goodLine, "  " + goodLine + "\t"}
	for _, eol := range []string{"\n", "\r\n", "\r", "\r\r\n"} {
		in := strings.Join(append(header, body...), eol) + eol
		for name, r := range map[string]*Reader{
			"whole":   NewReader(strings.NewReader(in)),
			"onebyte": NewReader(iotest.OneByteReader(strings.NewReader(in))),
		} {
			h, err := r.Header()
			if err != nil {
				t.Fatalf("%q %s: %v", eol, name, err)
			}
			jobs, err := r.ReadAll()
			if err != nil {
				t.Fatalf("%q %s: %v", eol, name, err)
			}
			if len(jobs) != 3 || h.MaxProcs != 8 || h.Version != "2.2" || len(h.Note) != 1 || h.Note[0] != "a\nb" {
				t.Errorf("%q %s: %d jobs, header %+v", eol, name, len(jobs), h)
			}
			if !slicesEqual(h.Lines, header) {
				t.Errorf("%q %s: Lines %q, want %q", eol, name, h.Lines, header)
			}
		}
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// Errors in a CR file name the right line; the last line needs no
// terminator.
func TestLineEndingsLineNumbers(t *testing.T) {
	in := "; Version: 2.2\r" + goodLine + "\r\r1 2 x\r" + goodLine
	_, err := NewReader(strings.NewReader(in)).ReadAll()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 {
		t.Fatalf("got %v, want an error on line 4", err)
	}
	r := NewReader(strings.NewReader(in))
	r.Lenient = true
	jobs, err := r.ReadAll()
	if err != nil || len(jobs) != 2 || r.Stats().Errors[0].Line != 4 {
		t.Fatalf("lenient: %d jobs, %v, %v", len(jobs), err, r.Stats().Errors)
	}
}

// A line longer than the buffer is read whole whatever its terminator,
// including a "\r\n" split across the buffer's end.
func TestLineEndingsLongLines(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		for _, pad := range []int{64<<10 - 2, 64<<10 - 1, 64 << 10, 200000} {
			note := "; Note: " + strings.Repeat("x", pad-len("; Note: "))
			in := note + eol + goodLine + eol + goodLine
			r := NewReader(strings.NewReader(in))
			h, err := r.Header()
			if err != nil {
				t.Fatal(err)
			}
			jobs, err := r.ReadAll()
			if err != nil || len(jobs) != 2 || len(h.Lines) != 1 || len(h.Lines[0]) != pad {
				t.Errorf("%q pad %d: %d jobs, %v, %d lines", eol, pad, len(jobs), err, len(h.Lines))
			}
		}
	}
}

// Property: whatever terminators separate the lines, and however the input
// is cut into reads, the reader sees the same lines.
func TestLineEndingsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lines := rapid.SliceOf(rapid.StringMatching(`[ ;a-z0-9]{0,20}`)).Draw(t, "lines")
		var b strings.Builder
		prev := ""
		for _, l := range lines {
			eols := []string{"\n", "\r\n", "\r"}
			if prev == "\r" && l == "" {
				eols = eols[1:] // "\r" "" "\n" would be one "\r\n"
			}
			prev = rapid.SampledFrom(eols).Draw(t, "eol")
			b.WriteString(l)
			b.WriteString(prev)
		}
		split := rapid.IntRange(1, 70000).Draw(t, "split")
		r := NewReader(&chunkReader{data: []byte(b.String()), n: split})
		var got []string
		for {
			l, err := r.readLine()
			if err != nil {
				break
			}
			got = append(got, string(l))
		}
		if !slicesEqual(got, lines) {
			t.Fatalf("got %q, want %q", got, lines)
		}
	})
}

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	m := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[m:]
	return m, nil
}

// A long line that arrives in small reads (gzip gives at most 32 KiB a
// read) is searched once, not from its start after each read: 8 MiB in
// 256-byte reads took 2^15 searches of up to 8 MiB (minutes); now well
// under a second.
func TestLongLineSmallReads(t *testing.T) {
	line := bytes.Repeat([]byte("7"), 8<<20)
	in := append(append([]byte("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n"), line...), "\r\n2 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\r"...)
	start := time.Now()
	r := NewReader(&chunkReader{in, 256})
	r.Lenient = true
	jobs, err := r.ReadAll()
	if err != nil || len(jobs) != 2 || r.Stats().Skipped != 1 || r.Stats().Errors[0].Line != 2 {
		t.Fatalf("%d jobs, %v, stats %+v", len(jobs), err, r.Stats())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("an 8 MiB line in 256-byte reads took %v", d)
	}
}

// A line over 16 MiB is malformed (skipped and counted in lenient mode,
// with its demand line), and its bytes are not kept: a 1 GiB line, a
// megabyte of gzip, took over 2 GiB of memory.
func TestLongLineDropped(t *testing.T) {
	job := "1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1"
	in := job + "\n;= nodes=1\n" + strings.Repeat("7", maxLine+5) + "\r" + job + "\n" + strings.Repeat(";", maxLine+1)
	for _, lenient := range []bool{false, true} {
		r := NewReader(&chunkReader{[]byte(in), 1 << 16})
		r.Lenient = lenient
		jobs, err := r.ReadAll()
		st := r.Stats()
		switch {
		case !lenient && (len(jobs) != 1 || !errors.Is(err, ErrRange) || err.(*ParseError).Line != 3):
			t.Errorf("strict: %d jobs, %v", len(jobs), err)
		case lenient && (err != nil || len(jobs) != 2 || jobs[1].Demand != nil || st.Skipped != 2 || st.Errors[1].Line != 5):
			t.Errorf("lenient: %d jobs, %v, %+v", len(jobs), err, st)
		}
		if c := cap(r.buf); c > 3*maxLine {
			t.Errorf("buffer of %d bytes", c)
		}
	}
}
