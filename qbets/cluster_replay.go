package qbets

// replay feeds ws (one cluster's waits in release order) into an empty
// history, with the same outcome as calling add for each (the change-point
// detector replayed after re-clustering, Q9), but faster: the pre-insert
// bound comes from two heaps split at the upper index — the i_up smallest
// values in a max-heap, the rest in a min-heap — so each step is O(log n)
// without moving memory, and the sorted set is built once at the end.
func (h *history) replay(ws []int64) {
	var lo, hi intHeap // lo holds −value (a max-heap of the smallest), hi the rest
	h.recent = h.recent[:0]
	h.trims = 0
	if h.tr != nil {
		h.tr.Reset()
	}
	rebuild := func() {
		lo, hi = lo[:0], hi[:0]
		for _, v := range h.recent {
			lo = append(lo, -v)
		}
		lo.init()
		target := h.tab.upper(len(h.recent))
		if target == 0 {
			target = len(h.recent)
		}
		for lo.len() > target {
			hi.push(-lo.pop())
		}
	}
	for _, w := range ws {
		n := len(h.recent)
		miss := false
		if h.tr != nil {
			miss = h.tab.upper(n) > 0 && w > -lo.top()
		}
		if lo.len() == 0 || w <= -lo.top() {
			lo.push(-w)
		} else {
			hi.push(w)
		}
		target := h.tab.upper(n + 1)
		if target == 0 {
			target = n + 1
		}
		for lo.len() > target {
			hi.push(-lo.pop())
		}
		for lo.len() < target {
			lo.push(-hi.pop())
		}
		h.recent = append(h.recent, w)
		if h.tr != nil {
			if keep := h.tr.Observe(w, miss); keep > 0 {
				keep = max(keep, h.nMin)
				h.trims++
				if len(h.recent) > keep {
					h.recent = append(h.recent[:0], h.recent[len(h.recent)-keep:]...)
				}
				rebuild()
				continue
			}
		}
		if h.cap > 0 && len(h.recent) > h.cap+max(h.cap/8, 1) {
			h.recent = append(h.recent[:0], h.recent[len(h.recent)-h.cap:]...)
			rebuild()
		}
	}
	h.rebuild()
}

// intHeap is a binary min-heap of int64.
type intHeap []int64

func (q intHeap) len() int      { return len(q) }
func (q intHeap) top() int64    { return q[0] }
func (q *intHeap) push(v int64) { *q = append(*q, v); q.up(len(*q) - 1) }

func (q *intHeap) pop() int64 {
	old := *q
	v := old[0]
	n := len(old) - 1
	old[0] = old[n]
	*q = old[:n]
	q.down(0)
	return v
}

func (q intHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if q[p] <= q[i] {
			return
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
}

func (q intHeap) down(i int) {
	n := len(q)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && q[r] < q[l] {
			m = r
		}
		if q[i] <= q[m] {
			return
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
}

func (q intHeap) init() {
	for i := len(q)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}
