package swf

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// readOut is all a Reader gives: the jobs, the header, the stats and the
// error that ended reading.
type readOut struct {
	Jobs   []Job
	Header Header
	Stats  Stats
	Err    string
}

func readOutOf(rd *Reader, lenient bool) readOut {
	rd.Lenient = lenient
	var o readOut
	h, err := rd.Header()
	for err == nil {
		var j Job
		if err = rd.ReadInto(&j); err == nil {
			o.Jobs = append(o.Jobs, j)
		}
	}
	o.Header, o.Stats, o.Err = *h, rd.Stats(), fmt.Sprint(err)
	return o
}

// fusedSeeds are inputs for FuzzFusedMatchesLines: archive lines and
// every kind of line nextFast leaves to readLine.
var fusedSeeds = []string{
	" 1485   733164     12    236   32 163.38    -1   32   3600    -1  1 233  -1  -1  0 -1 -1 -1\n",
	goodLine + "\n; MaxProcs: 4\n" + goodLine + "\n",
	goodLine + "\r\n",
	goodLine + "\r",
	goodLine + "\r" + goodLine + "\n",
	goodLine + "\r" + goodLine + "\n\n1 2\n", // a blank line after a line nextFast takes after a lone CR
	goodLine + "\n\n \t\n",
	"\xef\xbb\xbf" + goodLine + "\n",
	";= nodes=1 gpus=4\n" + goodLine + "\n;= cores=2\n",
	goodLine + " 1\n1 2 3\n" + goodLine,
	"\t" + goodLine + " \t\n",
	goodLine + strings.Repeat(" ", 250) + "\n",
	strings.Repeat(" ", 300) + "\n",
	strings.Repeat("1", 300) + "\n",
	"1 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
	"1 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -\n1 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\r\n",
	"1 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1\n1 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -10\n",
}

// FuzzFusedMatchesLines holds the Reader's two paths to each other:
// nextFast, which parses a line where it lies in the buffer, and readLine
// with parseJob. One-byte reads leave at most a byte unread after each
// line, so nextFast (which wants 258) never takes a line there: those
// reads are the line-by-line path. The input, repeated to some 700 bytes,
// is read whole, in reads of varied sizes and through buffers from 1 byte
// up (lines cut at every place by a refill); each must give the same
// jobs, header, stats and error, in strict and lenient mode.
func FuzzFusedMatchesLines(f *testing.F) {
	for i, s := range fusedSeeds {
		f.Add([]byte(s), uint16(300+i*50), uint8(i))
	}
	// A '-' last in a line, in the file, or at the end of parseLine's
	// window (which loads the two bytes after a '-' at once: b[254] is
	// the last a '-' can take), in lines of 255 to 259 bytes, through
	// buffers of 256 to 265 bytes.
	head := goodLine[:len(goodLine)-2] // 17 fields and a blank
	line := func(n int, tail string) string { return head + strings.Repeat(" ", n-len(head)-len(tail)) + tail }
	for n := 255; n <= 259; n++ {
		for k, s := range []string{
			line(n, "-1") + "\n" + goodLine + "\n",
			line(n, "-") + "\n1 \n" + goodLine + "\n",
			line(254, "-") + "1 1 1"[:n-254] + "\n1\n",
			goodLine + "\n" + line(n, "-"),
			goodLine + "\n" + line(n, "-1"),
			goodLine + "\n" + line(n, "-1\r") + "\n",
		} {
			f.Add([]byte(s), uint16(n+k), uint8(n-255+k))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint16, step uint8) {
		in := data
		for len(in) < 700 && len(data) > 0 {
			in = append(in, data...)
		}
		sizes := []int{int(step) + 1, 0, int(step)*7%97 + 1, 257}
		for _, lenient := range []bool{false, true} {
			want := readOutOf(NewReader(iotest.OneByteReader(bytes.NewReader(in))), lenient)
			whole := NewReader(bytes.NewReader(in))
			small := NewReader(&eofReads{plannedReads{b: in, sizes: sizes}})
			small.buf = make([]byte, 1+int(size)%1024)
			for name, rd := range map[string]*Reader{"whole": whole, "small": small} {
				if got := readOutOf(rd, lenient); !reflect.DeepEqual(got, want) {
					t.Fatalf("lenient %v, %s reads (buffer %d): %+v\nline by line: %+v", lenient, name, len(small.buf), got, want)
				}
			}
		}
	})
}

// nextFast takes every job line of an archive log that lies whole in the
// buffer with 258 bytes ahead: parseFast's copy of a line (fastScratch.b)
// stays unwritten.
func TestNextFastTakesArchiveLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 100\n")
	for i := range 500 {
		fmt.Fprintf(&b, "%5d %8d %6d %6d %4d %6.2f -1 %4d %6d -1 1 %3d -1 -1 1 -1 -1 -1\n", i+1, 100*i, i%7, 3600+i, 1+i%64, float64(i)/4, 1+i%64, 7200, i%40)
	}
	b.WriteString(strings.Repeat("; a trailer longer than 256 bytes\n", 10))
	rd := NewReader(strings.NewReader(b.String()))
	jobs, err := rd.ReadAll()
	if err != nil || len(jobs) != 500 {
		t.Fatalf("%d jobs, %v", len(jobs), err)
	}
	if rd.fast.b != [len(rd.fast.b)]byte{} {
		t.Errorf("a job line went by readLine and parseFast")
	}
	want := readOutOf(NewReader(iotest.OneByteReader(strings.NewReader(b.String()))), false)
	if got := readOutOf(NewReader(strings.NewReader(b.String())), false); !reflect.DeepEqual(got, want) {
		t.Errorf("nextFast and the line-by-line path differ")
	}
}

// nextFast takes a job line of up to 240 bytes (maxFastLine, to which
// parseFast is fuzzed against parseJobScan) with 258 bytes unread from
// its start (parseLine's window: 256 bytes and the two after a '-'),
// and leaves any other to readLine: a line of 241 to 254 bytes, which
// parseLine would take, one whose '\n' would be the window's last byte
// or past it, and a line with fewer than 258 bytes unread (a buffer's
// end). A line it takes moves the read position past its '\n' and counts
// a line; one it leaves moves nothing, and the buffer is as it was.
func TestNextFastLineLimit(t *testing.T) {
	lineOf := func(n int) string { // goodLine (ending in "-1") padded in front to n bytes
		return strings.Repeat(" ", n-len(goodLine)) + goodLine
	}
	for _, c := range []struct {
		n, after int // the line's length without its '\n'; bytes read after the '\n'
		took     bool
	}{
		{100, 157, true}, {100, 156, false},
		{239, 18, true}, {240, 17, true}, {240, 16, false}, {240, 500, true},
		{241, 500, false}, {254, 500, false}, {255, 500, false}, {256, 500, false},
		{257, 500, false}, {258, 500, false}, {259, 500, false},
	} {
		in := lineOf(c.n) + "\n" + strings.Repeat(goodLine+"\n", c.after/len(goodLine+"\n")+1)[:c.after]
		rd := NewReader(strings.NewReader(in))
		rd.fill()
		if rd.wpos != len(in) {
			t.Fatalf("%d bytes read of %d", rd.wpos, len(in))
		}
		before := slices.Clone(rd.buf[:rd.wpos])
		var j Job
		took := rd.nextFast(&j)
		if took != c.took {
			t.Errorf("line of %d bytes, %d after: taken %v, want %v", c.n, c.after, took, c.took)
		}
		if took && (rd.rpos != c.n+1 || rd.line != 1 || j.ID != 1 || j.ThinkTime != -1) ||
			!took && (rd.rpos != 0 || rd.line != 0) {
			t.Errorf("line of %d bytes, %d after: taken %v, position %d, line %d, job %+v", c.n, c.after, took, rd.rpos, rd.line, j)
		}
		if !bytes.Equal(rd.buf[:rd.wpos], before) {
			t.Errorf("line of %d bytes: the buffer changed", c.n)
		}
		// Whatever path took it, the Reader gives the line-by-line result.
		want := readOutOf(NewReader(iotest.OneByteReader(strings.NewReader(in))), false)
		if got := readOutOf(NewReader(strings.NewReader(in)), false); !reflect.DeepEqual(got, want) {
			t.Errorf("line of %d bytes, %d after: %+v, line by line %+v", c.n, c.after, got, want)
		}
	}
}

// After a line that ended in '\r', nextFast leaves the next line to
// readLine without parsing it (parseLine writes the scratch's fields as
// it goes): a CRLF or lone-CR file's lines were parsed twice.
func TestNextFastSkipsAfterCR(t *testing.T) {
	for _, end := range []string{"\r\n", "\r"} {
		rd := NewReader(strings.NewReader(strings.Repeat(goodLine+end, 40)))
		var j Job
		for k := range 3 {
			if err := rd.ReadInto(&j); err != nil {
				t.Fatal(err)
			}
			for f := range rd.fast.ints {
				rd.fast.ints[f] = 12345
			}
			if rd.nextFast(&j) || rd.fast.ints[0] != 12345 {
				t.Errorf("%q, after line %d: nextFast parsed the next line", end, k+1)
			}
		}
	}
}

// A lone '\r' or a "\r\n" in a "\n" file turns nextFast off for the next
// line only (line 2 ends in one: parseLine refuses it, and line 3 goes by
// readLine).
func TestNextFastBackAfterCR(t *testing.T) {
	for _, end := range []string{"\r\n", "\r"} {
		in := goodLine + "\n" + goodLine + end + strings.Repeat(goodLine+"\n", 40)
		rd := NewReader(strings.NewReader(in))
		var j Job
		for k := range 5 {
			if err := rd.ReadInto(&j); err != nil {
				t.Fatal(err)
			}
			rpos := rd.rpos
			if took := rd.nextFast(&j); took != (k >= 2) {
				t.Errorf("%q, after line %d: nextFast took the next line %v", end, k+1, took)
			} else if took {
				rd.rpos, rd.line = rpos, rd.line-1 // (as ReadInto will read it)
			}
		}
	}
}
