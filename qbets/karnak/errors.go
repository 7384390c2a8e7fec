package karnak

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/batchq/batchq/internal/textclip"
)

// Error is how the service says no, the same from a Service in the
// process and from a client over HTTP (package slurmfeed's Client
// decodes the handler's answer into one), so that a caller branches on
// it once (errors.As) whichever way it reaches the service. Code is the
// HTTP status the handler answers with; as the Code of a Kubernetes
// Status, it says what the caller does next:
//
//	400 Bad Request, 409 Conflict, 413 Content Too Large, 415 Unsupported
//	Media Type, 414: rejected for good. The request (an event, a batch, a
//	query) is wrong and the message names the field; the same request
//	gets the same answer. A feed drops the batch and counts it. (A 409
//	also refuses events, a repair or a replay of a system a trace
//	replay is feeding, for as long as it does: the system has one
//	feeder at a time, and a live feed's events for it are dropped.)
//	404 Not Found: the system, queue or job named is not there (a job
//	that started is no longer waiting); asking again later may differ,
//	but retrying at once does not help.
//	401 Unauthorized, 403 Forbidden: no token, an unknown one, or one
//	not allowed this system or operation (without Config.Tokens: a
//	write from a client not on loopback); also 403 past MaxSystems.
//	Fix the credentials or the configuration; retrying does not help.
//	408, 429 Too Many Requests, 503 Service Unavailable and every 5xx:
//	transient (the service is rebuilding, rate-limited, or its store
//	failed): send the same request again later (Retry-After). A 500's
//	message is fixed and numbered ("internal error N: ..."), whatever
//	its cause: the cause (a store's error, with its paths) is logged
//	under N (Config.Logf) and is the Error's Unwrap.
//
// Temporary tells the last group from the others.
type Error struct {
	Code    int    // an HTTP status code
	Message string // names the field or the cause
	err     error  // the underlying error, if any (a store's)
	// retry is when to ask again, for a 429 (Retry-After); 0: unsaid.
	retry time.Duration
}

func (e *Error) Error() string { return e.Message }

// Unwrap is the underlying error (a store's), if any.
func (e *Error) Unwrap() error { return e.err }

// Temporary reports whether the same request may succeed later (408,
// 429, 5xx, and a code below 400, which only a client meets: an answer
// it did not expect, such as a redirect): a feed retries those, and
// drops a batch rejected otherwise.
func (e *Error) Temporary() bool {
	return e.Code == http.StatusRequestTimeout || e.Code == http.StatusTooManyRequests || e.Code >= 500 || e.Code < 400
}

func badRequest(format string, a ...any) error {
	return &Error{Code: http.StatusBadRequest, Message: fmt.Sprintf(format, a...)}
}

func notFound(format string, a ...any) error {
	return &Error{Code: http.StatusNotFound, Message: fmt.Sprintf(format, a...)}
}

// internal wraps an error of the store (or a bug) as a 500: transient
// for the caller, who may retry. Its message is fixed and numbered, the
// same for every cause: a store's error names files, tables and the
// store's own words (the SQLite store's paths, a driver's message), and
// reached every authenticated feeder verbatim, in the process and over
// HTTP. The detail goes to the operator's log under the number
// (internalLog, bounded), and stays the Error's Unwrap for a program
// that embeds the service.
func (s *Service) internal(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	n := s.internals.log(s.opt.Logf, err)
	return &Error{Code: http.StatusInternalServerError, err: err,
		Message: fmt.Sprintf("internal error %d: the service could not complete the request (its operator's log has the cause under this number): send it again later", n)}
}

// internalLog numbers the internal errors and logs each one's cause,
// clipped to maxLogDetail bytes, at most logBurst a minute: a store that
// fails at every request (a full disk) must not fill the operator's
// disk too. The lines left out are counted in the next one logged.
type internalLog struct {
	mu      sync.Mutex
	n       int64 // errors numbered
	minute  int64 // of the wall clock, of the lines counted in logged
	logged  int   // lines logged in minute
	dropped int64 // lines left out since the last one logged
	// now is the wall clock (nil: time.Now); the tests set it, so that
	// a minute's turn does not fall inside one.
	now func() time.Time
}

const (
	maxLogDetail = 1024
	logBurst     = 20
)

// log numbers err and logs it (if the minute's lines allow), returning
// its number.
func (l *internalLog) log(logf func(string, ...any), err error) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	if m := now().Unix() / 60; m != l.minute {
		l.minute, l.logged = m, 0
	}
	if l.logged >= logBurst {
		l.dropped++
		return l.n
	}
	l.logged++
	more := ""
	if l.dropped > 0 {
		more = fmt.Sprintf(" (%d earlier ones not logged: at most %d a minute)", l.dropped, logBurst)
		l.dropped = 0
	}
	logf("karnak: internal error %d%s: %s", l.n, more, textclip.Clip(textclip.OneLine(err.Error()), maxLogDetail))
	return l.n
}

func statusOf(err error) int {
	var he *Error
	if errors.As(err, &he) {
		return he.Code
	}
	return http.StatusInternalServerError
}

// setting names a setting of the service in an error an HTTP client
// reads: first the qserve flag its operator sets it with, then the
// library's Config field (for a program that embeds the package), so
// that neither reader is left with the other's name only.
func setting(field string) string {
	flag := ""
	switch field {
	case "MaxSkew":
		flag = "-max-skew"
	case "MaxBackstep":
		flag = "-max-backstep"
	case "Levels":
		flag = "-levels"
	case "Tokens":
		flag = "-tokens"
	case "MaxForecastJobs":
		flag = "-max-forecast-jobs"
	case "MaxSystems":
		flag = "-max-systems"
	case "MaxQueues":
		flag = "-max-queues"
	case "MaxLiveJobs":
		flag = "-max-live-jobs"
	}
	if flag == "" {
		return "a limit of the service: karnak.Config." + field
	}
	return "set by the operator: qserve " + flag + "; karnak.Config." + field
}

// levelList is the quantile/confidence pairs levels as a reader wants
// them: "95/90, 50/90".
func levelList(levels []Level) string {
	s := make([]string, len(levels))
	for i, l := range levels {
		s[i] = l.String()
	}
	return strings.Join(s, ", ")
}
