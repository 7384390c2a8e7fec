package karnak

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The 408 for a body not received within the server's read timeout
// reaches the client over a real connection (a server with ReadTimeout,
// as examples/qserve's), in the service's words, for both POST routes
// a client sends a body to: the prediction and the feed's events.
func TestBodyReadTimeoutOverTheWire(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	srv := httptest.NewUnstartedServer(s.Handler())
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Config.WriteTimeout = 5 * time.Second
	srv.Start()
	defer srv.Close()
	for _, path := range []string{"/karnak/waittime/prediction/?format=json", "/karnak/events"} {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"cores\":")); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: no answer: %v", path, err)
		}
		b := make([]byte, 512)
		nb, _ := resp.Body.Read(b)
		if body := string(b[:nb]); resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(body, "not received in time") || strings.Contains(body, "127.0.0.1") {
			t.Errorf("%s: %d %q, want 408 in the service's words", path, resp.StatusCode, body)
		}
	}
}

// A body whose chunked encoding is malformed is a 400 that says so, in
// the service's words; it said the connection had ended, which it had
// not. A body cut short by the client's closing its side is still that.
func TestBodyMalformedChunks(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, c := range []struct {
		raw, want string
		cut       bool // the client's side ends, the body short
	}{
		{"Transfer-Encoding: chunked\r\n\r\nzz\r\n{\"cores\":1}\r\n0\r\n\r\n", "its chunked encoding is malformed", false},
		{"Transfer-Encoding: chunked\r\n\r\n3\r\n{\"cores\":1}\r\n0\r\n\r\n", "its chunked encoding is malformed", false},
		{"Content-Length: 100\r\n\r\n{\"cores\":", "the connection ended before it did", true},
		{"Transfer-Encoding: chunked\r\n\r\n20\r\n{\"cores\":", "the connection ended before it did", true},
	} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := conn.Write([]byte("POST /karnak/waittime/prediction/?format=json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + c.raw)); err != nil {
			t.Fatal(err)
		}
		if c.cut {
			_ = conn.(*net.TCPConn).CloseWrite()
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%q: no answer: %v", c.raw, err)
		}
		b := make([]byte, 512)
		nb, _ := resp.Body.Read(b)
		if body := string(b[:nb]); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, c.want) {
			t.Errorf("%q: %d %q, want 400 with %q", c.raw, resp.StatusCode, body, c.want)
		}
		conn.Close()
	}
}
