package swf

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
)

// File is a Reader over a file opened by Open. Close releases the file.
type File struct {
	*Reader
	closers []io.Closer
}

// Close closes the decompressor (if any) and the file.
func (f *File) Close() error {
	var first error
	for i := len(f.closers) - 1; i >= 0; i-- {
		if err := f.closers[i].Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Open opens an SWF file, plain or gzip-compressed. Compression is detected
// by the gzip magic bytes, not by the file name.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, closers, err := decompress(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{Reader: NewReader(r), closers: append([]io.Closer{f}, closers...)}, nil
}

// decompress wraps r in a gzip reader when it starts with the gzip magic.
func decompress(r io.Reader) (io.Reader, []io.Closer, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, err
		}
		async := newAsyncReader(zr)
		// Closers run in reverse: stop the goroutine before closing zr.
		return async, []io.Closer{zr, async}, nil
	}
	return br, nil, nil
}

// ReadFile reads a whole SWF file (plain or gzip) in strict mode.
func ReadFile(path string) (*Header, []Job, error) {
	f, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	h, err := f.Header()
	if err != nil {
		return nil, nil, err
	}
	jobs, err := f.ReadAll()
	if err != nil {
		return nil, nil, err
	}
	return h, jobs, nil
}
