package convert

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// eofHeap reads r and, at its end (the converter still reading, its
// state live), measures the heap in use after a collection.
type eofHeap struct {
	r    io.Reader
	heap uint64
}

func (e *eofHeap) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF && e.heap == 0 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		e.heap = m.HeapAlloc
	}
	return n, err
}

// TestPBSMemoryAfterEnd: what PBS holds of a finished job while reading
// on is its record (the builder's), not its lines. The ids of the ended
// jobs (to tell a D or A record after the E record) and of every job in
// order of first record were substrings of their lines, a map entry and a
// slice entry that held each job's whole line to the end of the log: 400
// jobs of 64 KiB lines held 29.9 MB. The builder's index of the records
// tells an ended job, and only the open jobs are kept in order.
func TestPBSMemoryAfterEnd(t *testing.T) {
	const n, pad = 400, 64 << 10
	var buf bytes.Buffer
	fill := strings.Repeat("x", pad)
	for i := range n {
		fmt.Fprintf(&buf, "04/01/2024 10:%02d:%02d;E;%d.srv;user=u ctime=1711965600 start=1711965600 end=1711965660 Exit_status=0 exec_host=n1/0 comment=%s\n",
			i/60%60, i%60, i, fill)
	}
	data := buf.Bytes()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	in := &eofHeap{r: bytes.NewReader(data)}
	res, err := PBS(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(data)
	if res.Report.Jobs != n {
		t.Fatalf("%d jobs, want %d", res.Report.Jobs, n)
	}
	held := int64(in.heap) - int64(before.HeapAlloc)
	t.Logf("held at the end of the input: %d bytes, %d a job", held, held/n)
	if held > n*pad/8 {
		t.Errorf("held %d bytes at the end of %d jobs of %d-byte lines: the lines are kept", held, n, pad)
	}
}
