package karnak

import (
	"io"
	"net/http"
	"time"
)

// An answer written while a request's body is still unread (a 401 or a
// 415 before the body is read, any error before routing, any route that
// reads no body) made net/http read up to 256 KiB of the body before it
// sent the answer, so that the connection could serve another request:
// a client that declared a small body and sent none held its connection
// until the server's read timeout (TestUnsentBodyAnsweredAtOnce; a body
// over 256 KiB was never waited for, and the 413 for a declared length
// over the limit closed already). releaseBody settles the body first:
// one that has arrived (small, already in the connection's buffers) is
// read and dropped, and the connection serves the client's next request
// as before; one that has not arrived within drainWait, or is longer
// than maxDrain, chunked past it, or awaited with Expect: 100-continue,
// is not waited for: the answer closes the connection (HTTP/1; HTTP/2
// resets the stream itself).
const (
	maxDrain  = 64 << 10
	drainWait = 50 * time.Millisecond
)

// releaseBody drains r's unread body, or sets the answer to close the
// connection; it must be called before the answer's header is written.
// It is a no-op once called, or once readBody has taken the body.
func releaseBody(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor != 1 || r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return
	}
	b := r.Body
	r.Body = http.NoBody
	if r.ContentLength <= maxDrain && r.Header.Get("Expect") == "" {
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(drainWait)) == nil {
			n, err := io.CopyN(io.Discard, b, maxDrain+1)
			if err == io.EOF && n <= maxDrain {
				// (net/http clears the deadline at the body's end,
				// for its wait for the next request; so does this.)
				rc.SetReadDeadline(time.Time{}) //nolint:errcheck // set above
				return
			}
		}
	}
	w.Header().Set("Connection", "close")
}

// readsBody reports whether r's route reads its body (readBody), and so
// answers a refusal before it through writeError, which releases it.
func readsBody(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	switch r.URL.Path {
	case "/karnak/events", "/karnak/waittime/prediction/", "/karnak/starttime/prediction/":
		return true
	}
	return false
}
