package karnak

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
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
	maxBody    = 4 << 20 // bytes of an event batch (413 beyond)
	maxQuery   = 64 << 10
	// A path names at most a system, a queue and a job (64, 64 and 19
	// bytes) and a query at most maxLocations locations and the levels:
	// every route refuses more (414) before it is routed (checkRequestLine).
	maxPath   = 512
	maxParams = 2*maxLocations + 56
)

var errNotReady = &Error{Code: http.StatusServiceUnavailable, Message: "the service is rebuilding its state from the store; retry shortly"}

// authenticate is the first step of a write (an event batch; a repair
// when admin), before its body is read, so that a request that may not
// write costs nothing: it returns the request's token (nil without
// Config.Tokens), or a 401 or 403 naming why. Without tokens the
// service takes writes from loopback only (see clientOf), and repairs
// from nobody over HTTP (the process that embeds the service has Drop
// and Rewind).
func (s *Service) authenticate(r *http.Request, admin bool) (*Token, error) {
	if len(s.tokens) == 0 {
		if admin {
			return nil, &Error{Code: http.StatusForbidden, Message: "authorization: repair needs an admin token, and none is configured (" + setting("Tokens") + "; qserve makes one at its first start)"}
		}
		if c := s.clientOf(r); !c.loopback {
			return nil, &Error{Code: http.StatusForbidden, Message: "authorization: without tokens (" + setting("Tokens") + ") the service takes writes from loopback only, not from " + c.id}
		}
		return nil, nil
	}
	secret, ok := bearer(r.Header.Get("Authorization"))
	if !ok {
		return nil, &Error{Code: http.StatusUnauthorized, Message: "authorization: a bearer token is required to write (Authorization: Bearer <token>)"}
	}
	tk := s.tokens[sha256.Sum256([]byte(secret))]
	if tk == nil {
		return nil, &Error{Code: http.StatusUnauthorized, Message: "authorization: unknown token"}
	}
	if admin && !tk.Admin {
		return nil, &Error{Code: http.StatusForbidden, Message: "authorization: token " + tk.Name + " is not an admin token"}
	}
	return tk, nil
}

// bearer reads "Bearer <token>": the scheme is case-insensitive and may
// be followed by more than one space (RFC 7235 §2.1, RFC 6750 §2.1).
func bearer(h string) (string, bool) {
	scheme, rest, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	secret := strings.TrimLeft(rest, " ")
	return secret, secret != "" && !strings.ContainsAny(secret, " \t")
}

// authorize checks that tk (nil: no tokens configured) may feed every
// one of systems, after the batch is decoded: 403 naming the first it
// may not.
func authorize(tk *Token, systems []string) error {
	if tk == nil {
		return nil
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
		if e.GPUs != 0 { // only submits have them: older digests stay the same
			str("gpus")
			num(e.GPUs)
		}
	}
	return itoa(len(evs)) + ":" + hex.EncodeToString(h.Sum(nil)[:16])
}

// batchLog remembers the last n batches by id, digest and systems. An
// id is its writer's within the systems its batch touched: the same id
// on other systems is another batch (another feed's of its own
// systems), not a conflict. One namespace for every writer let a token
// of one system claim an id that a feed of another would send (its
// batch then a 409, dropped for good by slurmfeed) and learn which ids
// the others had used (TestBatchIDsPerSystem).
//
// A batch is charged to the system of its first event, and when n are
// remembered the oldest batch of the system charged with the most goes
// first: oldest first out of one list for all let one writer's flood of
// new ids evict every other system's (a feed's retry after a lost
// acknowledgement then stored its events twice), and now evicts its
// own once it holds the most (TestBatchIDsEvictFlooder). Each system
// keeps at least n / (systems with batches) of its last ids.
type batchLog struct {
	n, size int
	m       map[string][]*batchEntry // by id
	owners  map[string]*batchOwner   // by the system charged
	byCount map[int]map[*batchOwner]bool
	top     int // the most batches an owner holds
}

type batchEntry struct {
	id, digest string
	systems    []string
	owner      *batchOwner
	el         *list.Element // in owner.order
}

type batchOwner struct {
	system string
	order  *list.List // of *batchEntry, oldest at the front
}

func (b *batchLog) init(n int) {
	b.n, b.size, b.top = n, 0, 0
	b.m, b.owners, b.byCount = map[string][]*batchEntry{}, map[string]*batchOwner{}, map[int]map[*batchOwner]bool{}
}

// counted moves o from the owners of from batches to those of to (one
// more or one less), keeping top.
func (b *batchLog) counted(o *batchOwner, from, to int) {
	if from > 0 {
		delete(b.byCount[from], o)
		if len(b.byCount[from]) == 0 {
			delete(b.byCount, from)
		}
	}
	if to > 0 {
		if b.byCount[to] == nil {
			b.byCount[to] = map[*batchOwner]bool{}
		}
		b.byCount[to][o] = true
	}
	b.top = max(b.top, to)
	for b.top > 0 && len(b.byCount[b.top]) == 0 {
		b.top--
	}
}

// lookup reports whether the batch id of these events (digest) is
// stored, and, if not, whether id names another batch that touched one
// of systems: a conflict.
func (b *batchLog) lookup(id, digest string, systems func(string) bool) (stored, conflict bool) {
	for _, e := range b.m[id] {
		if e.digest == digest {
			return true, false
		}
		conflict = conflict || slices.ContainsFunc(e.systems, systems)
	}
	return false, conflict
}

func (b *batchLog) add(id, digest, system string) {
	es := b.m[id]
	i := slices.IndexFunc(es, func(e *batchEntry) bool { return e.digest == digest })
	if i < 0 {
		if b.size >= b.n {
			// The owner of the most; of several, the first by name, so
			// that which id goes does not depend on map order (a restart,
			// which adds the stored batches again, forgets the same ones).
			var victim *batchOwner
			for o := range b.byCount[b.top] {
				if victim == nil || o.system < victim.system {
					victim = o
				}
			}
			b.remove(victim.order.Front().Value.(*batchEntry))
			es = b.m[id]
		}
		o := b.owners[system]
		if o == nil {
			o = &batchOwner{system: system, order: list.New()}
			b.owners[system] = o
		}
		e := &batchEntry{id: id, digest: digest, owner: o}
		e.el = o.order.PushBack(e)
		b.size++
		b.counted(o, o.order.Len()-1, o.order.Len())
		es = append(es, e)
		b.m[id] = es
		i = len(es) - 1
	}
	if e := es[i]; !slices.Contains(e.systems, system) {
		e.systems = append(e.systems, system)
	}
}

func (b *batchLog) remove(e *batchEntry) {
	o := e.owner
	o.order.Remove(e.el)
	b.size--
	b.counted(o, o.order.Len()+1, o.order.Len())
	if o.order.Len() == 0 {
		delete(b.owners, o.system)
	}
	es := slices.DeleteFunc(b.m[e.id], func(x *batchEntry) bool { return x == e })
	if len(es) == 0 {
		delete(b.m, e.id)
	} else {
		b.m[e.id] = es
	}
}

// forget drops the batches that touched system (after Drop or Rewind,
// a retry of them is stored again).
func (b *batchLog) forget(system string) {
	for _, o := range b.owners {
		for el := o.order.Front(); el != nil; {
			next := el.Next()
			if e := el.Value.(*batchEntry); slices.Contains(e.systems, system) {
				b.remove(e)
			}
			el = next
		}
	}
}
