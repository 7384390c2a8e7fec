package sched

import "math"

// fifo is the waiting queue in arrival order. Jobs arrive in increasing
// sequence, so a slice appended at the tail keeps the order; a job that
// leaves (starts or is cancelled) leaves a hole, and the holes are
// squeezed out once they outnumber the jobs. Iterating a slice costs a
// fraction of a B-tree's per-item callbacks, and EASY walks this queue at
// every pass.
type fifo struct {
	items []*Job // nil: a hole
	head  int    // items[:head] are holes
	n     int    // jobs in the queue
	iter  int    // iterations in progress: no squeezing meanwhile
	// blk bounds the jobs of each block of fifoBlock slots (items[b*
	// fifoBlock:]) by two corners, below and from a size. Arrivals lower
	// them; EASY's backfilling sets a block's to its jobs' own when it
	// walks all of it, and skips the blocks whose jobs could not start
	// (backfillFrom). A re-prediction (propagation) may break a block's
	// bound on predictions: backfillFrom then does not read them.
	blk []bound
}

// fifoBlock is the number of slots a bound of fifo.blk covers.
const fifoBlock = 16

// bound covers a block's jobs by two corners: no job smaller than split
// is smaller or predicted shorter than small, no other job than large.
// One corner (the smallest size and shortest prediction) let a block of
// small long jobs and large short ones through at most passes when the
// queue is long; split at the free processors when a walk sets it, the
// small jobs' corner is exact while as many are free.
type bound struct {
	split        int64
	small, large corner
}

// corner is the smallest size and prediction of some jobs, or less.
type corner struct{ n, p int64 }

// noJobs is the corner of no jobs.
var noJobs = corner{math.MaxInt64, math.MaxInt64}

// add lowers b's corners to j's size and prediction.
func (b *bound) add(j *Job) {
	if j.n < b.split {
		b.small = corner{min(b.small.n, j.n), min(b.small.p, j.p)}
	} else {
		b.large = corner{min(b.large.n, j.n), min(b.large.p, j.p)}
	}
}

// shut reports whether no job of corner c can start now: all are larger
// than the free processors, or than the extra ones and end after the
// shadow (EASY's backfilling tests).
func (c corner) shut(now, free, shadow, extra int64) bool {
	return c.n > free || now+c.p > shadow && c.n > extra
}

// ReplaceOrInsert appends j, which arrived after every queued job.
func (q *fifo) ReplaceOrInsert(j *Job) {
	j.pos = len(q.items)
	q.bound(j)
	q.items = append(q.items, j)
	q.n++
}

// bound lowers the bound of the block of j's slot (j.pos, the last
// slot) to j's size and prediction, adding the block at its first slot.
func (q *fifo) bound(j *Job) {
	if j.pos%fifoBlock == 0 {
		q.blk = append(q.blk, bound{small: noJobs, large: noJobs})
	}
	q.blk[j.pos/fifoBlock].add(j)
}

// Delete removes j.
func (q *fifo) Delete(j *Job) {
	if j.pos < 0 || j.pos >= len(q.items) || q.items[j.pos] != j {
		return
	}
	q.items[j.pos] = nil
	j.pos = -1
	q.n--
	for q.head < len(q.items) && q.items[q.head] == nil {
		q.head++
	}
	if q.iter == 0 && len(q.items)-q.n > max(q.n, 8) {
		q.squeeze()
	}
}

// squeeze removes the holes, keeping the order.
func (q *fifo) squeeze() {
	k := 0
	q.blk = q.blk[:0]
	for _, j := range q.items[q.head:] {
		if j != nil {
			j.pos = k
			q.bound(j)
			q.items[k] = j
			k++
		}
	}
	clear(q.items[k:])
	q.items, q.head = q.items[:k], 0
}

// Len is the number of queued jobs.
func (q *fifo) Len() int { return q.n }

// Min returns the first queued job.
func (q *fifo) Min() (*Job, bool) {
	if q.n == 0 {
		return nil, false
	}
	return q.items[q.head], true
}

// Ascend calls visit on the queued jobs in arrival order until it returns
// false. visit may remove jobs (they are skipped) and add some (they are
// visited).
func (q *fifo) Ascend(visit func(*Job) bool) {
	q.iter++
	defer func() { q.iter-- }()
	for i := q.head; i < len(q.items); i++ {
		if j := q.items[i]; j != nil && !visit(j) {
			return
		}
	}
}
