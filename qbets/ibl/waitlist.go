package ibl

import (
	"cmp"
	"math/bits"
	"slices"
)

// u128 is an unsigned 128-bit integer: a sum of core-seconds, exact
// where a float64 sum would round (a job's work is up to 2^80).
type u128 struct{ hi, lo uint64 }

func (a *u128) add(b u128) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, b.lo, 0)
	a.hi += b.hi + c
}

func (a *u128) sub(b u128) {
	var c uint64
	a.lo, c = bits.Sub64(a.lo, b.lo, 0)
	a.hi -= b.hi + c
}

func mul(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// float is a rounded to a float64 and saturated at maxMagnitude (2^53).
// This is the value the former float64 sums over the jobs gave, bit for
// bit, in whatever order they added the jobs: every term (cores times
// seconds left) is a whole number ≥ 0 (Submit refuses negative cores, and
// a negative time left counts 0), so the partial sums only grow. Below
// 2^53 every product and partial sum is then a whole number a float64
// holds exactly; at or above it, float64 rounding, which never crosses a
// float64 (2^53 is one), kept the old sum at or above 2^53 too, and both
// saturate.
func (a u128) float() float64 {
	if a.hi != 0 {
		return maxMagnitude
	}
	return min(float64(a.lo), maxMagnitude)
}

// sums are the jobs counted and their work (core-seconds) summed.
type sums struct {
	n    uint64
	work u128
}

func (a *sums) add(b sums) { a.n += b.n; a.work.add(b.work) }
func (a *sums) sub(b sums) { a.n -= b.n; a.work.sub(b.work) }

// waitSums is what a waiting job adds to the sums of the jobs behind it:
// itself, and its cores times its requested run time (none when it gave
// no limit).
func waitSums(t *tracked) sums {
	if t == nil {
		return sums{}
	}
	return sums{1, mul(uint64(t.Cores), uint64(max(t.ReqTime, 0)))}
}

// slot is one place in a waiting list: the job's sort key, kept after the
// job leaves (t = nil) so that the list stays sorted and a binary search
// finds any job in O(log n).
type slot struct {
	submit, id int64
	t          *tracked // nil: the job started or ended
}

// waitList is a list of waiting jobs sorted by (submit, id), each key at
// most once: the whole queue's, and one per user. A job that leaves it
// leaves an empty slot instead of shifting the slots after it, and the
// empty slots are swept out once they are the majority. fen is a Fenwick
// tree over the slots of the jobs' sums, so that the count and the work
// of the jobs before any slot, and the slot of the k-th job, take
// O(log n): a job appended (a feed's jobs mostly arrive in submit order)
// or leaving costs O(log n) amortized, the sweeps included; a job
// inserted before the last, at slot i of n, costs the move of the n − i
// slots after it and a rebuild of their part of fen, O(n − i + log n):
// little for one submitted at the same time as the last jobs with a
// smaller id, as karnak stores an event that arrives up to MaxBackstep
// late.
type waitList struct {
	slots []slot
	fen   []sums
	gone  int // empty slots
}

// live is the number of jobs in the list.
func (l *waitList) live() int { return len(l.slots) - l.gone }

// find returns the position of key (submit, id) in the list, or where it
// would be inserted.
func (l *waitList) find(submit, id int64) (int, bool) {
	return slices.BinarySearchFunc(l.slots, slot{submit: submit, id: id}, func(a, b slot) int {
		if c := cmp.Compare(a.submit, b.submit); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
}

// put adds waiting job t.
func (l *waitList) put(t *tracked) {
	n := len(l.slots)
	if n == 0 || before(l.slots[n-1], t.Submit, t.ID) { // appended: O(log n)
		s := waitSums(t)
		for j := n - 1; j >= n&(n+1); j = j&(j+1) - 1 { // the slots fen[n] covers
			s.add(l.fen[j])
		}
		l.slots, l.fen = append(l.slots, slot{t.Submit, t.ID, t}), append(l.fen, s)
		return
	}
	i, found := l.find(t.Submit, t.ID)
	if found {
		// The empty slot of an earlier job with this key (no job in the
		// list has it), taken back so that each key has one slot, the
		// one find returns.
		l.slots[i].t = t
		l.gone--
		l.update(i, waitSums(t), false)
		return
	}
	l.slots = slices.Insert(l.slots, i, slot{t.Submit, t.ID, t})
	l.rebuildFrom(i)
}

// drop empties the slot of job t, which is in the list, and sweeps the
// empty slots out once they outnumber the jobs (each sweep, O(n), is paid
// for by the n/2 leaves before it).
func (l *waitList) drop(t *tracked) {
	i, _ := l.find(t.Submit, t.ID)
	l.slots[i].t = nil
	l.gone++
	l.update(i, waitSums(t), true)
	if l.gone > len(l.slots)/2 {
		l.slots = slices.DeleteFunc(l.slots, func(w slot) bool { return w.t == nil })
		l.gone = 0
		l.rebuildFrom(0)
	}
}

// update adds s to (or, with minus, takes it from) slot i's sums.
func (l *waitList) update(i int, s sums, minus bool) {
	for ; i < len(l.fen); i |= i + 1 {
		if minus {
			l.fen[i].sub(s)
		} else {
			l.fen[i].add(s)
		}
	}
}

// rebuildFrom builds fen's entries from slot i on, the slots before i
// being as when fen was last built, in O(n − i + log n): an entry before
// i sums slots before i only, so it stands, and is added to its parent
// when that is at i or after, which are the entries of the chain that
// sums the slots before i (before's).
func (l *waitList) rebuildFrom(i int) {
	l.fen = slices.Grow(l.fen[:i], len(l.slots)-i)[:len(l.slots)]
	for j := i; j < len(l.fen); j++ {
		l.fen[j] = waitSums(l.slots[j].t)
	}
	for k := i - 1; k >= 0; k = k&(k+1) - 1 {
		if j := k | (k + 1); j < len(l.fen) {
			l.fen[j].add(l.fen[k])
		}
	}
	for k := i; k < len(l.fen); k++ {
		if j := k | (k + 1); j < len(l.fen) {
			l.fen[j].add(l.fen[k])
		}
	}
}

// before sums the jobs in the slots before slot i.
func (l *waitList) before(i int) sums {
	var s sums
	for ; i > 0; i &= i - 1 {
		s.add(l.fen[i-1])
	}
	return s
}

// nth returns the slot of the k-th job (0 first; k < live()).
func (l *waitList) nth(k int) int {
	pos, left := 0, uint64(k)
	if len(l.fen) == 0 {
		return 0
	}
	for step := 1 << (bits.Len(uint(len(l.fen))) - 1); step > 0; step >>= 1 {
		if next := pos + step; next <= len(l.fen) && l.fen[next-1].n <= left {
			pos = next
			left -= l.fen[next-1].n
		}
	}
	return pos
}

// from copies up to limit jobs from slot i on.
func (l *waitList) from(i, limit int) []Job {
	if limit <= 0 || i >= len(l.slots) {
		return nil
	}
	page := make([]Job, 0, min(limit, l.live()))
	for ; i < len(l.slots) && len(page) < limit; i++ {
		if w := l.slots[i]; w.t != nil {
			page = append(page, w.t.Job)
		}
	}
	return page
}

// before says whether slot w's key comes before (submit, id).
func before(w slot, submit, id int64) bool {
	return w.submit < submit || w.submit == submit && w.id < id
}
