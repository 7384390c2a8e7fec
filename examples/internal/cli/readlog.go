package cli

import (
	"errors"
	"fmt"

	"github.com/batchq/batchq/swf"
)

// ReadLog is swf.ReadFile (strict, every error naming the file) that also
// returns how many zero bytes followed the last gzip member: padding (a
// tape's, dd's) that the reader ignores, as gzip(1) does, and that the
// command then says in its report in PaddingNote's words. swf.ReadFile
// drops the count: a command reading a log with it could not say so (the
// commands that read a whole SWF log read it here; simulate, swfstat and
// convert, which open theirs with swf.Open or inflate, take the count
// from the reader).
func ReadLog(path string) (*swf.Header, []swf.Job, int64, error) {
	f, err := swf.Open(path)
	if err != nil {
		return nil, nil, 0, err
	}
	defer BoundDrain(f, DamageIdle)() // (a named pipe may stall)
	h, err := f.Header()
	if err == nil {
		var jobs []swf.Job
		if jobs, err = f.ReadAll(); err == nil {
			return h, jobs, f.TrailingZeros(), nil
		}
	}
	// A *ParseError names no file (swf.ReadFile's rule); the others do.
	if pe := (*swf.ParseError)(nil); errors.As(err, &pe) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return nil, nil, 0, err
}

// PaddingNote is the report's note of z zero bytes after the last gzip
// member (simulate's, swfstat's and convert's words); -json says
// "trailing_zero_bytes": z.
func PaddingNote(z int64) string {
	return fmt.Sprintf("%d zero bytes after the last gzip member ignored", z)
}
