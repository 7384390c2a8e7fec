package forecast

import "math/bits"

// runSums keeps what Online's questions read of the running jobs — the
// processors they hold, and per size class their number and the least
// time one of them has left — for a question at each job's arrival: a
// loop over them at each question cost a flurry of N jobs that start at
// once (a job array on a large machine) N²/2 visits (SDSC-BLUE's first
// 100,000 jobs in one second, the forecast row: 19.2 s of CPU, most of it
// in those loops). The answers are the loops', bit for bit
// (TestAheadEqualsLoop): the processors are whole numbers each at most
// 2^40 (heldSize), summed exactly in 128 bits (an int64 wrapped negative
// at 2^23 running jobs of 2^40, TestRunSumsHuge), and the time left is a minimum, kept per instant and class: a start
// lowers it, an end forgets it (walked again at the next question).
type runSums struct {
	held  [2]uint64   // Σ heldSize of the running jobs (high, low words)
	count map[int]int // running jobs per size class
	at    int64       // the instant soon holds
	soon  map[int]int64
	walks int // running jobs visited by the questions (TestRunSumsLinear)
}

// start counts a job that started: its held processors, its size class
// and its end e.
func (r *runSums) start(held int64, class int, e runEnd) {
	if r.count == nil {
		r.count, r.soon = map[int]int{}, map[int]int64{}
	}
	var c uint64
	r.held[1], c = bits.Add64(r.held[1], uint64(held), 0)
	r.held[0] += c
	r.count[class]++
	if s, ok := r.soon[class]; ok {
		r.soon[class] = min(s, e.left(r.at))
	}
}

// end uncounts a running job that ended.
func (r *runSums) end(held int64, class int) {
	var b uint64
	r.held[1], b = bits.Sub64(r.held[1], uint64(held), 0)
	r.held[0] -= b
	if r.count[class]--; r.count[class] == 0 {
		delete(r.count, class)
	}
	delete(r.soon, class)
}

// busy is the processors the running jobs hold, at most maxMachine (the
// loop's saturating sum of non-negative terms).
func (r *runSums) busy() int64 {
	if r.held[0] != 0 {
		return maxMachine
	}
	return int64(min(r.held[1], maxMachine))
}

// class returns the running jobs of size class k and the least time one
// of them has left at now (−1: none), walking o.running when not kept.
func (o *Online) runClass(k int, now int64) (int, int64) {
	r := &o.runs
	if r.count == nil {
		r.count, r.soon = map[int]int{}, map[int]int64{}
	}
	if r.at != now {
		r.at = now
		clear(r.soon)
	}
	nc := r.count[k]
	if nc == 0 {
		return 0, -1
	}
	if s, ok := r.soon[k]; ok {
		return nc, s
	}
	soon := int64(-1)
	r.walks += len(o.running)
	for i := range o.running {
		if sizeClass(o.running[i].Size()) != k {
			continue
		}
		if rem := o.runEnd[i].left(now); soon < 0 || rem < soon {
			soon = rem
		}
	}
	r.soon[k] = soon
	return nc, soon
}
