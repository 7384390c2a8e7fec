package inflate

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// gz compresses b with compress/gzip, the reference the inflater is
// checked against.
func gz(tb testing.TB, b []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// readAll reads src through both entry points (with and without the
// goroutine), closes them, and fails unless they agree.
func readAll(tb testing.TB, src []byte) ([]byte, error) {
	tb.Helper()
	var outs [2][]byte
	var errs [2]error
	for i, open := range []func(io.Reader, string) (io.Reader, []io.Closer, error){Reader, Prefix} {
		r, closers, err := open(bytes.NewReader(src), "test.gz")
		if err != nil {
			outs[i], errs[i] = nil, err
			continue
		}
		outs[i], errs[i] = io.ReadAll(r)
		for k := len(closers) - 1; k >= 0; k-- {
			closers[k].Close()
		}
	}
	if !bytes.Equal(outs[0], outs[1]) || (errs[0] == nil) != (errs[1] == nil) ||
		errs[0] != nil && errs[0].Error() != errs[1].Error() {
		tb.Fatalf("Reader and Prefix differ: %d bytes, %v; %d bytes, %v", len(outs[0]), errs[0], len(outs[1]), errs[1])
	}
	return outs[0], errs[0]
}

// texts are inputs of the sizes around the hand-over chunk and the bufio
// buffer, random (incompressible) and SWF-like (compressible); made once
// (five tests read them: under -race, making them took 0.9 s each time),
// and read only.
var texts = sync.OnceValue(func() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	swfLike := func(n int) []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "%6d %8d %5d %6d %4d -1 -1 %4d %6d -1 1 %3d -1 -1 -1 -1 -1 -1\n",
				i+1, i*37, rng.IntN(9999), rng.IntN(99999), 1+rng.IntN(128), 1+rng.IntN(128), rng.IntN(99999), rng.IntN(300))
		}
		return b.Bytes()[:n]
	}
	out := map[string][]byte{"empty": {}}
	for _, n := range []int{1, 100, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 17, 64<<10 + 1, 1 << 20} {
		out[fmt.Sprintf("random-%d", n)] = random(n)
		out[fmt.Sprintf("swf-%d", n)] = swfLike(n)
	}
	return out
})

// TestReaderMatchesGzip: what Reader and Prefix give back is the text
// compress/gzip compressed, at every size around the buffers, and a
// stream of two gzip members (as cat a.gz b.gz makes) reads as both.
func TestReaderMatchesGzip(t *testing.T) {
	for name, text := range texts() {
		got, err := readAll(t, gz(t, text))
		if err != nil || !bytes.Equal(got, text) {
			t.Errorf("%s: %d bytes, %v; want the %d bytes compressed", name, len(got), err, len(text))
		}
	}
	a, b := []byte("1 0 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n"), []byte("2 9 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n")
	got, err := readAll(t, append(gz(t, a), gz(t, b)...))
	if err != nil || string(got) != string(a)+string(b) {
		t.Errorf("two members: %q, %v", got, err)
	}
}

// TestReaderPlain: input without the gzip magic comes back unchanged,
// with no closers, including one byte and the magic's first byte alone.
func TestReaderPlain(t *testing.T) {
	for _, text := range []string{"", "x", "\x1f", "\x1fx", "; SWF\n1 2 3\n", strings.Repeat("plain ", 50000)} {
		r, closers, err := Reader(strings.NewReader(text), "plain")
		if err != nil || len(closers) != 0 {
			t.Fatalf("%.20q: %v, %d closers", text, err, len(closers))
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != text {
			t.Errorf("%.20q: read %.20q, %v", text, got, err)
		}
	}
}

// TestReaderTruncated: a gzip stream cut anywhere after its magic gives
// an error that names the file and says it is truncated (wrapping
// io.ErrUnexpectedEOF), never a panic and never a short text without an
// error.
func TestReaderTruncated(t *testing.T) {
	text := texts()[fmt.Sprintf("swf-%d", 3*chunkSize+17)] // (a key that exists: a missing one is an empty text)
	data := gz(t, text)
	if len(text) == 0 {
		t.Fatal("no text to cut")
	}
	cuts := []int{2, 3, 9, 10, 11, 20, len(data) / 3, len(data) / 2, len(data) - 9, len(data) - 8, len(data) - 4, len(data) - 1}
	for _, n := range cuts {
		_, err := readAll(t, data[:n])
		if err == nil {
			t.Errorf("cut at %d of %d: no error", n, len(data))
			continue
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "truncated") || !strings.HasPrefix(err.Error(), "test.gz: ") {
			t.Errorf("cut at %d of %d: %v; want a truncation error naming the file", n, len(data), err)
		}
	}
}

// TestReaderCorrupt: a gzip stream with a byte changed gives either the
// text (a byte the format does not check: the header's time, flags'
// extras) or an error; a damaged deflate block or checksum says
// "corrupt". Never a panic, never another text.
func TestReaderCorrupt(t *testing.T) {
	text := texts()["swf-65537"]
	data := gz(t, text)
	corrupt := 0
	step := 40 // (about 200 positions; -short, with -race, about 30)
	if testing.Short() {
		step = 6
	}
	for i := 2; i < len(data); i += 1 + i/step {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			d := bytes.Clone(data)
			d[i] ^= x
			got, err := readAll(t, d)
			switch {
			case err == nil && !bytes.Equal(got, text):
				t.Fatalf("byte %d ^ %#x: %d bytes without an error, not the text", i, x, len(got))
			case err != nil && !strings.HasPrefix(err.Error(), "test.gz: "):
				t.Fatalf("byte %d ^ %#x: %v does not name the file", i, x, err)
			case err != nil && strings.Contains(err.Error(), "corrupt"):
				corrupt++
			}
		}
	}
	if corrupt == 0 {
		t.Error("no damaged byte was reported as corrupt")
	}
	// The checksum alone.
	d := bytes.Clone(data)
	d[len(d)-6] ^= 1
	if _, err := readAll(t, d); !errors.Is(err, gzip.ErrChecksum) || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("bad CRC: %v, want a corrupt error wrapping gzip.ErrChecksum", err)
	}
}

// TestReaderCloseEarly: closing before the end stops the goroutine (no
// goroutine is left behind), and closing twice is harmless.
func TestReaderCloseEarly(t *testing.T) {
	data := gz(t, texts()["random-1048576"])
	before := runtime.NumGoroutine()
	for range 20 {
		r, closers, err := Reader(bytes.NewReader(data), "test.gz")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(r, make([]byte, 1000)); err != nil {
			t.Fatal(err)
		}
		for k := len(closers) - 1; k >= 0; k-- {
			closers[k].Close()
			closers[k].Close()
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after closing, %d before", n, before)
	}
}

// FuzzReader: on any input, Reader and Prefix agree, never panic, and
// whatever compress/gzip reads without an error they read the same.
func FuzzReader(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("1 0 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n"))
	f.Add(gz(f, []byte("1 0 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n")))
	f.Add(gz(f, texts()["swf-100"])[:30])
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readAll(t, data)
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("plain input: %d bytes, %v", len(got), err)
			}
			return
		}
		zr, zerr := gzip.NewReader(bytes.NewReader(data))
		if zerr != nil {
			return
		}
		want, zerr := io.ReadAll(zr)
		if zerr == nil && (err != nil || !bytes.Equal(got, want)) {
			t.Fatalf("compress/gzip reads %d bytes, the inflater %d, %v", len(want), len(got), err)
		}
	})
}

// A valid .gz followed by zero padding (tape and dd pad to a block) was
// refused as "gzip data corrupt: invalid header"; gzip(1) ignores the
// zeros. They end the stream and are counted; after a second member too.
// Any other byte after the last member is still refused, as not gzip.
func TestTrailingZeros(t *testing.T) {
	a, b := []byte("1 0 1 10 1\n"), []byte("2 5 1 10 1\n")
	two := append(gz(t, a), gz(t, b)...)
	for _, c := range []struct {
		name  string
		src   []byte
		want  string
		zeros int64
	}{
		{"one member, 512 zeros", append(gz(t, a), make([]byte, 512)...), string(a), 512},
		{"two members, 3 zeros", append(append([]byte{}, two...), 0, 0, 0), string(a) + string(b), 3},
		{"two members", two, string(a) + string(b), 0},
	} {
		for _, async := range []bool{true, false} {
			r, closers, err := open(bytes.NewReader(c.src), "test.gz", async)
			if err != nil {
				t.Fatal(err)
			}
			out, err := io.ReadAll(r)
			if err != nil || string(out) != c.want {
				t.Errorf("%s: %q, %v; want %q", c.name, out, err, c.want)
			}
			if z := TrailingZeros(r); z != c.zeros {
				t.Errorf("%s: TrailingZeros %d, want %d", c.name, z, c.zeros)
			}
			for k := len(closers) - 1; k >= 0; k-- {
				closers[k].Close()
			}
		}
	}
	for _, c := range []struct {
		name string
		tail []byte
		want string
	}{
		{"garbage", []byte("junk"), "test.gz: gzip data corrupt: the data after the last gzip member is not gzip (byte 0x6a after 0 zero bytes): trailing garbage"},
		{"zeros then garbage", []byte{0, 0, 7}, "the data after the last gzip member is not gzip (byte 0x07 after 2 zero bytes)"},
		{"a member's magic alone", []byte{0x1f, 0x8b}, "gzip data truncated"},
	} {
		_, err := readAll(t, append(gz(t, a), c.tail...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.want)
		}
		if c.tail[0] != 0x1f && !errors.Is(err, gzip.ErrHeader) {
			t.Errorf("%s: %v is not gzip.ErrHeader, as the inflater's error was", c.name, err)
		}
	}
}
