package karnak

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A refusal sent before a small declared body arrives is sent at once
// and closes the connection, as the 413 of a declared length over the
// limit does: a 401 or a 415 waited for the body (net/http reads up to
// 256 KiB of an unread body before it answers), so a client that
// declared 100 bytes and sent none held its connection until the read
// timeout (here, without one, for ever: the test's 2 s deadline). So did
// any route that reads no body, given one. A client whose body did
// arrive keeps its connection for the next request.
func TestUnsentBodyAnsweredAtOnce(t *testing.T) {
	_, open := newTestServer(t, Config{Rate: -1})
	site := Token{Name: "site", Secret: "site-secret-0123456789", Systems: []string{"s1"}}
	_, closed := newTestServer(t, Config{Rate: -1, Tokens: []Token{site}})
	body := strings.Repeat("x", 100)
	for _, c := range []struct {
		srv, method, path, ctype string
		code                     int
	}{
		{closed.URL, "POST", "/karnak/events", "application/json", 401},
		{closed.URL, "POST", "/karnak/admin/system/s1/drop", "application/json", 401},
		{open.URL, "POST", "/karnak/waittime/prediction/", "text/html", 415},
		{open.URL, "POST", "/karnak/events", "text/plain", 415},
		{open.URL, "POST", "/karnak/nosuch/prediction/", "application/json", 404},
		{open.URL, "GET", "/karnak/system/status.txt", "", 200},
		{open.URL, "POST", "/karnak/system/status.txt", "", 405},
	} {
		what := fmt.Sprintf("%s %s (%s)", c.method, c.path, c.ctype)
		addr := strings.TrimPrefix(c.srv, "http://")
		head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", c.method, c.path, c.ctype, len(body))
		// The body never sent: answered at once, the connection closed.
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(2 * time.Second))
		io.WriteString(conn, head) //nolint:errcheck // the read says
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Errorf("%s, its body never sent: %v (no answer within 2 s)", what, err)
			conn.Close()
			continue
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck // the status says
		resp.Body.Close()
		if resp.StatusCode != c.code || !resp.Close {
			t.Errorf("%s, its body never sent: %d (closing: %v), want %d and the connection closed", what, resp.StatusCode, resp.Close, c.code)
		}
		if n, err := br.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			t.Errorf("%s, its body never sent: after the answer %d bytes, %v; want the connection closed (EOF)", what, n, err)
		}
		conn.Close()
		// The body sent with the request: the same answer, and the
		// connection serves the next request.
		conn, err = net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(2 * time.Second))
		io.WriteString(conn, head+body) //nolint:errcheck // the read says
		br = bufio.NewReader(conn)
		resp, err = http.ReadResponse(br, nil)
		if err != nil {
			t.Errorf("%s, its body sent: %v", what, err)
			conn.Close()
			continue
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck // the status says
		resp.Body.Close()
		if resp.StatusCode != c.code || resp.Close {
			t.Errorf("%s, its body sent: %d (closing: %v), want %d and the connection kept", what, resp.StatusCode, resp.Close, c.code)
		}
		io.WriteString(conn, "GET /karnak/system/status.txt HTTP/1.1\r\nHost: x\r\n\r\n") //nolint:errcheck // the read says
		if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
			t.Errorf("%s, its body sent: the next request on the connection: %v", what, err)
		}
		conn.Close()
	}
}
