package karnak

import (
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"testing"
)

// Behind a trusted proxy the client's forwarded address is found from
// the right of the header without splitting it: a client writes what is
// to the left of its own address, up to the server's header limit
// (1 MB by default), and strings.Split made a string header of every
// entry, 2 MB allocated for a 1 MB header, on every request, before
// the rate limit refused any. Found the same: the rightmost address
// that is not a trusted proxy, across header lines.
func TestClientHeaderCost(t *testing.T) {
	s, err := New(nil, Config{TrustedProxies: []string{"127.0.0.1", "10.0.0.0/8"}})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/", nil)
	req.RemoteAddr = "127.0.0.1:1"
	req.Header.Add("X-Forwarded-For", strings.Repeat("1.2.3.4,", 1<<20/8)+"192.0.2.9, 10.0.0.1")
	req.Header.Add("X-Forwarded-For", "10.0.0.2,10.0.0.3")
	if c := s.clientOf(req); c.id != "192.0.2.9" || c.loopback {
		t.Fatalf("client %+v, want 192.0.2.9, not loopback", c)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	const n = 10
	for range n {
		s.clientOf(req)
	}
	runtime.ReadMemStats(&m1)
	if per := (m1.TotalAlloc - m0.TotalAlloc) / n; per > 1<<10 {
		t.Errorf("a 1 MB X-Forwarded-For: %d bytes allocated a request, want at most 1 KiB", per)
	}
}

// The walk from the right reads as the split did (splitClient, the
// former code), on the edges: empty values, empty entries, garbage,
// spaces, several header lines, every entry trusted.
func TestClientHeaderWalk(t *testing.T) {
	s, err := New(nil, Config{TrustedProxies: []string{"127.0.0.1", "10.0.0.0/8"}})
	if err != nil {
		t.Fatal(err)
	}
	splitClient := func(vals []string) string {
		addr, found := netip.MustParseAddr("127.0.0.1"), false
		for i := len(vals) - 1; i >= 0; i-- {
			parts := strings.Split(vals[i], ",")
			j := len(parts) - 1
			for ; j >= 0; j-- {
				a, ok := parseAddr(strings.TrimSpace(parts[j]))
				if !ok {
					break
				}
				addr, found = a, true
				if !s.trusted(a) {
					break
				}
			}
			if j >= 0 {
				break
			}
		}
		if !found { // (the rule since: a proxy that names no client)
			return "unknown via 127.0.0.1"
		}
		return idOf(addr)
	}
	for _, vals := range [][]string{
		{""}, {","}, {"192.0.2.1,"}, {",192.0.2.1"}, {" 192.0.2.1 , 10.0.0.1 "}, {"x"}, {"10.0.0.1", ""},
		{"192.0.2.1", "10.0.0.1,10.0.0.2"}, {"10.0.0.1", "10.0.0.2"}, {"192.0.2.1", "x,10.0.0.2"},
		{"192.0.2.1,10.0.0.1", "10.0.0.2"}, {"[::1]:80, 10.0.0.3"}, {"2001:db8::1,10.0.0.1"}, {"10.0.0.1,,10.0.0.2"},
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = "127.0.0.1:1"
		for _, v := range vals {
			req.Header.Add("X-Forwarded-For", v)
		}
		if got, want := s.clientOf(req).id, splitClient(vals); got != want {
			t.Errorf("%q: %s, the split read %s", vals, got, want)
		}
	}
}
