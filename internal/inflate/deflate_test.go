package inflate

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// traceDir is internal/tracetest.Dir's directory ($BATCHQ_TRACES, else
// ../shared/traces beside the repository), which this package cannot
// import (tracetest imports swf, which imports inflate).
func traceDir() string {
	if d := os.Getenv("BATCHQ_TRACES"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "traces")
}

// inflateRaw decodes a bare DEFLATE stream with the decoder.
func inflateRaw(data []byte) ([]byte, error) {
	f := newFlateReader(bytes.NewReader(data))
	f.reset()
	var out []byte
	for {
		if f.wp >= winEnd {
			f.slide()
		}
		from := f.wp
		err := f.decode()
		out = append(out, f.win[from:f.wp]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// reference decodes a bare DEFLATE stream with compress/flate, reading
// at most limit bytes.
func reference(data []byte, limit int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(data)), limit))
}

// samples are texts that make every kind of block and match: random
// (stored blocks, literals), SWF-like, runs of one byte (distance 1),
// a random block repeated 32 KiB apart (the farthest distance), long
// matches, and the short and empty.
func samples() map[string][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	var swf bytes.Buffer
	for i := 0; swf.Len() < 300<<10; i++ {
		fmt.Fprintf(&swf, "%6d %8d %5d %6d %4d -1 -1 %4d %6d -1 1 %3d -1 -1 -1 -1 -1 -1\n",
			i+1, i*37, rng.IntN(9999), rng.IntN(99999), 1+rng.IntN(128), 1+rng.IntN(128), rng.IntN(99999), rng.IntN(300))
	}
	block := random(100)
	far := append(append(append([]byte{}, block...), random(32<<10-100)...), block...)
	var mixed []byte
	for range 200 {
		switch rng.IntN(4) {
		case 0:
			mixed = append(mixed, random(rng.IntN(300))...)
		case 1:
			mixed = append(mixed, bytes.Repeat([]byte{byte(rng.Uint32())}, rng.IntN(2000))...)
		case 2:
			if len(mixed) > 0 {
				at := rng.IntN(len(mixed))
				mixed = append(mixed, mixed[at:min(len(mixed), at+rng.IntN(600))]...)
			}
		case 3:
			mixed = append(mixed, bytes.Repeat(random(1+rng.IntN(9)), rng.IntN(100))...)
		}
	}
	return map[string][]byte{
		"empty": {}, "one": {'x'}, "short": []byte("hello, hello, hello"),
		"random": random(200 << 10), "swf": swf.Bytes(), "far": far, "mixed": mixed,
		"zeros":   make([]byte, 1<<20),
		"pattern": bytes.Repeat([]byte("abcdefg"), 50000),
	}
}

// TestDeflateLevels: every text compressed at every level of
// compress/flate (-2 Huffman only, 0 stored, 1-9, -1 default), with a
// flush in the middle (an empty stored block), decodes to itself. Under
// -short (CI's -race run; the decoding is sequential, the plain run does
// every level) one level of each of the writer's ways: -2, 0, 1 (its fast
// encoder), 2 (matches without lazy matching), 4 and 9 (lazy, least and
// most).
func TestDeflateLevels(t *testing.T) {
	levels := []int{-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if testing.Short() {
		levels = []int{-2, 0, 1, 2, 4, 9}
	}
	for name, text := range samples() {
		for _, level := range levels {
			var buf bytes.Buffer
			w, err := flate.NewWriter(&buf, level)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(text[:len(text)/2])
			w.Flush()
			w.Write(text[len(text)/2:])
			w.Close()
			got, err := inflateRaw(buf.Bytes())
			if err != nil || !bytes.Equal(got, text) {
				t.Errorf("%s, level %d: %d bytes, %v; want %d", name, level, len(got), err, len(text))
			}
		}
	}
}

// TestDeflateFixed: a stream of fixed Huffman blocks (type 1), which
// compress/flate writes only for short texts, built by hand here: "abc"
// then a match of length 258 at distance 3, then the end.
func TestDeflateFixed(t *testing.T) {
	var w bitWriter
	w.bits(1, 1) // final
	w.bits(1, 2) // fixed
	for _, c := range []byte("abc") {
		w.code(0x30+uint32(c), 8)
	}
	w.code(0xc5, 8) // 285: length 258
	w.code(2, 5)    // distance 3
	w.code(0, 7)    // 256: end of block
	got, err := inflateRaw(w.buf)
	want := bytes.Repeat([]byte("abc"), 87)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%q, %v; want %q", got, err, want)
	}
	ref, err := reference(w.buf, 1<<20)
	if err != nil || !bytes.Equal(ref, want) {
		t.Fatalf("compress/flate: %q, %v", ref, err)
	}
}

// bitWriter writes DEFLATE's bits: values from their low bit, Huffman
// codes from their high bit.
type bitWriter struct {
	buf []byte
	n   uint
}

func (w *bitWriter) bits(v uint32, n uint) {
	for i := range n {
		if w.n%8 == 0 {
			w.buf = append(w.buf, 0)
		}
		w.buf[len(w.buf)-1] |= byte(v>>i&1) << (w.n % 8)
		w.n++
	}
}

func (w *bitWriter) code(c uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.bits(c>>uint(i)&1, 1)
	}
}

// TestDeflateTraces: every trace of the archive decodes to what
// compress/gzip gives.
func TestDeflateTraces(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(traceDir(), "*.swf.gz"))
	if len(paths) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the traces are required in CI: none in %s", traceDir())
		}
		t.Skipf("no traces in %s", traceDir())
	}
	for _, p := range paths {
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
		r, _, err := Prefix(bytes.NewReader(data), p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; compress/gzip gives %d", p, len(got), err, len(want))
		}
	}
}

// FuzzInflate: on any input, the decoder gives what compress/flate
// gives, and fails where it fails, saying corrupt or truncated.
func FuzzInflate(f *testing.F) {
	for _, text := range samples() {
		for _, level := range []int{-2, 0, 1, 6, 9} {
			var buf bytes.Buffer
			w, _ := flate.NewWriter(&buf, level)
			w.Write(text[:min(len(text), 3000)])
			w.Close()
			f.Add(buf.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<12 {
			return // at most 4 MB of output (DEFLATE's 1032:1)
		}
		want, werr := reference(data, 8<<20)
		got, err := inflateRaw(data)
		if (err == nil) != (werr == nil) {
			t.Fatalf("error %v; compress/flate's %v", err, werr)
		}
		if err != nil {
			if msg := gzipError("x", err).Error(); !strings.Contains(msg, "corrupt") && !strings.Contains(msg, "truncated") {
				t.Fatalf("error %q says neither corrupt nor truncated", msg)
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d bytes; compress/flate gives %d", len(got), len(want))
		}
	})
}
