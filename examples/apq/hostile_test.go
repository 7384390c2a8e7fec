package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
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
// goroutines. At most -par run at once and exist at once; -nseeds and
// -par are bounded.
func TestSeedSweepBounded(t *testing.T) {
	base := runtime.NumGoroutine()
	var most atomic.Int64
	e := &env{Seeds: 200, Par: 2}
	_, err := sweepSeeds(e, func(uint64) (float64, error) {
		if n := int64(runtime.NumGoroutine() - base); n > most.Load() {
			most.Store(n)
		}
		return 0, nil
	})
	if err != nil || most.Load() > 4 {
		t.Errorf("%d goroutines beside the test's, %v; want at most -par (2) and a little", most.Load(), err)
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
