package ibl

import "fmt"

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
	// While running (running.go): when the requested time runs out, and
	// the job's place in the heap of those after the clock (-1: not in it).
	deadline uint64
	heapAt   int
}

// System is the current state of one machine — its waiting jobs in
// scheduler order and its running jobs — from which the features of §4.1
// are computed. Scheduler order is taken to be submit order (then id):
// SWF traces do not record the scheduler's priority order, which Karnak
// read from each snapshot. A job submitted with an earlier submit time
// than jobs already waiting (or the same time and a smaller id) takes its
// place among them: it is ahead of them in the list, in WaitingPage's
// offsets, before WaitingAfter's keys, and in the Count and Work features
// of the jobs behind it computed from then on.
//
// Every event and every query costs O(log n) amortized in the waiting
// and running jobs (waitlist.go, running.go), and a query at a time after
// the latest submit or start it was given O(1) more per running job whose
// requested time ran out in between. A job submitted before the last in
// the list's order costs O(1) more per job after it (the move of
// their slots and the rebuild of their sums), and two cases cost O(n)
// as every query did before, summing the running jobs one by one: a
// query at a time before that latest submit or start, and one with 2^23
// or more jobs running. The features are the same sums over the same
// jobs as when each query summed every job (exact: whole numbers below
// 2^53, where they saturate). BenchmarkSystemSubmit has the figures.
//
// The zero System is an empty machine, ready to use. A System is not safe
// for concurrent use, except that its queries (NotQueued, Queued,
// Waiting, WaitingPage, WaitingAfter, Lookup, Running) only read.
type System struct {
	waiting waitList // every waiting job
	users   map[string]*userJobs
	running map[int64]*tracked
	byID    map[int64]*tracked

	clock  int64   // the latest submit or start time given
	active active  // running jobs whose deadline is after clock, by deadline
	run    runSums // of every running job
}

// userJobs are one user's waiting and running jobs, for the UserCount and
// UserWork features; dropped when the user has none.
type userJobs struct {
	waiting waitList
	run     runSums
}

// user returns u's jobs, creating them.
func (s *System) user(u string) *userJobs {
	uj := s.users[u]
	if uj == nil {
		uj = new(userJobs)
		s.users[u] = uj
	}
	return uj
}

// tidy forgets user u's jobs once there are none.
func (s *System) tidy(u string) {
	if uj := s.users[u]; uj != nil && uj.waiting.live() == 0 && uj.run.n == 0 {
		delete(s.users, u)
	}
}

// Submit records a job entering the queue.
func (s *System) Submit(j Job) error {
	if s.byID == nil { // the zero System; Start needs a job Submit made
		s.byID, s.running, s.users = map[int64]*tracked{}, map[int64]*tracked{}, map[string]*userJobs{}
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
	t := &tracked{Job: j, start: -1, heapAt: -1}
	s.byID[j.ID] = t
	s.tick(j.Submit)
	s.waiting.put(t)
	s.user(j.User).waiting.put(t)
	return nil
}

// unwait takes waiting job j out of the waiting lists.
func (s *System) unwait(j *tracked) {
	s.waiting.drop(j)
	s.user(j.User).waiting.drop(j)
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
	s.runStart(j)
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
		s.runEnd(j)
	} else {
		s.unwait(j)
	}
	s.tidy(j.User)
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

// nWaiting is the number of waiting jobs (WaitingPage's total).
func (s *System) nWaiting() int { return s.waiting.live() }

// WaitingPage returns up to limit waiting jobs in scheduler order, from
// the offset-th on (0 first), and how many jobs wait in all. It copies
// only the jobs it returns, and finds the first in O(log n) whatever the
// offset. A job that leaves or arrives before the offset-th between two
// calls shifts the jobs after it: paging a changing list by offsets can
// skip or repeat a job, which WaitingAfter does not.
func (s *System) WaitingPage(offset, limit int) (page []Job, total int) {
	total = s.nWaiting()
	if offset < 0 || limit <= 0 || offset >= total {
		return nil, total
	}
	return s.waiting.from(offset, limit), total
}

// WaitingAfter returns up to limit waiting jobs in scheduler order from
// the first whose key (submit time, then id) comes after (submit, id) —
// the key of the last job of the previous page, whether or not that job
// still waits — with the offset of the first (0 first; the number of jobs
// before it) and how many jobs wait in all. Paged this way, a job that
// waits from the first page to the last is returned exactly once, however
// many jobs leave or arrive in between; a job that arrives with a key
// before the page's (submitted out of order) is not on the later pages.
// O(log n) to find the first.
func (s *System) WaitingAfter(submit, id int64, limit int) (page []Job, offset, total int) {
	i, found := s.waiting.find(submit, id)
	if found {
		i++
	}
	return s.waiting.from(i, limit), int(s.waiting.before(i).n), s.nWaiting()
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

// ahead is Count and Work (§4.1 [S]) over the running jobs and the
// waiting jobs ahead of a job, in total and for its user. Work saturates
// at maxMagnitude, the largest value the base takes: jobs Submit accepts
// (2^40 cores asking 2^40 s) sum to 2^80 core-seconds, which Insert and
// Predict refused, ending a replay. Beyond 2^53 core-seconds (285
// million core-years) no two loads differ usefully.
type ahead struct {
	count, work, userCount, userWork float64
}

func aheadOf(all, mine sums) ahead {
	return ahead{float64(all.n), all.work.float(), float64(mine.n), mine.work.float()}
}

// NotQueued returns the Table III query for a job about to be submitted at
// now: every running and waiting job is ahead of it.
func (s *System) NotQueued(j Job, now int64) []Value {
	all, _ := s.runningAt(now, "")
	all.add(s.waiting.total())
	a := aheadOf(all, sums{})
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
	all, mine := s.runningAt(now, t.User)
	i, _ := s.waiting.find(t.Submit, t.ID)
	all.add(s.waiting.before(i))
	if t.User != "" { // a user's own list holds the user's jobs ahead
		u := s.users[t.User]
		ui, _ := u.waiting.find(t.Submit, t.ID)
		mine.add(u.waiting.before(ui))
	}
	a := aheadOf(all, mine)
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
