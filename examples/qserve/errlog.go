package main

import (
	"log"
	"sync"
	"time"
)

// The http.Server writes a line to its ErrorLog for every connection
// that fails its TLS handshake (and for a few other faults of a client's
// making), before any request, so before the rate limit and the tokens:
// left to the standard logger, anyone who could open a connection wrote
// a line to stderr for each (TestServerErrorLogBounded: 300 connections
// of garbage, 300 lines; a log file filled at the rate connections are
// accepted). serve's server logs at most serverErrorBurst of them every
// serverErrorPeriod, and then how many it left out.
const (
	serverErrorBurst  = 20
	serverErrorPeriod = time.Minute
)

// errorLog is the writer of the http.Server's ErrorLog: it passes at
// most serverErrorBurst lines a period on to out and counts the rest.
type errorLog struct {
	out   *log.Logger
	now   func() time.Time
	mu    sync.Mutex
	start time.Time // of the period
	n     int       // lines written in the period
	left  int       // lines left out since the last count was written
}

func newErrorLog(out *log.Logger) *errorLog { return &errorLog{out: out, now: time.Now} }

// logger is the *log.Logger to set as http.Server.ErrorLog.
func (e *errorLog) logger() *log.Logger { return log.New(e, "", 0) }

func (e *errorLog) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t := e.now(); t.Sub(e.start) >= serverErrorPeriod {
		e.flushLocked()
		e.start, e.n = t, 0
	}
	if e.n >= serverErrorBurst {
		e.left++
		return len(p), nil
	}
	e.n++
	e.out.Print(string(p))
	return len(p), nil
}

// flush writes how many lines were left out, if any (at shutdown).
func (e *errorLog) flush() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flushLocked()
}

func (e *errorLog) flushLocked() {
	if e.left > 0 {
		e.out.Printf("%d more server errors not logged (at most %d a %v)", e.left, serverErrorBurst, serverErrorPeriod)
		e.left = 0
	}
}
