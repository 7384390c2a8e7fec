package sched

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

type jobState uint8

const (
	pending jobState = iota // loaded, not yet arrived
	waiting
	running
	done
	cancelled
)

func (j *Job) predEnd() int64 { return j.start + j.p }

// endsNow reports whether running job r ends now as predicted: its
// predicted end is now, and so is its termination, one of this instant's
// events still to handle. Only a pass per event (Config.PerEventPass)
// runs while such a job runs: the pass after the instant's terminations
// sees none. It has not outlived its prediction, so the free-processor
// profile counts its processors from now, not from now+1 as S3 does for
// a job still running at or past its predicted end (freeFrom); a job
// planned on them waits, reserved at now, and starts at the pass after
// that termination, later in this instant. (A job of prediction 0 is
// held over [now, now+1), as the profile holds every job for max(p, 1).)
func (s *Sim) endsNow(r *Job) bool { return r.p == r.r && r.p > 0 && r.start+r.p == s.now }

// freeFrom is when the free-processor profile counts running job r's
// processors free again: its predicted end, or now+1 when that is not
// after now and r has outlived its prediction (S3: they are still held).
func (s *Sim) freeFrom(r *Job) int64 {
	if t := r.predEnd(); t > s.now || s.endsNow(r) {
		return t
	}
	return s.now + 1
}

// endingFree is the processors of the running jobs that end now as
// predicted (endsNow): free from now in the profile, not yet in s.free.
// It is s.ending, which batch sets before the pass after each event of
// an instant but its arrivals (a pass per event, not pyss's order), 0
// from the instant's last termination on, and Cancel keeps up to date;
// without a pass per event there are none: every termination of the
// instant comes before its pass.
func (s *Sim) endingFree() int64 { return s.ending }

// endingSum walks the running jobs to sum endingFree.
func (s *Sim) endingSum() int64 {
	var n int64
	for _, c := range s.run.chunks {
		for _, r := range c {
			if r.predEnd() > s.now {
				return n
			}
			if s.endsNow(r) {
				n += r.n
			}
		}
	}
	return n
}

// consEndsNow returns the jobs of start, the waiting jobs a conservative
// pass on one pool planned now (in arrival order), that fit in the
// processors free now, and keeps the others waiting, reserved at now:
// they were planned on the processors of a job that ends now as
// predicted (endsNow) and still runs, and start at the pass after its
// termination, later in this instant. A job started after one kept
// waiting overtook it: it is backfilled. Keeping one drops the memo (its
// jobs no longer hold it, consMemo): the next pass plans from the
// running jobs again.
func (s *Sim) consEndsNow(start []*Job) []*Job {
	if s.ending == 0 {
		return start // every job planned now fits
	}
	return s.consHold(start)
}

func (s *Sim) consHold(start []*Job) []*Job {
	var need int64
	for _, j := range start {
		if j.state == waiting { // (an observer may have cancelled it)
			need += j.n
		}
	}
	if need <= s.free {
		return start
	}
	m := s.prof.memo
	m.ok, m.logOK = false, false
	var fit []*Job // (rare: a new slice, start is the memo's)
	free, held := s.free, false
	for _, j := range start {
		switch {
		case j.state != waiting:
		case j.n > free:
			s.reserve(j, s.now)
			held = true
		default:
			free -= j.n
			j.backfill = j.backfill || held
			fit = append(fit, j)
		}
	}
	return fit
}

// event kinds in the same-timestamp order of S1.
const (
	evTerm = iota
	evExpiry
	evWake
)

type event struct {
	t   int64
	ord uint64 // kind<<56 | push sequence: the S1 order, then push order
	job *Job   // termination, expiry
	n   int    // expiry: correction count when armed (stale if changed); wake: index in Sim.wakes
}

func (e *event) kind() int { return int(e.ord >> 56) }

func (e *event) before(f *event) bool { return e.t < f.t || e.t == f.t && e.ord < f.ord }

// eventHeap is a binary min-heap of events by (t, ord), written out
// rather than through container/heap, whose interface calls cost a tenth
// of an EASY run; sifts move a hole instead of swapping. Events are 32
// bytes (At's callbacks wait in Sim.wakes).
type eventHeap []event

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	// (unsigned: a shift for the halving, and p < i proves q[p])
	i := uint(len(q)) - 1
	hole := &q[i]
	for i > 0 {
		p := (i - 1) / 2
		x := &q[p]
		if !e.before(x) {
			break
		}
		*hole = *x
		hole, i = x, p
	}
	*hole = e
}

func (h *eventHeap) pop() event {
	q := *h
	top := q[0]
	n := uint(len(q)) - 1
	last := q[n]
	q[n] = event{}
	q = q[:n]
	*h = q
	if n == 0 {
		return top
	}
	// The hole and the child by pointers, indexes unsigned: c < n
	// proves q[c] in bounds (the checks were a tenth of pop).
	hole, i := &q[0], uint(0)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		x := &q[c]
		if r := c + 1; r < n && q[r].before(x) {
			c, x = r, &q[r]
		}
		if !x.before(&last) {
			break
		}
		*hole = *x
		hole, i = x, c
	}
	*hole = last
	return top
}

// arrival is a loaded job's submit time and record.
type arrival struct {
	at int64
	k  int32
}

// Sim is one discrete-event simulation (§2.1). It is not safe for concurrent
// use; run many Sims in parallel, or advance several in lockstep with
// RunUntil.
type Sim struct {
	cfg Config
	// ctx is the context of the running RunUntilContext or
	// FinishContext (nil outside one). Its Err, an atomic load, is read
	// at every instant and, by the passes whose cost grows with the
	// queue, every so many visits (haltEvery): a pass that hears it stops
	// short; cut then records that one did, and the Sim, whose pass state
	// is half written, only returns cutErr from then on. (Read in this
	// goroutine, a cancellation by a hook is heard at the same point on
	// every run; a flag set by context.AfterFunc's goroutine was heard
	// sooner or later, and a run stopped where that goroutine's timing
	// said.)
	ctx    context.Context
	cut    bool
	cutErr error
	sched  Scheduler
	view   Pass
	pred   RuntimePredictor
	// userEst: pred is the default, userEstimate, whose prediction
	// predict reads itself and whose Terminated does nothing: two calls
	// a job through the interface to its pointer wrapper (0.3 M of
	// KTH-SP2's EASY run).
	userEst bool
	propag  bool
	now     int64
	free    int64
	recs    []Record // every sane job, in Load/Submit order; record k is recs[k-recBase]
	// repredicted: a propagated re-prediction changed a waiting job's
	// prediction (Result.promises)
	repredicted bool
	// recBase is the index of recs[0]: with Config.SummaryOnly, the
	// records before recHead are folded into summ, and compactRecs drops
	// them.
	recBase, recHead int
	summ             *foldSummary
	arr              []arrival // loaded jobs by arrival (submit, ID, record); arr[arrI:] not arrived yet
	arrI             int
	events           eventHeap
	evSeq            uint64
	wakes            []func(int64) // At's callbacks by event.n (wakeFree: the free slots)
	seq              int64
	obs              []Observer
	// resObs is obs less the Hooks values without a Reservation func,
	// which reserve need not call: conservative backfilling moves about
	// 1.1 M reservations on SDSC-BLUE, and each call through the
	// interface to examples/simulate's Hooks (Start and End only) did
	// nothing.
	resObs []Observer
	// hooks are the observers' funcs by kind while every observer is a
	// Hooks value (mixed false): the event loop calls them directly, not
	// through the interface (see notify).
	hooks observerHooks
	mixed bool
	// live maps the ID of every job admitted and not yet ended or
	// cancelled to its live state (nil while it is to arrive): a job with
	// one of these IDs is rejected as sanitize.DuplicateID, so that an ID
	// names one job, and Cancel finds jobs here. While every admitted ID
	// exceeds the one before (real traces) and nothing is cancelled, no
	// lookup is needed and live stays nil; the first other ID or the
	// first Cancel builds it (liveByID), and from then on it is kept (and
	// answers Pass.Job in byID's place).
	live map[int64]*Job
	// byID maps the ID of every waiting or running job to its live state
	// while live is nil: Pass.Job's look-up, built by its first call
	// (nil until then). It holds the queue and the machine, not the whole
	// log as live does after Load, so keeping it costs an update per
	// arrival and end (byid.go).
	byID  *jobsByID
	hiID  int64 // the largest admitted ID but the made-up ones (madeUpID)
	anyID bool  // some job was admitted
	lines int64 // the lines given to admit: a job without a number is numbered from it (madeUpID)
	// ended lists the records of the jobs that terminated, in the order
	// they did: summarize's termination order without a sort of all
	// records. Jobs ending at the same instant must come in record order:
	// tieRuns holds the start of each such run that does not (see
	// noteEnd), endedAt and runFrom the current run's instant and start.
	ended      []int32
	tieRuns    []int
	endedAt    int64
	runFrom    int
	lastSubmit int64 // the largest submit time of an admitted job (S7's last arrival)

	waitFCFS fifo    // by arrival
	waitSJ   *jobSet // by (p, seq); built on first use
	run      jobSet  // by (predEnd, start, ID, idx)
	// sjFrom is the first arrival (seq) not in waitSJ: the later ones,
	// listed in sjNew, join it when byPrediction is called or an SJBF
	// pass ends (most start at the pass of their arrival, and so never
	// join it).
	sjFrom int64
	sjNew  []newcomer

	inBatch  bool
	inPass   bool
	dirty    bool
	rejected sanitize.Report
	maxEst   int64
	filled   bool // a job without an estimate arrived (RaiseMaxEstimate)
	buf      []*Job
	prof     Profile // Pass.Profile
	spare    []*Job  // live states of ended jobs, for reuse
	fresh    []*Job  // visitNew's scratch
	// sorted counts the jobs LXF&W's backfilling walk sorted
	// (ascendPriority), for the test of its cost on an overloaded log
	sorted int64
	// epoch counts every change but an arrival: a start, an end, a
	// correction, a cancellation, a re-prediction, a reservation moved
	// by Pass.Reserve (see easyMemo).
	epoch uint64
	// qepoch counts the changes of the waiting queue but arrivals: a
	// start, a cancellation, a re-prediction, a reservation moved by
	// Pass.Reserve or by the built-in EASY (consMemo).
	qepoch uint64
	memo   easyMemo
	// builtin: the Scheduler is one of the package's, which keep no
	// Pass; refused counts the Pass actions refused (Result.Refused).
	builtin bool
	refused int
	// easy is the Scheduler when it is an EASYScheduler (isEasy): pass
	// runs its pass directly, without the interface's call and copy; so
	// it does conservative backfilling's (isCons).
	easy         EASYScheduler
	isEasy       bool
	isCons       bool
	easyQ, easyB order // easy's orders' kinds
	// m is the machine of nodes (Config.Nodes), nil for one pool; free
	// then counts its free cores. shadowAv is EASY's look-ahead scratch,
	// noNode the rejections by the resource no node has enough of.
	m        *machine
	shadowAv avail
	noNode   map[string]int
	shares   shareArena // the ended jobs' node shares, for Result.shares
	held     []held     // what each record's job held, for Result.Use
	have     int64      // earliest: what the holder could use at the shadow
	want     int64      // and what it needs (nodes, or cores when spread)
	waste    int64      // a spread holder: the cores at the shadow it cannot use (wasteCannotKeep)

	cons *consNodes // conservativeNodesPass's profile, made on first use
	// ending is endingFree: the processors of the running jobs that end
	// now as predicted, at a pass between two terminations of one instant
	ending int64

	// At's callbacks are kept in a slice rather than a map (the Slurm
	// policy wakes a million times a run, and the map's insert, look-up
	// and delete were 2–3% of it): wakeFree lists wakes' free slots.
	wakeFree []int
	// passes are the Passes still to hand out, allocated in blocks: every
	// pass of a Scheduler not built in gets a Pass of its own (a kept one
	// must be refused), and an allocation each was 3% of a million-pass
	// run.
	passes []Pass
}

func lessShort(a, b *Job) bool {
	if a.p != b.p {
		return a.p < b.p
	}
	return a.seq < b.seq
}

// New returns an empty simulation at time 0 (or at the first loaded arrival).
func New(cfg Config) (*Sim, error) {
	s := new(Sim)
	if err := s.init(cfg); err != nil {
		return nil, err
	}
	return s, nil
}

// init makes the zero Sim s a simulation of cfg (New's and Reset's).
func (s *Sim) init(cfg Config) error {
	m, err := cfg.validate()
	if err != nil {
		return err
	}
	s.cfg, s.pred, s.free, s.maxEst = cfg, cfg.Predictor, cfg.MachineSize, cfg.MaxEstimate
	if m != nil {
		s.m = m
		m.countMemory = cfg.CountMemory
		s.free = 0
		for _, c := range m.cap.cores {
			s.free += c
		}
		s.cfg.MachineSize = s.free
	}
	if s.pred == nil {
		s.pred = userEstimate{}
	}
	_, s.userEst = s.pred.(userEstimate)
	if pp, ok := s.pred.(interface{ Propagates() bool }); ok {
		s.propag = pp.Propagates()
	}
	s.sched = cfg.Scheduler
	if s.sched == nil {
		s.sched = EASYScheduler{}
	}
	switch e := s.sched.(type) {
	case EASYScheduler:
		s.builtin, s.easy, s.isEasy = true, e, true
		s.easyQ, s.easyB = kindOf(e.Queue), kindOf(e.Backfill)
	case conservativeScheduler:
		s.builtin, s.isCons = true, true
	case fcfsScheduler:
		s.builtin = true
	}
	if s.m != nil {
		_, cons := s.sched.(conservativeScheduler)
		s.m.runs = !cons
	}
	s.view = Pass{s: s}
	if cfg.SummaryOnly {
		s.summ = newFoldSummary(cfg.bsldThreshold())
	}
	return nil
}

// rec returns record k.
func (s *Sim) rec(k int) *Record { return &s.recs[k-s.recBase] }

// compactRecs drops the folded records at the front of recs
// (Config.SummaryOnly) once they are half of it: amortised O(1) a job.
func (s *Sim) compactRecs() {
	if s.recHead == 0 || 2*s.recHead < len(s.recs) {
		return
	}
	s.dropFolded()
}

// dropFolded drops the folded records at the front of recs.
func (s *Sim) dropFolded() {
	n := copy(s.recs, s.recs[s.recHead:])
	clear(s.recs[n:]) // admit needs zeroed spare capacity, and the lines are let go
	s.recBase += s.recHead
	s.recs, s.recHead = s.recs[:n], 0
}

// Observe registers an observer.
func (s *Sim) Observe(o Observer) {
	s.obs = append(s.obs, o)
	h, ok := o.(Hooks)
	if !ok || h.Reservation != nil {
		s.resObs = append(s.resObs, o)
	}
	if ok {
		s.hooks.add(h)
	} else {
		s.mixed = true
	}
}

// Now returns the simulation clock (the time of the last processed event or
// RunUntil target).
func (s *Sim) Now() int64 { return s.now }

// Load adds future arrivals. Unsane jobs (sanitize.Check) are rejected and
// counted in Result.Rejected, and so is a job whose ID is that of a job
// still to arrive, waiting or running (sanitize.DuplicateID; the first
// one loaded is kept), so that Cancel names one job; jobs submitted
// before Now are an error, but for the lines of partial executions
// (status 2, 3, 4), rejected whenever they come. A job without a number (ID below 1; SWF's -1)
// is numbered 10^18 + n, n its line's position among the lines given to
// the Sim (Load's and Submit's, 1 for the first), counted under the rule
// id_made_up (Result.Changed): no real job has such a number. (A real
// one at or above 10^18 that a live made-up one has is a duplicate, and so
// is a job without a number whose made-up one a live real job has.)
// Missing estimates become MaxEstimate or the largest estimate seen (S6).
//
// The simulator keeps a pointer to each sane job (Record.Job) instead of a
// copy, so that every job is held once: jobs must not change until the
// Result is no longer used. (A job without a number is held as a copy
// that carries the made-up one.)
func (s *Sim) Load(jobs []swf.Job) error { return s.load(context.Background(), jobs) }

// LoadContext is Load, returning ctx's error once ctx is done: it looks
// at ctx every 4,096 jobs (about 0.9 M instructions of loading), and
// every 65,536 arrivals it sorts of a log out of order, so that
// a deadline that passes while a large log loads (SDSC-BLUE's 243k jobs:
// 51 M instructions) is heard soon after, not at the end. A Load that
// stops so has admitted some jobs and not the rest: then the Sim is done,
// and every later Load, RunUntil and Finish returns an error that wraps
// ctx's.
func (s *Sim) LoadContext(ctx context.Context, jobs []swf.Job) error { return s.load(ctx, jobs) }

// loadEvery is how many jobs Load admits between two looks at its
// context: one look costs an atomic load and a call, a job hundreds of
// instructions.
const loadEvery = 4096

func (s *Sim) load(ctx context.Context, jobs []swf.Job) error {
	if s.cut {
		return s.cutErr
	}
	if err := ctx.Err(); err != nil {
		return err // nothing loaded: the Sim goes on
	}
	for i := 0; i < len(jobs) && s.now > 0; i++ { // (the clock never goes below 0)
		at := jobs[i].Submit
		if s.cfg.Peer != PeerNone && at <= 0 { // a peer may move it to 1 (peerJob)
			j := jobs[i]
			peerJob(&j, s.cfg.Peer, s.cfg.MachineSize)
			at = j.Submit
		}
		// A line of a partial execution repeats its job's submit time
		// where the log puts the run: admit rejects it whatever its time
		// (sanitize.PartialExecution), counted, as a whole load does; it
		// failed a piece loaded after that time. (Its status is looked at
		// only here: nothing on a log in order.)
		if at < s.now && at >= 0 && !jobs[i].Status.Partial() {
			return fmt.Errorf("sched: job %d submitted at %d, before now %d", jobs[i].ID, at, s.now)
		}
	}
	if s.recBase+len(s.recs)+len(jobs) > math.MaxInt32 {
		return fmt.Errorf("sched: %d jobs, more than one simulation holds (2^31)", s.recBase+len(s.recs)+len(jobs))
	}
	if s.summ == nil {
		s.recs = slices.Grow(s.recs, len(jobs))
		s.ended = slices.Grow(s.ended, len(jobs))
	} else {
		s.compactRecs()
		// Loaded piece by piece: grown by doubling, so that the records
		// are copied about once in all, not four times as append's
		// growth by a quarter does for large slices.
		if need := len(s.recs) + len(jobs); need > cap(s.recs) && 4*s.recHead >= len(s.recs) {
			// A quarter or more folded: dropped first when the
			// records would grow (the copy is at most the growth's,
			// and frees a quarter of them), so that a job that waits
			// long at the head does not double them. On SDSC-BLUE
			// under conservative backfilling, 3,357 of 6,991 records
			// folded made them grow from 7,168 to 14,336 (2.2 MB).
			s.dropFolded()
		}
		if need := len(s.recs) + len(jobs); need > cap(s.recs) {
			s.recs = slices.Grow(s.recs, max(need, 2*cap(s.recs))-len(s.recs))
		}
	}
	// The arrivals still to come, moved to the front of s.arr when the new
	// ones fit behind them there: loaded piece by piece (examples/simulate
	// streams 256 lines at a time), a Grow of the tail alone made a new
	// array at nearly every piece, and no collection ran to take the old
	// ones back (KTH-SP2: 497 KB of arrivals' arrays for 28,475 jobs). A
	// new array doubles, so that the arrivals are copied about once.
	rest := s.arr[s.arrI:]
	if need := len(rest) + len(jobs); need <= cap(s.arr) {
		rest = s.arr[:copy(s.arr, rest)]
	} else {
		rest = append(make([]arrival, 0, max(need, 2*cap(s.arr))), rest...)
	}
	// Arrival order is (submit, ID, record); traces are usually in it
	// already, and then need no sort. The peers order the submissions of
	// one instant by their line in the file (pyss's event counter), so
	// with Config.Peer it is (submit, record).
	byID := s.cfg.Peer == PeerNone
	before := func(a, b arrival) bool {
		if a.at != b.at {
			return a.at < b.at
		}
		if !byID {
			return a.k < b.k
		}
		x, y := s.rec(int(a.k)).Job.ID, s.rec(int(b.k)).Job.ID
		return x < y || x == y && a.k < b.k
	}
	sorted := true
	kept := len(rest) // the arrivals loaded before, now at rest's front
	for lo := 0; lo < len(jobs); lo += loadEvery {
		if lo > 0 {
			if err := ctx.Err(); err != nil {
				// Some jobs are admitted (records, counts) and the
				// rest not: the Sim is done. s.arr keeps the earlier
				// arrivals, which rest may have moved to its front.
				s.arr, s.arrI = rest[:kept], 0
				s.cut = true
				s.cutErr = fmt.Errorf("sched: the simulation was stopped while loading jobs: %w", err)
				return err
			}
		}
		// In pieces: 7 instructions a job more than one plain loop (the
		// call to admit spills every live variable), 1.7 M on SDSC-BLUE,
		// 0.14 % of its EASY run (callgrind); a look at i&(loadEvery-1)
		// in the one loop cost 2.0 M, the pieces' loop in a function of
		// its own 5.4 M.
		piece := jobs[lo:min(lo+loadEvery, len(jobs))] // (a range: no bounds check a job)
		for i := range piece {
			if k, at, ok := s.admit(&piece[i], lo+i); ok {
				a := arrival{at, k}
				sorted = sorted && (len(rest) == 0 || before(rest[len(rest)-1], a))
				rest = append(rest, a)
			}
		}
	}
	if !sorted {
		err := sortArrivals(ctx, rest, func(a, b arrival) int { // (submit, ID, record) is a total order
			if before(a, b) {
				return -1
			}
			return 1
		})
		if err != nil {
			// (A done Sim reads no arrival again: every call returns
			// cutErr first.)
			s.arr, s.arrI = nil, 0
			s.cut = true
			s.cutErr = fmt.Errorf("sched: the simulation was stopped while loading jobs: %w", err)
			return err
		}
	}
	s.arr, s.arrI = rest, 0
	return nil
}

// sortPiece is the number of arrivals sortArrivals sorts in one call:
// about 64 M instructions of sorting between two looks at ctx.
// Smaller pieces cost more merging: on 243k arrivals shuffled (load and
// sort, callgrind) one SortFunc took 323.3 M instructions, pieces of
// 65,536 340.4 M, of 16,384 349.0 M, of 4,096 354.8 M, and a look every
// 4,096 comparisons in the comparison 368.7 M.
const sortPiece = 16 * loadEvery

// sortArrivals sorts a by cmp, a total order, and returns ctx's error
// once ctx is done: it sorts pieces of sortPiece arrivals and merges them
// pairwise, looking at ctx between two pieces and every loadEvery
// arrivals merged: one SortFunc over a log out of order (250 M
// instructions on 243k arrivals) heard no deadline. A log in order (every
// archive log) is never sorted.
func sortArrivals(ctx context.Context, a []arrival, cmp func(x, y arrival) int) error {
	for lo := 0; lo < len(a); lo += sortPiece {
		if lo > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		slices.SortFunc(a[lo:min(lo+sortPiece, len(a))], cmp)
	}
	if len(a) <= sortPiece {
		return nil
	}
	src, dst := a, make([]arrival, len(a))
	for w := sortPiece; w < len(a); w *= 2 {
		for lo := 0; lo < len(a); lo += 2 * w {
			mid, hi := min(lo+w, len(a)), min(lo+2*w, len(a))
			i, j := lo, mid
			for o := lo; o < hi; {
				if err := ctx.Err(); err != nil {
					return err
				}
				for end := min(o+loadEvery, hi); o < end; o++ {
					if j == hi || i < mid && cmp(src[i], src[j]) < 0 {
						dst[o] = src[i]
						i++
					} else {
						dst[o] = src[j]
						j++
					}
				}
			}
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return nil
}

// admit adds a record for an SWF line, or counts its rejection by the sane
// predicate, and returns the record and the job's arrival time (the line's
// submit time, or the peer's, Config.Peer). index is the line's position
// in Load's slice, -1 for Submit. Every line's estimate counts towards the
// largest one (S6).
func (s *Sim) admit(line *swf.Job, index int) (int32, int64, bool) {
	if e := line.ReqTime; s.cfg.MaxEstimate == 0 && e <= sanitize.MaxTime {
		s.maxEst = max(s.maxEst, e)
	}
	sj := line
	var rules rule
	if s.cfg.Peer != PeerNone {
		peer := *line
		rules = peerJob(&peer, s.cfg.Peer, s.cfg.MachineSize)
		sj = &peer
	} else if line.AllocProcs <= 0 && line.ReqProcs > 0 {
		rules = ruleSizeFromRequested // S5
	}
	if s.m != nil {
		if c := demandCores(line.Demand); c > 0 && c != line.Size() && !splitOf(line.Demand, line.Size()) && !splitOf(line.Demand, line.ReqProcs) {
			// On nodes a job's size is the cores its demand asks (the
			// machine's size is its cores): a GPU trace's processors are
			// GPUs, and its CPU jobs have none. Processors the demand's
			// cores split (a log's 10 CPUs on 3 nodes, 4 per node) are
			// the job's CPUs: its size stays theirs, as the log and
			// Slurm's job size factor and usage count it.
			sized := *line // (only here: the one-pool path copies nothing)
			sized.AllocProcs = c
			rules |= ruleSizeFromDemand
			sj = &sized
		}
	}
	s.lines++
	r := sanitize.Check(sj, s.cfg.MachineSize)
	// Only an ID not above the highest real one admitted, or one of the
	// made-up ones (madeUpID: no real job below 10^18 has one), may be
	// held: rising IDs, a real log's, skip the call and the map (28
	// instructions a job), and so do jobs without a number, unless a
	// real number past 10^18 came (hostile: the later is a duplicate).
	id := sj.ID
	if jobid.Missing(id) {
		id = jobid.MadeUp(s.lines)
	}
	if r == sanitize.SaneJob && s.anyID && (id <= s.hiID || id > jobid.Base && (!jobid.Missing(sj.ID) || s.hiID > jobid.Base)) && s.holds(id) {
		r = sanitize.DuplicateID
	}
	if r == sanitize.SaneJob && s.m != nil {
		if why := s.unfit(sj); why != "" {
			r = sanitize.FitsNoNode
			if s.noNode == nil {
				s.noNode = map[string]int{}
			}
			s.noNode[why]++
		}
	}
	if r != sanitize.SaneJob {
		s.rejected.Excluded = appendExcluded(s.rejected.Excluded, sanitize.Excluded{Index: index, ID: sj.ID, Reason: r})
		return 0, 0, false
	}
	s.hiID = max(s.hiID, sj.ID) // (a made-up one's is still below 1: no change)
	if jobid.Missing(sj.ID) {
		own := line
		line = s.madeUpID(line, index)
		if sj == own {
			sj = line // (the caller's line is never written)
		} else {
			sj.ID = line.ID // a peer's or a sized copy
		}
		rules |= ruleIDMadeUp
	}
	if s.live != nil {
		s.live[sj.ID] = nil
	}
	s.anyID = true
	s.lastSubmit = max(s.lastSubmit, sj.Submit)
	// Fill the new record in place: appending or zeroing a Record value
	// goes through write barriers while a collection runs, which Load's
	// large allocation of records usually starts. s.recs only ever grows
	// by append and slices.Grow, so its spare capacity is zeroed memory.
	n := len(s.recs)
	if n < cap(s.recs) {
		s.recs = s.recs[:n+1]
	} else {
		s.recs = append(s.recs, Record{})
	}
	rec := &s.recs[n]
	rec.Job, rec.Size, rec.Estimate, rec.RunTime = line, sj.Size(), sj.ReqTime, sj.RunTime
	rec.Start, rec.End, rec.FirstReservation = -1, -1, -1
	rec.rules = rules
	if s.summ != nil && line.ReqTime <= 0 {
		s.summ.counts.NoEstimate++ // (summarize's count, made here: the line is let go at arrival)
	}
	s.rejected.Kept = s.recBase + len(s.recs)
	return int32(s.recBase + len(s.recs) - 1), sj.Submit, true
}

// madeUpID returns the line of a job without a number (field 1 below 1:
// SWF's -1, "missing", as archive and converted logs can carry on every
// line, or 0) numbered 10^18 + n, n the line's position among all the
// lines given to the simulation, Load's and Submit's, rejected ones
// included (1 for the first): on a log loaded whole, or piece by piece,
// the job line's position in the log, as internal/jobid numbers it for
// the commands. Real numbers count from 1 and stay far below 10^18, so
// no made-up number is a real job's, whatever lines come later; the
// number names the line and is a valid SWF job number (Record.SWF); the
// job counts under the rule id_made_up. (Such lines were rejected as
// duplicates of the first one.) A loaded line is copied (Load's lines
// must not change); Submit's (index -1) is already the Sim's own.
func (s *Sim) madeUpID(line *swf.Job, index int) *swf.Job {
	if index >= 0 {
		c := new(swf.Job)
		*c = *line
		line = c
	}
	line.ID = jobid.MadeUp(s.lines)
	return line
}

// demandCores is the cores a valid demand asks in all, Nodes × Cores
// (Cores when spread), 0 if it gives none (Cores 0: the job's size
// divided among its nodes), is invalid, or asks more than 2^20 nodes, a
// machine's most (unfit rejects those, by what they lack).
func demandCores(d *swf.Demand) int64 {
	if d == nil || d.Cores <= 0 || d.Nodes > 1<<20 || d.Validate() != nil {
		return 0
	}
	return max(d.Nodes, 1) * d.Cores // at most 2^60: Validate bounds Cores by 2^40
}

// splitOf reports whether d's cores per node are p processors divided
// among its nodes, rounded up, as swf/convert writes a log's CPUs (d is
// one demandCores gives cores for: at most 2^20 nodes).
func splitOf(d *swf.Demand, p int64) bool {
	n := max(d.Nodes, 1)
	return p > 0 && p/n+min(p%n, 1) == d.Cores
}

// holds reports whether a job with this ID is still to arrive, waiting
// or running, by liveByID (which it builds: admit calls it only for an
// ID not above the highest admitted, hiID).
func (s *Sim) holds(id int64) bool {
	_, ok := s.liveByID()[id]
	return ok
}

// liveByID returns s.live, built on first use from the records not yet
// ended or cancelled and the waiting and running jobs.
func (s *Sim) liveByID() map[int64]*Job {
	if s.live == nil {
		s.live = make(map[int64]*Job)
		for k := range s.recs {
			if r := &s.recs[k]; r.End < 0 && r.Job != nil { // to arrive (the others below)
				s.live[r.Job.ID] = nil
			}
		}
		s.waitFCFS.Ascend(func(j *Job) bool { s.live[j.j.ID] = j; return true })
		s.run.Ascend(func(j *Job) bool { s.live[j.j.ID] = j; return true })
		s.byID = nil // live answers from now on
	}
	return s.live
}

// job returns the waiting or running job of this ID, nil if none: from
// live if it is kept, else from byID, built on first use.
func (s *Sim) job(id int64) *Job {
	if s.live != nil {
		return s.live[id]
	}
	if s.byID == nil {
		s.byID = new(jobsByID)
		s.waitFCFS.Ascend(func(j *Job) bool { s.byID.put(j); return true })
		s.run.Ascend(func(j *Job) bool { s.byID.put(j); return true })
	}
	return s.byID.get(id)
}

// activate builds the live state of record k's job, arriving at at. Live
// jobs exist only while they wait or run; their record keeps the outcome.
// The job is its line, with the size, estimate and run time that admit
// put in the record (as Config.Peer builds them, if set; on nodes the
// size from its demand, as processors) and its arrival
// time as its submit time (a peer may move an invalid line's, see
// peerJob).
func (s *Sim) activate(k int32, at int64) *Job {
	var jb *Job
	if n := len(s.spare); n > 0 {
		jb, s.spare = s.spare[n-1], s.spare[:n-1]
	} else {
		jb = new(Job)
	}
	rec := s.rec(int(k))
	copyLine(&jb.j, rec.Job)
	if s.summ != nil {
		// SummaryOnly lets the line go once it has arrived: the fold
		// takes the simulated submit from the live job at close.
		rec.Job = nil
	}
	// Field by field in place: the literal jobLive{...} was built on the
	// stack and copied over (54 instructions a job).
	jl := &jb.jobLive
	jl.idx, jl.seq, jl.n, jl.e, jl.r, jl.p, jl.p0 = int(k), 0, rec.Size, 0, rec.RunTime, 0, 0
	jl.start, jl.end, jl.state, jl.nCorr, jl.kPost = -1, -1, 0, 0, 0
	jl.filled, jl.backfill, jl.killed, jl.firstRes, jl.res = false, false, false, -1, -1
	jl.accSum, jl.accT, jl.prio, jl.pos, jl.key, jl.held = 0, 0, 0, 0, 0, 0
	if s.m != nil {
		ns := jb.jobNodes
		if ns == nil {
			ns = new(jobNodes)
			jb.jobNodes = ns
		}
		*ns = jobNodes{nd: needOf(rec.Job, rec.Size, s.cfg.CountMemory), alloc: ns.alloc[:0], resAlloc: ns.resAlloc[:0]}
	}
	jb.j.Submit = at
	if s.m != nil && rec.Size != jb.j.Size() {
		// Sized from its demand (admit): observers and policies that
		// read the line see the size simulated, as Record.SWF writes it.
		jb.j.AllocProcs = rec.Size
	}
	if s.cfg.Peer != PeerNone { // peerJob sets just these and the submit time
		jb.j.AllocProcs, jb.j.ReqProcs, jb.j.ReqTime, jb.j.RunTime = rec.Size, rec.Size, rec.Estimate, rec.RunTime
	}
	return jb
}

// copyLine is *dst = *src for a live Job's line. Copied field by field,
// it writes Demand only when it changes (a nil one stays nil): the copy
// of a value with a pointer goes through the collector's write barrier
// while a collection runs, once per arrival. TestCopyLine checks that it
// copies every field.
func copyLine(dst, src *swf.Job) {
	dst.ID, dst.Submit, dst.Wait, dst.RunTime, dst.AllocProcs = src.ID, src.Submit, src.Wait, src.RunTime, src.AllocProcs
	dst.AvgCPUTime, dst.UsedMemory, dst.ReqProcs, dst.ReqTime = src.AvgCPUTime, src.UsedMemory, src.ReqProcs, src.ReqTime
	dst.ReqMemory, dst.Status, dst.User, dst.Group = src.ReqMemory, src.Status, src.User, src.Group
	dst.Executable, dst.Queue, dst.Partition, dst.PrecedingJob = src.Executable, src.Queue, src.Partition, src.PrecedingJob
	dst.ThinkTime = src.ThinkTime
	if dst.Demand != src.Demand {
		dst.Demand = src.Demand
	}
}

// Submit makes j arrive now (its Submit field is set to Now). Returns false
// and counts it if the job is not sane or its ID is that of a job still to
// arrive, waiting or running (sanitize.DuplicateID). A job without a
// number (ID below 1) is numbered as Load numbers it.
func (s *Sim) Submit(j swf.Job) bool {
	line := new(swf.Job)
	*line = j
	line.Submit = s.Now()
	s.compactRecs()
	k, _, ok := s.admit(line, -1)
	if !ok {
		return false
	}
	s.rec(int(k)).rules &^= rulePeerSubmitMoved // it arrives now, whatever a peer would do
	s.arrive(s.activate(k, line.Submit))
	s.afterExternal()
	return true
}

// Cancel removes the waiting job with this ID or kills it if it runs. It
// returns false if no such job waits or runs.
func (s *Sim) Cancel(id int64) bool {
	jb := s.liveByID()[id]
	if jb == nil {
		return false
	}
	s.epoch++
	s.qepoch++
	switch jb.state {
	case waiting:
		s.removeWaiting(jb)
	case running:
		if s.ending > 0 && s.endsNow(jb) {
			s.ending -= jb.n
		}
		s.run.Delete(jb)
		s.free += jb.held
		s.consRun(s.now, jb.predEnd(), -jb.n)
		if s.m != nil {
			s.freeShares(jb)
		}
	default:
		return false
	}
	jb.state = cancelled
	jb.end = s.now
	if s.live != nil {
		delete(s.live, id)
	}
	s.close(jb)
	s.notifyEnd(jb, true)
	s.afterExternal()
	return true
}

// schedule runs scheduling passes until no observer has submitted or
// cancelled a job during the last one. Re-entrant calls only mark it dirty.
func (s *Sim) schedule() {
	if s.inPass {
		s.dirty = true
		return
	}
	if s.cut {
		return // a pass stopped short: the Sim is done (halt)
	}
	s.inPass = true
	for {
		s.dirty = false
		if s.waitFCFS.Len() > 0 {
			s.pass()
		}
		if !s.dirty {
			break
		}
	}
	s.inPass = false
}

// afterExternal runs a scheduling pass when Submit or Cancel is called from
// outside the event loop; inside it, the batch's pass does it.
func (s *Sim) afterExternal() {
	if s.inBatch {
		s.dirty = true
		return
	}
	s.schedule()
}

// At wakes fn at time t (≥ Now), after the terminations, expiries and
// arrivals of t and before t's scheduling pass.
func (s *Sim) At(t int64, fn func(now int64)) {
	var n int
	if k := len(s.wakeFree) - 1; k >= 0 {
		n, s.wakeFree = s.wakeFree[k], s.wakeFree[:k]
		s.wakes[n] = fn
	} else {
		n = len(s.wakes)
		s.wakes = append(s.wakes, fn)
	}
	s.push(evWake, event{t: max(t, s.Now()), n: n})
}

func (s *Sim) push(kind int, e event) {
	e.ord = uint64(kind)<<56 | s.evSeq
	s.evSeq++
	s.events.push(e)
}

// nextTime returns the time of the next event or arrival.
func (s *Sim) nextTime() (int64, bool) {
	t, ok := int64(0), false
	if len(s.events) > 0 {
		t, ok = s.events[0].t, true
	}
	if s.arrI < len(s.arr) {
		if a := s.arr[s.arrI].at; !ok || a < t {
			t, ok = a, true
		}
	}
	return t, ok
}

// RunUntil processes every event at or before t and sets the clock to t.
func (s *Sim) RunUntil(t int64) error { return s.runUntil(context.Background(), t) }

// RunUntilContext is RunUntil, returning ctx's error once ctx is done: it
// hears a cancellation at the next instant, so a long run (a heavy queue,
// a slow Scheduler) stops soon after it, where the clock is then, and the
// Sim can go on from there. A cancellation by an observer (a Hooks
// function) is heard at the same point on every run. A built-in pass
// whose cost grows with the queue (conservative's, on a flurry's 20 k
// waiting jobs) hears it within a few thousand visits and stops short:
// then the Sim is done, and every later call returns an error that wraps
// ctx's.
func (s *Sim) RunUntilContext(ctx context.Context, t int64) error { return s.runUntil(ctx, t) }

func (s *Sim) runUntil(ctx context.Context, t int64) error {
	if s.cut {
		return s.cutErr
	}
	prev := s.ctx
	s.ctx = ctx
	defer func() { s.ctx = prev }()
	for {
		if err := ctx.Err(); err != nil {
			if s.cut {
				s.cutErr = fmt.Errorf("sched: the simulation was stopped in a scheduling pass: %w", err)
			}
			return err
		}
		nt, ok := s.nextTime()
		if !ok || nt > t {
			break
		}
		s.batch(nt)
	}
	if t > s.now {
		s.now = t
	}
	return nil
}

const never = int64(1<<63 - 1)

// haltEvery is how many visits a long pass makes between two looks at
// the context (a power of two, for a mask): a few thousand cheap
// visits, or a few milliseconds of costly ones on a large queue.
const haltEvery = 1024

// halted tells whether the run is stopping, and if so records that the
// calling pass stops short: the schedule from here on would not be the
// policy's, and the Sim is done. (A cancellation between two instants, or
// during a pass that never looks, leaves the Sim able to go on.)
func (s *Sim) halted() bool {
	if s.cut || (s.ctx != nil && s.ctx.Err() != nil) {
		s.cut = true
		return true
	}
	return false
}

// Finish runs the simulation until no event is left and returns the
// result. If jobs still wait then, the Scheduler stalled: the error wraps
// ErrStall and names the first of them, and the Result is returned with
// it (those jobs never started).
func (s *Sim) Finish() (*Result, error) { return s.finish(context.Background()) }

// FinishContext is Finish, returning ctx's error (and no Result) once ctx
// is done, as RunUntilContext does: what runs after the last arrival can
// be most of a run.
func (s *Sim) FinishContext(ctx context.Context) (*Result, error) { return s.finish(ctx) }

func (s *Sim) finish(ctx context.Context) (*Result, error) {
	if err := s.runUntil(ctx, never-1); err != nil {
		return nil, err
	}
	err := s.stall() // before result, which closes the waiting jobs' records
	return s.result(), err
}

// batch processes all events at time t in the S1 order, then schedules.
func (s *Sim) batch(t int64) {
	s.now, s.inBatch = t, true
	if s.cfg.Peer == PeerPyss && s.cfg.PerEventPass {
		s.pyssInstant(t)
	} else {
		for len(s.events) > 0 && s.events[0].t == t && s.events[0].kind() <= evExpiry {
			e := s.events.pop()
			if e.kind() == evTerm {
				s.terminate(e.job)
				s.recycle(e.job)
			} else {
				s.expire(e.job, e.n)
			}
			if s.cfg.PerEventPass {
				// A job ends now as predicted only while its termination
				// is still to come: without one, no walk of the running
				// jobs (their overdue head, S3, can be long).
				s.ending = 0
				if len(s.events) > 0 && s.events[0].t == t && s.events[0].kind() == evTerm {
					s.ending = s.endingSum()
				}
				s.schedule()
			}
		}
		s.arrivals(t)
	}
	woke := false
	for len(s.events) > 0 && s.events[0].t == t && s.events[0].kind() == evWake {
		e := s.events.pop()
		fn := s.wakes[e.n]
		s.wakes[e.n] = nil
		s.wakeFree = append(s.wakeFree, e.n)
		fn(t)
		woke = true
	}
	s.inBatch = false
	// With a pass per event, the batch's own pass is needed only for what
	// the wake-ups did.
	if !s.cfg.PerEventPass || woke || s.dirty {
		s.schedule()
	}
}

// arrivals makes the jobs submitted at t arrive, in load order; with a
// pass per event, each one is followed by a pass.
func (s *Sim) arrivals(t int64) {
	for s.arrI < len(s.arr) && s.arr[s.arrI].at == t {
		jb := s.activate(s.arr[s.arrI].k, t)
		s.arrI++
		s.arrive(jb)
		if s.cfg.PerEventPass {
			s.schedule()
		}
	}
}

// pyssInstant processes the events of instant t in pyss's order (the
// tie rule JobEvent.EVENTS_ORDER of pyss's base/prototype.py: prediction
// over, then submission, then termination):
//   - first, every job that ends now as predicted leaves pyss's processor
//     snapshot (the instant's first submission or termination archives the
//     slices that end by now), but its user's history learns its run time
//     only at its own termination event (terminateAsPredicted);
//   - then every prediction expiry (JobPredictionIsOverEvent: pyss extends
//     the job's slices to its estimate, no pass);
//   - then every arrival, each followed by a pass;
//   - then every termination, each followed by a pass (EASY++'s
//     new_events_on_job_termination records the run time, then schedules,
//     re-predicting every waiting job).
func (s *Sim) pyssInstant(t int64) {
	s.terminateAsPredicted()
	var terms []*Job
	for len(s.events) > 0 && s.events[0].t == t && s.events[0].kind() <= evExpiry {
		e := s.events.pop()
		if e.kind() == evTerm {
			terms = append(terms, e.job)
		} else {
			s.expire(e.job, e.n)
		}
	}
	s.arrivals(t)
	for _, jb := range terms {
		if jb.state == done { // left the snapshot early, not yet learnt
			s.learn(jb)
		} else {
			s.terminate(jb)
		}
		s.recycle(jb)
		s.schedule()
	}
}

// recycle keeps the live state of a job whose termination event has been
// handled, for reuse by a later arrival: that event was the last reference
// to it (its prediction expiries all come earlier).
func (s *Sim) recycle(jb *Job) {
	if s.m != nil {
		s.m.putShares(jb.alloc)
		jb.alloc = nil
	}
	s.spare = append(s.spare, jb)
}

// terminateAsPredicted releases, before the instant's first event, every
// job that ends now and was predicted to: pyss plans on a processor
// snapshot in which such jobs are already gone when it handles the
// instant's first event, whichever that is. Their termination events still
// come in their turn, each adding the job to the history (learn) before
// its pass, as in pyss.
func (s *Sim) terminateAsPredicted() {
	// Not s.buf: learn re-predicts through it (propagation).
	var ends []*Job
	s.run.Ascend(func(r *Job) bool {
		if r.predEnd() > s.now {
			return false
		}
		if r.predEnd() == s.now && r.start+r.r == s.now {
			ends = append(ends, r)
		}
		return true
	})
	for _, r := range ends {
		s.release(r)
		s.notifyEnd(r, false)
	}
}

// EstimateFor is the estimate the simulation plans job j with if it
// arrives now: its own; without one (S6), the largest estimate seen so far,
// or its run time on a log without estimates.
func (s *Sim) EstimateFor(j *swf.Job) int64 {
	switch {
	case j.ReqTime > 0:
		return j.ReqTime
	case s.maxEst > 0:
		return s.maxEst
	}
	return j.RunTime
}

// RaiseMaxEstimate raises the largest estimate seen (S6) to e, as if a
// line with estimate e had been loaded, so that a log loaded in pieces
// gives its jobs without an estimate the estimate a whole load does: a
// caller that streams a log into the Sim learns the log's largest
// estimate only at its end, and can find it ahead (a scan of the rest)
// without loading the rest. It must come before the first job without
// an estimate arrives: it is an error to raise the estimate after one
// has been planned with a smaller one. An estimate above
// sanitize.MaxTime is ignored, as Load ignores it, and so is every call
// when Config.MaxEstimate is set.
func (s *Sim) RaiseMaxEstimate(e int64) error {
	if s.cfg.MaxEstimate != 0 || e <= s.maxEst || e > sanitize.MaxTime {
		return nil
	}
	if s.filled {
		return fmt.Errorf("sched: RaiseMaxEstimate(%d) after a job without an estimate arrived with %d", e, s.maxEst)
	}
	s.maxEst = e
	return nil
}

// predict is the predictor's p for j now, at most sanitize.MaxTime: a
// user's predictor may answer anything, and start + p must not wrap (a
// prediction of 2^63 − 1 made a job's end fall before every reservation,
// so it backfilled ahead of them).
func (s *Sim) predict(j *swf.Job) int64 {
	if s.userEst {
		return min(j.ReqTime, sanitize.MaxTime) // (userEstimate.Predict)
	}
	return min(s.pred.Predict(j, s.now), sanitize.MaxTime)
}

func (s *Sim) arrive(jb *Job) {
	if jb.j.ReqTime <= 0 {
		jb.filled, s.filled = true, true
		jb.j.ReqTime = s.EstimateFor(&jb.j)
	}
	jb.e = jb.j.ReqTime
	if s.cfg.KillAtEstimate && s.cfg.KillCheck == 0 && jb.r > jb.e && !jb.filled {
		// The run the scheduler will see, from the start: an oracle
		// predicts it and a history learns it (see KillAtEstimate). A
		// job is killed only at an estimate its user gave: a filled-in
		// one (S6) is the simulator's guess.
		jb.r, jb.j.RunTime, jb.killed = jb.e, jb.e, true
	}
	jb.p = s.predict(&jb.j)
	jb.p0 = jb.p
	jb.accT = jb.j.Submit
	jb.seq = s.seq
	s.seq++
	jb.state = waiting
	if s.live != nil {
		s.live[jb.j.ID] = jb
	} else if s.byID != nil {
		s.byID.put(jb)
	}
	s.waitFCFS.ReplaceOrInsert(jb)
	if s.waitSJ != nil { // it joins waitSJ later (sjFrom)
		s.sjNew = append(s.sjNew, newcomer{jb, jb.seq})
	}
	if s.mixed || len(s.hooks.submit) > 0 { // (no call a job when no one listens)
		s.notifySubmit(jb)
	}
}

func (s *Sim) removeWaiting(jb *Job) {
	s.waitFCFS.Delete(jb)
	if s.waitSJ != nil && jb.seq < s.sjFrom {
		s.waitSJ.Delete(jb)
	}
}

func (s *Sim) startJob(jb *Job, backfilled bool) {
	s.epoch++
	s.qepoch++
	s.waitFCFS.Delete(jb) // (removeWaiting, inline: a call a start)
	if s.waitSJ != nil && jb.seq < s.sjFrom {
		s.waitSJ.Delete(jb)
	}
	jb.state = running
	jb.start = s.now
	jb.backfill = backfilled
	jb.held = jb.n
	if s.m != nil { // placeNow took the shares' resources
		jb.held = jb.heldCores()
		jb.heldMem, jb.heldGPUs = jb.held*jb.nd.mem, 0
		if !jb.plainSpread() {
			jb.heldMem = 0
			for k := range jb.alloc {
				sh := &jb.alloc[k]
				jb.heldMem += sh.mem * sh.nodes()
				jb.heldGPUs += sh.gpuThousandths()
			}
		}
	}
	if s.cfg.KillAtEstimate && s.cfg.KillCheck > 0 && !jb.filled {
		// The kill time depends on the start (see KillCheck).
		if k := killCheckTime(s.now+jb.e, s.cfg.KillCheck) - s.now; jb.r > k {
			jb.r, jb.j.RunTime, jb.killed = k, k, true
		}
	}
	s.free -= jb.held
	s.run.ReplaceOrInsert(jb)
	s.consRun(s.now, jb.predEnd(), jb.n)
	s.push(evTerm, event{t: s.now + jb.r, job: jb})
	if s.cfg.Corrector != nil { // (armExpiry's test: no call without a Corrector)
		s.armExpiry(jb)
	}
	if h := s.hooks.start; len(h) == 1 && !s.mixed {
		// One Hooks func (examples/simulate's), called here: notifyStart's
		// call and loop around it were 37 instructions a job.
		h[0](s.now, &jb.j, backfilled)
	} else {
		s.notifyStart(jb, backfilled)
	}
}

// killCheckTime is the first multiple of period at or after t (t and
// period within 2^42, so nothing wraps).
func killCheckTime(t, period int64) int64 {
	return t + ((-t)%period+period)%period
}

// armExpiry schedules the correction of a job that will outlive p.
func (s *Sim) armExpiry(jb *Job) {
	if s.cfg.Corrector != nil && jb.p < jb.r {
		s.push(evExpiry, event{t: jb.start + jb.p, job: jb, n: jb.nCorr})
	}
}

func (s *Sim) terminate(jb *Job) {
	if jb.state != running {
		return // cancelled
	}
	s.release(jb)
	if !s.userEst || s.propag { // (learn does nothing else: no call a job)
		s.learn(jb)
	}
	if h := s.hooks.end; len(h) == 1 && !s.mixed { // (as startJob calls the start's)
		h[0](s.now, &jb.j, false)
	} else {
		s.notifyEnd(jb, false)
	}
}

// release frees a terminating job's processors.
func (s *Sim) release(jb *Job) {
	s.epoch++
	s.run.Delete(jb)
	s.free += jb.held
	s.consRun(s.now, jb.predEnd(), -jb.n)
	if s.m != nil { // (a call the one-pool path does not pay)
		s.freeShares(jb)
	}
	jb.state = done
	jb.end = s.now
	s.accumulate(jb, s.now)
	if s.live != nil {
		delete(s.live, jb.j.ID)
	} else if s.byID != nil {
		s.byID.del(jb.j.ID)
	}
	s.noteEnd(int32(jb.idx))
	if s.summ != nil && jb.end >= 0 { // (close's first step, without its call)
		s.foldLive(jb)
		return
	}
	s.close(jb)
}

// noteEnd appends record k, ending now, to s.ended, and notes a run of
// jobs ending now that is out of record order, for result to sort.
func (s *Sim) noteEnd(k int32) {
	if s.summ != nil {
		return // close folds the record in termination order
	}
	n := len(s.ended)
	switch {
	case n == 0 || s.endedAt != s.now:
		s.endedAt, s.runFrom = s.now, n
	case s.ended[n-1] > k && (len(s.tieRuns) == 0 || s.tieRuns[len(s.tieRuns)-1] != s.runFrom):
		s.tieRuns = append(s.tieRuns, s.runFrom)
	}
	s.ended = append(s.ended, k)
}

// learn tells the predictor a job terminated.
func (s *Sim) learn(jb *Job) {
	if !s.userEst {
		s.pred.Terminated(&jb.j, s.now)
	}
	if s.propag {
		s.repredict(jb.j.User)
	}
}

// repredict recomputes the predictions of a user's waiting jobs (§6.6
// propagation). It scans the queue: propagation is an option, not the
// default. The queue's slice is walked in place, in one walk (nothing
// here changes it): after a flurry (pyss's EASY++, 20 k jobs of one
// user waiting) Ascend's callback and a copy of the user's jobs were
// a third of the run.
func (s *Sim) repredict(user int64) {
	s.epoch++
	s.qepoch++
	q := &s.waitFCFS
	for _, w := range q.items[q.head:] {
		if w == nil || w.j.User != user {
			continue
		}
		inSJ := s.waitSJ != nil && w.seq < s.sjFrom
		if inSJ {
			s.waitSJ.Delete(w)
		}
		s.accumulate(w, s.now)
		p := s.predict(&w.j)
		// (the record keeps the last prediction only: Check must know
		// that an earlier one differed, checkReservations)
		s.repredicted = s.repredicted || p != w.p
		w.p, w.p0 = p, p
		if inSJ {
			s.waitSJ.ReplaceOrInsert(w)
		}
	}
}

func (s *Sim) expire(jb *Job, nc int) {
	if jb.state != running || jb.nCorr != nc {
		return
	}
	s.epoch++
	target := jb.e
	if c := s.cfg.CorrectionTarget; c > 1 {
		target = sanitize.MaxTime // at most, so that e × c cannot wrap
		if jb.e <= sanitize.MaxTime/c {
			target = jb.e * c
		}
	}
	s.accumulate(jb, s.now)
	// A user's Corrector is bounded as a user's predictor is (predict).
	np := min(s.cfg.Corrector.Correct(jb.p, target, jb.nCorr, jb.kPost), sanitize.MaxTime)
	if np <= jb.p {
		np = jb.p + 1
	}
	if jb.p >= target {
		jb.kPost++
	}
	jb.nCorr++
	s.consRun(jb.predEnd(), jb.start+np, jb.n)
	jb.p = np
	s.run.later(jb) // (np > the old p: it moves towards the end)
	s.armExpiry(jb)
}

// accumulate adds the accuracy of the prediction in force since accT (§3.4).
func (s *Sim) accumulate(jb *Job, t int64) {
	if t > jb.accT {
		jb.accSum += accuracy(jb.p, jb.r) * float64(t-jb.accT)
		jb.accT = t
	}
}

// accuracy of prediction p for runtime r (§3.4).
func accuracy(p, r int64) float64 {
	switch {
	case p == r:
		return 1
	case p > r:
		return float64(r) / float64(p)
	case r <= 0:
		return 0
	default:
		return float64(max(p, 0)) / float64(r)
	}
}

// appendExcluded appends e to the rejected lines, doubling the list when
// it is full. append grows a list this long by a quarter at a time, each
// time a new array the process touches, in pages it has not touched
// before when no collection has run: about five times the list's bytes
// (SDSC-SP2, 5,671 lines rejected: 588 KB allocated). Doubled, about
// twice: the streamed EASY run's page faults 2,607 → 2,536, each 20–30
// µs of CPU on a virtual machine.
func appendExcluded(list []sanitize.Excluded, e sanitize.Excluded) []sanitize.Excluded {
	if n := len(list); n == cap(list) {
		grown := make([]sanitize.Excluded, n, max(2*n, 64))
		copy(grown, list)
		list = grown
	}
	return append(list, e)
}
