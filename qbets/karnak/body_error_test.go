package karnak

import (
	"io"
	"net"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// failingBody gives some bytes, then the connection's error.
type failingBody struct {
	given bool
	err   error
}

func (b *failingBody) Read(p []byte) (int, error) {
	if !b.given {
		b.given = true
		return copy(p, `{"cores":`), nil
	}
	return 0, b.err
}

// A body that fails while it is read gets the service's own words, a
// 408 for a timeout (retrying may help) and a 400 otherwise: the answer
// quoted the connection's error, whose text names the server's own
// address (an internal one behind a proxy).
func TestBodyReadErrorsOwnWords(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	addr := &net.TCPAddr{IP: net.IPv4(10, 9, 8, 7), Port: 8080}
	for _, c := range []struct {
		err  error
		code int
		want string
	}{
		{&net.OpError{Op: "read", Net: "tcp", Source: addr, Addr: addr, Err: os.ErrDeadlineExceeded}, 408, "body: not received in time"},
		{&net.OpError{Op: "read", Net: "tcp", Source: addr, Addr: addr, Err: io.ErrUnexpectedEOF}, 400, "body: not received whole"},
		{io.ErrUnexpectedEOF, 400, "body: not received whole"},
	} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/karnak/waittime/prediction/?format=json", io.NopCloser(&failingBody{err: c.err}))
		r.Header.Set("Content-Type", "application/json")
		s.Handler().ServeHTTP(w, r)
		if body := w.Body.String(); w.Code != c.code || !strings.Contains(body, c.want) || strings.Contains(body, "10.9.8.7") || strings.Contains(body, "EOF") {
			t.Errorf("%v: %d %q, want %d with %q and neither the address nor the library's words", c.err, w.Code, body, c.code, c.want)
		}
	}
}
