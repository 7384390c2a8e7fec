package inflate_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/inflate"
	"github.com/batchq/batchq/internal/tracetest"
)

// TestReaderRealTrace: a trace of the archive inflates to what
// compress/gzip gives.
func TestReaderRealTrace(t *testing.T) {
	p := tracetest.Path(t, tracetest.KTH)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	r, closers, err := inflate.Reader(bytes.NewReader(data), p)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for k := len(closers) - 1; k >= 0; k-- {
			closers[k].Close()
		}
	}()
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: %d bytes, %v; compress/gzip gives %d", p, len(got), err, len(want))
	}
}

// Example: a reader of a file that may be gzip-compressed; the closers
// stop the decompression (they do not close the file).
func Example() {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte("; SWF\n1 0 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n"))
	w.Close()
	for _, in := range []io.Reader{&buf, strings.NewReader("; plain\n")} {
		r, closers, err := inflate.Reader(in, "swf: trace")
		if err != nil {
			fmt.Println(err)
			return
		}
		text, err := io.ReadAll(r)
		for k := len(closers) - 1; k >= 0; k-- {
			closers[k].Close()
		}
		fmt.Printf("%q %v\n", strings.SplitN(string(text), "\n", 2)[0], err)
	}
	// Output:
	// "; SWF" <nil>
	// "; plain" <nil>
}
