package convert

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/batchq/batchq/swf"
)

// writeHelios writes a Helios cluster_log.csv of n jobs drawn from seed:
// in submit order but one row in 100, submitted up to an hour before the
// row above it; Helios's states, a quarter CPU jobs, 2000 users, 40 virtual
// clusters. Its lines are 95 to 110 bytes, as Helios's are. To measure a
// conversion of the full trace's size (3.36 M jobs):
//
//	go test -run TestWriteHelios ./swf/convert -args -helios /tmp/helios.csv -helios-jobs 3360000
//	go build -o /tmp/convert ./examples/convert
//	/usr/bin/time -v /tmp/convert -from gpu /tmp/helios.csv -o /tmp/helios.swf
func writeHelios(w io.Writer, n int, seed int64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	r := rand.New(rand.NewSource(seed))
	fmt.Fprintln(bw, heliosHeader)
	t := time.Date(2020, 4, 1, 0, 0, 0, 0, time.UTC)
	states := []string{"COMPLETED", "COMPLETED", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL"}
	gpus := []int{0, 0, 0, 1, 1, 2, 4, 8, 8, 16, 32, 64}
	const layout = "2006-01-02 15:04:05"
	for i := range n {
		t = t.Add(time.Duration(r.Intn(20)) * time.Second)
		sub := t
		if r.Intn(100) == 0 {
			sub = t.Add(-time.Duration(r.Intn(3600)) * time.Second)
		}
		g := gpus[r.Intn(len(gpus))]
		nodes := max(g/8, 1)
		cpus := 4 * max(g, 1) * (1 + r.Intn(2))
		st := states[r.Intn(len(states))]
		q := r.Intn(600)
		start := sub.Add(time.Duration(q) * time.Second)
		d := r.Intn(86400)
		end := start.Add(time.Duration(d) * time.Second)
		if st == "CANCELLED" && r.Intn(3) == 0 {
			end, d = start, 0
		}
		fmt.Fprintf(bw, "%d,u%d,vc%d,%d,%d,%d,%s,%s,%s,%s,%d,%d\n", 3000000+i, r.Intn(2000), r.Intn(40),
			g, cpus, nodes, st, sub.Format(layout), start.Format(layout), end.Format(layout), d, q)
	}
	return bw.Flush()
}

var (
	heliosOut  = flag.String("helios", "", "TestWriteHelios writes a generated Helios cluster_log.csv to `FILE`")
	heliosJobs = flag.Int("helios-jobs", 3360000, "the jobs TestWriteHelios writes (the full Helios has 3.36 M)")
)

// TestWriteHelios writes writeHelios's table with -helios FILE, for
// measures of a whole command (see writeHelios).
func TestWriteHelios(t *testing.T) {
	if *heliosOut == "" {
		t.Skip("no -helios FILE")
	}
	f, err := os.Create(*heliosOut)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(writeHelios(f, *heliosJobs, 1), f.Close()); err != nil {
		t.Fatal(err)
	}
}

// TestGPUTraceMemory bounds what GPUTrace allocates and keeps a job: its
// Result's share (a swf.Job, the id's string header and bytes) and, until
// finish, its gpuRec (as its chunks hold them) and two int32 indices (the
// sorts of reusedIDs and of finish), beyond the garbage of reading its
// line, measured apart (readLines). A copy of the jobs in a growing slice
// (five times their size allocated in all), a Demand, notes or a map
// entry a job (a map of the ids: about 70 bytes a job) pass the bounds.
func TestGPUTraceMemory(t *testing.T) {
	const n = 100000
	var buf bytes.Buffer
	if err := writeHelios(&buf, n, 1); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	lines := allocated(func() { readLines(t, data) })
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := GPUTrace(bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(data) // (live in both measures)
	if len(res.Jobs) != n {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), n)
	}
	share := uint64(unsafe.Sizeof(swf.Job{}) + unsafe.Sizeof("") + 8) // (an id of 7 bytes)
	rec := uint64(unsafe.Sizeof(gpuRec{}))
	recs := rec * uint64((n+recChunk-1)/recChunk*recChunk) / n // (the last chunk part empty)
	kept := (after.HeapAlloc - before.HeapAlloc) / n
	alloc := (after.TotalAlloc - before.TotalAlloc - lines) / n
	t.Logf("per job: %d bytes kept, %d allocated beyond the line's %d (the Result's share %d, the record %d, %d as chunks hold them)",
		kept, alloc, lines/n, share, rec, recs)
	if rec > 64 {
		t.Errorf("gpuRec is %d bytes, was 64", rec)
	}
	if kept > share+share/4 {
		t.Errorf("%d bytes kept a job, want at most the Result's %d + 25%%", kept, share)
	}
	if alloc > share+recs+2*4+share/4 {
		t.Errorf("%d bytes allocated a job beyond its line, want at most the Result's %d, the records' %d and two int32 indices, + 25%% of the Result's",
			alloc, share, recs)
	}
	runtime.KeepAlive(res)
}

// readLines reads data's lines as GPUTrace does and keeps nothing of
// them: the garbage of reading a table, whatever a reader keeps.
func readLines(t *testing.T, data []byte) {
	opt := Options{}
	in, done, b, err := begin(bytes.NewReader(data), &opt, "gpu", "helios", "acme", "philly")
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	nop := func(string, int) error { return nil }
	if err := readTable(newLineReader(in), b, b.saw, false, nop, nop); err != nil {
		t.Fatal(err)
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
