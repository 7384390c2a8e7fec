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

// A body whose Content-Length is over its route's limit is refused at
// once (413, and the connection closed), before any of it is read, after
// the token where the route needs one: http.MaxBytesReader refused it
// only once the bytes arrived, so a request that declared 4 MB and sent
// nothing held its connection until the server's read timeout (here,
// without one, for ever). A declared length between the limit and
// net/http's 256 KiB is refused at once too: net/http reads up to that
// much of an unread body before it answers, unless the answer closes
// the connection.
func TestDeclaredLengthRefusedAtOnce(t *testing.T) {
	_, open := newTestServer(t)
	site := Token{Name: "site", Secret: "site-secret-0123456789", Systems: []string{"s1"}}
	_, closed := newTestServer(t, Config{Tokens: []Token{site}})
	for _, c := range []struct {
		srv    string
		path   string
		ctype  string
		length int64
		auth   string
		code   int
		want   string
	}{
		{open.URL, "/karnak/waittime/prediction/", "application/json", 4 << 20, "", 413, "body"},
		{open.URL, "/karnak/starttime/prediction/?format=json", "text/plain", maxQuery + 1, "", 413, "body"},
		{open.URL, "/karnak/waittime/prediction/", "application/json", 100_000, "", 413, "body"},
		{open.URL, "/karnak/events", "application/json", maxBody + 1, "", 413, "body"},
		{closed.URL, "/karnak/events", "application/json", 8 << 20, "Bearer " + site.Secret, 413, "body"},
		// Without a token: 401 first, as before.
		{closed.URL, "/karnak/events", "application/json", 8 << 20, "", 401, ""},
	} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(c.srv, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(2 * time.Second))
		auth := ""
		if c.auth != "" {
			auth = "Authorization: " + c.auth + "\r\n"
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n%s\r\n", c.path, c.ctype, c.length, auth)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("%s, %d bytes declared, none sent: %v (no answer)", c.path, c.length, err)
			conn.Close()
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		conn.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(b), c.want) {
			t.Errorf("%s, %d bytes declared: %d %q, want %d naming %q", c.path, c.length, resp.StatusCode, b, c.code, c.want)
		}
		want := "text/plain; charset=utf-8"
		if strings.Contains(c.path, "format=json") { // (an error is in the format asked for)
			want = "application/json"
		}
		if ct := resp.Header.Get("Content-Type"); ct != want {
			t.Errorf("%s: Content-Type %q", c.path, ct)
		}
	}
}
