package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/jobid"
)

// -quick on a short log (-jobs 500) put the validation start before the
// first job (-167): replay's "scored range [-167, 500) is empty". The
// ranges stay inside the log, and a long log's are unchanged.
func TestTestRangeInsideTheLog(t *testing.T) {
	for _, n := range []int{3, 10, 500, 1000, 5000, 100000} {
		for _, quick := range []bool{false, true} {
			v, f, to := testRange(n, quick)
			if v < 0 || v >= f || f >= to || to > n {
				t.Errorf("n %d quick %v: [%d, %d, %d)", n, quick, v, f, to)
			}
		}
	}
	if v, f, to := testRange(100000, true); v != paperTestFrom-500 || f != paperTestFrom || to != paperTestFrom+500 {
		t.Errorf("long log, quick: [%d, %d, %d)", v, f, to)
	}
}

// The seed sweep started a goroutine a seed, each waiting for its turn,
// and made every seed's slots first: -nseeds 10000000 held 10^7
// goroutines. At most -par run at once and exist at once: -par goroutines
// run every seed (a goroutine a seed, started when the last one gave its
// slot back, overlapped that one's exit: 5 beside the test's with -par 2,
// about one run in 300 under -race on a loaded machine); -nseeds and
// -par are bounded.
func TestSeedSweepBounded(t *testing.T) {
	base := runtime.NumGoroutine()
	var most atomic.Int64
	var mu sync.Mutex
	ran := map[string]bool{} // the goroutines that ran a seed
	e := &env{Seeds: 200, Par: 2}
	res, err := sweepSeeds(e, func(seed uint64) (float64, error) {
		if n := int64(runtime.NumGoroutine() - base); n > most.Load() {
			most.Store(n)
		}
		mu.Lock()
		ran[goroutineID()] = true
		mu.Unlock()
		return float64(seed), nil
	})
	if err != nil || most.Load() > 4 {
		t.Errorf("%d goroutines beside the test's, %v; want at most -par (2) and a little", most.Load(), err)
	}
	if len(ran) > e.Par {
		t.Errorf("%d goroutines ran the %d seeds, want at most -par (%d)", len(ran), e.Seeds, e.Par)
	}
	for i, r := range res {
		if r != float64(e.Seed+uint64(i)) {
			t.Fatalf("result %d is %v, want seed %d's", i, r, e.Seed+uint64(i))
		}
	}
	for _, args := range [][]string{{"-nseeds", "10001"}, {"-par", "5000"}} {
		if err := command(args, io.Discard, io.Discard); !errors.As(err, new(cli.UsageError)) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// A header machine size sched refuses (above 2^40 processors) is an error
// naming the log when it is read: Table VIII said only "sched: MachineSize
// 9223372036854775807 above 2^40" after the trace's name.
func TestHugeHeaderMachineNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.swf")
	log := "; MaxProcs: 9223372036854775807\n1 0 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := loadTrace(path, "huge", filterRan, 0)
	if err == nil || !strings.Contains(err.Error(), path+": machine size 9223372036854775807 above 2^40 processors") {
		t.Errorf("error %v; want one naming %s and the size", err, path)
	}
}

// Table VI on a log too short for a test job with a nonzero baseline
// printed its medians as "NaN" (the median of none); they read "–".
func TestTable6ShortLogNoNaN(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf.gz", 24, 16)
	var b strings.Builder
	if err := reproduce(&b, options{Dir: dir, Only: "SP2", Tables: "VI", Quick: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "NaN") || !strings.Contains(b.String(), "| SDSC SP2 | – / – / – |") {
		t.Errorf("Table VI:\n%s", b.String())
	}
}

// A job with neither processor count (fields 5 and 8 −1 or 0, as in
// some archive logs' cancelled lines) was kept: Li's distance took the
// log of its size, −1, and Table VII's Li cell read "NaN". It is left out
// and counted, with its reason, in the report.
func TestNoSizeLeftOut(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := range 40 {
		size := 1 + i%4
		if i%3 == 0 {
			size = -1
		}
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d %d -1 1 %d 1 1 1 -1 -1 -1\n", i+1, 600*i, (137*i)%900, 300+97*(i%37), size, size, 7200, 1+i%3)
	}
	writeSP2(t, dir, b.String())
	var out strings.Builder
	if err := reproduce(&out, options{Dir: dir, Only: "SP2", Tables: "VI,VII", Quick: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "NaN") || !strings.Contains(out.String(), "14 jobs left out: no size") {
		t.Errorf("report:\n%s", out.String())
	}
}

// "left out: no size" counts the jobs the filter keeps that have no
// size: a line without a size that the filter drops anyway (cancelled
// before it ran, no run time) was counted there too, overstating what
// the size rule left out.
func TestNoSizeCountsKeptOnly(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := range 40 {
		size, run, status := 1+i%4, 300+97*(i%37), 1
		switch i % 5 {
		case 0:
			size = -1 // left out: no size
		case 1:
			size, run, status = -1, 0, 5 // cancelled before it ran: dropped by the filter
		}
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d 7200 -1 %d %d 1 1 1 -1 -1 -1\n", i+1, 600*i, (137*i)%900, run, size, size, status, 1+i%3)
	}
	writeSP2(t, dir, b.String())
	var out strings.Builder
	if err := reproduce(&out, options{Dir: dir, Only: "SP2", Tables: "VI", Quick: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "trace SDSC-SP2-1998-4.2-cln.swf.gz: 8 jobs left out: no size") {
		t.Errorf("report:\n%s", out.String())
	}
}

// writeSP2 writes text, gzipped, as dir's SDSC-SP2 log.
func writeSP2(t *testing.T, dir, text string) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(text))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "SDSC-SP2-1998-4.2-cln.swf.gz"), z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Jobs without a number (field 1 -1, SWF's "missing") are kept, numbered
// 10^18 + n by their line n as simulate numbers them, and said in the report: IBL
// and APQ key jobs by number, and all but the first were left out as
// duplicate IDs.
func TestNoJobNumbersKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "noid.swf")
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := range 30 {
		fmt.Fprintf(&b, "-1 %d 10 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n", 60*i)
	}
	b.WriteString("7 1800 10 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n7 1860 10 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := loadTrace(path, "noid", filterRan, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 31 || tr.Duplicates != 1 || tr.MadeUp != 30 {
		t.Fatalf("%d jobs kept, %d duplicates, %d numbered; want 31, 1 (the second 7) and 30", len(tr.Jobs), tr.Duplicates, tr.MadeUp)
	}
	for i := range 30 {
		if tr.Jobs[i].ID != jobid.MadeUp(int64(i+1)) {
			t.Fatalf("job of line %d numbered %d, want %d", i+1, tr.Jobs[i].ID, jobid.MadeUp(int64(i+1)))
		}
	}
}

// goroutineID is the calling goroutine's number, from its stack's first
// line ("goroutine 7 [running]:").
func goroutineID() string {
	b := make([]byte, 64)
	f := strings.Fields(string(b[:runtime.Stack(b, false)]))
	if len(f) < 2 {
		return ""
	}
	return f[1]
}

// A job with a size past 2^40 processors or a time past 2^40 s (a corrupt
// field near 2^63) is left out and counted with its reason, as every
// simulator and replay leaves it out: it wrapped past 2^63 in the range
// sets and failed Table VI ("rangeset: execution 1
// [-9223372036854763869, …) on 25 processors: need times and processors
// within ±2^40"; "runtime 9.223372036854776e+18").
func TestOutOfRangeLeftOut(t *testing.T) {
	const huge = "9223372036854775807"
	for _, field := range []int{1, 2, 3, 4} { // submit, wait, run, size (fields 5 and 8)
		dir := t.TempDir()
		var b strings.Builder
		b.WriteString("; MaxProcs: 16\n")
		for i := range 60 {
			f := strings.Fields(fmt.Sprintf("%d %d %d %d %d -1 -1 %d %d -1 1 %d 1 1 1 -1 -1 -1", i+1, 600*i, (137*i)%900, 300+97*(i%37), 1+i%4, 1+i%4, 7200, 1+i%3))
			if i%5 == 2 {
				f[field] = huge
				if field == 4 {
					f[7] = huge
				}
			}
			b.WriteString(strings.Join(f, " ") + "\n")
		}
		writeSP2(t, dir, b.String())
		var out strings.Builder
		if err := reproduce(&out, options{Dir: dir, Only: "SP2", Tables: "VI,VII", Quick: true}); err != nil {
			t.Errorf("field %d: %v", field+1, err)
			continue
		}
		if !strings.Contains(out.String(), "jobs left out: 12 ") || strings.Contains(out.String(), "922337203685477") {
			t.Errorf("field %d: report:\n%s", field+1, out.String())
		}
	}
}

// The jobs -filter leaves out are counted by reason: they were counted in
// Dropped alone, which only -v printed, so that a log whose jobs all ran
// 0 s failed as "0 jobs, too few" without a word of the jobs read.
func TestFilteredCounted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "filtered.swf")
	log := "; MaxProcs: 16\n" +
		"1 0 10 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n" + // kept
		"2 60 10 0 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n" + // ran 0 s
		"3 120 10 0 1 -1 -1 1 900 -1 5 1 1 1 1 -1 -1 -1\n" + // ran 0 s (cancelled)
		"4 180 10 600 1 -1 -1 1 900 -1 0 1 1 1 1 -1 -1 -1\n" + // failed
		"5 240 -1 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n" // no wait
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := loadTrace(path, "filtered", filterRan, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"run time 0 (-filter ran keeps the jobs that ran)":      2,
		"failed (status 0; -filter ran)":                        1,
		"no submit time, wait or run time (cannot be replayed)": 1,
	}
	if len(tr.Jobs) != 1 || tr.Dropped != 4 || !maps.Equal(tr.Filtered, want) {
		t.Errorf("kept %d, dropped %d, filtered %v; want 1, 4, %v", len(tr.Jobs), tr.Dropped, tr.Filtered, want)
	}
}

// An -only item that names no trace of the paper is a usage error: alone
// it was "no trace of the paper found" (exit 1), as if the directory
// lacked the logs; beside a good one it was dropped without a word.
func TestOnlyNamesPaperTraces(t *testing.T) {
	for _, only := range []string{"bogus", "SP2,bogus", "kth"} {
		err := command([]string{"-traces", t.TempDir(), "-only", only}, io.Discard, io.Discard)
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), "names no trace of the paper") {
			t.Errorf("-only %s: %v; want a usage error", only, err)
		}
	}
	if err := command([]string{"-traces", t.TempDir(), "-only", "sp2, Par"}, io.Discard, io.Discard); errors.As(err, new(cli.UsageError)) {
		t.Errorf("-only \"sp2, Par\": %v", err)
	}
}
