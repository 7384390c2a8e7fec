package swf

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// zeros is an endless stream of NUL bytes, /dev/zero's, counting them.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// A "line" without an end (/dev/zero given as the log) was read on to
// its end, which never came: swfstat /dev/zero ran until it was killed. A
// strict read fails at maxLine with the long line's error; a lenient one,
// which must find a long line's end to skip it, stops at maxDropped with
// an error, having read about that much.
func TestEndlessLine(t *testing.T) {
	z := &zeros{}
	r := NewReader(io.MultiReader(strings.NewReader("; MaxProcs: 4\n"), z))
	_, err := r.ReadAll()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrRange) || z.n > 2*maxLine {
		t.Errorf("strict: %v after %d bytes; want line 2's long-line error within %d", err, z.n, 2*maxLine)
	}
	if testing.Short() {
		return
	}
	z = &zeros{}
	r = NewReader(io.MultiReader(strings.NewReader("; MaxProcs: 4\n"), z))
	r.Lenient = true
	_, err = r.ReadAll()
	if err == nil || !strings.Contains(err.Error(), "swf: line 2: a line longer than 1 GiB") || z.n > maxDropped+2*maxLine {
		t.Errorf("lenient: %v after %d bytes; want the endless line's error within %d", err, z.n, maxDropped+2*maxLine)
	}
}
