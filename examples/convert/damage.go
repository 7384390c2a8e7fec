package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/inflate"
)

// A flipped byte in a gzip log inflates to garbage text, often long
// before the checksum at the member's end says so; a conversion that
// stops at the garbage (-strict's first malformed record, a header line
// that is not sacct's) reported the garbage ("sacct line 24: 17 fields,
// the header has 25") and never the cause. As swf.Open does for SWF, a
// failed conversion inflates the rest of the gzip input it was reading
// (up to inflate.MaxDamageDrain) for the stream's own error, and leads with it.

// damageIdle bounds how long the search for a damaged stream's error
// waits for input that does not come: a gzip input that stalls (a named
// pipe, standard input from a writer that keeps it open) made a failed
// conversion wait for the writer, forever for one that never closes,
// where it had exited at once. A file never stalls this long; an input
// that does is left, and the conversion's error stands. (A variable for
// the tests.)
var damageIdle = cli.DamageIdle

// copyState is what the copier tells a failed conversion: whether the
// input it copies is gzip, and the error that stopped it. Once the
// conversion has failed (stop) the copier starts no further input: only
// the input being read can be the failure's cause.
type copyState struct {
	mu   sync.Mutex
	stop bool  // the conversion failed
	gzip bool  // the input being copied is gzip
	err  error // the copier's error, once it stopped on one
}

// next reports whether the copier may start its next input.
func (s *copyState) next() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gzip = false
	return !s.stop
}

// opened records whether the input just opened is gzip.
func (s *copyState) opened(gzip bool) {
	s.mu.Lock()
	s.gzip = gzip
	s.mu.Unlock()
}

// failed records the error that stopped the copier.
func (s *copyState) failed(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// damaged returns the error of a conversion that failed with conv, which
// read from pr: conv itself, or a *damagedError when the gzip input then
// being copied turns out damaged. A plain input is not read further (it
// may be a named pipe that stalls); a gzip one is read while it flows
// (damageIdle).
func (s *copyState) damaged(pr *io.PipeReader, conv error) error {
	s.mu.Lock()
	s.stop = true
	gz, err := s.gzip, s.err
	s.mu.Unlock()
	if err == nil && gz {
		// The copier ends the input (closing the pipe, with its error if
		// the stream is damaged) and starts no other.
		_, err = cli.Drain(io.LimitReader(pr, inflate.MaxDamageDrain), damageIdle)
	}
	if inflate.IsDamage(err) {
		return damagedError{gzip: err, conv: conv}
	}
	return conv
}

// damagedError is a failed conversion of a gzip input found damaged after
// it. The message leads with the stream's error (which names the input);
// it unwraps to that alone: the conversion's error is a symptom (a
// FormatError's "run with -from X", sniffed from garbage, is no advice).
type damagedError struct {
	gzip error // the input's (inflate's message names it)
	conv error // the conversion's
}

func (e damagedError) Error() string {
	// (Not "it stopped at the garbage": the damage may lie past the
	// stop, a wrong -from's first line, and the checksum says not where.)
	return fmt.Sprintf("%v (the conversion had stopped before, perhaps at garbage the damage inflated to: %s)", e.gzip, once(e.conv.Error()))
}

func (e damagedError) Unwrap() error { return e.gzip }
