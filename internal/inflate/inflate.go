// Package inflate opens a byte stream that may be gzip-compressed, told by
// its magic bytes, and decompresses it in a goroutine of its own. It is
// swf.Open's decompression, shared with the commands that need the
// decompressed bytes themselves (examples/simulate reads a trace twice
// when its jobs lack estimates, and keeps the text of the second read).
//
// The DEFLATE decoder is its own (deflate.go, bits.go, table.go), made the way
// libdeflate's is: it takes half the instructions of klauspost/compress's
// gzip, which was about a quarter of a whole EASY run (SDSC-BLUE: 466 M
// instructions to inflate the trace, now 213 M; 9.3 per byte of text).
// It is checked against compress/flate on every trace, at every level,
// on blocks made by hand and by FuzzInflate, and against compress/gzip by
// FuzzGzip.
package inflate

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// Reader returns r decompressed when it starts with the gzip magic, else
// r as it is (behind a buffer). Gzip errors, from Reader or later from a
// Read, begin with name (such as "swf: FILE") and say "truncated" or
// "corrupt". Members follow one another (as cat a.gz b.gz makes them);
// zero bytes after the last member (the padding tape and dd leave) end the
// stream, as gzip(1) ignores them, and TrailingZeros counts them; any
// other byte there is an error that says it is not gzip. The closers stop the
// decompression; they do not close r. Closers run in reverse order.
func Reader(r io.Reader, name string) (io.Reader, []io.Closer, error) {
	return open(r, name, true)
}

// Prefix is Reader without the goroutine, for a read of the first bytes
// only: the goroutine decompresses up to 256 KiB ahead of the reads.
// (Prefix's Reads, too, decode up to the window, 128 KiB, at a time.)
// A whole read is Reader's: examples/simulate's streamed read through
// Prefix took the same CPU and 384 KiB less RSS on a 1 M-job log, but
// 1.5 times the wall time on a loaded machine (2026-12-01).
func Prefix(r io.Reader, name string) (io.Reader, []io.Closer, error) {
	return open(r, name, false)
}

func open(r io.Reader, name string, async bool) (io.Reader, []io.Closer, error) {
	// The magic is peeked through a buffer of bufio's least size: the
	// flateReader reads 64 KiB at a time through it, straight from r once
	// its first bytes are taken, and a 64 KiB buffer here was filled once
	// and never used again (64 KiB of a small log's peak RSS). A plain
	// stream gets its 64 KiB buffer on top.
	br := bufio.NewReaderSize(r, 16)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		m := &members{f: newFlateReader(br), name: name}
		if err := m.header(); err != nil {
			return nil, nil, gzipError(name, err)
		}
		if !async {
			return m, nil, nil
		}
		a := newAsyncReader(m)
		return a, []io.Closer{a}, nil
	}
	return bufio.NewReaderSize(br, 64<<10), nil, nil
}

// trailingError is a byte after the last member that is neither a member
// nor zero padding. It is a gzip.ErrHeader, as the inflater called it.
type trailingError struct {
	b     byte
	zeros int64
}

func (e trailingError) Error() string {
	return fmt.Sprintf("gzip data corrupt: the data after the last gzip member is not gzip (byte 0x%02x after %d zero bytes): trailing garbage", e.b, e.zeros)
}

func (e trailingError) Unwrap() error { return gzip.ErrHeader }

// TrailingZeros returns how many zero bytes followed the last gzip member
// of r, a reader from Reader or Prefix that returned io.EOF; 0 for any
// other reader. swf.File.TrailingZeros, simulate, swfstat and
// swf/convert report them.
func TrailingZeros(r io.Reader) int64 {
	if a, ok := r.(*asyncReader); ok {
		r = a.src
	}
	if m, ok := r.(*members); ok {
		return m.zeros.Load()
	}
	return 0
}

// gzipError describes a gzip error: io.ErrUnexpectedEOF means the file
// was cut short (an interrupted download or copy), a bad checksum, header
// or deflate block means its bytes are damaged. The cause stays wrapped
// for errors.Is.
func gzipError(path string, err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.As(err, new(trailingError)):
		return fmt.Errorf("%s: %w", path, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: gzip data truncated (the file ends early): %w", path, err)
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.As(err, &corrupt):
		return fmt.Errorf("%s: gzip data corrupt: %w", path, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}
