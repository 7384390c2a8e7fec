package forecast

import (
	"context"
	"math"
	"slices"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A flurry — thousands of jobs submitted in the same second (job arrays,
// scripted submissions) — asks Online as many questions at one instant,
// each a forward simulation of every job ahead of the one asked about:
// N jobs cost N²/2 simulated jobs (KTH-SP2's first 3,000 jobs in one
// second: 6.1 s of CPU for the estimates' row alone). The questions of
// one instant differ only by the jobs that arrived between them, at the
// tail of the queue, so the simulation of the last question can go on
// for the next one, when that is exactly what the next one's own
// simulation would do.
//
// It is, under vanilla EASY on one pool (the default policy, with user
// estimates as the policy's predictions and no run longer than its
// estimate): a waiting job at the tail of the queue changes nothing of a
// pass that does not start it. The holder is the first waiting job by
// arrival and the backfilling walk visits by arrival, so the tail job is
// visited last, when every decision of the pass has been made; until it
// starts, the simulation of the snapshot with it is the one without it.
// So a job x appended to the simulation kept (run up to the start of the
// job asked before) gets the same start as in a simulation of its own,
// if it could not have started at any pass of the kept simulation: it is
// then submitted to it (a pass at its clock that must start nothing,
// checked) and the simulation goes on until x starts.
//
// x could have started at a pass only if it fits the free processors left
// by the pass (it is visited last: what the others left) and either ends
// by the holder's shadow on its estimate (the pass's reservation, from
// the Reservation hook; no holder: x would be it) or fits EASY's extra
// processors. These are kept per pass as a Pareto front of (free
// processors, time to the shadow) and the largest min(free, extra bound)
// over the passes, where the bound is the free processors plus those of
// the running jobs predicted to end by the shadow, less the holder's: at
// least the extra processors left by the pass (the backfills by time end
// by the shadow and those by extra processors are subtracted from both).
// Every test errs on the side of "could have started", which costs a
// simulation of the question's own (the slow path), never an answer.
//
// A question that fails the test — a job that would backfill ahead of the
// jobs before it — or that follows a start or an end at the instant (the
// snapshot's running jobs changed) is simulated from Now, and that
// simulation is kept in turn (the first question of an instant keeps
// none: most instants have one). Such questions cost a simulation of the
// queue each, so past maxOwn of them at one instant the answers are
// approximate (maxOwn's doc): a flurry costs at most maxOwn simulations
// of its queue and a step per job. A policy the proof does not cover
// (another scheduler, nodes, sched's predictions, runs past their
// estimates) simulates every question from Now up to maxOwn, then goes on
// with the last of those simulations, appending each job (approximate,
// counted; TestFlurryCapped). TestFlurryEqualsOwn checks the answers
// against the questions' own simulations; TestFlurryLinear counts the
// simulated jobs.

// live is the forward simulation kept for the next question of the same
// instant, and what its passes left.
type live struct {
	ok      bool       // sim may go on for the next question
	exact   bool       // sim's passes were noted (keepable): it goes on exactly when they allow
	rec     bool       // the simulation in progress notes its passes
	sim     *sched.Sim // run to the start of the job asked last
	obs     sched.Observer
	gen     uint64 // Forecaster.gen when it was made
	now     int64  // the snapshot's instant
	running int    // the snapshot's running jobs
	waiting int    // the waiting jobs simulated (a prefix of the next snapshot's)
	seq     int64  // the arrival number of the last of them (question)
	machine int64  // the simulation's machine size (a grown pool's)
	grown   bool   // the pool was grown for the running jobs (Forecaster.overfull)
	// Per simulated job (by ID − 1): its reservation (−1: none yet), and
	// whether sched admitted it and started it.
	res      []int64
	admit    []bool
	start    []bool
	head     int       // no job before head is a waiting one (holder cursor)
	run      []liveRun // the jobs started (those ended are dropped lazily)
	front    []slot    // passes' (free, time to shadow), non-dominated
	passes   []pass    // every pass noted, in time order (past maxOwn: first)
	blocks   []passBlock
	extra    int64 // the largest min(free, extra bound) of a pass
	starts   int   // jobs started so far (a pass of an arrival must start none)
	extended int   // questions answered by going on (counted for the tests)
	own      int   // questions that could not go on: simulated from Now
	at       int64 // the instant of the last question
	sims     int   // the simulations from Now of the questions at it
	approx   int   // jobs appended past maxOwn that could have started earlier (Online.Approximated)
	maxOwn   int   // maxOwn (tests change it; 0: nothing is kept, every question simulated from Now)
	maxSims  int   // the most simulations from Now at one instant (TestFlurryLogs)
}

// maxOwn is the number of questions of one instant simulated from Now
// (each one's own simulation, N²/2 simulated jobs for N of them) after
// which the simulation kept goes on all the same: a job that could have
// started at an earlier pass of it is answered with the first such pass
// (its own simulation's start when the tests are exact) and left out of
// it, a job asked after a start or an end at the instant is appended to
// it, and those answers are approximate (counted: Online.Approximated). A flurry so
// costs at most maxOwn simulations of its queue beside a step per job.
// The archive logs of examples/forecast's README stay below it: CEA-Curie
// simulates up to 96 questions of an instant from Now (its flurries' jobs
// start at their instant, each start a change the simulation kept does
// not see), SDSC-BLUE 16, CTC-SP2 8 (TestFlurryLogs), so none of their
// answers is approximate.
const maxOwn = 128

// liveRun is a started job: its processors, predicted end (its start
// plus its estimate, EASY's prediction) and end.
type liveRun struct{ n, pred, end int64 }

// slot is a pass's free processors and the time from it to the holder's
// shadow (math.MaxInt64 without a holder).
type slot struct{ free, slack int64 }

// drop forgets the simulation kept.
func (l *live) drop() {
	l.ok, l.rec, l.sim = false, false, nil
}

// begin starts noting the passes of a simulation of n jobs.
func (l *live) begin(n int) {
	l.rec = true
	l.res = l.res[:0]
	l.admit = l.admit[:0]
	l.start = l.start[:0]
	for range n {
		l.res = append(l.res, -1)
		l.admit = append(l.admit, false)
		l.start = append(l.start, false)
	}
	l.head, l.run, l.front, l.extra, l.starts = 0, l.run[:0], l.front[:0], 0, 0
	l.passes, l.blocks = l.passes[:0], l.blocks[:0]
}

// keep makes sim, run to the start of the job asked about in s, the one
// the next question at s.Now may go on with.
func (l *live) keep(sim *sched.Sim, s *Snapshot, gen uint64, machine int64, grown bool) {
	l.ok, l.sim, l.gen, l.now = true, sim, gen, s.Now
	l.running, l.waiting, l.machine, l.grown = len(s.Running), len(s.Waiting), machine, grown
}

// grow adds a job to the notes.
func (l *live) grow() {
	l.res = append(l.res, -1)
	l.admit = append(l.admit, false)
	l.start = append(l.start, false)
}

// started notes a job's start (the Start hook).
func (l *live) started(now int64, j *swf.Job) {
	if k := j.ID - 1; k >= 0 && k < int64(len(l.start)) {
		l.start[k] = true
	}
	l.starts++
	l.run = append(l.run, liveRun{n: j.Size(), pred: now + j.ReqTime, end: now + max(j.RunTime, 1)})
}

// admitted notes that sched admitted a job (the Submit hook).
func (l *live) admitted(j *swf.Job) {
	if k := j.ID - 1; k >= 0 && k < int64(len(l.admit)) {
		l.admit[k] = true
	}
}

// reserved is the Reservation hook: a waiting job's reservation.
func (f *Forecaster) reserved(_ int64, j *swf.Job, at int64) {
	if l := &f.live; l.rec {
		if k := j.ID - 1; k >= 0 && k < int64(len(l.res)) {
			l.res[k] = at
		}
	}
}

// note records what the pass that sim has just run left: the free
// processors, the holder's time to its shadow and the bound of the extra
// processors.
func (f *Forecaster) note(sim *sched.Sim) {
	l := &f.live
	now, free := sim.Now(), sim.Free()
	for l.head < len(l.start) && (l.start[l.head] || !l.admit[l.head]) {
		l.head++
	}
	if l.head == len(l.start) {
		l.add(free, math.MaxInt64) // no holder: a job appended would be it
		l.log(pass{now, free, math.MaxInt64, free})
		return
	}
	h := &f.jobs[l.head]
	at := l.res[l.head]
	if at < 0 || at < now {
		// (No reservation seen, or one in the past: none with the
		// eligible policies; taken as no bound at all.)
		l.add(free, math.MaxInt64)
		l.log(pass{now, free, math.MaxInt64, free})
		return
	}
	l.add(free, at-now)
	if free <= 0 {
		l.log(pass{now, free, at - now, 0})
		return
	}
	// The bound of the extra processors: free + the running jobs
	// predicted to end by the shadow − the holder's. Ended jobs go.
	sum := free
	keep := l.run[:0]
	for _, r := range l.run {
		if r.end <= now {
			continue
		}
		keep = append(keep, r)
		if r.pred <= at {
			sum += r.n
		}
	}
	l.run = keep
	fx := min(free, sum-h.Size())
	l.extra = max(l.extra, fx)
	l.log(pass{now, free, at - now, fx})
}

// pass is a pass noted: its instant, the free processors it left, the
// time from it to the holder's shadow and min(free, the bound of the
// extra processors).
type pass struct{ t, free, slack, fx int64 }

// passBlock is the maxima of passBlockLen passes' fields.
type passBlock struct{ free, slack, fx int64 }

const passBlockLen = 64

// log appends a pass to the passes noted.
func (l *live) log(p pass) {
	if len(l.passes)%passBlockLen == 0 {
		l.blocks = append(l.blocks, passBlock{p.free, p.slack, p.fx})
	}
	l.passes = append(l.passes, p)
	b := &l.blocks[len(l.blocks)-1]
	b.free, b.slack, b.fx = max(b.free, p.free), max(b.slack, p.slack), max(b.fx, p.fx)
}

// first returns the instant of the first pass noted at which a job of n
// processors and estimate e appended to the queue could have started
// (mayStart's test, pass by pass), −1 if none: the start of such a job
// past maxOwn (its own simulation's when the tests are exact, as they
// are without ties at the shadow).
func (l *live) first(n, e int64) int64 {
	for bi, b := range l.blocks {
		if !(b.free >= n && b.slack >= e || b.fx >= n) {
			continue
		}
		end := min((bi+1)*passBlockLen, len(l.passes))
		for _, p := range l.passes[bi*passBlockLen : end] {
			if p.free >= n && (p.slack >= e || p.fx >= n) {
				return p.t
			}
		}
	}
	return -1
}

// add puts a pass's (free, slack) into the front, kept by ascending free
// processors and strictly descending slack.
func (l *live) add(free, slack int64) {
	i, _ := slices.BinarySearchFunc(l.front, free, func(s slot, f int64) int {
		switch {
		case s.free < f:
			return -1
		case s.free > f:
			return 1
		}
		return 0
	})
	if i < len(l.front) && l.front[i].slack >= slack {
		return // as many free or more, as long or longer: dominated
	}
	j := i
	if j < len(l.front) && l.front[j].free == free {
		j++ // (its slack is smaller: replaced)
	}
	k := i
	for k > 0 && l.front[k-1].slack <= slack {
		k--
	}
	l.front = slices.Replace(l.front, k, j, slot{free, slack})
}

// mayStart reports whether a job of n processors and estimate e appended
// to the queue could have started at a pass noted.
func (l *live) mayStart(n, e int64) bool {
	if n <= l.extra {
		return true
	}
	i, _ := slices.BinarySearchFunc(l.front, n, func(s slot, f int64) int {
		if s.free < f {
			return -1
		}
		return 1
	})
	return i < len(l.front) && l.front[i].slack >= e
}

// keepable reports whether the simulation of s may be kept and go on for
// the next question: the policy is vanilla EASY on one pool (the proof of
// the package's flurry note holds for it alone), and no job runs longer
// than its estimate (no prediction expires: every pass is at a job's end,
// where note sees it).
func (f *Forecaster) keepable(s *Snapshot) bool {
	p := &f.cfg.Policy
	if p.Scheduler != nil || p.Predictor != nil || p.Corrector != nil || len(p.Nodes) != 0 || f.cores != 0 ||
		p.Peer != sched.PeerNone || p.PerEventPass || p.KillAtEstimate {
		return false
	}
	for i := range f.jobs {
		if f.jobs[i].RunTime > f.jobs[i].ReqTime {
			return false
		}
	}
	return true
}

// question returns the simulated start of the last waiting job of s, as
// simulate finds it (Forecast); Online asks it, with seq the waiting
// jobs' arrival numbers. A question at the instant of the last one whose
// snapshot is the last one's with jobs appended to the queue (Online
// tells of every start and end by changed) goes on with the last
// simulation when the package's flurry note allows it, else simulates
// from Now, and then keeps that simulation for the next question. Past
// maxOwn simulations from Now at the instant, it goes on with the
// simulation kept all the same (Online.Approximated counts the jobs it
// appends so that could have started earlier, or after a start or an
// end, which the simulation kept does not see).
func (f *Forecaster) question(ctx context.Context, s *Snapshot, seq []int64) (int64, error) {
	l := &f.live
	if s.Now != l.at {
		l.at, l.sims = s.Now, 0
	}
	n := len(s.Waiting)
	past := l.sims >= l.maxOwn && l.maxOwn > 0
	if l.ok && s.Now == l.now && seq[n-1] > l.seq {
		same := l.exact && l.gen == f.gen && len(s.Running) == l.running && n > l.waiting
		if same || past {
			from := l.waiting
			if !same {
				// The jobs that arrived since, at the tail (seq ascends).
				from = n
				for from > 0 && seq[from-1] > l.seq {
					from--
				}
				l.approx += n - from
			}
			start, done, err := f.extend(ctx, s, from, past, !same)
			if err != nil || done {
				l.seq = seq[n-1]
				return start, err
			}
			l.own++
		}
	}
	l.sims++
	l.maxSims = max(l.maxSims, l.sims)
	f.keep = f.lastAsk == s.Now && l.maxOwn > 0 // (the first question of an instant keeps nothing: most are alone)
	f.lastAsk = s.Now
	ask := len(s.Running) + n - 1
	if err := f.simulate(ctx, s, nil, ask, 1); err != nil {
		return -1, err
	}
	l.seq = seq[n-1]
	return f.starts[ask], nil
}

// changed tells the Forecaster that the running or waiting jobs changed
// otherwise than by arrivals: no simulation kept goes on.
func (f *Forecaster) changed() { f.gen++ }

// extend answers the question about the last waiting job of s by going
// on with the simulation kept, appending s.Waiting[from:] to it, and
// returns its start and whether it could; when it could not, the
// simulation kept is dropped (and f.jobs and f.starts are simulate's to
// remake). With approx (past maxOwn) a job that could have started
// earlier, or whose arrival's pass starts a job, is appended all the
// same, and counted unless counted says the caller counted them all.
func (f *Forecaster) extend(ctx context.Context, s *Snapshot, from int, approx, counted bool) (int64, bool, error) {
	l := &f.live
	sim := l.sim
	fail := func() (int64, bool, error) {
		l.drop()
		return -1, false, nil
	}
	ask := len(f.jobs) + len(s.Waiting) - 1 - from // the asked job's index in the simulation
	f.from, f.to, f.left = int64(ask), int64(ask+1), 1
	answer := int64(-2) // the asked job's start, found without stepping (past maxOwn)
	for i := from; i < len(s.Waiting); i++ {
		w := &s.Waiting[i]
		e := f.estimate(w)
		p := f.runtime(w, e, s.Now)
		if e <= 0 {
			e = p
		}
		sj := simJob(int64(len(f.jobs)+1), s.Now, w, p, e)
		if l.grown && sj.AllocProcs > s.MachineSize {
			sj.AllocProcs, sj.ReqProcs = l.machine+1, l.machine+1 // (as simulate: the pool grew for what runs)
		}
		f.jobs = append(f.jobs, sj)
		f.starts = append(f.starts, -1)
		l.grow()
		l.waiting++
		if !l.exact {
			// (A policy the note's proof does not cover, past maxOwn: the
			// job is appended, its answer approximate, counted.)
			f.work++
			if !sim.Submit(sj) {
				if sim.Now() > sanitize.MaxTime {
					return fail()
				}
				if i == len(s.Waiting)-1 {
					answer = -1 // (rejected: in no simulation, as Forecast says)
				}
			}
			continue
		}
		if sj.RunTime > sj.ReqTime {
			return fail()
		}
		jumps := sj.Size() > 0 && l.mayStart(sj.Size(), sj.ReqTime)
		if jumps && !approx {
			return fail()
		}
		if jumps {
			// Past maxOwn: its start is the first pass at which it could
			// have started; it is left out of the simulation kept (its
			// run lies mostly before the clock), as are its processors
			// from the later questions' simulations (counted).
			if !counted {
				l.approx++
			}
			if i == len(s.Waiting)-1 {
				answer = l.first(sj.Size(), sj.ReqTime)
			}
			continue
		}
		before := l.starts
		f.work++
		if !sim.Submit(sj) {
			if sim.Now() > sanitize.MaxTime {
				return fail() // (rejected for arriving late, not for what a simulation of its own rejects)
			}
			// Rejected as a simulation of its own rejects it (larger than
			// the machine): it is in none, and if asked about, its start
			// is −1 (Forecast), as simulate's, which simulates every
			// other job to its end to find that out.
			continue
		}
		if l.starts != before {
			// The arrival's pass started a job, which a pass of the
			// instant it stands for would not: past maxOwn, kept all the
			// same (counted).
			if !approx {
				return fail()
			}
			if !counted {
				l.approx++
			}
		}
		f.note(sim)
	}
	if answer >= -1 {
		if l.grown {
			f.overfull++
		}
		l.extended++
		return answer, true, nil
	}
	if f.starts[ask] >= 0 || l.exact && !l.admit[ask] {
		f.left = 0
	}
	for f.left > 0 && len(f.ends) > 0 {
		if err := ctx.Err(); err != nil {
			l.drop()
			return -1, false, err
		}
		t := f.ends.pop()
		if t <= sim.Now() {
			continue
		}
		f.work++
		if err := sim.RunUntil(t); err != nil {
			l.drop()
			return -1, false, err
		}
		if l.exact {
			f.note(sim)
		}
	}
	if f.left > 0 {
		return fail()
	}
	if l.grown {
		f.overfull++
	}
	l.extended++
	return f.starts[ask], true, nil
}
