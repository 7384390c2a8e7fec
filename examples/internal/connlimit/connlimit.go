// Package connlimit bounds the connections a command's HTTP server holds
// open: per client address and from everyone (examples/qserve serve, and
// examples/slurmfeed -listen, which serves the same service).
//
// The server's timeouts bound how long one connection lasts, not how
// many one client holds: net/http accepts every connection, and each
// costs a goroutine and its buffers for up to the idle timeout after a
// request, or the header timeout before one, whatever the rate limit,
// which counts requests (qserve's TestClientConnsBounded held every one
// of its idle connections from one address before this limit). A client
// address (an IPv6 client: its /64, as the rate limit counts it) may hold
// at most -client-conns connections at once; one more is closed as soon
// as it is accepted. The reverse proxies of -trusted-proxies (qserve) are exempt:
// their clients share their address. Who a connection's client is,
// karnak says (Service.ConnClient), as for its rate limit.
//
// The per-client limit bounds what one address holds, not what all of
// them do: each address of a host (every 127.x.y.z of a Linux loopback;
// an IPv6 host's many /64s) is a client of its own, and every one could
// hold -client-conns until the process ran out of file descriptors (the
// SQLite store then could not open its files) or of memory (qserve's
// TestConnsBoundedInAll held 8 connections from 2 loopback addresses
// with 6 allowed in all before this limit). The server holds at most
// -max-conns connections at once, from everyone, trusted proxies
// included; one more is closed as soon as it is accepted.
package connlimit

import (
	"flag"
	"fmt"
	"net"
	"sync"
)

// DefaultClient is -client-conns's default: a campus NAT address with a
// few dozen browsers (about six connections each) stays below it.
const DefaultClient = 256

// DefaultTotal is -max-conns's default: a few dozen of the largest
// campus NATs at -client-conns each, and, at some 20 KB a connection
// (its goroutine and buffers), a few hundred MB.
const DefaultTotal = 16384

// Flags are -max-conns and -client-conns as a command's flag set holds
// them (AddFlags); Wrap applies them.
type Flags struct{ total, client int }

// AddFlags defines -max-conns and -client-conns on fs.
func AddFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{}
	fs.IntVar(&f.total, "max-conns", 0, fmt.Sprintf("connections the server holds open at once from all clients, trusted proxies included, beyond which they are closed when accepted (0 = %d; < 0: no limit)", DefaultTotal))
	fs.IntVar(&f.client, "client-conns", 0, fmt.Sprintf("connections one client address (IPv6: its /64) may hold open at once, beyond which they are closed when accepted; the reverse proxies a command trusts (qserve's -trusted-proxies) are exempt (0 = %d; < 0: no limit)", DefaultClient))
	return f
}

// Wrap bounds ln by the flags (0: the defaults), keying a connection's
// client with client (karnak.Service.ConnClient).
func (f *Flags) Wrap(ln net.Listener, client func(net.Addr) (string, bool)) net.Listener {
	per, total := f.client, f.total
	if per == 0 {
		per = DefaultClient
	}
	if total == 0 {
		total = DefaultTotal
	}
	return Listen(ln, per, total, client)
}

// listener is a listener that holds at most per connections open from
// one client address at once, and at most total from all.
type listener struct {
	net.Listener
	per, total int                           // ≤ 0: no limit
	client     func(net.Addr) (string, bool) // the key of a connection, false: not limited per client
	mu         sync.Mutex
	open       map[string]int // client → connections open; only clients with some
	all        int            // connections open
}

// Listen wraps ln so that one client holds at most per connections and
// all of them at most total (≤ 0: no such limit; both: ln as it is);
// client keys a connection, false for one not limited per client
// (karnak.Service.ConnClient: a trusted proxy is not).
func Listen(ln net.Listener, per, total int, client func(net.Addr) (string, bool)) net.Listener {
	if per <= 0 && total <= 0 {
		return ln
	}
	return &listener{Listener: ln, per: per, total: total, client: client, open: map[string]int{}}
}

// Accept returns the next connection of a client under its limit,
// closing the others as they come.
func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, limited := l.client(c.RemoteAddr())
		limited = limited && l.per > 0
		l.mu.Lock()
		if l.total > 0 && l.all >= l.total || limited && l.open[key] >= l.per {
			l.mu.Unlock()
			c.Close() //nolint:errcheck // refused: nothing was read or written
			continue
		}
		l.all++
		if limited {
			l.open[key]++
		} else {
			key = ""
		}
		l.mu.Unlock()
		return &conn{Conn: c, l: l, key: key, limited: limited}, nil
	}
}

// conn gives its client's place back when it is closed (once, however
// many times Close is called).
type conn struct {
	net.Conn
	l       *listener
	key     string
	limited bool // counted in l.open[key]
	once    sync.Once
}

func (c *conn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.all--
		if c.limited {
			if c.l.open[c.key]--; c.l.open[c.key] <= 0 {
				delete(c.l.open, c.key)
			}
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
