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

	kgzip "github.com/klauspost/compress/gzip"
)

// Reader returns r decompressed when it starts with the gzip magic, else
// r as it is (behind a buffer). Gzip errors, from Reader or later from a
// Read, begin with name (such as "swf: FILE") and say "truncated" or
// "corrupt". The closers stop the
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
		if !async {
			return gzipErrors{zr, name}, []io.Closer{zr}, nil
		}
		a := newAsyncReader(gzipErrors{zr, name})
		// Closers run in reverse: stop the goroutine before closing zr.
		return a, []io.Closer{zr, a}, nil
	}
	return br, nil, nil
}

// gzipErrors makes the errors of a gzip stream name the file and say
// whether it is truncated or corrupt.
type gzipErrors struct {
	r    io.Reader
	path string
}

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = gzipError(g.path, err)
	}
	return n, err
}

// gzipError describes a gzip error: io.ErrUnexpectedEOF means the file
// was cut short (an interrupted download or copy), a bad checksum, header
// or deflate block means its bytes are damaged. The cause stays wrapped
// for errors.Is.
func gzipError(path string, err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: gzip data truncated (the file ends early): %w", path, err)
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.As(err, &corrupt):
		return fmt.Errorf("%s: gzip data corrupt: %w", path, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}
