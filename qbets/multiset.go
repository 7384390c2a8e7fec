package qbets

import "slices"

// multiset is a sorted multiset of int64 as a list of sorted blocks of
// blockMin..2·blockMin values (the last may be shorter), with a Fenwick
// tree over the block sizes: insert costs a binary search and a move of at
// most 2·blockMin words, k-th smallest and rank O(log n), and a rebuild
// from unsorted values one sort. It is not safe for concurrent use.
type multiset struct {
	blocks [][]int64
	maxes  []int64 // last value of each block
	fen    []int   // Fenwick tree (1-based) over len(blocks[i])
	n      int
}

const blockMin = 256

func (m *multiset) len() int { return m.n }

// build replaces the contents with xs (which it sorts in place).
func (m *multiset) build(xs []int64) {
	slices.Sort(xs)
	m.blocks, m.maxes = m.blocks[:0], m.maxes[:0]
	for len(xs) > 0 {
		k := min(len(xs), blockMin)
		if len(xs)-k < blockMin/2 {
			k = len(xs) // no short tail block
		}
		b := make([]int64, k, max(k, 2*blockMin)+1)
		copy(b, xs[:k])
		m.blocks = append(m.blocks, b)
		m.maxes = append(m.maxes, b[k-1])
		xs = xs[k:]
	}
	m.n = 0
	for _, b := range m.blocks {
		m.n += len(b)
	}
	m.index()
}

// index rebuilds the Fenwick tree in O(blocks).
func (m *multiset) index() {
	m.fen = slices.Grow(m.fen[:0], len(m.blocks)+1)[:len(m.blocks)+1]
	clear(m.fen)
	for i, b := range m.blocks {
		j := i + 1
		m.fen[j] += len(b)
		if p := j + j&-j; p < len(m.fen) {
			m.fen[p] += m.fen[j]
		}
	}
}

func (m *multiset) insert(w int64) {
	m.n++
	if len(m.blocks) == 0 {
		b := make([]int64, 1, 2*blockMin+1)
		b[0] = w
		m.blocks, m.maxes = append(m.blocks, b), append(m.maxes, w)
		m.index()
		return
	}
	i, _ := slices.BinarySearch(m.maxes, w) // first block whose max ≥ w
	if i == len(m.blocks) {
		i--
	}
	b := m.blocks[i]
	j, _ := slices.BinarySearch(b, w)
	b = slices.Insert(b, j, w)
	m.blocks[i] = b
	m.maxes[i] = b[len(b)-1]
	if len(b) <= 2*blockMin {
		for k := i + 1; k < len(m.fen); k += k & -k {
			m.fen[k]++
		}
		return
	}
	// Split the full block in two.
	hi := make([]int64, len(b)-blockMin, 2*blockMin+1)
	copy(hi, b[blockMin:])
	m.blocks[i] = b[:blockMin]
	m.maxes[i] = b[blockMin-1]
	m.blocks = slices.Insert(m.blocks, i+1, hi)
	m.maxes = slices.Insert(m.maxes, i+1, hi[len(hi)-1])
	m.index()
}

// kth is the k-th smallest value, 1 ≤ k ≤ len.
func (m *multiset) kth(k int) int64 {
	pos, rem := 0, k // find the block holding the k-th: prefix(pos) < k
	step := 1
	for step*2 < len(m.fen) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if p := pos + step; p < len(m.fen) && m.fen[p] < rem {
			pos = p
			rem -= m.fen[p]
		}
	}
	return m.blocks[pos][rem-1]
}

// countLE is the number of values ≤ v.
func (m *multiset) countLE(v int64) int {
	i := upperBound(m.maxes, v) // blocks 0..i−1 are all ≤ v
	c := 0
	for k := i; k > 0; k -= k & -k {
		c += m.fen[k]
	}
	if i < len(m.blocks) {
		c += upperBound(m.blocks[i], v)
	}
	return c
}
