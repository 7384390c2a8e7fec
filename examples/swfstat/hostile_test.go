package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// swfstat counts what the simulators reject and would otherwise go
// unseen: job numbers an earlier line has, and submits past 2^40 s (which
// made the span 2^63 s and the offered load meaningless; they are now
// left out of both). A -lenient run that could read no line at all is an
// error, as simulate's is, not a summary of 0 jobs.
func TestHostileLinesCounted(t *testing.T) {
	log := "; MaxProcs: 10\n" +
		"1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 100 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"1 200 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"3 9223372036854775000 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"
	var out, errs bytes.Buffer
	s := summaryOf(t, log)
	if s.Jobs != 4 || s.DuplicateIDs != 1 || s.FarSubmits != 1 || s.SubmitSpan != 200 || s.OfferedLoad == nil || *s.OfferedLoad != 0.15 {
		t.Errorf("%+v", s)
	}
	out.Reset()
	run(context.Background(), []string{"-"}, strings.NewReader(log), &out, &errs)
	for _, want := range []string{"duplicate job numbers  1", "submits past 2^40 s    1", "submit span            200 s"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	errs.Reset()
	code := run(context.Background(), []string{"-lenient", "-"}, strings.NewReader("x y z\n\x00\x01\n"), &out, &errs)
	if code != 1 || out.Len() != 0 || !strings.Contains(errs.String(), "standard input: no job line could be read: 2 malformed lines skipped") {
		t.Errorf("-lenient, nothing readable: exit %d, %q, %q", code, out.String(), errs.String())
	}
	// A file is named, as every run error names it (it was not).
	bad := filepath.Join(t.TempDir(), "bad.swf")
	if err := os.WriteFile(bad, []byte("x y z\n\x00\x01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errs.Reset()
	code = run(context.Background(), []string{"-lenient", bad}, strings.NewReader(""), &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), bad+": no job line could be read") {
		t.Errorf("-lenient %s, nothing readable: exit %d, %q", bad, code, errs.String())
	}
}

// A header UnixStartTime that is no Unix time (negative) is said to be
// so, not printed as the year 292277026596 nor left out; one past 2^40 s
// either way of 1970 is the reader's header warning (kept as text), as
// every numeric header value out of range is.
func TestUnixStartTimeOutOfRange(t *testing.T) {
	for u, want := range map[string]string{
		"-843480031":          "-843480031 (not a Unix time in (0, 2^40]",
		"9223372036854775807": `header UnixStartTime: "9223372036854775807": value out of range (a Unix start time is at most 2^40 s either way of 1970)`,
	} {
		log := "; MaxProcs: 10\n; UnixStartTime: " + u + "\n1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"
		var out, errs bytes.Buffer
		run(context.Background(), []string{"-"}, strings.NewReader(log), &out, &errs)
		if !strings.Contains(out.String()+errs.String(), want) || strings.Contains(out.String(), "log starts") {
			t.Errorf("%s:\n%s%s", u, out.String(), errs.String())
		}
	}
}

// Header text that is not printable UTF-8 (an escape sequence, a NUL,
// bytes that are not UTF-8) is printed quoted, never raw to the terminal.
func TestHeaderTextQuoted(t *testing.T) {
	log := "; Computer: A\x1b]0;pwned\aB\x00C\n; Installation: \xff\xfe\n; MaxQueues: 1\n; Queue: 1 q\x1b[2J\n; MaxProcs: 4\n" +
		"1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-"}, strings.NewReader(log), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if strings.ContainsAny(out.String(), "\x1b\x00\a") || strings.Contains(out.String(), "\xff") || !strings.Contains(out.String(), `"A\x1b]0;pwned\aB\x00C", "\xff\xfe"`) ||
		!strings.Contains(out.String(), `"q\x1b[2J"`) {
		t.Errorf("%q", out.String())
	}
}

// A gzip log on standard input was read as SWF text ("line 1, field 1
// (job number): \x1f\x8b…"), though a gzip file is read; and a truncated
// one says so.
func TestGzipStdin(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("; MaxProcs: 10\n1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"))
	zw.Close()
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-", "-json"}, bytes.NewReader(z.Bytes()), &out, &errs); code != 0 || !strings.Contains(out.String(), `"jobs": 1`) {
		t.Errorf("exit %d, %s%s; want 1 job", code, out.String(), errs.String())
	}
	errs.Reset()
	if code := run(context.Background(), []string{"-"}, bytes.NewReader(z.Bytes()[:z.Len()-10]), &out, &errs); code != 1 || !strings.Contains(errs.String(), "truncated") {
		t.Errorf("truncated: exit %d, %q; want 1 saying truncated", code, errs.String())
	}
	// A damaged gzip whose garbage is a malformed line before its checksum
	// fails: the checksum's error leads, as for a file.
	z.Reset()
	zw = gzip.NewWriter(&z)
	zw.Write([]byte("; MaxProcs: 10\n1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n1 2 3\n"))
	zw.Close()
	bad := bytes.Clone(z.Bytes())
	bad[len(bad)-8] ^= 0xff // the CRC-32
	errs.Reset()
	if code := run(context.Background(), []string{"-"}, bytes.NewReader(bad), &out, &errs); code != 1 || !strings.Contains(errs.String(), "gzip data corrupt") || !strings.Contains(errs.String(), "line 3") {
		t.Errorf("damaged: exit %d, %q; want 1 with the gzip error, then line 3", code, errs.String())
	}
}

// Zero bytes after the last gzip member (a tape's or dd's padding) are
// ignored, as gzip(1) ignores them, and now said: "512 zero bytes after the
// last gzip member ignored" and -json's trailing_zero_bytes, on a file
// and on standard input (the report said nothing of them).
func TestGzipTrailingZeros(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("; MaxProcs: 10\n1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"))
	zw.Close()
	padded := append(bytes.Clone(z.Bytes()), make([]byte, 512)...)
	path := filepath.Join(t.TempDir(), "padded.swf.gz")
	if err := os.WriteFile(path, padded, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arg  string
		in   []byte
		want int64
	}{{path, nil, 512}, {"-", padded, 512}, {"-", z.Bytes(), 0}} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{c.arg}, bytes.NewReader(c.in), &out, &errs)
		if said := strings.Contains(out.String(), "gzip padding          512 zero bytes after the last gzip member ignored\n"); code != 0 || said != (c.want > 0) {
			t.Errorf("%s (%d bytes): exit %d, text:\n%s%s", c.arg, len(c.in), code, out.String(), errs.String())
		}
		out.Reset()
		var r struct {
			Zeros *int64 `json:"trailing_zero_bytes"`
		}
		if code := run(context.Background(), []string{c.arg, "-json"}, bytes.NewReader(c.in), &out, &errs); code != 0 || json.Unmarshal(out.Bytes(), &r) != nil || r.Zeros == nil || *r.Zeros != c.want {
			t.Errorf("%s (%d bytes): exit %d, -json %s; want trailing_zero_bytes %d", c.arg, len(c.in), code, out.String(), c.want)
		}
	}
}

// The job lines earlier than the line before them are -json's out_of_order, the
// key simulate (reader.out_of_order) and replay use for the same count
// (swf.Stats.OutOfOrder); it was out_of_order_submits here.
func TestOutOfOrderKey(t *testing.T) {
	log := "; MaxProcs: 10\n" +
		"1 100 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 50 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"3 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-", "-json"}, strings.NewReader(log), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil || m["out_of_order"] != 2.0 || m["out_of_order_submits"] != nil {
		t.Errorf("%v: out_of_order %v, out_of_order_submits %v; want 2 and none", err, m["out_of_order"], m["out_of_order_submits"])
	}
}

// A run time or size past 2^40 (which every simulator rejects as out of
// range) is counted and left out of the offered load, as a far submit is:
// one line with a run time of 2^63 s made the load 2.9e18 %.
func TestFarWorkLeftOutOfLoad(t *testing.T) {
	log := "; MaxProcs: 10\n" +
		"1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 100 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"3 150 0 9223372036854775000 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"4 160 0 100 9223372036854775000 -1 -1 9223372036854775000 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"5 200 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"
	var out, errs bytes.Buffer
	s := summaryOf(t, log)
	if s.Jobs != 5 || s.FarWork != 2 || s.OfferedLoad == nil || *s.OfferedLoad != 0.15 {
		t.Errorf("jobs %d, far work %d, load %v; want 5, 2, 0.15", s.Jobs, s.FarWork, s.OfferedLoad)
	}
	out.Reset()
	run(context.Background(), []string{"-"}, strings.NewReader(log), &out, &errs)
	if want := "run time or size past 2^40  2"; !strings.Contains(out.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, out.String())
	}
}

// Jobs asking more processors than the header's machine, which every
// simulator rejects, are counted in the text and -json (a held-out log
// whose header undersizes its machine lost them with no word from
// swfstat); partial lines are not jobs; no machine size, no count.
func TestLargerThanMachineCounted(t *testing.T) {
	log := "; MaxProcs: 10\n" +
		"1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 100 0 100 12 -1 -1 12 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 100 0 100 12 -1 -1 12 200 -1 2 1 1 1 1 -1 -1 -1\n" +
		"3 150 0 100 -1 -1 -1 11 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"4 160 0 100 10 -1 -1 10 200 -1 1 1 1 1 1 -1 -1 -1\n"
	if s := summaryOf(t, log); s.LargerThan != 2 {
		t.Errorf("larger_than_machine %d, want 2 (jobs 2 and 3)", s.LargerThan)
	}
	var out, errs bytes.Buffer
	run(context.Background(), []string{"-"}, strings.NewReader(log), &out, &errs)
	if want := "larger than machine   2 (jobs asking more processors"; !strings.Contains(out.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, out.String())
	}
	noSize := strings.Replace(log, "; MaxProcs: 10\n", "", 1)
	if s := summaryOf(t, noSize); s.LargerThan != 0 {
		t.Errorf("no machine size: larger_than_machine %d, want 0", s.LargerThan)
	}
	out.Reset()
	run(context.Background(), []string{"-"}, strings.NewReader(log[:strings.Index(log, "2 100")]), &out, &errs)
	if strings.Contains(out.String(), "larger than machine") {
		t.Errorf("a log without such a job says it:\n%s", out.String())
	}
}

// Statuses outside -1..5 are split by value in -json as in the text
// ("-5: 1, 7: 1, 99: 2"); -json had the total only.
func TestOtherStatusByValue(t *testing.T) {
	log := "; MaxProcs: 10\n"
	for i, st := range []int{1, -5, 7, 99, 99, 0, 5} {
		log += strings.Join([]string{itoa(i + 1), itoa(10 * i), "0 100 1 -1 -1 1 200 -1", itoa(st), "1 1 1 1 -1 -1 -1\n"}, " ")
	}
	s := summaryOf(t, log)
	want := map[string]int{"-5": 1, "7": 1, "99": 2}
	if s.OtherStatus != 4 || len(s.OtherStatusBy) != len(want) {
		t.Fatalf("status_outside_standard %d, by value %v; want 4, %v", s.OtherStatus, s.OtherStatusBy, want)
	}
	for k, n := range want {
		if s.OtherStatusBy[k] != n {
			t.Errorf("by value %v, want %v", s.OtherStatusBy, want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A log with no job whose size and run time are both known (every run
// time −1) had an offered load of "0.0%", as if the machine had been
// idle; it is unknown, and -json leaves it out. A header that names the
// computer alone printed "machine  X, ".
func TestOfferedLoadUnknown(t *testing.T) {
	p := filepath.Join(t.TempDir(), "norun.swf")
	log := "; Computer: X\n; MaxProcs: 8\n1 0 0 -1 2 -1 -1 2 100 -1 1 1 1 1 1 -1 -1 -1\n2 50 0 -1 2 -1 -1 2 100 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Exec(run, "", p)
	if r.Code != 0 || !regexp.MustCompile(`(?m)^offered load +unknown`).MatchString(r.Stdout) || !regexp.MustCompile(`(?m)^machine +X$`).MatchString(r.Stdout) {
		t.Errorf("exit %d:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := clitest.Exec(run, "", p, "-json"); r.Code != 0 || strings.Contains(r.Stdout, "offered_load") {
		t.Errorf("-json: exit %d:\n%s", r.Code, r.Stdout)
	}
}

// A log whose jobs were all submitted at one instant (an empty submit
// span) has no offered load: the text left the line out without a word
// (-json leaves the key out, as documented); so did a log of unknown
// submit times, and one without a machine size.
func TestOfferedLoadEmptySpan(t *testing.T) {
	for _, c := range []struct{ name, header, sub, want string }{
		{"instant", "; MaxProcs: 8\n", "0", "unknown (submit span 0 s: every job submitted at one instant)"},
		{"nosubmit", "; MaxProcs: 8\n", "-1", "unknown (no job with a known submit time)"},
		// no machine size: the line was left out, the README saying
		// the report says "unknown" and why
		{"nomachine", "", "7", "unknown (no machine size)"},
	} {
		p := filepath.Join(t.TempDir(), c.name+".swf")
		log := c.header
		for i := 1; i <= 3; i++ {
			log += fmt.Sprintf("%d %s 5 100 2 -1 -1 2 200 -1 1 1 1 1 1 -1 -1 -1\n", i, c.sub)
		}
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		r := clitest.Exec(run, "", p)
		if r.Code != 0 || !regexp.MustCompile(`(?m)^offered load +`+regexp.QuoteMeta(c.want)+`$`).MatchString(r.Stdout) {
			t.Errorf("%s: exit %d, want %q:\n%s%s", c.name, r.Code, c.want, r.Stdout, r.Stderr)
		}
		if r := clitest.Exec(run, "", p, "-json"); r.Code != 0 || strings.Contains(r.Stdout, "offered_load") {
			t.Errorf("%s -json: exit %d:\n%s", c.name, r.Code, r.Stdout)
		}
	}
}

// Lines without a job number (-1, SWF's "missing"; 0) are counted as such,
// not as duplicates of one another: the simulators number them. A log of
// 20 "-1" lines said "duplicate job numbers 19".
func TestNoJobNumbersNotDuplicates(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 10\n")
	for i := range 20 {
		fmt.Fprintf(&b, "-1 %d 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n", 10*i)
	}
	b.WriteString("0 300 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n4 300 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n4 300 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n")
	var out, errs bytes.Buffer
	s := summaryOf(t, b.String())
	if s.Jobs != 23 || s.DuplicateIDs != 1 || s.NoJobNumber != 21 {
		t.Errorf("%d jobs, %d duplicate IDs, %d without a number; want 23, 1 (the second 4), 21", s.Jobs, s.DuplicateIDs, s.NoJobNumber)
	}
	out.Reset()
	run(context.Background(), []string{"-"}, strings.NewReader(b.String()), &out, &errs)
	for _, want := range []string{"duplicate job numbers  1 ", "without job number     21 "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
}
