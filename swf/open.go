package swf

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/batchq/batchq/internal/inflate"
)

// File is a Reader over a file opened by Open. Close releases the file.
type File struct {
	*Reader
	// Drain, when set (before the read), is the read on past a strict
	// read's first malformed line of a gzip input (see Open) in place of
	// the File's own, which takes as long as the input does to give the
	// rest: it gets the rest of the stream (up to 1 GiB) and returns the
	// error that ended it, which the read's error then leads with, or nil
	// (or io.EOF) to let the line's error stand. A program reading an
	// input that may stall (standard input, a named pipe) bounds its wait
	// here (see the example): the library starts no timer.
	//
	// On a stalled input the decompressor's own read of it is pending,
	// and Close waits for that read to return (until the input gives a
	// byte or ends), Drain or not. A command that exits may leave the
	// File unclosed; a long-lived process that does so keeps the
	// decompressor's goroutine (and any the Drain left reading), and for
	// Open the file, until the input ends.
	Drain   func(rest io.Reader) error
	closers []io.Closer
	src     io.Reader // the decompressed input, for TrailingZeros
}

// TrailingZeros is the number of zero bytes that followed the last gzip
// member, once Read has returned io.EOF: padding (a tape's, dd's) that
// gzip(1) ignores and so does Open, which a command notes where it
// reports its input. 0 for a plain file.
func (f *File) TrailingZeros() int64 { return inflate.TrailingZeros(f.src) }

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
// by the gzip magic bytes, not by the file name. Errors of the gzip stream,
// from Open or later from Read, name the file and say "truncated" (the
// stream ends early; errors.Is(err, io.ErrUnexpectedEOF)) or "corrupt" (a
// bad checksum, header or deflate data). A strict read's first malformed
// line in a gzip file may be garbage that damaged data inflated to, before
// the checksum says so: the read then inflates on (up to 1 GiB) for the
// stream's own error and returns that, the line said after it.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	sf, err := OpenReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	sf.closers = append([]io.Closer{f}, sf.closers...)
	return sf, nil
}

// OpenReader reads SWF from r (standard input, a network stream), plain or
// gzip-compressed, as Open does for a file; name labels its gzip errors.
// Close stops the decompression but does not close r.
func OpenReader(r io.Reader, name string) (*File, error) {
	dr, closers, err := inflate.Reader(r, "swf: "+name) // (gunzipped when it starts with the magic)
	if err != nil {
		return nil, err
	}
	f := &File{Reader: NewReader(dr), closers: closers, src: dr}
	// (its errors that are not a *ParseError name the file)
	f.name = name
	if len(closers) > 0 { // gzip: a damaged stream inflates to garbage lines before its checksum fails
		f.damage = func() error {
			if f.Drain != nil {
				return f.Drain(io.LimitReader(dr, inflate.MaxDamageDrain))
			}
			return inflate.DrainForDamage(dr)
		}
	}
	return f, nil
}

// damagedError is a strict read's first malformed line on a gzip stream
// that turned out damaged: a flipped bit inflates to garbage text, often
// long before the checksum at the member's end says so, and the line's
// error ("wrong number of fields") would hide the cause. The message
// leads with the stream's error (which names the file) and it unwraps to
// it alone: the line's *ParseError is a symptom, and a caller that names
// the file of a *ParseError would name it twice.
type damagedError struct {
	gzip  error
	first *ParseError
}

func (e *damagedError) Error() string {
	return fmt.Sprintf("%v (the text inflated from it was unreadable from line %d on: %v)", e.gzip, e.first.Line, e.first.Err)
}

func (e *damagedError) Unwrap() error { return e.gzip }

// ReadFile reads a whole SWF file (plain or gzip) in strict mode. Every
// error names the file: Open's (os's, gzip's) do, and a malformed header or
// job line's *ParseError is wrapped with the path ("t.swf: swf: line 30:
// ..."; errors.As still finds it), so that a command given several logs, or
// run from a script, says which.
func ReadFile(path string) (*Header, []Job, error) {
	f, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	h, err := f.Header()
	if err != nil {
		return nil, nil, namedParse(path, err)
	}
	jobs, err := f.ReadAll()
	if err != nil {
		return nil, nil, namedParse(path, err)
	}
	return h, jobs, nil
}

// namedParse wraps err with path if it is a *ParseError, which names no
// file; the other errors of a read name it already.
func namedParse(path string, err error) error {
	if pe := (*ParseError)(nil); errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, err)
	}
	return err
}
