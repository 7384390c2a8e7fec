package forecast

import "container/list"

// lru holds a value per key for at most n keys: past n, a new key takes
// the entry of the key used longest ago, in constant time, so a stream
// that names a fresh user or queue per job (a log's, or a service's
// clients') keeps memory bounded, and a value that owns memory (a
// ladder) is reused, not allocated per key. Online keeps its users'
// ladders, its per-user and per-queue histories in one each.
type lru[K comparable, V any] struct {
	n int
	m map[K]*list.Element
	l list.List // *lruEntry, the most recently used first
}

type lruEntry[K comparable, V any] struct {
	key K
	val V
}

func newLRU[K comparable, V any](n int) *lru[K, V] {
	return &lru[K, V]{n: n, m: make(map[K]*list.Element)}
}

// get returns key's value, nil when it has none, and does not count as a
// use.
func (c *lru[K, V]) get(key K) *V {
	if e := c.m[key]; e != nil {
		return &e.Value.(*lruEntry[K, V]).val
	}
	return nil
}

// use returns key's value, moved to the front, and whether it is new to
// the key: then it is either V's zero value or the value of the key
// evicted, which the caller empties (it may keep what it owns).
func (c *lru[K, V]) use(key K) (v *V, fresh bool) {
	e := c.m[key]
	switch {
	case e != nil:
		c.l.MoveToFront(e)
	case len(c.m) < c.n:
		e = c.l.PushFront(&lruEntry[K, V]{key: key})
		c.m[key] = e
		fresh = true
	default:
		e = c.l.Back()
		old := e.Value.(*lruEntry[K, V])
		delete(c.m, old.key)
		old.key = key
		c.l.MoveToFront(e)
		c.m[key] = e
		fresh = true
	}
	return &e.Value.(*lruEntry[K, V]).val, fresh
}

// len is the keys held.
func (c *lru[K, V]) len() int { return len(c.m) }

// all calls f with each value held.
func (c *lru[K, V]) all(f func(*V)) {
	for e := c.l.Front(); e != nil; e = e.Next() {
		f(&e.Value.(*lruEntry[K, V]).val)
	}
}
