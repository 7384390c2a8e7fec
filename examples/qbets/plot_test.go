package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestPlotWaitsKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("replays KTH twice (~2 s)")
	}
	dir := tracetest.DirOf(t, tracetest.KTH)
	out := t.TempDir()
	var b strings.Builder
	if err := plotWaits(&b, dir, plotOptions{dir: out, queues: "kth/ALL", days: 20}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"qbets-kth-sp2-all-waits.png", "qbets-kth-sp2-all-waits.svg", "qbets-kth-sp2-all-waits-zoom.png", "qbets-kth-sp2-all-waits-zoom.svg"} {
		st, err := os.Stat(filepath.Join(out, f))
		if err != nil {
			t.Error(err)
			continue
		}
		if strings.HasSuffix(f, ".svg") && st.Size() > 300<<10 {
			t.Errorf("%s: %d bytes, over the 300 KB budget", f, st.Size())
		}
	}
	if !strings.Contains(b.String(), "Figure 4.1, kth/ALL") {
		t.Errorf("output: %q", b.String())
	}
}

func TestPlotWaitsBadSpec(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"A-1-x.swf", "A-2-y.swf"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for spec, want := range map[string]string{
		"A":     "want TRACE/QUEUE",
		"B/1":   `no trace in`,
		"A/1":   "2 traces in",
		"A-1/x": "empty", // an empty file is an SWF error, named by swf
	} {
		err := plotWaits(&strings.Builder{}, dir, plotOptions{dir: t.TempDir(), queues: spec, days: 30})
		if err == nil || !strings.Contains(err.Error(), spec) {
			t.Errorf("spec %q: err = %v, want it named", spec, err)
			continue
		}
		if want != "empty" && !strings.Contains(err.Error(), want) {
			t.Errorf("spec %q: err = %v, want %q", spec, err, want)
		}
	}
	if err := plotWaits(&strings.Builder{}, dir, plotOptions{dir: t.TempDir(), queues: "A-1/1", days: 0}); err == nil || !strings.Contains(err.Error(), "-plot-days") {
		t.Errorf("zero days: err = %v", err)
	}
}

// The window is the span where trimming gains most, and spans the days.
func TestTrimWindow(t *testing.T) {
	var submit, wait, full, trimmed []int64
	for i := range 100 {
		submit = append(submit, int64(i)*3600)
		wait = append(wait, 100)
		full = append(full, 1000)
		trimmed = append(trimmed, 1000)
		if i >= 60 && i < 70 { // full misses, trimmed holds
			wait[i], trimmed[i] = 5000, 9000
		}
	}
	lo, hi := trimWindow(submit, wait, full, trimmed, 10, 24*3600)
	if lo > 60 || hi < 70 || submit[hi-1]-submit[lo] >= 24*3600 || hi-lo != 24 {
		t.Errorf("window [%d, %d), want the 24 h around jobs 60–69", lo, hi)
	}
}

// -plot leaves out-of-range jobs out, as the tables and the scores do, and
// says how many: a wait of 2^63−1 failed the replay ("Start … is before
// Submit").
func TestPlotWaitsOutOfRange(t *testing.T) {
	dir := t.TempDir()
	writeFarLog(t, dir)
	var out strings.Builder
	if err := plotWaits(&out, dir, plotOptions{dir: t.TempDir(), queues: "far/1", days: 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(jobs of the log left out: 1 time out of range)") {
		t.Errorf("output without the count: %q", out.String())
	}
}

// -plot leaves out the jobs without a known wait or submit time, as the
// tables do, and says how many: SDSC-Par's 805 went without a word.
func TestPlotWaitsSomeUnknown(t *testing.T) {
	dir := t.TempDir()
	writeSomeWaitsUnknown(t, dir)
	var out strings.Builder
	if err := plotWaits(&out, dir, plotOptions{dir: t.TempDir(), queues: "some/1", days: 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(jobs of the log without a known wait or submit time left out: 3)") {
		t.Errorf("output without the count: %q", out.String())
	}
}
