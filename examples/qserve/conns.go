package main

import (
	"net"
	"sync"
)

// The server's timeouts bound how long one connection lasts, not how
// many one client holds: net/http accepts every connection, and each
// costs a goroutine and its buffers for up to the idle timeout after a
// request, or the header timeout before one, whatever the rate limit,
// which counts requests (TestClientConnsBounded held every one of its
// idle connections from one address before this limit). A client address (an IPv6 client: its /64, as the rate
// limit counts it) may hold at most -client-conns connections at once;
// one more is closed as soon as it is accepted. The reverse proxies of
// -trusted-proxies are exempt: their clients share their address. Who a
// connection's client is, karnak says (Service.ConnClient), as for its
// rate limit.

// defaultClientConns is -client-conns's default: a campus NAT address
// with a few dozen browsers (about six connections each) stays below it.
const defaultClientConns = 256

// connLimit is a listener that holds at most per connections open from
// one client address at once.
type connLimit struct {
	net.Listener
	per    int
	client func(net.Addr) (string, bool) // the key of a connection, false: not limited
	mu     sync.Mutex
	open   map[string]int // client → connections open; only clients with some
}

// limitConns wraps ln so that one client holds at most per connections
// (per ≤ 0: ln as it is); client keys a connection, false for one not
// limited (karnak.Service.ConnClient: a trusted proxy is not).
func limitConns(ln net.Listener, per int, client func(net.Addr) (string, bool)) net.Listener {
	if per <= 0 {
		return ln
	}
	return &connLimit{Listener: ln, per: per, client: client, open: map[string]int{}}
}

// Accept returns the next connection of a client under its limit,
// closing the others as they come.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, limited := l.client(c.RemoteAddr())
		if !limited {
			return c, nil
		}
		l.mu.Lock()
		if l.open[key] >= l.per {
			l.mu.Unlock()
			c.Close() //nolint:errcheck // refused: nothing was read or written
			continue
		}
		l.open[key]++
		l.mu.Unlock()
		return &limitedConn{Conn: c, l: l, key: key}, nil
	}
}

// limitedConn gives its client's place back when it is closed (once,
// however many times Close is called).
type limitedConn struct {
	net.Conn
	l    *connLimit
	key  string
	once sync.Once
}

func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		if c.l.open[c.key]--; c.l.open[c.key] <= 0 {
			delete(c.l.open, c.key)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
