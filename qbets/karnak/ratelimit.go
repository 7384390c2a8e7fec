package karnak

import (
	"container/list"
	"fmt"
	"hash/maphash"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// The rate limit (Config.Rate) is a token bucket per client: Rate
// tokens a second, at most Burst held, one taken by every request; an
// empty bucket answers 429 with Retry-After. The buckets are kept in a
// fixed number of shards, each a map with a least-recently-used list:
// a request costs O(1) under its shard's lock, and memory is bounded by
// maxClients buckets. A client not seen among the last maxClients/16 of
// its shard is forgotten and starts again with a full bucket, so a new
// client is never refused for the others' sake (the former limiter, once
// it tracked 65,536 addresses, refused every new one after scanning them
// all under one lock); forgetting only ever gives a client more.
type limiter struct {
	rate, burst float64
	perShard    int // buckets held per shard
	seed        maphash.Seed
	shards      [limiterShards]limShard
	now         func() time.Time
}

const (
	limiterShards = 16
	maxClients    = 1 << 16 // buckets held, all shards together
)

type limShard struct {
	mu  sync.Mutex
	m   map[string]*list.Element // of *bucket
	lru list.List                // most recent at the front
}

type bucket struct {
	client string
	tokens float64
	at     time.Time
}

// newLimiter holds at most clients buckets (maxClients in the service;
// tests use fewer).
func newLimiter(rate float64, burst, clients int) *limiter {
	l := &limiter{rate: rate, burst: float64(burst), perShard: max(clients/limiterShards, 1), seed: maphash.MakeSeed(), now: time.Now}
	for i := range l.shards {
		l.shards[i].m = map[string]*list.Element{}
	}
	return l
}

// allow takes a token of client's bucket; when it is empty it returns
// false and how long until the next token.
func (l *limiter) allow(client string) (bool, time.Duration) { return l.allowN(client, 1) }

// allowN takes n tokens of client's bucket (at most the burst: a request
// that costs more than a full bucket takes the bucket), or none and how
// long until there are enough.
func (l *limiter) allowN(client string, n int) (bool, time.Duration) {
	need := min(float64(n), l.burst)
	sh := &l.shards[maphash.String(l.seed, client)%limiterShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	now := l.now()
	var b *bucket
	if e := sh.m[client]; e != nil {
		sh.lru.MoveToFront(e)
		b = e.Value.(*bucket)
		b.tokens = min(l.burst, b.tokens+max(now.Sub(b.at).Seconds(), 0)*l.rate)
	} else if sh.lru.Len() >= l.perShard {
		e := sh.lru.Back() // reused: no allocation once full
		b = e.Value.(*bucket)
		delete(sh.m, b.client)
		*b = bucket{client: client, tokens: l.burst}
		sh.m[client] = e
		sh.lru.MoveToFront(e)
	} else {
		b = &bucket{client: client, tokens: l.burst}
		sh.m[client] = sh.lru.PushFront(b)
	}
	b.at = now
	if b.tokens < need {
		return false, l.waitFor(need - b.tokens)
	}
	b.tokens -= need
	return true, 0
}

// waitFor is how long the bucket takes to gain tokens tokens, at most
// the longest Duration: at a rate below about 10^-10 a second (which
// Validate takes: any finite rate is one) a token takes longer than a
// Duration holds, and the conversion wrapped negative, a Retry-After
// of 1 s for a bucket that refills in centuries (TestRetryAfterSaturates).
func (l *limiter) waitFor(tokens float64) time.Duration {
	if d := tokens / l.rate * float64(time.Second); d < math.MaxInt64 {
		return time.Duration(d)
	}
	return math.MaxInt64
}

// client is who sent a request: id keys the rate limit (and names the
// client in a 403 or 429), loopback says whether it came from this host
// and not through a proxy.
type client struct {
	id       string
	loopback bool
}

// clientOf identifies a request's client: its peer address, or, when
// the peer is one of Config.TrustedProxies, the address the proxy
// forwards in Config.ClientHeader (the rightmost one not itself a
// trusted proxy: the entries to its left were written by the client and
// prove nothing). An IPv6 client is its /64, which one site holds as
// one address. A request from loopback that carries a forwarding header
// (Forwarded, X-Forwarded-For, X-Real-IP) not read this way came through
// a proxy on this host from anywhere: it does not count as loopback.
//
// Nor does any request from a trusted proxy, whatever it forwards: it
// came through a proxy (Config.Tokens: "a request forwarded by a proxy
// is not one"). It did count when the proxy named a loopback client
// (127.0.0.1 through an nginx on this host, or ::1 of the proxy's own
// host), and when the proxy sent no address at all (no header, an empty
// one, or its rightmost entry not an address): then the proxy's own
// address was the client, so that with no tokens an nginx on this host
// that omits the header gave every client it forwards, from anywhere,
// loopback's writes. Fail closed: such a client is unknown, and keyed
// for the rate limit as "unknown via" the proxy, apart from the clients
// it names (TestClientIdentity, TestClientUnknownNotLoopback).
func (s *Service) clientOf(r *http.Request) client {
	peer, ok := parseAddr(r.RemoteAddr)
	if !ok {
		return client{id: r.RemoteAddr}
	}
	if s.clientHeader != "" && s.trusted(peer) {
		vals := r.Header.Values(s.clientHeader)
		addr, found := peer, false
		// From the right, entry by entry, without splitting the header:
		// the client writes what is to the left of its own address, as
		// long as the server takes a header (1 MB by default), and
		// strings.Split made a string of every entry before the rate
		// limit was asked (TestClientHeaderCost).
	headers:
		for i := len(vals) - 1; i >= 0; i-- {
			for rest := vals[i]; ; {
				k := strings.LastIndexByte(rest, ',')
				a, ok := parseAddr(strings.TrimSpace(rest[k+1:]))
				if !ok {
					break headers // garbage: trust nothing to its left
				}
				addr, found = a, true
				if !s.trusted(a) {
					break headers
				}
				if k < 0 {
					break // the next header line, to the left
				}
				rest = rest[:k]
			}
		}
		if !found {
			return client{id: "unknown via " + idOf(peer)}
		}
		return client{id: idOf(addr)}
	}
	proxied := r.Header.Get("Forwarded") != "" || r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("X-Real-IP") != ""
	return client{id: idOf(peer), loopback: peer.IsLoopback() && !proxied}
}

// ConnClient is the client a connection from addr counts as, keyed as
// the rate limit keys its requests (an address; an IPv6 one as its /64),
// and false when addr is one of Config.TrustedProxies, whose clients
// only the requests' headers tell apart, or not an IP address (a Unix
// socket, or nil). A server that bounds each client's connections, as
// examples/qserve's -client-conns does, keys them with it so that the
// two limits agree on who a client is.
func (s *Service) ConnClient(addr net.Addr) (key string, limited bool) {
	if addr == nil { // (net.Conn.RemoteAddr of a conn not made by net)
		return "", false
	}
	a, ok := parseAddr(addr.String())
	if !ok || s.trusted(a) {
		return "", false
	}
	return idOf(a), true
}

func (s *Service) trusted(a netip.Addr) bool {
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseAddr reads "ip", "ip:port" or "[ip]:port".
func parseAddr(s string) (netip.Addr, bool) {
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

func idOf(a netip.Addr) string {
	if a.Is6() && !a.IsLoopback() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// parseProxies reads Config.TrustedProxies: addresses or CIDR prefixes.
func parseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for i, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			if p.Bits() == 0 {
				// 0.0.0.0/0 or ::/0 trusted every peer: any client
				// could name itself in ClientHeader, a new name a
				// request, and go without a rate limit (and, in
				// qserve, without -client-conns, which exempts the
				// proxies).
				return nil, fmt.Errorf("karnak: TrustedProxies[%d]: %q is every address: any client could write ClientHeader and go unlimited; name the proxies' addresses", i, s)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("karnak: TrustedProxies[%d]: %q is not an address or a prefix such as 10.0.0.0/8", i, s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
