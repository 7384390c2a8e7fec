package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// A client that sends its headers and then trickles (or stops sending)
// its body is cut off by the server's read timeout, and an idle
// keep-alive connection by the idle timeout (loopback only; bounded).
func TestSlowBodyClosed(t *testing.T) {
	s := newService(t, nil, karnak.Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(s.Handler(), timeouts{header: time.Second, read: 300 * time.Millisecond, write: time.Second, idle: 300 * time.Millisecond})
	go srv.Serve(ln) //nolint:errcheck // closed below
	defer srv.Close()

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t0 := time.Now()
	fmt.Fprint(conn, "POST /karnak/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a deadline on a fresh conn
	b, err := io.ReadAll(conn)                            // until the server closes it
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("a slow body held the connection for 5 s (read %q)", b)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Fatalf("closed after %v", d)
	}
	t.Logf("slow body: connection closed after %v; the server said %q", time.Since(t0).Round(time.Millisecond), firstLine(string(b)))

	// An idle keep-alive connection.
	conn2, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	fmt.Fprint(conn2, "GET /karnak/system/status.txt HTTP/1.1\r\nHost: x\r\n\r\n")
	conn2.SetReadDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a deadline on a fresh conn
	br := bufio.NewReader(conn2)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) //nolint:errcheck // drained
	resp.Body.Close()
	t1 := time.Now()
	if _, err := br.ReadByte(); err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("idle connection not closed: %v", err)
	}
	if d := time.Since(t1); d > 3*time.Second {
		t.Fatalf("idle connection closed after %v", d)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\r\n")
	return l
}

// Crash and restart on SQLite with a far-future event attempted: the
// event is refused before it is stored, the store is closed and
// reopened, and the restarted service rebuilds at once and answers the
// same.
func TestRestartAfterFarFuture(t *testing.T) {
	db := filepath.Join(t.TempDir(), "q.db")
	st, err := OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	s := newService(t, st, karnak.Config{})
	srv := httptest.NewServer(s.Handler())
	evs, _ := json.Marshal(testEvents())
	if code, out := do(t, "POST", srv.URL+"/karnak/events", "application/json", string(evs)); code != 200 {
		t.Fatalf("ingest: %d %s", code, out)
	}
	for _, tm := range []int64{testNow * 1000, 1<<63 - 1} {
		body := fmt.Sprintf(`{"kind":"submit","system":"s1","job":9000,"time":%d,"queue":"debug","cores":1}`, tm)
		if code, out := do(t, "POST", srv.URL+"/karnak/events", "application/json", body); code != 400 || !strings.Contains(out, "time") {
			t.Fatalf("far-future %d: %d %s", tm, code, out)
		}
	}
	q := "/karnak/system/s1/job/1002/prediction/waittime.json?within=00:10:00"
	code, before := do(t, "GET", srv.URL+q, "", "")
	if code != 200 {
		t.Fatalf("%d %s", code, before)
	}
	srv.Close()
	rows, _ := st.Rows()
	st.Close() // the crash: nothing more is written
	st, err = OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Now()
	s = newService(t, st, karnak.Config{})
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("restart took %v", d)
	}
	srv = httptest.NewServer(s.Handler())
	defer srv.Close()
	code, after := do(t, "GET", srv.URL+q, "", "")
	if n, _ := st.Rows(); code != 200 || after != before || n != rows {
		t.Fatalf("after restart (%d rows, was %d): %d\n%s\nwant\n%s", n, rows, code, after, before)
	}
}

// The serve command's token file: a write without a token is 401, with
// the site's token 200.
func TestServeTokens(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	if err := writeFile(tokens, "# name secret systems [admin]\nsiteA sA-0123456789abcdef s1\nops op-0123456789abcdef * admin\n"); err != nil {
		t.Fatal(err)
	}
	tk, err := readTokens(tokens)
	if err != nil || len(tk) != 2 || !tk[1].Admin || tk[0].Systems[0] != "s1" {
		t.Fatalf("readTokens: %+v %v", tk, err)
	}
	s := newService(t, nil, karnak.Config{Tokens: tk})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	evs, _ := json.Marshal(testEvents()[:3])
	if code, out := do(t, "POST", srv.URL+"/karnak/events", "application/json", string(evs)); code != 401 {
		t.Fatalf("no token: %d %s", code, out)
	}
	if code, out := doAuth(t, "POST", srv.URL+"/karnak/events", "application/json", "sA-0123456789abcdef", string(evs)); code != 200 {
		t.Fatalf("site token: %d %s", code, out)
	}
	if err := writeFile(tokens, "siteA short\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := readTokens(tokens); err == nil {
		t.Fatal("a malformed token file accepted")
	}
}
