package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// hostileLog is a log of n jobs on 64 processors whose job at index at
// has no estimate, as has every 7th job after it, and whose job at index
// big (after at) has the log's largest estimate, 500,000 s: the jobs
// without an estimate are planned with it, so a schedule that missed it
// differs. pad(i) is appended to job i's line (blanks, or a comment line
// after it), eol ends each line.
func hostileLog(n, at, big int, eol string, pad func(i int) string) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64" + eol)
	for i := range n {
		est := int64(3600 + i%5*600)
		if i == at || i > at && (i-at)%7 == 0 {
			est = -1
		}
		if i == big {
			est = 500000
		}
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 -1 %d -1 1 %d -1 -1 -1 -1 -1 -1",
			i+1, i*300, i%11*5, 60+i*7%3000, 1+i*13%32, est, i%17)
		if pad != nil {
			b.WriteString(pad(i))
		}
		b.WriteString(eol)
	}
	return b.String()
}

// lineEnds is the byte offset just past each line of body.
func lineEnds(body string) []int {
	var ends []int
	for i := 0; i < len(body); i++ {
		if body[i] == '\n' || body[i] == '\r' && (i+1 == len(body) || body[i+1] != '\n') {
			ends = append(ends, i+1)
		}
	}
	return ends
}

// streamedErr is stream's error on the file at path (nil: it streamed in
// one read; errRestart: the command reads it whole).
func streamedErr(t *testing.T, path string, args ...string) error {
	t.Helper()
	o, err := parse(append(args, path), io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, err = stream(context.Background(), o, func(float64) {})
	return err
}

// hostileSame writes body, plain and gzip, and checks that the file's
// report is the whole read's; it returns stream's errors, plain and gzip.
func hostileSame(t *testing.T, name, body string, args ...string) [2]error {
	t.Helper()
	p := filepath.Join(t.TempDir(), name+".swf")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var errs [2]error
	for k, q := range []string{p, gzipped(t, p)} {
		streamedSame(t, q, args...)
		errs[k] = streamedErr(t, q, args...)
		if errs[k] != nil && !errors.Is(errs[k], errRestart) {
			t.Errorf("%s: %v", filepath.Base(q), errs[k])
		}
	}
	return errs
}

// TestRaiseWindowEdges: the first job without an estimate ends exactly
// at, or a byte around, the Reader's 64 KiB buffer and the 128 KiB
// window (its line padded with blanks to get there), with the largest
// estimate on the very next line, which the Reader has read but not
// parsed: the window holds it, the run streams in one read (no restart)
// and gives the whole read's report. The same with "\r\n" line ends (the
// scan cannot read them; the parse of the window and the rest decides).
func TestRaiseWindowEdges(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		for _, edge := range []int{1 << 16, 1 << 17, 3 << 16} {
			for _, d := range []int{-1, 0, 1} {
				// The last line that ends at edge+d or before, padded to
				// it (its "-1" is 2 bytes shorter than the 4 of the
				// estimates before).
				ends := lineEnds(hostileLog(4000, 4000, 4000, eol, nil))
				at := 0
				for ends[at+2]-2 <= edge+d {
					at++
				}
				pad := edge + d - (ends[at+1] - 2)
				body := hostileLog(4000, at, at+1, eol, func(i int) string {
					if i == at {
						return strings.Repeat(" ", pad)
					}
					return ""
				})
				if e := lineEnds(body)[at+1]; e != edge+d {
					t.Fatalf("the line without an estimate ends at %d, want %d", e, edge+d)
				}
				name := fmt.Sprintf("edge-%d%+d-%q", edge, d, eol)
				errs := hostileSame(t, name, body, "-policy", "easy")
				for k, err := range errs {
					if err != nil {
						t.Errorf("%s (gzip %v): %v, want one streamed read", name, k == 1, err)
					}
				}
			}
		}
	}
}

// TestRaiseWindowHostile: texts the window cannot hold whole, or that
// the scan reads otherwise than the Reader, still give the whole read's
// report, streamed in one read where they can be: a line over the
// Reader's buffer before the first job without an estimate (the buffer
// grows, its bytes not parsed yet may lie before the window, and the
// run's check of the raised estimate starts it again when it missed the
// largest), a long comment right after that job, lone '\r' line ends
// (past the window too), estimates over sanitize.MaxTime, negative or
// with a fraction, comments and blank lines after the jobs; a line a
// lenient read skips whose estimate the scan counted, submits out of
// order and a repeated job number after the raise start again
// (errRestart, then the whole path from a fresh start).
func TestRaiseWindowHostile(t *testing.T) {
	errAny := errors.New("any")
	long := func(at, n int) func(i int) string {
		return func(i int) string {
			if i == at {
				return "\n;" + strings.Repeat("x", n)
			}
			return ""
		}
	}
	cases := []struct {
		name string
		body string
		args []string
		want error // stream's, plain and gzip; errAny: either
	}{
		{"long-before", hostileLog(20000, 2500, 2501, "\n", long(100, 300<<10)), nil, errAny},
		{"long-before-far", hostileLog(20000, 2500, 4000, "\n", long(100, 300<<10)), nil, errAny},
		{"long-before-3000", hostileLog(20000, 3000, 3001, "\n", long(100, 300<<10)), nil, errAny},
		{"long-before-5000", hostileLog(20000, 5000, 5001, "\n", long(100, 300<<10)), nil, errAny},
		{"long-before-7000", hostileLog(20000, 7000, 7001, "\n", long(100, 300<<10)), nil, errAny},
		{"long-before-later", hostileLog(20000, 2500, 9000, "\n", long(100, 300<<10)), nil, errAny},
		{"long-after", hostileLog(3000, 1500, 1501, "\n", long(1500, 100<<10)), nil, nil},
		{"long-after-big", hostileLog(3000, 1500, 1502, "\n", long(1500, 100<<10)), nil, nil},
		{"cr-past-window", hostileLog(4000, 3000, 3001, "\r", nil), nil, nil},
		{"cr-first", hostileLog(4000, 0, 3001, "\r", nil), nil, nil},
		{"first-line", hostileLog(3000, 0, 2999, "\n", nil), nil, nil},
		{"over-maxtime", strings.Replace(hostileLog(3000, 500, 2000, "\n", nil), " 500000 ", " 1099511627777 ", 1), nil, nil},
		{"negative", strings.Replace(hostileLog(3000, 500, 2000, "\n", nil), " 500000 ", " -500000 ", 1), []string{"-lenient"}, nil},
		{"fraction", strings.Replace(hostileLog(3000, 500, 2000, "\n", nil), " 500000 ", " 1.5 ", 1), []string{"-lenient"}, nil},
		{"short-line", hostileLog(3000, 500, 2000, "\n", nil) + "3001 900000 1 1 1 -1 -1 -1 700000\n", []string{"-lenient"}, errRestart},
		{"comments-after", hostileLog(3000, 500, 2000, "\n", nil) + "; a comment 1 2 3 4 5 6 7 8 999999\n\n\n", nil, nil},
		{"tabs", strings.ReplaceAll(hostileLog(3000, 500, 2000, "\n", nil), " 500000 ", "\t500000\t"), nil, nil},
		{"out-of-order", strings.Replace(hostileLog(3000, 500, 2000, "\n", nil), "\n2500 749700 ", "\n2500 1 ", 1), nil, errRestart},
		{"duplicate-id", strings.Replace(hostileLog(3000, 500, 2000, "\n", nil), "\n2500 749700 ", "\n2499 749700 ", 1), nil, errRestart},
		// A partial execution's lines (status 2, 3, 4) under their
		// summary line's number, after it or before it, stream: they
		// are rejected in every mode and hold no number (they read
		// whole).
		{"partial-after", strings.Replace(hostileLog(3000, 500, 2000, "\n", nil), "\n2500 749700 ",
			"\n2499 749700 0 60 4 -1 -1 -1 3600 -1 3 1 -1 -1 -1 -1 -1 -1\n2500 749700 ", 1), nil, nil},
		{"partial-before", strings.Replace(hostileLog(3000, 500, 2000, "\n", nil), "\n2500 749700 ",
			"\n2500 749700 0 60 4 -1 -1 -1 3600 -1 2 1 -1 -1 -1 -1 -1 -1\n2500 749700 ", 1), nil, nil},
		// Lines without a number ("-1", 0) stream (they read whole, at 8
		// times the memory), among numbered ones too; a real number past
		// 10^18, which may be a made-up one's, reads whole.
		{"no-numbers", regexp.MustCompile(`(?m)^\d+ `).ReplaceAllString(hostileLog(3000, 500, 2000, "\n", nil), "-1 "), nil, nil},
		{"some-numbers", regexp.MustCompile(`(?m)^(\d*[13579]|\d*0) `).ReplaceAllString(hostileLog(3000, 500, 2000, "\n", nil), "-1 "), nil, nil},
		{"zero-numbers", regexp.MustCompile(`(?m)^\d*[05] `).ReplaceAllString(hostileLog(3000, 500, 2000, "\n", nil), "0 "), nil, nil},
		{"past-made-up", strings.Replace(regexp.MustCompile(`(?m)^\d+ `).ReplaceAllString(hostileLog(3000, 500, 2000, "\n", nil), "-1 "),
			"\n-1 749700 ", "\n1000000000000000001 749700 ", 1), nil, errRestart},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := hostileSame(t, c.name, c.body, append([]string{"-policy", "easy"}, c.args...)...)
			for k, err := range errs {
				if c.want != errAny && !errors.Is(err, c.want) {
					t.Errorf("%s (gzip %v): stream %v, want %v", c.name, k == 1, err, c.want)
				}
			}
		})
	}
}

// TestReadChunksBound: a gzip's rest is held up to its limit (maxText
// less what was read), past it errRestart (the whole path reads the
// trace in constant memory: a small gzip may inflate to gigabytes of
// blank lines), and otherwise whole, in chunks that Read lets go.
func TestReadChunksBound(t *testing.T) {
	body := strings.Repeat("1 0 5 60 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n", 50000) // 2.4 MB
	var tx text
	if err := tx.readChunks(context.Background(), strings.NewReader(body), int64(len(body))); err != nil {
		t.Fatal(err)
	}
	if len(tx.chunks) != 3 {
		t.Errorf("%d chunks of %d bytes, want 3 of at most %d", len(tx.chunks), len(body), textChunk)
	}
	held := tx.chunks // (the same array: Read lets a chunk go by clearing its slot)
	if len(held[0]) != textChunk {
		t.Errorf("a first chunk of %d bytes, want %d", len(held[0]), textChunk)
	}
	if got, _ := io.ReadAll(&tx); string(got) != body {
		t.Errorf("the text held: %d bytes, want the %d read", len(got), len(body))
	}
	for i, c := range held {
		if c != nil {
			t.Errorf("chunk %d is still held after the read", i)
		}
	}
	var over text
	if err := over.readChunks(context.Background(), strings.NewReader(body), int64(len(body))-1); err != errRestart {
		t.Errorf("a text over the limit: %v, want errRestart", err)
	}
}

// cancelAfter is a reader of n zero bytes that cancels its context once
// it has given them all.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	if c.n == 0 {
		c.cancel()
		return 0, io.EOF
	}
	k := min(len(p), c.n)
	clear(p[:k])
	c.n -= k
	return k, nil
}

// TestReadChunksInterrupt: an interrupt while a gzip's rest is inflated
// into memory stops the read at the next chunk with the context's error
// (up to maxText took seconds, with no check), and rest does not turn it
// into a restart of the whole path.
func TestReadChunksInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var tx text
	r := io.MultiReader(&cancelAfter{n: textChunk, cancel: cancel}, strings.NewReader(strings.Repeat("x", 3*textChunk)))
	if err := tx.readChunks(ctx, r, maxText); !errors.Is(err, context.Canceled) {
		t.Fatalf("readChunks after an interrupt: %v, want context.Canceled", err)
	}
	if len(tx.chunks) > 2 { // the first, and the one being read when it came
		t.Errorf("%d chunks read, want at most 2: the read goes on after the interrupt", len(tx.chunks))
	}
}

// TestFileEstimateChanged: a plain file rewritten (cut, or as long a
// second later) between the first read and the scan of its rest is not
// scanned (errRestart: the whole path reads it), and the window and the
// rest are scanned as one text.
func TestFileEstimateChanged(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.swf")
	body := "1 0 5 60 4 -1 -1 4 700 -1 1 1 -1 -1 -1 -1 -1 -1\n2 0 5 60 4 -1 -1 4 900 -1 1 1 -1 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	was, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	window := []byte("7 0 5 60 4 -1 -1 4 1200 -1 1 1 -1 -1 -1 -1 -1 -1\n")
	if m, err := fileEstimate(p, was, int64(len(body)/2), window, false); m != 1200 || err != nil {
		t.Errorf("window and rest: %d, %v; want 1200", m, err)
	}
	if m, err := fileEstimate(p, was, int64(len(body)/2), nil, false); m != 900 || err != nil {
		t.Errorf("the rest: %d, %v; want 900", m, err)
	}
	if err := os.WriteFile(p, []byte(body[:50]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := fileEstimate(p, was, 0, nil, false); err != errRestart {
		t.Errorf("a file cut after the first read: %v, want errRestart", err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	later := was.ModTime().Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := fileEstimate(p, was, 0, nil, false); err != errRestart {
		t.Errorf("a file rewritten after the first read: %v, want errRestart", err)
	}
}
