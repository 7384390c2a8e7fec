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
	// fifoBlock:]): no job there is smaller than n or predicted shorter
	// than p. Arrivals lower the bounds; EASY's backfilling raises a
	// block's to its jobs' own when it walks all of it, and skips the
	// blocks whose jobs could not start (backfillFrom). A re-prediction
	// (propagation) may break a block's bound on p: backfillFrom then
	// does not read them.
	blk []bound
}

// fifoBlock is the number of slots a bound of fifo.blk covers.
const fifoBlock = 16

// bound is the smallest size and prediction of a block's jobs, or less.
type bound struct{ n, p int64 }

// noJobs bounds a block without jobs.
var noJobs = bound{math.MaxInt64, math.MaxInt64}

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
		q.blk = append(q.blk, noJobs)
	}
	b := &q.blk[j.pos/fifoBlock]
	b.n, b.p = min(b.n, j.n), min(b.p, j.p)
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
