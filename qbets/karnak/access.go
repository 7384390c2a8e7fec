package karnak

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Token is a bearer token of one feeding site (Config.Tokens): the
// systems it may send events for ("*": any), and whether it may repair
// (Drop, Rewind; an admin token may also send events for any system).
type Token struct {
	Name    string   // for logs; not a secret
	Secret  string   // at least 16 bytes; sent as "Authorization: Bearer <Secret>"
	Systems []string // systems it feeds; "*" for all
	Admin   bool
}

func (t *Token) feeds(system string) bool {
	return t.Admin || slices.Contains(t.Systems, "*") || slices.Contains(t.Systems, system)
}

// Limits of the write path.
const (
	maxBatchID = 128     // bytes of a batch id
	maxEvents  = 20000   // events in one batch
	maxBatches = 1 << 16 // batch ids remembered
	maxClients = 1 << 16 // clients the rate limiter tracks
	maxBody    = 4 << 20 // bytes of an event batch (413 beyond)
	maxQuery   = 64 << 10
)

var errNotReady = &Error{Code: http.StatusServiceUnavailable, Message: "the service is rebuilding its state from the store; retry shortly"}

// authorize returns nil when the request may write events for systems
// (admin: repair), else a 401 or 403 naming why. Without tokens
// configured everyone may write events; nobody may repair over HTTP.
func (s *Service) authorize(r *http.Request, systems []string, admin bool) error {
	if len(s.tokens) == 0 {
		if admin {
			return &Error{Code: http.StatusForbidden, Message: "authorization: repair needs an admin token, and none is configured"}
		}
		return nil
	}
	h := r.Header.Get("Authorization")
	secret, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || secret == "" {
		return &Error{Code: http.StatusUnauthorized, Message: "authorization: a bearer token is required to write"}
	}
	tk := s.tokens[sha256.Sum256([]byte(secret))]
	if tk == nil {
		return &Error{Code: http.StatusUnauthorized, Message: "authorization: unknown token"}
	}
	if admin && !tk.Admin {
		return &Error{Code: http.StatusForbidden, Message: "authorization: token " + tk.Name + " is not an admin token"}
	}
	for i, sys := range systems {
		if !tk.feeds(sys) {
			return &Error{Code: http.StatusForbidden, Message: "events[" + itoa(i) + "].system: token " + tk.Name + " may not feed system " + quote(sys)}
		}
	}
	return nil
}

// digestOf identifies a batch's content (for retries): SHA-256 over its
// events in a fixed encoding, hex, with the event count.
func digestOf(evs []Event) string {
	h := sha256.New()
	var b [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	num := func(n int64) {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	for i := range evs {
		e := &evs[i]
		str(e.Kind)
		str(e.System)
		num(e.Job)
		num(e.Time)
		str(e.Queue)
		num(e.Cores)
		num(e.WallTime)
		str(e.User)
		str(e.Project)
		str(e.Name)
		if e.Start != 0 { // only estimates have one: older digests stay the same
			num(e.Start)
		}
	}
	return itoa(len(evs)) + ":" + hex.EncodeToString(h.Sum(nil)[:16])
}

// batchLog remembers the last n batch ids with their digests and
// systems, oldest first out.
type batchLog struct {
	n     int
	order *list.List // of string ids, oldest at the front
	m     map[string]*batchEntry
}

type batchEntry struct {
	digest  string
	systems []string
	el      *list.Element
}

func (b *batchLog) init(n int) {
	b.n, b.order, b.m = n, list.New(), map[string]*batchEntry{}
}

func (b *batchLog) get(id string) (string, bool) {
	e := b.m[id]
	if e == nil {
		return "", false
	}
	return e.digest, true
}

func (b *batchLog) add(id, digest, system string) {
	e := b.m[id]
	if e == nil {
		if b.order.Len() >= b.n {
			old := b.order.Remove(b.order.Front()).(string)
			delete(b.m, old)
		}
		e = &batchEntry{digest: digest}
		e.el = b.order.PushBack(id)
		b.m[id] = e
	}
	if !slices.Contains(e.systems, system) {
		e.systems = append(e.systems, system)
	}
}

// forget drops the batches that touched system (after Drop or Rewind,
// a retry of them is stored again).
func (b *batchLog) forget(system string) {
	for id, e := range b.m {
		if slices.Contains(e.systems, system) {
			b.order.Remove(e.el)
			delete(b.m, id)
		}
	}
}

// limiter is a token bucket per client: rate tokens a second, at most
// burst held; a request takes one. It tracks at most max clients: beyond
// that it forgets the ones whose bucket has refilled (they are as if
// new), and if none has, refuses newcomers until one does.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	max     int
	clients map[string]*bucket
	now     func() time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate float64, burst, max int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), max: max, clients: map[string]*bucket{}, now: time.Now}
}

// allow takes a token of client's bucket; when it is empty it returns
// false and how long until the next token.
func (l *limiter) allow(client string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.clients[client]
	if b == nil {
		if len(l.clients) >= l.max {
			for k, o := range l.clients {
				if o.tokens+now.Sub(o.at).Seconds()*l.rate >= l.burst {
					delete(l.clients, k)
				}
			}
			if len(l.clients) >= l.max {
				return false, time.Second
			}
		}
		b = &bucket{tokens: l.burst, at: now}
		l.clients[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	}
	b.tokens--
	return true, 0
}

// clientOf is the remote IP of a request (not a forwarded header, which
// the client chooses).
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
