package ibl

import (
	"math/bits"
	"math/rand/v2"
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

// waitSums is what a waiting job adds to the sums of the jobs behind it:
// itself, and its cores times its requested run time (none when it gave
// no limit).
func waitSums(t *tracked) sums {
	if t == nil {
		return sums{}
	}
	return sums{1, mul(uint64(t.Cores), uint64(max(t.ReqTime, 0)))}
}

// waitList is a list of waiting jobs sorted by (submit, id), each key at
// most once: the whole queue's, and one per user. It is a treap (a binary
// search tree on the key, a heap on a hash of it) whose nodes hold their
// subtree's sums, so that the count and the work of the jobs before any
// key or rank, and the job of any rank, take O(log n), and so do a job
// put anywhere and a job dropped. Positions are ranks: the number of jobs
// before. It was a sorted slice of slots under a Fenwick tree, in which a
// job put at slot i of n cost the move of the n − i slots after it and a
// rebuild of their part of the tree: a flurry (thousands of jobs
// submitted in the same second, which qbets/replay feeds queue by queue)
// put most of its jobs before the last, N²/2 moves for N jobs (30,000
// jobs of SDSC-BLUE in one second: 2.4 s of CPU for IBL's row of
// examples/forecast; TestWaitListFlurry).
type waitList struct {
	nodes []wnode // nodes[0] is the empty tree
	free  []int32 // nodes dropped, for reuse
	root  int32
	seed  uint64 // the priorities' key, drawn at the first put
}

// wnode is a job of the list and its subtree's sums.
type wnode struct {
	submit, id int64
	t          *tracked
	prio       uint64
	l, r       int32
	sum        sums // the subtree's, this job's included
}

// live is the number of jobs in the list.
func (l *waitList) live() int { return int(l.nodes0().sum.n) }

// nodes0 returns the root (the zero node when empty).
func (l *waitList) nodes0() *wnode {
	if len(l.nodes) == 0 {
		return &wnode{}
	}
	return &l.nodes[l.root]
}

// priority is a key's heap priority: a hash (splitmix64's mix) of the key
// and the list's seed. The mix alone is invertible: a log whose job
// numbers were chosen for it could give priorities rising with the keys,
// a treap that is a list (every put and drop O(n), TestWaitListChosenIDs);
// a seed drawn at random makes the shape a fair coin's whatever the log.
// The shape changes no answer (the keys are distinct, their order fixed).
func priority(submit, id int64, seed uint64) uint64 {
	z := uint64(submit)*0x9e3779b97f4a7c15 ^ uint64(id) ^ seed
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// fix recomputes node x's sums from its children.
func (l *waitList) fix(x int32) {
	n := &l.nodes[x]
	s := waitSums(n.t)
	s.add(l.nodes[n.l].sum)
	s.add(l.nodes[n.r].sum)
	n.sum = s
}

// split splits tree x into the keys before (submit, id) (or, with
// orEqual, at most it) and the others.
func (l *waitList) split(x int32, submit, id int64, orEqual bool) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	n := &l.nodes[x]
	left := before(n.submit, n.id, submit, id) || orEqual && n.submit == submit && n.id == id
	if left {
		a, b := l.split(n.r, submit, id, orEqual)
		l.nodes[x].r = a
		l.fix(x)
		return x, b
	}
	a, b := l.split(n.l, submit, id, orEqual)
	l.nodes[x].l = b
	l.fix(x)
	return a, x
}

// merge joins trees a and b, every key of a before every key of b.
func (l *waitList) merge(a, b int32) int32 {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	case l.nodes[a].prio > l.nodes[b].prio:
		l.nodes[a].r = l.merge(l.nodes[a].r, b)
		l.fix(a)
		return a
	}
	l.nodes[b].l = l.merge(a, l.nodes[b].l)
	l.fix(b)
	return b
}

// find returns the rank of key (submit, id) in the list (the jobs before
// it) and whether a job has it.
func (l *waitList) find(submit, id int64) (int, bool) {
	if len(l.nodes) == 0 {
		return 0, false
	}
	rank, x := uint64(0), l.root
	for x != 0 {
		n := &l.nodes[x]
		switch {
		case before(n.submit, n.id, submit, id):
			rank += l.nodes[n.l].sum.n + 1
			x = n.r
		case n.submit == submit && n.id == id:
			return int(rank + l.nodes[n.l].sum.n), true
		default:
			x = n.l
		}
	}
	return int(rank), false
}

// put adds waiting job t, whose key is in no other job of the list.
func (l *waitList) put(t *tracked) {
	if len(l.nodes) == 0 {
		l.nodes = append(l.nodes, wnode{}) // the empty tree
		l.seed = rand.Uint64()
	}
	nd := wnode{submit: t.Submit, id: t.ID, t: t, prio: priority(t.Submit, t.ID, l.seed), sum: waitSums(t)}
	var x int32
	if k := len(l.free); k > 0 {
		x, l.free = l.free[k-1], l.free[:k-1]
		l.nodes[x] = nd
	} else {
		x = int32(len(l.nodes))
		l.nodes = append(l.nodes, nd)
	}
	a, b := l.split(l.root, t.Submit, t.ID, false)
	l.root = l.merge(l.merge(a, x), b)
}

// drop takes job t, which is in the list, out of it.
func (l *waitList) drop(t *tracked) {
	a, b := l.split(l.root, t.Submit, t.ID, false)
	m, c := l.split(b, t.Submit, t.ID, true)
	l.root = l.merge(a, c)
	if m != 0 {
		l.nodes[m] = wnode{}
		l.free = append(l.free, m)
	}
}

// before sums the first i jobs of the list.
func (l *waitList) before(i int) sums {
	var s sums
	if len(l.nodes) == 0 {
		return s
	}
	left, x := uint64(max(i, 0)), l.root
	for x != 0 && left > 0 {
		n := &l.nodes[x]
		ln := l.nodes[n.l].sum.n
		if left <= ln {
			x = n.l
			continue
		}
		s.add(l.nodes[n.l].sum)
		s.add(waitSums(n.t))
		left -= ln + 1
		x = n.r
	}
	return s
}

// total sums every job of the list.
func (l *waitList) total() sums { return l.nodes0().sum }

// from copies up to limit jobs from rank i on.
func (l *waitList) from(i, limit int) []Job {
	if limit <= 0 || i < 0 || i >= l.live() {
		return nil
	}
	page := make([]Job, 0, min(limit, l.live()-i))
	// The path to the job of rank i: the nodes whose own job and right
	// subtree come after it, innermost last.
	var stack []int32
	left, x := uint64(i), l.root
	for x != 0 {
		n := &l.nodes[x]
		ln := l.nodes[n.l].sum.n
		if left < ln {
			stack = append(stack, x)
			x = n.l
			continue
		}
		if left == ln {
			stack = append(stack, x)
			break
		}
		left -= ln + 1
		x = n.r
	}
	for len(stack) > 0 && len(page) < limit {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		page = append(page, l.nodes[x].t.Job)
		for y := l.nodes[x].r; y != 0; y = l.nodes[y].l {
			stack = append(stack, y)
		}
	}
	return page
}

// before says whether key (s1, i1) comes before (s2, i2).
func before(s1, i1, s2, i2 int64) bool {
	return s1 < s2 || s1 == s2 && i1 < i2
}
