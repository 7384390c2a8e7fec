package forecast

import (
	"slices"

	"github.com/batchq/batchq/swf"
)

// ahead keeps what Online's features and startsNow read of the waiting
// jobs ahead of the one asked about — their processors, and per queue
// (and partition, and size class) their number and the oldest one's
// submission — for the question at a job's arrival, when they are every
// other waiting job: a loop over them at each question cost a flurry of N
// jobs N²/2 visits (62% of the CPU of 28,000 jobs of KTH-SP2 in one second
// once the simulations went on, flurry.go). A question about a job that
// is not the last to arrive (a snapshot's, replay.Options.Snapshot) still
// walks the queue. The answers are the loop's, bit for bit
// (TestAheadEqualsLoop): the sum of sizes is an integer below 2^53, as the
// loop's float sum of them is exact. They are kept while the queue is long
// (built past aheadQueue waiting jobs, dropped below a quarter of it): on
// a short queue the walk costs less than their upkeep (KTH-SP2's whole
// log, estimates' row, callgrind: 3,800.6 M instructions, 3,944.4 M with
// the sums kept at every length).
type ahead struct {
	on    bool  // kept (Online.fast reads them)
	sum   int64 // Σ max(size, 1) of the waiting jobs of at most 2^40 processors
	big   int   // waiting jobs of more (the loop's float sum is used while any waits)
	count map[aheadKey]int
	first map[aheadKey][]arrival // per key of all classes: the arrivals in order, those started among them until they reach the front
}

// aheadKey is a queue, a partition (or any: anyPart) and a size class (or
// all: allClass).
type aheadKey struct {
	queue, part       int64
	class             int
	anyPart, allClass bool
}

// arrival is a waiting job's arrival number and submission.
type arrival struct{ seq, submit int64 }

// aheadQueue is the queue's length past which Online keeps the sums: a
// question walks at most that many waiting jobs.
const aheadQueue = 256

// maxAheadSize is the largest size summed: 2^22 jobs of it stay below
// 2^62.
const maxAheadSize = 1 << 40

// keys are w's four keys: its queue of any partition and of its own, of
// all classes and of its own.
func aheadKeys(w *swf.Job) [4]aheadKey {
	k := sizeClass(w.Size())
	return [4]aheadKey{
		{queue: w.Queue, anyPart: true, allClass: true},
		{queue: w.Queue, anyPart: true, class: k},
		{queue: w.Queue, part: w.Partition, allClass: true},
		{queue: w.Queue, part: w.Partition, class: k},
	}
}

// add counts an arriving job, numbered seq.
func (a *ahead) add(w *swf.Job, seq int64) {
	if a.count == nil {
		a.count, a.first = make(map[aheadKey]int), make(map[aheadKey][]arrival)
	}
	if s := w.Size(); s > maxAheadSize {
		a.big++
	} else {
		a.sum += max(s, 1)
	}
	for _, k := range aheadKeys(w) {
		a.count[k]++
		if k.allClass {
			a.first[k] = append(a.first[k], arrival{seq, w.Submit})
		}
	}
}

// remove uncounts a waiting job that started; waiting reports whether an
// arrival's job still waits.
func (a *ahead) remove(w *swf.Job, waiting func(seq int64) bool) {
	if s := w.Size(); s > maxAheadSize {
		a.big--
	} else {
		a.sum -= max(s, 1)
	}
	for _, k := range aheadKeys(w) {
		n := a.count[k] - 1
		if n == 0 {
			delete(a.count, k)
			delete(a.first, k)
			continue
		}
		a.count[k] = n
		if f := a.first[k]; k.allClass && len(f) > 2*n+16 {
			// (the arrivals that started, dropped once they are half)
			a.first[k] = slices.DeleteFunc(f, func(r arrival) bool { return !waiting(r.seq) })
		}
	}
}

// waits reports whether arrival seq is among seqs (ascending).
func waits(seqs []int64, seq int64) bool {
	_, ok := slices.BinarySearch(seqs, seq)
	return ok
}

// usable reports whether the sums stand for the loop's over n waiting
// jobs.
func (a *ahead) usable(n int) bool {
	return a.big == 0 && a.sum < 1<<53 && n < 1<<22
}

// of returns, for j, the last of the waiting jobs (arrival seqs,
// ascending): the processors of the others (each at least 1), how many of
// them are of its queue (and partition, if it names one) and of those of
// its size class, and the submission of the oldest of them (−1: none).
func (a *ahead) of(j *swf.Job, seqs []int64) (procs int64, sameQ, sameQC int, oldest int64) {
	qp := partOf(j)
	all := aheadKey{queue: j.Queue, anyPart: true, allClass: true}
	if qp >= 0 {
		all = aheadKey{queue: j.Queue, part: qp, allClass: true}
	}
	cls := all
	cls.allClass, cls.class = false, sizeClass(j.Size())
	// (j counts in each: it is one of the waiting jobs, of its own keys)
	sameQ, sameQC = a.count[all]-1, a.count[cls]-1
	oldest = -1
	f := a.first[all]
	for len(f) > 0 && !waits(seqs, f[0].seq) {
		f = f[1:]
	}
	a.first[all] = f
	if len(f) > 0 && f[0].seq != seqs[len(seqs)-1] {
		oldest = f[0].submit
	}
	return a.sum - max(j.Size(), 1), sameQ, sameQC, oldest
}
