package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// times are the report's figures that differ from run to run.
var times = regexp.MustCompile(`(?m)^wall time .*$|"(wall_time_s|simulate_time_s)": [^,]*,`)

// streamedSame runs the command on the file (streamed where it can be)
// and on the same bytes from standard input (read whole), and fails
// unless the reports agree but for the times.
func streamedSame(t *testing.T, path string, args ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, json := range []bool{false, true} {
		a := append([]string{}, args...)
		if json {
			a = append(a, "-json")
		}
		code, file, errs := runCmd(t, append(a, path)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", a, code, errs)
		}
		code, whole, errs := runIn(t, string(data), append(a, "-")...)
		if code != 0 {
			t.Fatalf("%v -: exit %d: %s", a, code, errs)
		}
		file, whole = times.ReplaceAllString(file, ""), times.ReplaceAllString(whole, "")
		whole = strings.ReplaceAll(whole, `"trace": "standard input"`, fmt.Sprintf("%q: %q", "trace", path))
		whole = strings.ReplaceAll(whole, "standard input", filepath.Base(path))
		if file != whole {
			t.Errorf("%v: the file's report differs from a whole read's:\n%s\n---\n%s", a, file, whole)
		}
	}
}

// TestStreamedKTH: KTH streams; its report is the whole read's.
func TestStreamedKTH(t *testing.T) {
	streamedSame(t, tracetest.Path(t, tracetest.KTH), "-policy", "easy", "-machine", "100")
}

// TestStreamedRestartAndHold covers the streaming path's exceptions on a
// made-up log of 20,000 jobs: a line earlier than the simulated instant
// and a job number that does not rise (both start again), a job without
// an estimate early (the largest estimate of the rest found by a scan
// and raised; on a lenient read that skips the line with the largest,
// start again) and late (hold); holding, on logs of
// 30,000 whose header counts the jobs right, too few and too many (the
// held rest is read as one piece with room for the header's count).
func TestStreamedRestartAndHold(t *testing.T) {
	write := func(name string, n int, header string, edit func(i int, f []int64)) string {
		return writeLog(t, name, n, header, edit)
	}
	late := func(i int, f []int64) { // (after a fifth of 90,000 lines too)
		if i == 19000 || i == 25000 {
			f[8] = -1
		}
		if i == 29990 {
			f[8] = 90000
		}
	}
	for _, c := range []struct {
		name string
		edit func(i int, f []int64)
	}{
		{"sorted", func(int, []int64) {}},
		{"earlier", func(i int, f []int64) {
			if i == 15000 {
				f[1] = 100 // long past
			}
		}},
		{"number", func(i int, f []int64) {
			if i == 12000 {
				f[0] = 5 // a duplicate of a job long ended
			}
		}},
		{"no-estimate-early", func(i int, f []int64) {
			if i == 100 || i == 19000 {
				f[8] = -1
			}
			if i == 19990 {
				f[8] = 90000 // the largest, after them
			}
		}},
		{"no-estimate-late", func(i int, f []int64) {
			if i == 17000 || i == 19000 {
				f[8] = -1
			}
			if i == 19990 {
				f[8] = 90000
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := write(c.name, 20000, "", c.edit)
			streamedSame(t, p, "-policy", "easy")
			if c.name == "no-estimate-early" { // gzip: the rest is held and scanned
				streamedSame(t, gzipped(t, p), "-policy", "easy")
			}
		})
	}
	// A malformed line that a lenient read skips, whose field 9 the
	// scan of the estimates counts: the streamed run sees a smaller
	// largest estimate and starts again whole.
	t.Run("no-estimate-skipped-line", func(t *testing.T) {
		streamedSame(t, write("skipped", 20000, "", func(i int, f []int64) {
			if i%10 == 5 && i > 100 {
				f[8] = -1 // (many: so that a wrong estimate shows in the report)
			}
			if i == 19990 {
				f[1], f[8] = notANumber, 999999 // submit "x": a malformed line
			}
		}), "-policy", "easy", "-lenient")
	})
	// A submit time of -5 is read as -1, unknown (swf.Stats.BelowUnknown):
	// the line, with the largest estimate, is a job of the streamed run
	// as of the whole one.
	t.Run("below-unknown-submit", func(t *testing.T) {
		streamedSame(t, write("below", 20000, "", func(i int, f []int64) {
			if i%10 == 5 && i > 100 {
				f[8] = -1
			}
			if i == 19990 {
				f[1], f[8] = -5, 999999
			}
		}), "-policy", "easy")
	})
	for _, c := range []struct{ name, header string }{
		{"held-counted", "; MaxJobs: 30000\n"},
		{"held-too-few", "; MaxJobs: 22000\n"},
		{"held-too-many", "; MaxRecords: 90000\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			streamedSame(t, write(c.name, 30000, c.header, late), "-policy", "easy")
		})
	}
}

// writeLog writes a made-up log of n jobs, one every 600 s, after the
// header lines given, each line's fields changed by edit first, and
// returns its path.
// notANumber is a field writeLog writes as "x", which makes its line
// malformed (a number below -1 is read as -1: swf.Stats.BelowUnknown).
const notANumber = math.MinInt64

func writeLog(t *testing.T, name string, n int, header string, edit func(i int, f []int64)) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n" + header)
	for i := range n {
		// id submit wait run alloc cpu mem req-procs est req-mem status user group exe queue part prev think
		f := []int64{int64(i + 1), int64(i * 600), -1, int64(60 + i*7%3000), int64(1 + i*13%32), -1, -1, -1,
			int64(3600 + i%5*600), -1, 1, int64(i % 17), -1, -1, -1, -1, -1, -1}
		f[2] = int64(i % 11 * 5) // a logged wait
		edit(i, f)
		for k, v := range f {
			if k > 0 {
				b.WriteByte(' ')
			}
			if v == notANumber {
				b.WriteByte('x')
				continue
			}
			fmt.Fprint(&b, v)
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), name+".swf")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTextLargestEstimate: the scan of field 9 finds the parse's largest
// estimate wherever the chunks split the lines, and gives up (ok false)
// on what only the parse can read.
func TestTextLargestEstimate(t *testing.T) {
	const body = "; MaxProcs: 64\n" +
		"1 0 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n" +
		"\n   \t\n;; a comment 9 9 9 9 9 9 9 9 999999\n" +
		"\t2  10 5 60 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n" +
		"3 20 5 60 4 -1.00 -1 4 86400 -1 1 1 -1 -1 -1 -1 -1 -1\n" +
		"4 30 5 60 4 -1 -1 4 2000000000000 -1 1 1 -1 -1 -1 -1 -1 -1\n" + // above sanitize.MaxTime: not counted
		"5 40 5 60 4 -1 -1 4 7200 -1 1 1 -1 -1 -1 -1 -1 -1"
	for _, c := range []struct {
		name, text string
		ok         bool
	}{
		{"plain", body, true},
		{"final newline", body + "\n", true},
		{"crlf", strings.ReplaceAll(body, "\n", "\r\n"), false},
		{"decimal estimate", body + "\n6 50 5 60 4 -1 -1 4 7200.00 -1 1 1 -1 -1 -1 -1 -1 -1\n", false},
		{"plus sign", body + "\n6 50 5 60 4 -1 -1 4 +90000 -1 1 1 -1 -1 -1 -1 -1 -1\n", false},
		{"short line", body + "\n6 50 5 60 4 -1 -1 4\n", false},
	} {
		want, err := largestEstimate(strings.NewReader(c.text), true)
		if err != nil {
			t.Fatal(err)
		}
		for split := 1; split <= len(c.text); split += 7 {
			var tx text
			for s := c.text; len(s) > 0; {
				n := min(split, len(s))
				tx.chunks = append(tx.chunks, []byte(s[:n]))
				s = s[n:]
			}
			got, ok := tx.largestEstimate()
			if ok != c.ok || ok && got != want {
				t.Fatalf("%s, chunks of %d: %d, %v; the parse finds %d (ok %v wanted)", c.name, split, got, ok, want, c.ok)
			}
		}
		if c.ok && want != 86400 {
			t.Errorf("%s: the parse's largest estimate %d, want 86400", c.name, want)
		}
	}
}

// TestTextLargestEstimateTabs: lines whose fields are split by tabs
// among lines split by spaces, the largest estimate behind tabs, cut into
// chunks at every size: a chunk without a tab scans for spaces alone
// (3a7f5fc), but a line begun in an earlier chunk, or a last line, may
// hold tabs the chunk does not.
func TestTextLargestEstimateTabs(t *testing.T) {
	const (
		spaces = "1 0 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n"
		tabs   = "2\t10\t5\t60\t4\t-1\t-1\t4\t90000\t-1\t1\t1\t-1\t-1\t-1\t-1\t-1\t-1"
		mixed  = "3 \t20\t 5 60 4\t-1 -1 4 86400 -1 1 1 -1 -1 -1 -1 -1 -1\n"
	)
	for _, body := range []string{
		spaces + tabs + "\n" + spaces + spaces, // a tab line among space lines
		spaces + mixed + tabs,                  // the last line, without its end
		tabs + "\n" + spaces,
	} {
		want, err := largestEstimate(strings.NewReader(body), false)
		if err != nil || want != 90000 {
			t.Fatalf("%q: the parse's largest estimate %d, %v; want 90000", body, want, err)
		}
		for split := 1; split <= len(body); split++ {
			for first := 0; first < min(split, 60); first += 7 { // the cuts shifted
				var tx text
				for s, n := body, first; len(s) > 0; n = split {
					n = max(1, min(n, len(s)))
					tx.chunks = append(tx.chunks, []byte(s[:n]))
					s = s[n:]
				}
				if got, ok := tx.largestEstimate(); !ok || got != want {
					t.Fatalf("%q in chunks of %d after %d: %d, %v; want %d", body, split, first, got, ok, want)
				}
			}
		}
	}
}

// gzipped writes a gzip copy of the file at p beside it.
func gzipped(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".gz", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p + ".gz"
}

// TestFileEstimate: on a plain file, the scan's value or, where the scan
// gives up (a decimal estimate), the parse's.
func TestFileEstimate(t *testing.T) {
	const line = "1 0 5 60 4 -1 -1 4 %s -1 1 1 -1 -1 -1 -1 -1 -1\n"
	for _, c := range []struct {
		est  string
		want int64
	}{{"7200", 86400}, {"90000.00", 90000}} {
		body := "; MaxProcs: 8\n" + fmt.Sprintf(line, "-1") + strings.Repeat(fmt.Sprintf(line, "3600"), 100000) +
			fmt.Sprintf(line, "86400") + fmt.Sprintf(line, c.est)
		p := filepath.Join(t.TempDir(), "log.swf")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fileEstimate(p, st, 0, nil, false)
		if err != nil || got != c.want {
			t.Errorf("estimate %s: %d, %v; want %d", c.est, got, err, c.want)
		}
	}
}

// TestStreamedHostileGzip: a gzip log whose rest is held (a job without
// an estimate early) that is cut short, damaged or holds a 5-MB comment
// gives the whole read's report or error.
func TestStreamedHostileGzip(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range 20000 {
		est := 3600
		if i == 50 {
			est = -1
		}
		fmt.Fprintf(&b, "%d %d 5 60 4 -1 -1 4 %d -1 1 1 -1 -1 -1 -1 -1 -1\n", i+1, i*600, est)
		if i == 10000 {
			b.WriteString("; " + strings.Repeat("x", 5<<20) + "\n")
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "log.swf")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(gzipped(t, p))
	if err != nil {
		t.Fatal(err)
	}
	corrupt := bytes.Clone(data)
	corrupt[len(corrupt)/2] ^= 0xff
	for _, c := range []struct {
		name string
		data []byte
		code int
	}{
		{"whole.gz", data, 0},
		{"cut-half.gz", data[:len(data)/2], 1},
		{"cut-end.gz", data[:len(data)-3], 1},
		{"corrupt.gz", corrupt, 1},
	} {
		q := filepath.Join(dir, c.name)
		if err := os.WriteFile(q, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCmd(t, "-policy", "easy", q)
		wcode, wout, werrs := runIn(t, string(c.data), "-policy", "easy", "-")
		out, wout = times.ReplaceAllString(out, ""), times.ReplaceAllString(wout, "")
		wout = strings.ReplaceAll(wout, "standard input", c.name)
		werrs = strings.ReplaceAll(werrs, "standard input", q)
		if code != c.code || code != wcode || out != wout || errs != werrs {
			t.Errorf("%s: exit %d (want %d) %q, a whole read's %d %q; reports:\n%s\n---\n%s", c.name, code, c.code, errs, wcode, werrs, out, wout)
		}
	}
}

// TestTailWindow: the window holds the last bytes read, from a line's
// start, wherever the reads split the text.
func TestTailWindow(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "%d %d\n", i, i*7)
	}
	body := b.String()
	for _, step := range []int{1 << 10, 3001, 1 << 16, 1 << 17, 1<<17 + 5} {
		for _, upto := range []int{10, 5000, 1<<17 - 1, 1 << 17, 1<<17 + 1, 200000, len(body)} {
			tr := &tailReader{r: strings.NewReader(body[:upto]), keep: true}
			buf := make([]byte, step)
			for {
				if _, err := tr.Read(buf); err == io.EOF {
					break
				}
			}
			w := string(tr.window())
			if !strings.HasSuffix(body[:upto], w) || len(w) > tailBytes ||
				upto <= tailBytes && len(w) != upto ||
				upto > tailBytes && (len(w) < tailBytes-20 || body[upto-len(w)-1] != '\n') {
				t.Errorf("reads of %d, %d bytes: a window of %d bytes that is not the end's lines", step, upto, len(w))
			}
		}
	}
}

// TestStreamedRaise: a job without an estimate early streams in one
// read (no error from stream, which would read the trace whole), plain
// and gzip, wherever the line falls against the pieces loaded (the
// Reader's buffer and the window: TestRaiseWindowEdges); a
// lenient read that skips the line with the largest estimate starts
// again (errRestart).
func TestStreamedRaise(t *testing.T) {
	for _, at := range []int{0, 1, 700, 1023, 1024, 1025, 3000, 16000} {
		p := writeLog(t, fmt.Sprintf("at-%d", at), 20000, "", func(i int, f []int64) {
			if i == at || i == at+5 {
				f[8] = -1
			}
			if i == 19990 {
				f[8] = 90000
			}
		})
		for _, q := range []string{p, gzipped(t, p)} {
			if err := streamedErr(t, q, "-policy", "easy"); err != nil {
				t.Errorf("%s: %v, want a streamed run", filepath.Base(q), err)
			}
		}
		if at == 3000 {
			streamedSame(t, p, "-policy", "easy")
		}
	}
	skipped := writeLog(t, "skipped", 20000, "", func(i int, f []int64) {
		if i == 150 {
			f[8] = -1
		}
		if i == 19990 {
			f[1], f[8] = notANumber, 999999
		}
	})
	for _, q := range []string{skipped, gzipped(t, skipped)} {
		if err := streamedErr(t, q, "-policy", "easy", "-lenient"); !errors.Is(err, errRestart) {
			t.Errorf("%s: %v, want errRestart", filepath.Base(q), err)
		}
	}
}

// TestField9 checks field9 as checkField9 does on random lines: short ones
// of digits, blanks and other bytes; and ones long enough for several
// rounds of its two-word loop (up to 300 bytes, mostly blanks, so that the
// ninth token often lies far in), half of them with tabs.
func TestField9(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("0123456789-.     \t\t!\x08\x00\x7f\x80\xff;\r")
	for range 100_000 {
		line := make([]byte, rng.IntN(64))
		for k := range line {
			line[k] = alphabet[rng.IntN(len(alphabet))]
		}
		checkField9(t, line, 0)
	}
	rng = rand.New(rand.NewPCG(5, 6))
	for n := range 60_000 {
		alphabet := []byte("1234567890-.;\x00\xff        ")
		if n%2 == 1 {
			alphabet = append(alphabet, "\t\t\t"...)
		}
		line := make([]byte, rng.IntN(300))
		for k := range line {
			line[k] = alphabet[rng.IntN(len(alphabet))]
		}
		checkField9(t, line, 0)
	}
}

// TestField9Words checks field9's word step (the token bytes by and-or,
// the starts counted by a multiply) on every pattern of blank, tab and
// token bytes in a word, the token bytes taking every value but a blank's
// across the patterns, at every alignment and with 0 to 4 tokens before
// the word and after it, as checkField9 does.
func TestField9Words(t *testing.T) {
	var other []byte // the 254 bytes that are not blanks
	for b := range 256 {
		if b != ' ' && b != '\t' {
			other = append(other, byte(b))
		}
	}
	prefixes := []string{"", "a", "1 ", "a b", "a b c d ", "aaaaaaa", "a\tb\tc\td\t", "\t\t 7"}
	tails := []string{"", "x", " 1 2 3 4 5 6 7 8 9", "\t1\t2\t3\t4 5 6"}
	word := make([]byte, 8)
	for p := range 6561 { // 3^8
		for k, q := 0, p; k < 8; k, q = k+1, q/3 {
			word[k] = [...]byte{' ', '\t', other[(p*31+k*7)%len(other)]}[q%3]
		}
		for _, pre := range prefixes {
			for _, tail := range tails {
				checkField9(t, append(append([]byte(pre), word...), tail...), 0)
			}
		}
	}
}

// TestStreamedWideWaits: the streamed read keeps its waits in 32 bits
// while they fit; a logged wait past 2^31 s, first or in the middle,
// makes it copy them to 64 bits and go on, and the report is the whole
// read's (the mean, median and 95th percentile of the logged waits).
func TestStreamedWideWaits(t *testing.T) {
	for _, at := range []int{0, 1500, 2999} {
		p := writeLog(t, fmt.Sprintf("wide%d", at), 3000, "; MaxJobs: 3000\n", func(i int, f []int64) {
			if i == at || i > at && i%7 == 0 {
				f[2] = 3_000_000_000 + int64(i)
			}
		})
		streamedSame(t, p, "-policy", "easy")
	}
}

// TestStreamedHostileHeader: the streamed read reserves room for the
// header's count of waits at once, a number the log controls: a count of
// 2^40 or 2^62 jobs (room capped at maxPresize, never written) beside a
// negative one, on a log of 3,000 jobs, gives the whole read's report.
// Without the cap the run dies allocating terabytes. (The whole read's
// own room for 2^22 jobs, cleared when a test's heap is reused, takes
// seconds: -short reads the first header only.)
func TestStreamedHostileHeader(t *testing.T) {
	headers := []string{"; MaxJobs: 1099511627776\n", "; MaxRecords: 4611686018427387904\n; MaxJobs: -9223372036854775808\n"}
	if testing.Short() {
		headers = headers[:1]
	}
	for i, h := range headers {
		p := writeLog(t, fmt.Sprintf("hostile%d", i), 3000, h, func(int, []int64) {})
		streamedSame(t, p, "-policy", "easy")
	}
}

// A checkpointed job's partial-execution lines (status 2, 3, 4) repeat
// its submit time where the log puts each run, hundreds of lines later:
// such a log streams (it was read whole, errRestart: SDSC-BLUE with 5% of
// its jobs checkpointed so peaked at about 8 times the memory), and its
// report, the partial lines rejected and counted, is a whole read's.
func TestStreamedPartialLines(t *testing.T) {
	const n = 3 * streamPiece
	partial := 0
	path := writeLog(t, "ckpt", n, "", func(i int, f []int64) {
		if i >= 400 && i%20 == 0 { // a run of the job 400 lines before
			f[0], f[1], f[10] = int64(i-400+1), int64((i-400)*600), int64(2+i/20%3)
			partial++
		}
	})
	o, err := parse([]string{"-policy", "easy", path}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream(context.Background(), o, func(float64) {}); err != nil {
		t.Fatalf("stream: %v (a log of partial lines behind the clock was read whole)", err)
	}
	streamedSame(t, path, "-policy", "easy")
	code, out, errs := runCmd(t, "-policy", "easy", path)
	if want := fmt.Sprintf("  partial execution %d", partial); code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
		t.Errorf("exit %d, %s: want %q in:\n%s", code, errs, want, out)
	}
}
