// Package errlog bounds an http.Server's own error log (its ErrorLog):
// the lines net/http writes for a client's faults before any handler
// runs, so before the rate limit and the tokens. Left to the standard
// logger, anyone who could open a connection wrote a line to stderr for
// each: a failed TLS handshake (examples/qserve serve), a query with a
// ';' (every request, examples/slurmfeed -listen), and the log file
// filled at the rate connections were accepted (qserve's
// TestServerErrorLogBounded, slurmfeed's TestListenErrorLogBounded).
//
// A Log passes at most Burst lines a Period on, each clipped to MaxLine
// bytes on one line, as karnak's log of its internal errors, and then
// says how many it left out.
package errlog

import (
	"log"
	"strings"
	"sync"
	"time"

	"github.com/batchq/batchq/internal/textclip"
)

// The bounds: at most Burst lines a Period, each at most MaxLine bytes
// (karnak's: 20 lines a minute, 1,024 bytes a line).
const (
	Burst   = 20
	Period  = time.Minute
	MaxLine = 1024
)

// Log is the writer of an http.Server's ErrorLog: it passes at most
// Burst lines a Period on to out and counts the rest.
type Log struct {
	out   *log.Logger
	now   func() time.Time
	mu    sync.Mutex
	start time.Time // of the period
	n     int       // lines written in the period
	left  int       // lines left out since the last count was written
}

// New returns a Log writing to out.
func New(out *log.Logger) *Log { return &Log{out: out, now: time.Now} }

// Logger is the *log.Logger to set as http.Server.ErrorLog.
func (e *Log) Logger() *log.Logger { return log.New(e, "", 0) }

// Write passes p on as one line (control characters as spaces, clipped
// to MaxLine bytes) if the period's lines allow, else counts it.
func (e *Log) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t := e.now(); t.Sub(e.start) >= Period {
		e.flushLocked()
		e.start, e.n = t, 0
	}
	if e.n >= Burst {
		e.left++
		return len(p), nil
	}
	e.n++
	e.out.Print(line(p))
	return len(p), nil
}

// line is p on one line (its control characters as spaces), clipped to
// MaxLine bytes on a rune boundary, the cut marked.
func line(p []byte) string {
	return textclip.Clip(textclip.OneLine(strings.TrimSuffix(string(p), "\n")), MaxLine)
}

// Flush writes how many lines were left out, if any (at shutdown).
func (e *Log) Flush() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flushLocked()
}

func (e *Log) flushLocked() {
	if e.left > 0 {
		e.out.Printf("%d more server errors not logged (at most %d a %v)", e.left, Burst, Period)
		e.left = 0
	}
}
