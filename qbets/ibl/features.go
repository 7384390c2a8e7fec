package ibl

import (
	"cmp"
	"fmt"
	"slices"
)

// Job is what the feature builder needs to know about one job. Times are
// seconds; ReqTime ≤ 0 means the user gave no run-time limit.
type Job struct {
	ID      int64
	Queue   string
	User    string // Table IV only; "" = unknown
	Project string // Table IV only
	Name    string // Table IV only
	Cores   int64
	ReqTime int64
	Submit  int64
}

// NotQueuedFeatures returns Table III, the experience of a job not yet
// submitted (no System feature: bases are kept per system, §3 [S]); a
// new slice each call.
func NotQueuedFeatures() []Feature {
	return []Feature{
		{"Queue", "nominal"}, {"Cores", "linear"}, {"RequestedRunTime", "linear"},
		{"Count", "linear"}, {"Work", "linear"}, {"JobsRunning", "bool"}, {"Time", "linear"},
	}
}

// QueuedFeatures returns Table IV, the experience of a job already
// queued, without Simulated Wait Time: this package runs no scheduling
// simulation (spec K4), so that feature is left out rather than faked. A
// new slice each call.
func QueuedFeatures() []Feature {
	return []Feature{
		{"JobName", "nominal"}, {"User", "nominal"}, {"Project", "nominal"}, {"Queue", "nominal"},
		{"Cores", "linear"}, {"RequestedRunTime", "linear"}, {"Count", "linear"}, {"Work", "linear"},
		{"UserCount", "linear"}, {"UserWork", "linear"}, {"JobsRunning", "bool"}, {"Time", "linear"},
	}
}

// Bounds of a submitted job: 2^40 cores and a requested run time of
// 2^40 s (35,000 years), the bounds of the karnak service's events; the
// core sums then stay below 2^63 for up to 2^23 running jobs.
const (
	maxCores   = 1 << 40
	maxReqTime = 1 << 40
)

type tracked struct {
	Job
	start int64 // -1 while waiting
}

// slot is one place in the waiting list: the job's sort key, kept after
// the job leaves (t = nil) so that the list stays sorted and a binary
// search finds any job in O(log n).
type slot struct {
	submit, id int64
	t          *tracked // nil: the job started or ended
}

// System is the current state of one machine — its waiting jobs in
// scheduler order and its running jobs — from which the features of §4.1
// are computed. Scheduler order is taken to be submit order (then id):
// SWF traces do not record the scheduler's priority order, which Karnak
// read from each snapshot.
//
// The zero System is an empty machine, ready to use. A System is not safe
// for concurrent use.
type System struct {
	// waiting is sorted by (submit, id), each key at most once. A job
	// that leaves it leaves an empty slot instead of shifting the slots
	// after it, and the empty slots are swept out once they are the
	// majority: a start or an end then costs O(log n) amortized, not the
	// O(n) of a deletion, which with 100,000 waiting jobs held karnak's
	// write lock for tens of microseconds per event. The features still
	// sum the jobs in submit order, so their values do not change.
	waiting []slot
	gone    int // empty slots in waiting
	// live counts the jobs in each block of slotBlock slots of waiting,
	// so that WaitingPage finds the offset-th job passing over blocks,
	// not jobs: a page costs the same wherever it starts.
	live    []int32
	running map[int64]*tracked
	byID    map[int64]*tracked
}

// Submit records a job entering the queue.
func (s *System) Submit(j Job) error {
	if s.byID == nil { // the zero System; Start needs a job Submit made
		s.byID, s.running = map[int64]*tracked{}, map[int64]*tracked{}
	}
	if _, dup := s.byID[j.ID]; dup {
		return fmt.Errorf("ibl: job %d submitted twice", j.ID)
	}
	// Bounds that keep the sums of Running and of the Count and Work
	// features from wrapping.
	switch {
	case j.Cores < 0 || j.Cores > maxCores:
		return fmt.Errorf("ibl: job %d: %d cores, want 0–%d", j.ID, j.Cores, maxCores)
	case j.Submit < 0:
		return fmt.Errorf("ibl: job %d: negative submit time %d", j.ID, j.Submit)
	case j.ReqTime > maxReqTime:
		return fmt.Errorf("ibl: job %d: requested run time %d s is above %d", j.ID, j.ReqTime, maxReqTime)
	}
	t := &tracked{Job: j, start: -1}
	s.byID[j.ID] = t
	i, found := len(s.waiting), false
	if n := len(s.waiting); n > 0 && !before(s.waiting[n-1], j.Submit, j.ID) {
		i, found = s.find(j.Submit, j.ID) // not the last: a feed's jobs mostly are
	}
	if found {
		// The empty slot of an earlier job with this id and submit time
		// (no waiting job has it: the id is not in byID), taken back so
		// that each key has one slot, the one find returns.
		s.waiting[i].t = t
		s.gone--
		s.live[i/slotBlock]++
		return nil
	}
	s.waiting = slices.Insert(s.waiting, i, slot{j.Submit, j.ID, t})
	s.inserted(i)
	return nil
}

// slotBlock is the number of slots that live counts together: finding a
// page's first job passes over at most n/slotBlock blocks and then
// slotBlock slots (1,024 and 512 for 262,144 jobs and as many empty
// slots).
const slotBlock = 512

// inserted updates live for a job inserted at slot i: its block gains
// it, and each block after gains the slot moved in from the one before
// and loses its last slot to the one after; O(1) for a job appended,
// O(n/slotBlock) for one inserted (whose move costs O(n) anyway).
func (s *System) inserted(i int) {
	if len(s.waiting) > len(s.live)*slotBlock {
		s.live = append(s.live, 0) // a new last block
	}
	for b := i / slotBlock; b < len(s.live); b++ {
		if b == i/slotBlock || s.waiting[b*slotBlock].t != nil {
			s.live[b]++
		}
		if e := (b + 1) * slotBlock; e < len(s.waiting) && s.waiting[e].t != nil {
			s.live[b]--
		}
	}
}

// recount counts the jobs of the blocks from the one of slot i on.
func (s *System) recount(i int) {
	b := i / slotBlock
	s.live = s.live[:b]
	for ; b*slotBlock < len(s.waiting); b++ {
		var n int32
		for _, w := range s.waiting[b*slotBlock : min((b+1)*slotBlock, len(s.waiting))] {
			if w.t != nil {
				n++
			}
		}
		s.live = append(s.live, n)
	}
}

// find returns the position of key (submit, id) in waiting, or where it
// would be inserted.
func (s *System) find(submit, id int64) (int, bool) {
	return slices.BinarySearchFunc(s.waiting, slot{submit: submit, id: id}, func(a, b slot) int {
		if c := cmp.Compare(a.submit, b.submit); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
}

// before says whether slot w's key comes before (submit, id).
func before(w slot, submit, id int64) bool {
	return w.submit < submit || w.submit == submit && w.id < id
}

// unwait empties the slot of waiting job j, and sweeps the empty slots
// out once they outnumber the jobs (each sweep is paid for by the n/2
// leaves before it).
func (s *System) unwait(j *tracked) {
	i, _ := s.find(j.Submit, j.ID) // present: j is waiting
	s.waiting[i].t = nil
	s.gone++
	s.live[i/slotBlock]--
	if s.gone > len(s.waiting)/2 {
		s.waiting = slices.DeleteFunc(s.waiting, func(w slot) bool { return w.t == nil })
		s.gone = 0
		s.recount(0)
	}
}

// Start moves a waiting job to the running set at time t.
func (s *System) Start(id, t int64) error {
	j, ok := s.byID[id]
	if !ok || j.start >= 0 {
		return fmt.Errorf("ibl: job %d started but not waiting", id)
	}
	if t < 0 { // −1 marks a waiting job
		return fmt.Errorf("ibl: job %d started at negative time %d", id, t)
	}
	s.unwait(j)
	j.start = t
	s.running[id] = j
	return nil
}

// End forgets a job (running, or cancelled while waiting).
func (s *System) End(id int64) error {
	j, ok := s.byID[id]
	if !ok {
		return fmt.Errorf("ibl: job %d ended but unknown", id)
	}
	delete(s.byID, id)
	if j.start >= 0 {
		delete(s.running, id)
		return nil
	}
	s.unwait(j)
	return nil
}

// Waiting returns the waiting jobs in scheduler order (an empty slice,
// not nil, when none waits, as it always was).
func (s *System) Waiting() []Job {
	out, _ := s.WaitingPage(0, s.nWaiting())
	if out == nil {
		out = []Job{}
	}
	return out
}

// nWaiting is the number of waiting jobs (WaitingPage's total): the
// list's slots less the empty ones.
func (s *System) nWaiting() int { return len(s.waiting) - s.gone }

// WaitingPage returns up to limit waiting jobs in scheduler order, from
// the offset-th on (0 first), and how many jobs wait in all. It copies
// only the jobs it returns, and finds the first in O(n/512 + 512) steps
// whatever the offset.
func (s *System) WaitingPage(offset, limit int) (page []Job, total int) {
	total = s.nWaiting()
	if offset < 0 || limit <= 0 || offset >= total {
		return nil, total
	}
	page = make([]Job, 0, min(limit, total-offset))
	b, skip := 0, offset
	for int(s.live[b]) <= skip {
		skip -= int(s.live[b])
		b++
	}
	for i := b * slotBlock; i < len(s.waiting) && len(page) < limit; i++ {
		if w := s.waiting[i]; w.t != nil {
			if skip > 0 {
				skip--
				continue
			}
			page = append(page, w.t.Job)
		}
	}
	return page, total
}

// Lookup returns a known job and its start time (-1 while waiting).
func (s *System) Lookup(id int64) (Job, int64, bool) {
	t, ok := s.byID[id]
	if !ok {
		return Job{}, 0, false
	}
	return t.Job, t.start, true
}

// Running is the number of running jobs and the cores they hold.
func (s *System) Running() (jobs int, cores int64) {
	for _, t := range s.running {
		cores += t.Cores
	}
	return len(s.running), cores
}

// ahead sums Count and Work (§4.1 [S]) over the running jobs and the
// waiting jobs before position stop, in total and for one user.
type ahead struct {
	count, work, userCount, userWork float64
}

func (s *System) ahead(stop int, user string, now int64) ahead {
	var a ahead
	add := func(t *tracked, remaining int64) {
		w := float64(t.Cores) * float64(max(remaining, 0))
		a.count++
		a.work += w
		if user != "" && t.User == user {
			a.userCount++
			a.userWork += w
		}
	}
	for _, t := range s.running {
		req := max(t.ReqTime, 0) // no limit given: contributes no work
		var ran int64
		if now > t.start { // t.start ≥ 0: no overflow
			ran = now - t.start
		}
		add(t, req-min(ran, req))
	}
	for _, w := range s.waiting[:stop] {
		if w.t != nil {
			add(w.t, w.t.ReqTime)
		}
	}
	// Work saturates at maxMagnitude, the largest value the base takes:
	// jobs Submit accepts (2^40 cores asking 2^40 s) sum to 2^80
	// core-seconds, which Insert and Predict refused, ending a replay.
	// Beyond 2^53 core-seconds (285 million core-years) no two loads
	// differ usefully.
	a.work, a.userWork = min(a.work, maxMagnitude), min(a.userWork, maxMagnitude)
	return a
}

// NotQueued returns the Table III query for a job about to be submitted at
// now: every running and waiting job is ahead of it.
func (s *System) NotQueued(j Job, now int64) []Value {
	a := s.ahead(len(s.waiting), "", now)
	return []Value{
		str(j.Queue), num(float64(j.Cores)), reqTime(j.ReqTime),
		num(a.count), num(a.work), flag(len(s.running) > 0), num(float64(now)),
	}
}

// Queued returns the Table IV query for a waiting job at now, or false
// when the job is not waiting.
func (s *System) Queued(id, now int64) ([]Value, bool) {
	t, ok := s.byID[id]
	if !ok || t.start >= 0 {
		return nil, false
	}
	i, _ := s.find(t.Submit, t.ID)
	a := s.ahead(i, t.User, now)
	return []Value{
		opt(t.Name), opt(t.User), opt(t.Project), str(t.Queue),
		num(float64(t.Cores)), reqTime(t.ReqTime), num(a.count), num(a.work),
		num(a.userCount), num(a.userWork), flag(len(s.running) > 0), num(float64(now)),
	}, true
}

func reqTime(r int64) Value {
	if r <= 0 {
		return Value{}
	}
	return num(float64(r))
}

func opt(s string) Value {
	if s == "" {
		return Value{}
	}
	return str(s)
}
