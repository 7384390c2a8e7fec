package swf

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"pgregory.net/rapid"
)

// plannedReads returns at most the sizes in sizes in turn (cycling), 0
// included (a read of nothing and no error, which the Reader retries).
type plannedReads struct {
	b     []byte
	sizes []int
	i     int
}

func (p *plannedReads) Read(q []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, nil
	}
	n := p.sizes[p.i%len(p.sizes)]
	p.i++
	k := copy(q[:min(len(q), n)], p.b)
	p.b = p.b[k:]
	return k, nil
}

// eofReads is plannedReads ending in io.EOF with the last bytes, as
// some readers do.
type eofReads struct{ plannedReads }

func (e *eofReads) Read(q []byte) (int, error) {
	if len(e.b) == 0 {
		return 0, io.EOF
	}
	k, _ := e.plannedReads.Read(q)
	if len(e.b) == 0 && e.i%2 == 0 {
		return k, io.EOF // the last bytes with io.EOF, every other time
	}
	return k, nil
}

// Property: lines of any length around the buffer's (64 KiB), ended by
// "\n", "\r\n" or a lone "\r" in any mix, in reads of varied sizes (0
// included, and a last read that carries io.EOF), split into exactly the
// lines written; and the job lines among them give exactly their jobs.
func TestLineSplitProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nl := rapid.IntRange(0, 12).Draw(t, "nlines")
		var b strings.Builder
		var lines []string
		jobs := 0
		prev := ""
		for i := range nl {
			var l string
			switch rapid.IntRange(0, 4).Draw(t, "kind") {
			case 0:
				l = ""
			case 1:
				l = fmt.Sprintf("%d 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1", i+1)
				jobs++
			case 2:
				n := rapid.OneOf(rapid.IntRange(1, 40), rapid.IntRange(64<<10-3, 64<<10+2), rapid.IntRange(128<<10-3, 128<<10+2)).Draw(t, "len")
				l = ";" + strings.Repeat("c", n-1)
			default:
				l = "; note " + strconv.Itoa(i)
			}
			eols := []string{"\n", "\r\n", "\r"}
			if prev == "\r" && l == "" {
				eols = eols[1:] // "\r" "" "\n" would be one "\r\n"
			}
			last := i == nl-1 && l != "" && rapid.Bool().Draw(t, "unterminated")
			if last {
				prev = ""
			} else {
				prev = rapid.SampledFrom(eols).Draw(t, "eol")
			}
			lines = append(lines, l)
			b.WriteString(l)
			b.WriteString(prev)
		}
		sizes := rapid.SliceOfN(rapid.OneOf(rapid.IntRange(0, 3), rapid.IntRange(1, 200), rapid.IntRange(30000, 70000)), 1, 6).Draw(t, "sizes")
		if slicesAll(sizes, 0) {
			sizes = append(sizes, 1)
		}
		mk := func() *Reader { return NewReader(&eofReads{plannedReads{b: []byte(b.String()), sizes: sizes}}) }
		r := mk()
		var got []string
		for {
			l, err := r.readLine()
			if err != nil {
				if err != io.EOF {
					t.Fatalf("readLine: %v", err)
				}
				break
			}
			got = append(got, string(l))
		}
		if !slicesEqual(got, lines) || len(got) != len(lines) {
			t.Fatalf("got %d lines, want %d", len(got), len(lines))
		}
		r = mk()
		all, err := r.ReadAll()
		if err != nil || len(all) != jobs {
			t.Fatalf("%d jobs, %v; want %d", len(all), err, jobs)
		}
	})
}

func slicesAll(s []int, v int) bool {
	for _, x := range s {
		if x != v {
			return false
		}
	}
	return true
}

// Lines at and just over the 16 MiB limit, whatever their terminator and
// however the reads cut them (a "\r\n" may straddle the point where a long
// line's bytes are dropped): a line of maxLine bytes is read (a comment,
// kept), a longer one is one error on its own line, in strict and lenient
// mode, and the job lines around them are neither lost nor added.
func TestLongLineLimitEndings(t *testing.T) {
	if testing.Short() {
		t.Skip("reads some 1 GiB of 16 MiB lines")
	}
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		for _, n := range []int{maxLine, maxLine + 1, maxLine + 2, maxLine + 64<<10 + 1} {
			in := goodLine + eol + ";" + strings.Repeat("x", n-1) + eol + goodLine + eol + goodLine
			for _, size := range []int{1 << 16, 32<<10 - 1, 1 << 22} {
				for _, lenient := range []bool{false, true} {
					r := NewReader(&chunkReader{[]byte(in), size})
					r.Lenient = lenient
					jobs, err := r.ReadAll()
					name := fmt.Sprintf("%q len %d reads %d lenient %v", eol, n, size, lenient)
					switch {
					case n <= maxLine && (err != nil || len(jobs) != 3):
						t.Errorf("%s: %d jobs, %v", name, len(jobs), err)
					case n > maxLine && !lenient:
						var pe *ParseError
						if len(jobs) != 1 || !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrRange) {
							t.Errorf("%s: %d jobs, %v", name, len(jobs), err)
						}
					case n > maxLine && lenient:
						st := r.Stats()
						if err != nil || len(jobs) != 3 || st.Skipped != 1 || st.Errors[0].Line != 2 {
							t.Errorf("%s: %d jobs, %v, %+v", name, len(jobs), err, st)
						}
					}
				}
			}
		}
	}
}

// The byte kept when a long line's bytes are dropped may be a lone '\r',
// the file's first: it ends the line (one-byte reads make it the last
// byte read when the drop comes), else the long line would swallow the
// job line after it.
func TestLongLineDropKeepsCR(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 16 MiB line a byte at a time")
	}
	in := goodLine + "\n;" + strings.Repeat("x", maxLine) + "\r" + goodLine + "\n"
	r := NewReader(iotest.OneByteReader(strings.NewReader(in)))
	r.Lenient = true
	jobs, err := r.ReadAll()
	if st := r.Stats(); err != nil || len(jobs) != 2 || st.Skipped != 1 || st.Errors[0].Line != 2 {
		t.Fatalf("%d jobs, %v, %+v", len(jobs), err, st)
	}
}
