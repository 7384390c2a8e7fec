// Package inflate opens a byte stream that may be gzip-compressed, told by
// its magic bytes, and decompresses it in a goroutine of its own. It is
// swf.Open's decompression, shared with the commands that need the
// decompressed bytes themselves (examples/simulate reads a trace twice
// when its jobs lack estimates, and keeps the text of the second read).
package inflate

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	kgzip "github.com/klauspost/compress/gzip"
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
func Prefix(r io.Reader, name string) (io.Reader, []io.Closer, error) {
	return open(r, name, false)
}

func open(r io.Reader, name string, async bool) (io.Reader, []io.Closer, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		// klauspost/compress's inflater: the same stream and errors
		// (its error values and types are the standard library's), about
		// 30% less CPU than compress/gzip's, which was a quarter of a
		// whole EASY run on SDSC-BLUE.
		zr, err := kgzip.NewReader(br)
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // the magic bytes, then nothing
			}
			return nil, nil, gzipError(name, err)
		}
		zr.Multistream(false) // members reads them one by one
		m := &members{zr: zr, br: br, name: name}
		if !async {
			return m, []io.Closer{zr}, nil
		}
		a := newAsyncReader(m)
		// Closers run in reverse: stop the goroutine before closing zr.
		return a, []io.Closer{zr, a}, nil
	}
	return br, nil, nil
}

// members reads the gzip members of br one after another, and makes the
// errors name the file and say whether it is truncated or corrupt. The
// inflater's own multistream reading refused zero padding after the last
// member as "invalid header"; members looks at the bytes after each
// member itself.
type members struct {
	zr    *kgzip.Reader
	br    *bufio.Reader // zr reads from it byte-exact (it is an io.ByteReader)
	name  string
	zeros atomic.Int64 // zero bytes after the last member (read by TrailingZeros)
}

func (m *members) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil // (the loop below would spin: zr reads 0 bytes, no error)
	}
	for {
		n, err := m.zr.Read(p)
		if err == io.EOF {
			err = m.next()
		}
		if err != nil && err != io.EOF {
			err = gzipError(m.name, err)
		}
		if n > 0 || err != nil {
			return n, err
		}
	}
}

// next starts the member after the one that ended, or returns io.EOF at
// the end of the input or of its zero padding.
func (m *members) next() error {
	magic, err := m.br.Peek(2)
	switch {
	case len(magic) == 0 && err == io.EOF:
		return io.EOF
	case len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		if err := m.zr.Reset(m.br); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // a member's magic, then nothing
			}
			return err
		}
		m.zr.Multistream(false)
		return nil
	}
	var zeros int64
	for {
		b, err := m.br.ReadByte()
		if err == io.EOF {
			m.zeros.Store(zeros)
			return io.EOF
		}
		if err != nil {
			return err
		}
		if b != 0 {
			return trailingError{b, zeros}
		}
		zeros++
	}
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
