package karnak

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// countingBody counts the bytes a handler reads of a request body.
type countingBody struct {
	r    io.Reader
	read int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

func (c *countingBody) Close() error { return nil }

// serveFrom runs one request through h as if from remote (host:port),
// with a body and headers (name, value pairs); it returns the answer and
// how many bytes of the body the handler read.
func serveFrom(h http.Handler, method, path, remote, body string, header ...string) (*httptest.ResponseRecorder, int) {
	cb := &countingBody{r: strings.NewReader(body)}
	req := httptest.NewRequest(method, path, nil)
	req.Body = cb
	req.ContentLength = int64(len(body))
	req.RemoteAddr = remote
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec, cb.read
}

// Closed by default: without tokens the handler takes event batches
// from loopback only (not from a proxy on this host that forwards
// anyone), and repairs from nobody. Before this change a batch from any
// address was stored.
func TestClosedByDefault(t *testing.T) {
	s, err := NewService(nil, func() int64 { return testNow })
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	ev := fmt.Sprintf(`{"kind":"queue","system":"x%%d","time":%d,"queue":"q","cores":1,"wallTime":60}`, testNow)
	for i, c := range []struct {
		remote string
		header []string
		code   int
	}{
		{"192.0.2.1:1234", nil, 403},
		{"[2001:db8::1]:1234", nil, 403},
		{"127.0.0.1:1234", []string{"X-Forwarded-For", "192.0.2.1"}, 403},
		{"[::1]:1234", []string{"Forwarded", "for=192.0.2.1"}, 403},
		{"127.0.0.1:1234", nil, 200},
		{"[::1]:1234", nil, 200},
	} {
		rec, read := serveFrom(h, "POST", "/karnak/events", c.remote, fmt.Sprintf(ev, i), c.header...)
		if rec.Code != c.code || c.code == 403 && (read != 0 || !strings.Contains(rec.Body.String(), "loopback")) {
			t.Errorf("%s %v: %d %q (read %d bytes), want %d", c.remote, c.header, rec.Code, rec.Body.String(), read, c.code)
		}
	}
	if rec, _ := serveFrom(h, "POST", "/karnak/admin/system/x4/drop", "127.0.0.1:1", ""); rec.Code != 403 {
		t.Errorf("a repair without tokens: %d %s", rec.Code, rec.Body.String())
	}
}

// Fail closed behind a trusted proxy: without tokens, a batch that a
// proxy on this host forwards without naming its client (no
// X-Forwarded-For: an nginx configured without proxy_set_header), or
// naming a loopback one, is refused with 403, and its client is keyed
// apart from the proxy's other clients. Before this change the first
// counted as the proxy's own address, 127.0.0.1, and was stored: every
// client of such a proxy, from anywhere, had loopback's writes.
func TestClientUnknownNotLoopback(t *testing.T) {
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{TrustedProxies: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	ev := fmt.Sprintf(`{"kind":"queue","system":"x%%d","time":%d,"queue":"q","cores":1,"wallTime":60}`, testNow)
	for i, c := range []struct {
		remote, xff string
		code        int
		who         string
	}{
		{"127.0.0.1:1234", "", 403, "unknown via 127.0.0.1"},
		{"127.0.0.1:1234", "127.0.0.1", 403, "127.0.0.1"},
		{"127.0.0.1:1234", "192.0.2.1", 403, "192.0.2.1"},
		{"[::1]:1234", "", 200, ""}, // a loopback peer that is no proxy
	} {
		var hdr []string
		if c.xff != "" {
			hdr = []string{"X-Forwarded-For", c.xff}
		}
		rec, read := serveFrom(h, "POST", "/karnak/events", c.remote, fmt.Sprintf(ev, i), hdr...)
		if rec.Code != c.code || c.code == 403 && (read != 0 || !strings.HasSuffix(strings.TrimSpace(rec.Body.String()), "not from "+c.who)) {
			t.Errorf("%s %q: %d %q (read %d bytes), want %d naming %s", c.remote, c.xff, rec.Code, rec.Body.String(), read, c.code, c.who)
		}
	}
}

// The token is checked before the body is read: a 4 MB batch without a
// token, or with an unknown one, is refused having read none of it. The
// scheme "Bearer" is case-insensitive (RFC 7235 §2.1); before this
// change "bearer" got 401.
func TestAuthBeforeBody(t *testing.T) {
	site := Token{Name: "site", Secret: "site-secret-0123456789", Systems: []string{"s1"}}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Tokens: []Token{site}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	big := "[" + strings.Repeat(`{"kind":"queue","system":"s1","time":1,"queue":"q","cores":1,"wallTime":60},`, 50000) + "{}]"
	for _, auth := range []string{"", "Bearer wrong-secret-0123456789", "Basic c2l0ZTpzZWNyZXQ=", "Bearer", "Bearer "} {
		var hdr []string
		if auth != "" {
			hdr = []string{"Authorization", auth}
		}
		t0 := time.Now()
		rec, read := serveFrom(h, "POST", "/karnak/events", "192.0.2.1:1", big, hdr...)
		if rec.Code != 401 || read != 0 {
			t.Errorf("%q: %d, read %d of %d bytes, want 401 having read nothing", auth, rec.Code, read, len(big))
		}
		if d := time.Since(t0); d > 100*time.Millisecond {
			t.Errorf("%q: refused in %v", auth, d)
		}
	}
	ev := fmt.Sprintf(`{"kind":"queue","system":"s1","time":%d,"queue":"q","cores":1,"wallTime":60}`, testNow)
	for _, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR  "} {
		rec, _ := serveFrom(h, "POST", "/karnak/events", "192.0.2.1:1", ev, "Authorization", scheme+" "+site.Secret)
		if rec.Code != 200 {
			t.Errorf("scheme %q: %d %s", scheme, rec.Code, rec.Body.String())
		}
	}
	// The scope is checked once the systems are known.
	rec, _ := serveFrom(h, "POST", "/karnak/events", "192.0.2.1:1", strings.Replace(ev, `"s1"`, `"s2"`, 1), "Authorization", "Bearer "+site.Secret)
	if rec.Code != 403 || !strings.Contains(rec.Body.String(), "events[0].system") {
		t.Errorf("out of scope: %d %s", rec.Code, rec.Body.String())
	}
}

// The rate limiter holds a bounded number of clients, costs O(1) per
// request, and never refuses a client that has not used its burst:
// before this change, once 65,536 addresses were tracked every new one
// (127.0.0.1 too) got 429 after a scan of all of them under one lock.
func TestRateLimiterNoLockout(t *testing.T) {
	capacity := maxClients
	if testing.Short() {
		capacity = 1 << 10 // -race costs 100 µs a request
	}
	l := newLimiter(1, 3, capacity)
	at := time.Unix(testNow, 0)
	l.now = func() time.Time { return at } // no refill: every bucket stays used
	t0 := time.Now()
	n := 2 * capacity
	for i := range n {
		if ok, _ := l.allow(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)); !ok {
			t.Fatalf("client %d refused on its first request", i)
		}
	}
	per := time.Since(t0) / time.Duration(n)
	held := 0
	for i := range l.shards {
		held += len(l.shards[i].m)
		if l.shards[i].lru.Len() != len(l.shards[i].m) {
			t.Fatal("the LRU list and the map disagree")
		}
	}
	if held > capacity {
		t.Errorf("%d clients held, at most %d", held, capacity)
	}
	for _, c := range []string{"127.0.0.1", "192.0.2.200"} {
		if ok, _ := l.allow(c); !ok {
			t.Errorf("a new client %s refused", c)
		}
	}
	// A client over its limit stays limited while it keeps asking.
	for range 3 {
		l.allow("198.51.100.7")
	}
	if ok, wait := l.allow("198.51.100.7"); ok || wait <= 0 {
		t.Errorf("beyond the burst: %v %v", ok, wait)
	}
	t.Logf("%d clients: %v a request, %d held", n, per, held)
	if per > 200*time.Microsecond { // a scan of 65,536 entries costs more (and -race slows 10×)
		t.Errorf("%v a request", per)
	}
}

// Behind a trusted proxy the client is the address the proxy forwards
// (the rightmost one that is not a trusted proxy); from any other peer
// the header is ignored. The rate limit is on by default. A prefix of
// every address (0.0.0.0/0, ::/0) is no proxy's: it was taken, and any
// client could name itself anew at each request, without a rate limit.
func TestClientIdentity(t *testing.T) {
	s, err := New(nil, Config{TrustedProxies: []string{"10.0.0.0/8", "127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.limiter == nil || s.limiter.rate != defaultRate || s.limiter.burst != defaultBurst {
		t.Fatalf("default limiter %+v", s.limiter)
	}
	for _, c := range []struct {
		remote string
		xff    []string
		id     string
		lo     bool
	}{
		// Changed deliberately (security): a trusted proxy that names no
		// client (no header, an empty one, its rightmost entry not an
		// address) forwards an unknown client, not loopback (it was
		// "127.0.0.1", loopback: with no tokens an nginx on this host
		// that omitted the header gave everyone loopback's writes); and
		// no request through a proxy is loopback, whatever client the
		// proxy names (Config.Tokens' rule; "::1" forwarded by
		// 10.9.9.9, the proxy host's own loopback, was).
		{"127.0.0.1:1", nil, "unknown via 127.0.0.1", false},
		{"127.0.0.1:1", []string{""}, "unknown via 127.0.0.1", false},
		{"127.0.0.1:1", []string{"unknown"}, "unknown via 127.0.0.1", false},
		{"127.0.0.1:1", []string{"192.0.2.9, _hidden"}, "unknown via 127.0.0.1", false},
		{"10.9.9.9:1", []string{"192.0.2.9, "}, "unknown via 10.9.9.9", false},
		{"127.0.0.1:1", []string{"127.0.0.1"}, "127.0.0.1", false},
		{"127.0.0.1:1", []string{"192.0.2.9", "127.0.0.1"}, "192.0.2.9", false},
		{"[::1]:1", nil, "::1", true},           // loopback, not a trusted proxy
		{"127.0.0.2:1", nil, "127.0.0.2", true}, // (the /32 is trusted, not the /8)
		{"127.0.0.1:1", []string{"192.0.2.9"}, "192.0.2.9", false},
		{"127.0.0.1:1", []string{"198.51.100.1, 192.0.2.9, 10.1.2.3"}, "192.0.2.9", false},
		{"127.0.0.1:1", []string{"198.51.100.1", "192.0.2.9"}, "192.0.2.9", false},
		{"127.0.0.1:1", []string{"198.51.100.1 , [2001:db8::7]:443 ,10.1.2.3:80"}, "2001:db8::/64", false},
		{"10.9.9.9:1", []string{"garbage, 10.0.0.1"}, "10.0.0.1", false},
		{"10.9.9.9:1", []string{"::1"}, "::1", false},
		{"192.0.2.50:1", []string{"127.0.0.1"}, "192.0.2.50", false}, // not a trusted peer: spoofed
		{"[2001:db8:1:2:3:4:5:6]:1", nil, "2001:db8:1:2::/64", false},
		{"[::ffff:192.0.2.7]:1", nil, "192.0.2.7", false},
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = c.remote
		for _, v := range c.xff {
			req.Header.Add("X-Forwarded-For", v)
		}
		if got := s.clientOf(req); got.id != c.id || got.loopback != c.lo {
			t.Errorf("%s %q: %+v, want %s loopback %v", c.remote, c.xff, got, c.id, c.lo)
		}
	}
	// A connection's client (Service.ConnClient, qserve's -client-conns)
	// is its request's, the header aside: a trusted proxy is none.
	for _, c := range []struct {
		addr    net.Addr
		key     string
		limited bool
	}{
		{&net.TCPAddr{IP: net.ParseIP("192.0.2.9"), Port: 1}, "192.0.2.9", true},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:192.0.2.7"), Port: 1}, "192.0.2.7", true},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 1}, "2001:db8:1:2::/64", true},
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 1, Zone: "eth0"}, "fe80::/64", true},
		{&net.TCPAddr{IP: net.ParseIP("::1"), Port: 1}, "::1", true},
		{&net.TCPAddr{IP: net.ParseIP("10.1.2.3"), Port: 1}, "", false},
		{&net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 1}, "", false},
		{&net.UnixAddr{Name: "/run/karnak.sock", Net: "unix"}, "", false},
		{nil, "", false},
	} {
		key, limited := s.ConnClient(c.addr)
		if key != c.key || limited != c.limited {
			t.Errorf("ConnClient(%v) = %q, %v, want %q, %v", c.addr, key, limited, c.key, c.limited)
		}
		if !limited {
			continue
		}
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = c.addr.String()
		if got := s.clientOf(req); got.id != key {
			t.Errorf("%v: connection's client %q, request's %q", c.addr, key, got.id)
		}
	}
	for _, bad := range []Config{
		{ClientHeader: "X-Forwarded-For"},
		{TrustedProxies: []string{"not an address"}},
		// (Every peer a proxy: any client names itself, unlimited.)
		{TrustedProxies: []string{"0.0.0.0/0"}}, {TrustedProxies: []string{"10.0.0.1", "::/0"}},
		{TrustedProxies: []string{"10.0.0.1"}, ClientHeader: "X-Client"},
		{Rate: 1, Burst: -1},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
