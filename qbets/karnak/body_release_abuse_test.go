package karnak

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The abuse pass on releaseBody (bounded, 127.0.0.1 only): many
// connections that declare a body and send none are each answered and
// closed within the drain's wait, not the read timeout; a body trickled
// a byte at a time is not waited for; a request pipelined after a body
// that arrived is answered on the same connection (the drain reads the
// body's bytes, not the next request's); Expect: 100-continue gets its
// refusal without a 100 (the body is not asked for); a chunked body
// longer than maxDrain closes the connection.
func TestReleaseBodyAbuse(t *testing.T) {
	site := Token{Name: "site", Secret: "site-secret-0123456789", Systems: []string{"s1"}}
	_, srv := newTestServer(t, Config{Rate: -1, Tokens: []Token{site}})
	addr := strings.TrimPrefix(srv.URL, "http://")
	dial := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		return c, bufio.NewReader(c)
	}
	const head = "POST /karnak/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"

	// 32 connections at once, each declaring 1,000 bytes and sending none.
	start := time.Now()
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, br := dial()
			defer c.Close()
			io.WriteString(c, head+"Content-Length: 1000\r\n\r\n") //nolint:errcheck // the read says
			resp, err := http.ReadResponse(br, nil)
			if err != nil || resp.StatusCode != 401 || !resp.Close {
				t.Errorf("a declared body never sent: %v %v, want a 401 that closes", resp, err)
			}
		}()
	}
	wg.Wait()
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("32 connections with bodies never sent: answered in %v, want each at once", d)
	}

	// A body trickled a byte every 20 ms: not waited for.
	c, br := dial()
	io.WriteString(c, head+"Content-Length: 100\r\n\r\n") //nolint:errcheck // the read says
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			if _, err := c.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	t0 := time.Now()
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 401 || !resp.Close || time.Since(t0) > time.Second {
		t.Errorf("a trickled body: %v %v after %v, want a 401 that closes, before the body (2 s)", resp, err, time.Since(t0))
	}
	c.Close()
	<-done

	// Pipelined: a body that arrived (5 bytes that look like a request
	// line), then the next request, in one write.
	c, br = dial()
	io.WriteString(c, head+"Content-Length: 5\r\n\r\nGET /GET /karnak/system/status.txt HTTP/1.1\r\nHost: x\r\n\r\n") //nolint:errcheck // the read says
	for i, want := range []int{401, 200} {
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != want {
			t.Errorf("pipelined request %d: %v %v, want %d", i+1, resp, err, want)
			break
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck // the status says
	}
	c.Close()

	// Expect: 100-continue: the refusal, not a 100.
	c, br = dial()
	io.WriteString(c, head+"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n") //nolint:errcheck // the read says
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 401 || !resp.Close {
		t.Errorf("Expect: 100-continue: %v %v, want a 401 that closes", resp, err)
	}
	c.Close()

	// A chunked body on a GET, longer than maxDrain, sent whole.
	c, br = dial()
	chunk := strings.Repeat("y", maxDrain+1)
	fmt.Fprintf(c, "GET /karnak/system/status.txt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(chunk), chunk)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 || !resp.Close {
		t.Errorf("a chunked body over %d bytes: %v %v, want the answer, closing", maxDrain, resp, err)
	}
	c.Close()
}

// The abuse pass on the error formats: a message quoting a name with
// control characters, invalid UTF-8 or markup is still a valid JSON
// object, a well-formed XML document and a page that holds no markup of
// the client's; its length stays bounded.
func TestErrorFormatsHostile(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	h := s.Handler()
	for _, name := range []string{"%FF%FE", "%01%1B%5B31m", "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "]]%3E%3C!--", strings.Repeat("%E2%82%AC", 100)} {
		for _, ext := range []string{"json", "xml", "html"} {
			target := "/karnak/system/" + name + "/status." + ext
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
			out := w.Body.String()
			if w.Code != 404 || len(out) > 2500 {
				t.Errorf("%s: %d, %d bytes, want a bounded 404", target, w.Code, len(out))
			}
			switch ext {
			case "json":
				var v errorBody
				if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil || v.Status != 404 {
					t.Errorf("%s: %v %q", target, err, out)
				}
			case "xml":
				var v struct {
					XMLName xml.Name `xml:"error"`
					errorBody
				}
				if err := xml.Unmarshal(w.Body.Bytes(), &v); err != nil || v.Status != 404 {
					t.Errorf("%s: %v %q", target, err, out)
				}
			case "html":
				if strings.Contains(out, "<script") || strings.ContainsAny(out, "\x01\x1b") || !strings.Contains(out, `id="error"`) {
					t.Errorf("%s: the page holds the client's markup or controls: %q", target, out)
				}
			}
		}
	}
}
