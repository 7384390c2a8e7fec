package karnak

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
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
//	gets the same answer. A feed drops the batch and counts it.
//	404 Not Found: the system, queue or job named is not there (a job
//	that started is no longer waiting); asking again later may differ,
//	but retrying at once does not help.
//	401 Unauthorized, 403 Forbidden: no token, an unknown one, or one
//	not allowed this system or operation (without Config.Tokens: a
//	write from a client not on loopback); also 403 past MaxSystems.
//	Fix the credentials or the configuration; retrying does not help.
//	408, 429 Too Many Requests, 503 Service Unavailable and every 5xx:
//	transient (the service is rebuilding, rate-limited, or its store
//	failed): send the same request again later (Retry-After).
//
// Temporary tells the last group from the others.
type Error struct {
	Code    int    // an HTTP status code
	Message string // names the field or the cause
	err     error  // the underlying error, if any (a store's)
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
// for the caller, who may retry.
func internal(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: http.StatusInternalServerError, Message: err.Error(), err: err}
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
