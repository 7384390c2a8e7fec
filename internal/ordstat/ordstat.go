// Package ordstat is an order-statistic multiset of int64 values: insert,
// delete and k-th smallest in O(log n) expected time (a treap with subtree
// sizes). QBETS (spec qbets-varq-coalloc §2.1, "Numerics") keeps each wait
// history in one so a confidence bound costs O(log n).
package ordstat

import "math/rand/v2"

type node struct {
	val         int64
	prio        uint64
	size        int
	left, right *node
}

func size(n *node) int {
	if n == nil {
		return 0
	}
	return n.size
}

func (n *node) fix() { n.size = 1 + size(n.left) + size(n.right) }

// Set is a multiset of int64. The zero value is an empty set ready to use.
// It is not safe for concurrent use.
type Set struct {
	root *node
	rng  *rand.Rand
}

// Len is the number of values held (with multiplicity).
func (s *Set) Len() int { return size(s.root) }

// split returns (< v, >= v) when strict, else (<= v, > v).
func split(n *node, v int64, strict bool) (*node, *node) {
	if n == nil {
		return nil, nil
	}
	goLeft := n.val > v || (strict && n.val == v)
	if goLeft {
		l, r := split(n.left, v, strict)
		n.left = r
		n.fix()
		return l, n
	}
	l, r := split(n.right, v, strict)
	n.right = l
	n.fix()
	return n, r
}

func merge(a, b *node) *node {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if a.prio > b.prio {
		a.right = merge(a.right, b)
		a.fix()
		return a
	}
	b.left = merge(a, b.left)
	b.fix()
	return b
}

// Insert adds one copy of v.
func (s *Set) Insert(v int64) {
	if s.rng == nil {
		s.rng = rand.New(rand.NewPCG(1, 2))
	}
	l, r := split(s.root, v, false)
	s.root = merge(merge(l, &node{val: v, prio: s.rng.Uint64(), size: 1}), r)
}

// Delete removes one copy of v and reports whether it was present.
func (s *Set) Delete(v int64) bool {
	l, r := split(s.root, v, true) // l < v, r >= v
	m, r2 := split(r, v, false)    // m == v, r2 > v
	found := m != nil
	if found {
		m = merge(m.left, m.right) // drop the root copy
	}
	s.root = merge(merge(l, m), r2)
	return found
}

// Kth returns the k-th smallest value, 1-based; ok is false when k is out
// of range.
func (s *Set) Kth(k int) (v int64, ok bool) {
	if k < 1 || k > s.Len() {
		return 0, false
	}
	n := s.root
	for {
		ls := size(n.left)
		switch {
		case k <= ls:
			n = n.left
		case k == ls+1:
			return n.val, true
		default:
			k -= ls + 1
			n = n.right
		}
	}
}

// CountLE returns how many values are ≤ v.
func (s *Set) CountLE(v int64) int {
	c := 0
	for n := s.root; n != nil; {
		if n.val <= v {
			c += size(n.left) + 1
			n = n.right
		} else {
			n = n.left
		}
	}
	return c
}

// Clear empties the set.
func (s *Set) Clear() { s.root = nil }
