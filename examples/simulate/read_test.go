package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// BenchmarkReadTrace is the command's read of a whole trace (gzip
// included), the largest share of a small log's whole process (issue 34).
func BenchmarkReadTrace(b *testing.B) {
	for _, name := range []string{tracetest.KTH, tracetest.SDSCBlue} {
		b.Run(tracetest.ShortName(name), func(b *testing.B) {
			p := tracetest.Path(b, name)
			b.ReportAllocs()
			var n int
			for b.Loop() {
				tr, err := readTrace(p, nil, false, func(float64) {})
				if err != nil {
					b.Fatal(err)
				}
				n = len(tr.jobs)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}

// BenchmarkCommand is the whole command but the process start: read, EASY,
// text report, on KTH (the small log whose cost is mostly not the
// simulation).
func BenchmarkCommand(b *testing.B) {
	p := tracetest.Path(b, tracetest.KTH)
	b.ReportAllocs()
	for b.Loop() {
		if code := runContext(context.Background(), []string{p}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// TestReadTracePresized checks that reading allocates about the jobs' own
// size when the header gives their count (appends alone allocate about
// five times it), and that a header claiming far more jobs than the file
// holds costs nothing but a bounded reservation.
func TestReadTracePresized(t *testing.T) {
	const n = 20000
	var b strings.Builder
	fmt.Fprintf(&b, "; MaxJobs: %d\n; MaxRecords: %d\n; MaxProcs: 64\n", n, n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d %d -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n", i, i*10)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tr, err := readTrace("-", strings.NewReader(b.String()), false, func(float64) {})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.jobs) != n {
		t.Fatalf("read %d jobs, want %d", len(tr.jobs), n)
	}
	size := uint64(n) * uint64(unsafe.Sizeof(swf.Job{}))
	if got := after.TotalAlloc - before.TotalAlloc; got > size*3/2 {
		t.Errorf("reading %d jobs (%d B) allocated %d B, more than 1.5 times their size", n, size, got)
	}

	hostile := "; MaxJobs: 999999999999\n1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	tr, err = readTrace("-", strings.NewReader(hostile), false, func(float64) {})
	if err != nil || len(tr.jobs) != 1 {
		t.Fatalf("hostile header: %v, %v", err, tr)
	}
	if c := cap(tr.jobs); c > maxPresize {
		t.Errorf("hostile header reserved %d jobs, more than %d", c, maxPresize)
	}
}

// A lenient read of a file whose every job line is malformed says how
// many it skipped, and why the first was, not just "no job lines".
func TestLenientAllMalformed(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "bad.swf", "; MaxProcs: 8\n1 0 x 10 1\n2 5 y 10 1\n")
	code, _, errs := runCmd(t, p, "-lenient")
	if code == 0 || !strings.Contains(errs, "2 malformed lines skipped (-lenient); first: ") {
		t.Errorf("exit %d, stderr %q; want an error counting the 2 skipped lines", code, errs)
	}
}

// Zero bytes after the last gzip member (a tape's or dd's padding) are
// ignored, as gzip(1) ignores them, and now said in the report ("512 zero
// bytes after the last gzip member ignored") and in -json
// (reader.trailing_zero_bytes, as swfstat's key, and
// warning_data.trailing_zero_bytes): on the streaming path (with and
// without its second read for a missing estimate), the whole one (-out)
// and standard input. The report said nothing of them.
func TestGzipTrailingZeros(t *testing.T) {
	dir := t.TempDir()
	full := strings.Replace(small, "   -1 -1 1 4 1", "   60 -1 1 4 1", 1)
	var gzs [][]byte
	for _, text := range []string{small, full} {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(text))
		zw.Close()
		gzs = append(gzs, append(b.Bytes(), make([]byte, 512)...))
	}
	missing, whole := filepath.Join(dir, "missing.swf.gz"), filepath.Join(dir, "full.swf.gz")
	for i, p := range []string{missing, whole} {
		if err := os.WriteFile(p, gzs[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := regexp.MustCompile(`(?m)^warning +512 zero bytes after the last gzip member ignored$`)
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{missing}}, {"", []string{whole}}, {"", []string{whole, "-out", filepath.Join(dir, "out.swf")}},
		{string(gzs[0]), []string{"-"}},
	} {
		code, out, errs := runIn(t, c.stdin, c.args...)
		if code != 0 || !want.MatchString(out) {
			t.Errorf("%v: exit %d, text lacks %s:\n%s%s", c.args, code, want, out, errs)
		}
		code, out, errs = runIn(t, c.stdin, append(c.args, "-json")...)
		var r struct {
			Reader struct {
				Zeros int64 `json:"trailing_zero_bytes"`
			} `json:"reader"`
			WarningData map[string]map[string]int64 `json:"warning_data"`
		}
		if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Reader.Zeros != 512 || r.WarningData["trailing_zero_bytes"]["bytes"] != 512 {
			t.Errorf("%v -json: exit %d, %v, reader %+v, warning_data %v%s", c.args, code, err, r.Reader, r.WarningData, errs)
		}
	}
	if _, out, _ := runCmd(t, writeTrace(t, dir, "bare.swf.gz", small)); strings.Contains(out, "zero bytes") {
		t.Errorf("a gzip without padding: %s", out)
	}
}
