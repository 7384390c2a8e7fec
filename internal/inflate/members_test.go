package inflate

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// gzExtra compresses b with a header extra field of k bytes, which moves
// where the member ends by exactly k bytes (the field and its length).
// (A comment cannot: the inflater takes 511 bytes of it at most.)
func gzExtra(tb testing.TB, b []byte, k int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Extra = make([]byte, k-2)
	if _, err := w.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestMembersAtBufferBoundary: members and zero padding read the same
// whatever the reads' sizes: through a reader of one byte at a time, of
// half the asked bytes, and with the first member ending exactly at the
// 64 KiB buffer's end (zeros or a member then start the next fill), one
// byte before it and one after.
func TestMembersAtBufferBoundary(t *testing.T) {
	a, b := make([]byte, 60000), []byte("2 5 1 10 1\n")
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range a {
		a[i] = byte(rng.Uint32()) // (incompressible: the member is about 60000 bytes)
	}
	base := len(gzExtra(t, a, 2)) - 2
	for _, end := range []int{64<<10 - 1, 64 << 10, 64<<10 + 1} {
		k := end - base
		if k < 2 {
			t.Fatalf("member of %d bytes cannot end at %d", base, end)
		}
		first := gzExtra(t, a, k)
		if len(first) != end {
			t.Fatalf("member ends at %d, want %d", len(first), end)
		}
		for _, c := range []struct {
			name  string
			tail  []byte
			want  []byte
			zeros int64
			err   string
		}{
			{"nothing", nil, a, 0, ""},
			{"zeros", make([]byte, 70000), a, 70000, ""},
			{"one zero", []byte{0}, a, 1, ""},
			{"a member", gz(t, b), append(bytes.Clone(a), b...), 0, ""},
			{"a member, zeros", append(gz(t, b), 0, 0), append(bytes.Clone(a), b...), 2, ""},
			{"zeros, a member", append(make([]byte, 5), gz(t, b)...), nil, 0, "byte 0x1f after 5 zero bytes"},
			{"magic, then zeros as a header (method 0)", append([]byte{0x1f, 0x8b}, make([]byte, 8)...), nil, 0, "corrupt"},
			{"magic, then 1 zero", []byte{0x1f, 0x8b, 0}, nil, 0, "truncated"},
			{"magic, deflate, zeros as header", append([]byte{0x1f, 0x8b, 8}, make([]byte, 7)...), nil, 0, "truncated"},
		} {
			src := append(bytes.Clone(first), c.tail...)
			for _, wrap := range []struct {
				name string
				f    func(io.Reader) io.Reader
			}{{"whole", func(r io.Reader) io.Reader { return r }}, {"one byte", iotest.OneByteReader}, {"half", iotest.HalfReader}, {"data+EOF", iotest.DataErrReader}} {
				for _, async := range []bool{true, false} {
					r, closers, err := open(wrap.f(bytes.NewReader(src)), "test.gz", async)
					if err != nil {
						t.Fatal(err)
					}
					out, err := io.ReadAll(r)
					for k := len(closers) - 1; k >= 0; k-- {
						closers[k].Close()
					}
					if c.err != "" {
						if err == nil || !strings.Contains(err.Error(), c.err) {
							t.Errorf("end %d, %s, %s: %v; want an error with %q", end, c.name, wrap.name, err, c.err)
						}
						continue
					}
					if err != nil || !bytes.Equal(out, c.want) {
						t.Errorf("end %d, %s, %s: %d bytes, %v; want %d", end, c.name, wrap.name, len(out), err, len(c.want))
					}
					if z := TrailingZeros(r); z != c.zeros {
						t.Errorf("end %d, %s, %s: TrailingZeros %d, want %d", end, c.name, wrap.name, z, c.zeros)
					}
				}
			}
		}
	}
}

// TestMembersChecksums: each member's CRC and size are still checked,
// the first's when zeros or another member follow it, and the last's.
func TestMembersChecksums(t *testing.T) {
	a, b := []byte("1 0 1 10 1\n"), []byte("2 5 1 10 1\n")
	ga, gb := gz(t, a), gz(t, b)
	for _, c := range []struct {
		name string
		src  []byte
		at   int // the byte damaged
		want error
	}{
		{"first's CRC, a member after", append(bytes.Clone(ga), gb...), len(ga) - 8, gzip.ErrChecksum},
		{"first's size, a member after", append(bytes.Clone(ga), gb...), len(ga) - 4, gzip.ErrChecksum},
		{"first's CRC, zeros after", append(bytes.Clone(ga), 0, 0, 0), len(ga) - 8, gzip.ErrChecksum},
		{"first's size, zeros after", append(bytes.Clone(ga), 0, 0, 0), len(ga) - 1, gzip.ErrChecksum},
		{"second's CRC", append(bytes.Clone(ga), gb...), len(ga) + len(gb) - 8, gzip.ErrChecksum},
		{"second's size, zeros after", append(append(bytes.Clone(ga), gb...), 0), len(ga) + len(gb) - 4, gzip.ErrChecksum},
		{"second's header method", append(bytes.Clone(ga), gb...), len(ga) + 2, gzip.ErrHeader},
	} {
		c.src[c.at] ^= 1
		_, err := readAll(t, c.src)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "corrupt") {
			t.Errorf("%s: %v; want a corrupt error wrapping %v", c.name, err, c.want)
		}
	}
}

// TestMembersEmptyRead: a Read of no bytes returns at once (io.Reader
// allows it; the loop over members must not spin on it), in the middle of
// a member and at its end.
func TestMembersEmptyRead(t *testing.T) {
	src := append(gz(t, []byte("1 0 1 10 1\n")), gz(t, nil)...)
	r, _, err := Prefix(bytes.NewReader(src), "test.gz")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Read(nil)
		io.ReadFull(r, make([]byte, 11))
		r.Read(nil)
		r.Read([]byte{})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Read of no bytes did not return")
	}
}

// zeroReader gives n zero bytes without holding them.
type zeroReader struct{ n int64 }

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), z.n)]
	clear(p)
	z.n -= int64(len(p))
	return len(p), nil
}

// TestHugePadding: 64 MiB of zeros after a member are counted without
// holding them: the memory allocated stays under a few MiB.
func TestHugePadding(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	const n = 64 << 20
	a := []byte("1 0 1 10 1\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, closers, err := Reader(io.MultiReader(bytes.NewReader(gz(t, a)), &zeroReader{n}), "test.gz")
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	for k := len(closers) - 1; k >= 0; k-- {
		closers[k].Close()
	}
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Equal(out, a) || TrailingZeros(r) != n {
		t.Fatalf("%q, %v, %d zeros; want %q and %d", out, err, TrailingZeros(r), a, n)
	}
	if m := after.TotalAlloc - before.TotalAlloc; m > 8<<20 {
		t.Errorf("%d bytes allocated for %d zero bytes", m, n)
	}
}

// errAfter gives its bytes, then err (as an HTTP body cut short gives
// io.ErrUnexpectedEOF).
type errAfter struct {
	b   []byte
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	if len(e.b) == 0 {
		return 0, e.err
	}
	n := copy(p, e.b)
	e.b = e.b[n:]
	return n, nil
}

// TestPaddingReadError: a read error in the zero padding is the error,
// not its end (the reader before the library's own decoder said so too),
// even an io.ErrUnexpectedEOF of the source's own.
func TestPaddingReadError(t *testing.T) {
	a := []byte("1 0 1 10 1\n")
	for _, e := range []error{io.ErrUnexpectedEOF, errors.New("connection reset")} {
		for _, open := range []func(io.Reader, string) (io.Reader, []io.Closer, error){Reader, Prefix} {
			r, closers, err := open(&errAfter{append(gz(t, a), 0, 0, 0), e}, "test.gz")
			if err != nil {
				t.Fatal(err)
			}
			out, err := io.ReadAll(r)
			for k := len(closers) - 1; k >= 0; k-- {
				closers[k].Close()
			}
			if !errors.Is(err, e) || !bytes.Equal(out, a) {
				t.Errorf("%q, %v; want %q and %v", out, err, a, e)
			}
		}
	}
}

// TestPrefixFirstRead: Prefix's first Read of 10 bytes decodes the
// window's worth (winEnd, up to a match more; the window of Prefix's
// doc), and no more.
func TestPrefixFirstRead(t *testing.T) {
	text := texts()["swf-1048576"]
	r, _, err := Prefix(bytes.NewReader(gz(t, text)), "test.gz")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	m := r.(*members)
	if m.f.wp < winEnd || m.f.wp > winEnd+258 {
		t.Errorf("first Read decoded %d bytes, want %d to %d", m.f.wp, winEnd, winEnd+258)
	}
}

// TestHeaderAllocs: a member's header is read without an allocation per
// byte (its buffer was a local that escaped: a 60,000-byte extra field
// cost 30,000 allocations). Prefix opens without the goroutine, so the
// counts are the reader's own.
func TestHeaderAllocs(t *testing.T) {
	small, large := gzExtra(t, []byte("1 0 1 10 1\n"), 2), gzExtra(t, []byte("1 0 1 10 1\n"), 60000)
	allocs := func(gz []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			r, _, err := Prefix(bytes.NewReader(gz), "x")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, r); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := allocs(small), allocs(large)
	if b > a+2 {
		t.Errorf("a 60,000-byte extra field: %.0f allocations, a 2-byte one %.0f", b, a)
	}
}
