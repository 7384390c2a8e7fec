package sched

import (
	"math"
	"slices"
)

// jobSet is an ordered set of live jobs: the running jobs by (predicted
// end, start, ID, record), or with byShort the waiting jobs by
// (prediction, arrival) (lessShort). It is a sorted list cut into chunks
// of at most maxChunk jobs: an insertion or deletion is a binary search
// and moves at most maxChunk pointers, plus the list of chunks when one
// splits or merges (every maxChunk/4 changes at most). It replaced a
// B-tree whose comparisons, calls through a func value, cost a quarter
// of an EASY run; the order is inlined here and walks are slice loops.
type jobSet struct {
	chunks  [][]*Job // each sorted and non-empty, in order
	n       int
	byShort bool
	// low, with byShort, holds for each chunk a size no job of it is
	// below: an insertion lowers it, a deletion leaves it, and SJBF's
	// walk raises it to its waiting jobs' own and skips the chunks whose
	// jobs are all too large (backfillShort).
	low []int64
}

// maxChunk bounds a chunk; chunks below maxChunk/4 merge with a neighbour
// when both fit in one, so there are O(n/maxChunk) of them.
const maxChunk = 128

// keyOf is j's first sort key, which ReplaceOrInsert caches in j.key (a
// job is in one set at a time, and leaves it before its key changes, or
// is moved by later, which caches the new one).
func (t *jobSet) keyOf(j *Job) int64 {
	if t.byShort {
		return j.p
	}
	return j.predEnd()
}

// before reports whether member a of the set comes before b, whose key is
// k (b may be a member or not).
func (t *jobSet) before(a *Job, b *Job, k int64) bool {
	if a.key != k {
		return a.key < k
	}
	return t.tie(a, b)
}

// tie is before for a and b of the same first key.
func (t *jobSet) tie(a, b *Job) bool {
	if t.byShort {
		return a.seq < b.seq
	}
	if a.start != b.start {
		return a.start < b.start
	}
	if a.j.ID != b.j.ID {
		return a.j.ID < b.j.ID
	}
	return a.idx < b.idx
}

// Len is the number of jobs in the set.
func (t *jobSet) Len() int { return t.n }

// find returns the chunk that holds j or would (the first whose last job
// is not before j; the last chunk if none) and j's position in it (that of
// the first job not before it).
func (t *jobSet) find(j *Job) (ci, i int) { return t.findKey(j, t.keyOf(j)) }

// findKey is find for j with first key k.
func (t *jobSet) findKey(j *Job, k int64) (ci, i int) {
	lo, hi := 0, len(t.chunks)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c := t.chunks[m]; t.before(c[len(c)-1], j, k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	// Within the chunk, unsigned (no bounds check) and the first key
	// compared in the loop itself, the tie rule called only on a tie:
	// findKey 5.13 M -> 4.40 M instructions on KTH-SP2's EASY run.
	c := t.chunks[lo]
	l, h := uint(0), uint(len(c))
	for l < h {
		m := (l + h) >> 1
		if a := c[m]; a.key < k || a.key == k && t.tie(a, j) {
			l = m + 1
		} else {
			h = m
		}
	}
	return lo, int(l)
}

// ReplaceOrInsert adds j, or replaces the job equal to it in the order.
func (t *jobSet) ReplaceOrInsert(j *Job) {
	j.key = t.keyOf(j)
	if t.n == 0 {
		if len(t.chunks) == 0 {
			t.chunks = append(t.chunks, make([]*Job, 0, maxChunk+1))
			if t.byShort {
				t.low = append(t.low, j.n)
			}
		}
		t.chunks[0] = append(t.chunks[0], j)
		t.n = 1
		if t.byShort {
			t.low[0] = j.n
		}
		return
	}
	ci, i := t.findKey(j, j.key) // (not find: the key is just cached)
	c := t.chunks[ci]
	if t.byShort {
		t.low[ci] = min(t.low[ci], j.n)
	}
	if i < len(c) && c[i].key == j.key && !t.before(j, c[i], c[i].key) {
		c[i] = j
		return
	}
	// Within capacity (chunks have room for maxChunk+1): one copy, where
	// slices.Insert checks for overlap and copies twice.
	c = c[:len(c)+1]
	if len(c)-i <= shortShift {
		for k := len(c) - 1; k > i; k-- {
			c[k] = c[k-1]
		}
	} else {
		copy(c[i+1:], c[i:])
	}
	c[i] = j
	t.n++
	if len(c) > maxChunk {
		half := len(c) / 2
		right := make([]*Job, len(c)-half, maxChunk+1)
		copy(right, c[half:])
		clear(c[half:])
		c = c[:half]
		t.chunks = slices.Insert(t.chunks, ci+1, right)
		if t.byShort { // (a split every maxChunk/2 insertions at most)
			t.low[ci] = lowest(c)
			t.low = slices.Insert(t.low, ci+1, lowest(right))
		}
	}
	t.chunks[ci] = c
}

// lowest is the smallest size of c's jobs.
func lowest(c []*Job) int64 {
	lo := int64(math.MaxInt64)
	for _, j := range c {
		lo = min(lo, j.n)
	}
	return lo
}

// Delete removes j; it reports whether j was in the set.
func (t *jobSet) Delete(j *Job) bool {
	if t.n == 0 {
		return false
	}
	// The first job, without a search: most often the running job
	// predicted to end first is the one that ends (KTH-SP2's EASY run,
	// whole process: 155.8 M → 154.3 M instructions; a search for
	// after the last job at an insertion cost more than it saved).
	if c := t.chunks[0]; len(c) > 0 && c[0] == j {
		t.deleteAt(0, 0)
		return true
	}
	// By the cached key, not keyOf: a member's is its place's (it leaves
	// the set before its key changes, or later moves it), and a job that
	// left, whatever its cached key, is not found at the place searched.
	ci, i := t.findKey(j, j.key)
	if c := t.chunks[ci]; i == len(c) || c[i] != j {
		return false
	}
	t.deleteAt(ci, i)
	return true
}

// later moves member j, whose first key has grown since it was added (a
// correction made its prediction longer), to its place: it mostly stays
// in its chunk, where the jobs it now follows shift down by one, instead
// of a search and a copy to delete it and another two to insert it.
func (t *jobSet) later(j *Job) {
	if t.n == 0 {
		t.ReplaceOrInsert(j) // (not a member)
		return
	}
	// The job whose prediction expires is usually the first (the run
	// set is by predicted end, and the others were corrected at theirs).
	ci, i := 0, 0
	if c := t.chunks[0]; len(c) == 0 || c[0] != j {
		ci, i = t.findKey(j, j.key)
	}
	c := t.chunks[ci]
	if i == len(c) || c[i] != j {
		t.ReplaceOrInsert(j) // (not a member)
		return
	}
	k := t.keyOf(j)
	if ci+1 < len(t.chunks) && t.before(t.chunks[ci+1][0], j, k) {
		t.deleteAt(ci, i) // it leaves its chunk
		t.ReplaceOrInsert(j)
		return
	}
	// Its place in the chunk by a binary search, the jobs it now
	// follows moved down by one copy.
	lo, hi := i+1, len(c)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.before(c[m], j, k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	copy(c[i:lo-1], c[i+1:lo])
	c[lo-1], j.key = j, k
}

// shortShift is the longest shift of a chunk's tail done by a loop: a
// copy of pointers goes through typedslicecopy and memmove, about 50
// instructions however short.
const shortShift = 8

// deleteAt removes the job at position i of chunk ci.
func (t *jobSet) deleteAt(ci, i int) {
	c := t.chunks[ci] // (slices.Delete's bounds checks and clear call cost more)
	if len(c)-i <= shortShift {
		for k := i + 1; k < len(c); k++ {
			c[k-1] = c[k]
		}
	} else {
		copy(c[i:], c[i+1:])
	}
	c[len(c)-1] = nil
	c = c[:len(c)-1]
	t.chunks[ci] = c
	t.n--
	if len(c) < maxChunk/4 && len(t.chunks) > 1 {
		k := min(ci, len(t.chunks)-2) // merge chunks k and k+1
		if a, b := t.chunks[k], t.chunks[k+1]; len(a)+len(b) <= maxChunk {
			t.chunks[k] = append(a, b...)
			clear(b)
			t.chunks = slices.Delete(t.chunks, k+1, k+2)
			if t.byShort {
				t.low[k] = min(t.low[k], t.low[k+1])
				t.low = slices.Delete(t.low, k+1, k+2)
			}
		}
	}
}

// Min returns the first job.
func (t *jobSet) Min() (*Job, bool) {
	if t.n == 0 {
		return nil, false
	}
	return t.chunks[0][0], true
}

// Ascend calls visit on the jobs in order until it returns false. visit
// must not change the set.
func (t *jobSet) Ascend(visit func(*Job) bool) {
	if t.n == 0 {
		return
	}
	t.ascendFrom(0, 0, visit)
}

// AscendGreaterOrEqual is Ascend from the first job not before pivot.
func (t *jobSet) AscendGreaterOrEqual(pivot *Job, visit func(*Job) bool) {
	if t.n == 0 {
		return
	}
	ci, i := t.find(pivot)
	t.ascendFrom(ci, i, visit)
}

func (t *jobSet) ascendFrom(ci, i int, visit func(*Job) bool) {
	for _, c := range t.chunks[ci:] {
		for _, j := range c[i:] {
			if !visit(j) {
				return
			}
		}
		i = 0
	}
}
