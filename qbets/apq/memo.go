package apq

import "slices"

// A flurry — thousands of jobs submitted in the same second (job arrays)
// — asks describe as many times at one instant, and each description
// walked every waiting and running job: N jobs cost N²/2 visits (10,000
// jobs of SDSC-BLUE in one second: 2.6 s of CPU, 30,000: 27 s). At one
// instant the descriptions differ only by the target (its size, estimate
// and user) and by the jobs that arrived, started or ended since the last
// one, so a System keeps the state's summaries per instant (memo) and
// updates them by each event: a question then costs its user's lookup and
// a share of the six distributions' occupied bins (copied by the next event
// that changes one of them, not by the question), bounded by the fine
// resolution (fineScale), not by the queue.
//
// The answers are describe's bit for bit (TestMemoEqualsDescribe): every
// term describe adds is an integer (a size, an estimate, an elapsed time,
// a size times an estimate), so while the sum of their magnitudes stays
// below 2^53 each float sum is exact, the same in any order, and kept as
// an int64; past that (never on the archive logs) the memo is dropped for
// the instant and describe walks the jobs. The memo is built at the second
// question of an instant and key (most instants have one question) and
// dropped at a new instant: the elapsed times' distributions move with
// the clock. So a long queue asked at distinct instants still costs a walk
// of it per question; a flurry costs one walk and a step per job
// (TestMemoLinear counts them).

// memoKey is the state a description counts: every queue, or one queue
// (Config.PerQueue).
type memoKey struct {
	queue    int64
	perQueue bool
}

// memo is a System's summaries of the state at one instant.
type memo struct {
	now   int64
	set   bool // now is set
	asked map[memoKey]int
	parts map[memoKey]*memoPart
	work  int // jobs walked by describe and by the memo's builds (tests)
	hits  int // descriptions from the memo (tests)
}

// memoPart is the summaries of one key: describe's f[2..7] and
// distributions, and per user f[8..15], as exact integers.
type memoPart struct {
	f     [6]int64
	users map[int64]*[8]int64
	d     [numDists]memoHist
	abs   uint64 // Σ |term| added (past 2^53 the part is dropped)
}

// memoHist is a distribution's occupied fine bins, sorted; shared while a
// Point holds them, copied before the next change.
type memoHist struct {
	bins   []fineBin
	n      int
	shared bool
}

// exactSum bounds the magnitudes of the terms summed: below it every
// float64 partial sum of integers is exact.
const exactSum = 1 << 53

// describeMemo returns describe's Point from the memo when it holds one
// for (now, key), building it at the second question; false: walk.
func (s *System) describeMemo(target Job, now int64, perQueue bool) (Point, bool) {
	m := &s.memo
	if !m.set || m.now != now {
		m.now, m.set = now, true
		clear(m.asked)
		clear(m.parts)
	}
	if s.wait.has(target.ID) || s.run.has(target.ID) {
		return Point{}, false // (describe skips it: not the memo's sums)
	}
	k := memoKey{perQueue: perQueue}
	if perQueue {
		k.queue = target.Queue
	}
	part := m.parts[k]
	if part == nil {
		if m.asked == nil {
			m.asked, m.parts = map[memoKey]int{}, map[memoKey]*memoPart{}
		}
		m.asked[k]++
		if m.asked[k] < 2 {
			return Point{}, false
		}
		part = &memoPart{users: map[int64]*[8]int64{}}
		for j := range s.Waiting() {
			m.work++
			if part.counts(k, j, waitingGroup, now) && !part.add(j, waitingGroup, now, 1) {
				return Point{}, false
			}
		}
		for j := range s.Running() {
			m.work++
			if part.counts(k, j, runningGroup, now) && !part.add(j, runningGroup, now, 1) {
				return Point{}, false
			}
		}
		m.parts[k] = part
	}
	m.hits++
	p := Point{Req: target.Req, Queue: target.Queue}
	p.F[0], p.F[1] = float64(target.Req), target.ert()
	for i, v := range part.f {
		p.F[2+i] = float64(v)
	}
	if u := part.users[target.User]; u != nil && target.User >= 0 {
		for i, v := range u {
			p.F[8+i] = float64(v)
		}
	}
	for i := range part.d {
		h := &part.d[i]
		if h.n == 0 {
			continue
		}
		h.shared = true
		p.d[i] = fineHist{bins: h.bins, n: h.n, lo: h.bins[0].bin, hi: h.bins[len(h.bins)-1].bin}
	}
	return p, true
}

// counts reports whether describe at now under key k counts job j of
// group g.
func (part *memoPart) counts(k memoKey, j Job, g int, now int64) bool {
	if k.perQueue && j.Queue != k.queue {
		return false
	}
	if g == waitingGroup {
		return j.Submit < now
	}
	return j.Start <= now
}

// add adds (sign 1) or takes away (−1) job j of group g at now, as count
// adds it; false when the sums could be inexact as floats.
func (part *memoPart) add(j Job, g int, now int64, sign int64) bool {
	req, ert := j.Req, max(j.ERT, 0)
	el := now - j.Submit
	if g == runningGroup {
		el = now - j.Start
	}
	terms := [3]int64{req, ert, el}
	for _, t := range terms {
		if t <= -exactSum || t >= exactSum {
			return false
		}
		part.abs += uint64(max(t, -t))
	}
	var prod int64
	mine := j.User >= 0
	if mine {
		if req != 0 && (max(ert, -ert) >= exactSum/max(req, -req)) {
			return false
		}
		prod = req * ert
		part.abs += uint64(max(prod, -prod)) + uint64(max(req, -req)) + uint64(ert) + 1
	}
	if part.abs >= exactSum {
		return false
	}
	for i, t := range terms {
		part.f[3*g+i] += sign * t
		part.d[3*g+i].add(fineIndex(float64(t)), sign)
	}
	if mine {
		u := part.users[j.User]
		if u == nil {
			u = new([8]int64)
			part.users[j.User] = u
		}
		o := 4 * g
		u[o] += sign * prod
		u[o+1] += sign * req
		u[o+2] += sign * ert
		u[o+3] += sign
	}
	return true
}

// add counts one value of fine bin b (sign −1: uncounts it).
func (h *memoHist) add(b uint16, sign int64) {
	if h.shared {
		h.bins, h.shared = slices.Clone(h.bins), false
	}
	i, found := slices.BinarySearchFunc(h.bins, b, func(x fineBin, b uint16) int { return int(x.bin) - int(b) })
	switch {
	case sign > 0 && found:
		h.bins[i].n++
	case sign > 0:
		h.bins = slices.Insert(h.bins, i, fineBin{b, 1})
	case h.bins[i].n == 1:
		h.bins = slices.Delete(h.bins, i, i+1)
	default:
		h.bins[i].n--
	}
	h.n += int(sign)
}

// event updates the memo for job j of group g entering (sign 1) or
// leaving (−1) the state, dropping the parts it cannot update exactly.
func (s *System) event(j Job, g int, sign int64) {
	m := &s.memo
	for k, part := range m.parts {
		if part.counts(k, j, g, m.now) && !part.add(j, g, m.now, sign) {
			delete(m.parts, k)
			delete(m.asked, k)
		}
	}
}
