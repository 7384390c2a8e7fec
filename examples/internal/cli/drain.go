package cli

import (
	"io"
	"sync/atomic"
	"time"

	"github.com/batchq/batchq/swf"
)

// A strict read of a gzip log that stops at a malformed line reads on
// for the stream's own error (a flipped byte inflates to garbage long
// before the checksum says so): swf.File's and convert's. On an input
// that stalls (standard input from a writer that keeps it open, a named
// pipe) that read waited for the writer, forever for one that never
// closes, where a plain input's error ends the command at once. A
// library starts no timer, so the bound is the commands': DamageIdle
// without a byte ends the search, and the line's error stands.

// DamageIdle is how long a command's search for a damaged gzip input's
// own error waits for input that does not come. A file never stalls this
// long.
const DamageIdle = 5 * time.Second

// Drain reads and discards r to its end and returns the error that ended
// it (nil at the end), or stalled when idle passes without a byte: the
// reading goroutine then waits on, until r's input ends or the process
// does.
func Drain(r io.Reader, idle time.Duration) (stalled bool, err error) {
	var n atomic.Int64
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, countingReader{r, &n})
		done <- err
	}()
	t := time.NewTicker(idle)
	defer t.Stop()
	seen := int64(0)
	for {
		select {
		case err := <-done:
			return false, err
		case <-t.C:
			if now := n.Load(); now != seen {
				seen = now
				continue
			}
			return true, nil // whether the stream is damaged is not known
		}
	}
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}

// BoundDrain bounds f's search for its damage (swf.File.Drain) to idle
// without a byte, and returns the close of f to defer: it closes f unless
// the search stalled, when the decompressor's read of the input is still
// pending and f.Close would wait for it. That leaves the decompressor's
// goroutine, Drain's and (for swf.Open) the file to the input's end: fine
// for a command, which exits with the line's error; a long-lived process
// would keep them for every stalled input.
func BoundDrain(f *swf.File, idle time.Duration) (closeFile func()) {
	stalled := false
	f.Drain = func(rest io.Reader) error {
		s, err := Drain(rest, idle)
		stalled = stalled || s
		return err
	}
	return func() {
		if !stalled {
			f.Close()
		}
	}
}
