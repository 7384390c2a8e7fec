package karnak

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync"

	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// The forecast beside QBETS, IBL and Slurm (issue 36): when will the job
// start, by forward simulation of the system as it is now (package
// sched/forecast: EASY on the users' estimates, playing the run times a
// learned predictor expects, forecast.UserRatio), with an interval
// calibrated on what happened (split conformal on the log-ratio
// residuals, calWindow).
//
// The snapshot is the system's live jobs: the running ones (their start,
// so elapsed time, their size and time limit) and the waiting ones in the
// scheduler's order, which is the priority a feed sends (Event.Priority,
// highest first; slurmfeed sends squeue's), then the submission order.
// The machine is one pool of the largest queue's cores: partitions that
// share their nodes, as Slurm's usually do, are simulated right; disjoint
// ones are not (a known limit, said on every answer's page).
//
// Cost: one simulation of at most Config.MaxForecastJobs live jobs (2,000
// by default; a system with more gets no forecast, and the reason): for
// the queued jobs, one per system state and minute, shared by every job's
// prediction; for a hypothetical job, one per shape, state and minute
// (the prediction cache), shared by the queues of its system
// (forecaster.hypo). A request costs at most one simulation of a bounded
// snapshot per system it names (a hypothetical request names at most
// maxLocations, 100), whatever it asks, while the system's state and
// clock stand: the reuse is keyed by both, so an event ingested between
// two locations, the wall clock's second ticking, or a replayed trace's
// clock (running at its speed: a 5-queue request to a replay at
// -speed 360000 got 5 forecasts from 5 clocks) makes one more, one per
// location at most.
//
// Calibration: every job is forecast at its submission — one simulation
// for the jobs submitted at one instant of the system's clock, as the
// system is then, made before any later event is applied — and when it
// starts its wait from then is compared with the forecast: the interval
// is split conformal on the log-ratio residuals of the last fcWindow
// jobs that started (calWindow), ranked per class of forecast (no wait,
// a wait under the floor, a longer one: fcClass), with the residuals of the jobs still waiting
// past their forecast counted at what they would be if they started now
// (overdue). Why each: (1) until issue 36's live check, a job was
// forecast only at the end of a 10-s span, and one that started within
// its span never was, so the window lacked the shortest waits, an
// outcome-dependent choice that the conformal guarantee does not allow;
// (2) once every job is recorded, a queue that starts every job at once
// gives residuals all 0 (both sides under the floor), and 19 of them
// would give a forecast of minutes an interval of no width, and a
// forecast of a few seconds, made when the machine has just filled, an
// upper end at the floor; (3) a window of started jobs lacks the longest
// waits of the jobs still waiting, the ones a growing queue or the
// scheduler's reordering (fair share) delays. What remains is drift the
// window has not seen yet: the residuals are exchangeable only while the
// system behaves as it did (examples/slurmfeed's README, the live table).
// Ingest costs at most one simulation per run of submissions at one
// instant that no other event separates (system.applyEvent), so never more
// than one per submission whatever the feed sends: one per second that
// has submissions when a feed sends a second's submissions together, one
// per submission when it interleaves each with a start or an end at the
// same second. A week of a system at the bound of 2,000 live jobs (7–10
// ms a simulation, BenchmarkForecastBound) submitting a job every 10 s
// costs at most about 7–10 minutes of CPU, to ingest or to Load; of a
// typical one (a hundred live jobs, a fraction of a millisecond) about
// 20 s. The simulation runs holding no lock (recording): requests are
// answered meanwhile (they were held for it, up to 10 ms at each
// submission instant).
//
// The run times the simulation plays are each job's time limit scaled by
// its user's mean ratio of run time to time limit over the user's jobs
// among the last fcWindow that ended (all users' while the user has
// none there), capped at the limit (forecast.UserRatio's idea over a
// window); a job without a time limit has its queue's. Users are hashed
// into userBuckets histories, so that no feed can grow them without
// bound: two users in one bucket share one.
//
// Both are functions of the last fcWindow outcomes, in integer or
// order-fixed arithmetic, so that the state is a function of a bounded
// recent part of the event log, as the IBL bases are: the store's
// retention keeps the events they need (retainFrom), and a restart from a
// pruned store forecasts exactly as the service did before it. (That is
// why the interval is split conformal on a window, not adaptive conformal
// inference, whose levels remember every outcome: the guarantee then
// needs the recent residuals to be exchangeable, and follows drift by
// the window; and why it is not qbets/conformal's Calibrator, calWindow.)

// ForecastPart is the forecast start of a job by forward simulation, and
// its calibrated interval: the job waits Wait seconds from Now, so starts
// at Start, and at Level percent its wait is in [Low, High] (High −1:
// unbounded, until enough starts have calibrated it). Calibrated is the
// number of started jobs the interval learned from, Jobs the number of
// jobs (running and waiting) the simulation played.
type ForecastPart struct {
	Wait       int64 `json:"wait" xml:"wait"`
	Start      int64 `json:"start" xml:"start"`
	Level      int   `json:"level" xml:"level"`
	Low        int64 `json:"low" xml:"low"`
	High       int64 `json:"high" xml:"high"`
	Calibrated int   `json:"calibrated" xml:"calibrated"`
	Jobs       int   `json:"jobs" xml:"jobs"`
}

const (
	// defaultForecastJobs is Config.MaxForecastJobs's default: a
	// simulation of 1,000 jobs costs about 4 ms (sched/forecast).
	defaultForecastJobs = 2000
	// maxForecastJobs bounds Config.MaxForecastJobs.
	maxForecastJobs = 1 << 16
	// userBuckets bounds the run-time histories per system.
	userBuckets = 1024
	// fcFloor is the wait below which waits count as equal in the
	// calibration (seconds): a feed's polls are seconds apart. (The
	// archive scoreboard of examples/forecast floors at 60 s, the logs'
	// resolution; a live queue of short jobs has waits of seconds, which
	// a 60-s floor would make all alike.)
	fcFloor = 10
	// fcWindow is the number of outcomes the run times and the interval
	// learn from: ended jobs, started jobs that were forecast.
	fcWindow = 1000
)

// fcClass is the calibration class of a forecast wait of w seconds: 0
// none (the simulation starts the job at once: the machine has room), 1
// a wait up to the floor (the job waits for a release), 2 a longer one.
// The residuals of the jobs a queue starts at once are all 0 (both sides
// under the floor): ranked with the others they would give a forecast of
// minutes an interval of no width, and a job that must wait, however
// briefly, the certainty of the jobs that did not (issue 36's live
// check, where the node filled after twenty such jobs).
func fcClass(w int64) int64 {
	switch {
	case w == 0:
		return 0
	case w <= fcFloor:
		return 1
	}
	return 2
}

// fcClasses is the number of classes of fcClass.
const fcClasses = 3

// forecastLevels are the calibrated levels; a prediction shows the one
// of its confidence, else 90%.
var forecastLevels = []float64{0.5, 0.8, 0.9}

// forecaster is a system's forward simulation and its calibration. Its
// mu guards everything: requests hold the system's read lock, and
// several may forecast at once.
type forecaster struct {
	mu  sync.Mutex
	max int // Config.MaxForecastJobs (> 0)
	f   *forecast.Forecaster
	rt  *runWindow
	// cal is the interval's calibration (its window keeps, per residual,
	// the first stored event a replay needs to compute it again).
	cal  *calWindow
	snap forecast.Snapshot
	// The queued jobs' forecast for one state (gen, minute): job → start.
	gen    uint64
	minute int64
	have   bool
	starts map[int64]int64
	why    string // no forecast of the state, and why
	jobs   int
	// over is, per class, the residuals of the overdue jobs at the
	// question (overdue), sorted: part's extra residuals.
	over [fcClasses][]float64
	// hypo is the last hypothetical job's simulation. The simulation
	// plays one pool for the whole system, so the queue does not enter
	// it: a request naming several queues of one system (up to
	// maxLocations) asks it the same question for each, and one
	// simulation answers them all rather than one per location. It is
	// keyed by the second, not reused over a window: a job submitted a
	// few seconds later may miss a backfilling slot and wait hours
	// (TestHypotheticalNotReusedAcrossSeconds).
	hypo hypoRun
	// runsForTests counts the simulations run. Only the tests read it,
	// to check the bound of one simulation per request, state and
	// minute; the service never does.
	runsForTests int
	// rec is the calibration's own simulation (recording), which the
	// writer runs holding no lock, beside f, which requests run under mu;
	// recSnap its snapshot. Only the writer (Service.ingestMu) uses them.
	rec     *forecast.Forecaster
	recSnap forecast.Snapshot
	// recHookForTests, when set, is called by the calibration's
	// simulation as it runs (the tests' view of what it holds).
	recHookForTests func()
}

// hypoRun is one hypothetical job's simulation: its question (the
// state, the clock, the job's shape and owner) and its answer.
type hypoRun struct {
	gen              uint64
	now, cores, wall int64
	user, account    string
	have             bool
	start            int64
	jobs             int
	why              string // no forecast, and why
}

// newForecaster returns a forecaster of at most max jobs whose windows
// hold window outcomes (fcWindow; the retention tests shrink it with the
// IBL bases).
func newForecaster(max, window int) (*forecaster, error) {
	rt := newRunWindow(window)
	f, err := forecast.New(forecast.Config{Runtime: rt})
	if err != nil {
		return nil, err
	}
	rec, err := forecast.New(forecast.Config{Runtime: rt})
	if err != nil {
		return nil, err
	}
	return &forecaster{max: max, f: f, rt: rt, cal: newCalWindow(window), rec: rec}, nil
}

// retainFrom is the first stored event a replay needs to rebuild the
// forecaster (the caller holds the system's lock): the submit of every
// job whose outcome is in a window, and what their forecasts needed.
func (fc *forecaster) retainFrom() int64 {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return min(fc.cal.seqs.min(), fc.rt.seqs.min())
}

// runWindow is the run-time predictor of the simulation (a
// sched.RuntimePredictor): each job's time limit times its user's mean
// ratio of run time to time limit over the user's jobs among the last
// ended ones, all users' mean while the user has none there; ratios are
// kept in thousandths of their logarithm, so that the sums are exact and
// the state a function of the window alone.
type runWindow struct {
	users [userBuckets]bucketSum
	all   bucketSum
	ring  []runOutcome
	next  int
	seqs  seqRing // the submits of the ring's jobs
}

type bucketSum struct {
	sum int64
	n   int64
}

type runOutcome struct{ user, milli int64 }

func newRunWindow(n int) *runWindow {
	return &runWindow{ring: make([]runOutcome, 0, n), seqs: newSeqRing(n)}
}

// Predict is j's time limit scaled by its user's mean ratio.
func (w *runWindow) Predict(j *swf.Job, _ int64) int64 {
	e := j.ReqTime
	if e <= 0 {
		return 1
	}
	b := w.all
	if j.User >= 0 && j.User < userBuckets && w.users[j.User].n > 0 {
		b = w.users[j.User]
	}
	if b.n == 0 {
		return e
	}
	r := math.Exp(float64(b.sum) / float64(b.n) / 1000)
	return min(max(int64(math.Round(float64(e)*r)), 1), e)
}

// Terminated is unused: add learns, with the job's submit sequence.
func (w *runWindow) Terminated(*swf.Job, int64) {}

// add learns a job of user (bucket; −1 for none: all users' mean only)
// that ran run seconds of a limit of limit, submitted at the stored event
// seq.
func (w *runWindow) add(user, run, limit, seq int64) {
	if limit <= 0 || user < -1 || user >= userBuckets {
		return
	}
	m := int64(math.Round(1000 * math.Log(float64(max(run, 1))/float64(limit))))
	m = min(m, 0)
	o := runOutcome{user, m}
	if len(w.ring) < cap(w.ring) {
		w.ring = append(w.ring, o)
	} else {
		old := w.ring[w.next]
		if old.user >= 0 {
			w.users[old.user].sum -= old.milli
			w.users[old.user].n--
		}
		w.all.sum -= old.milli
		w.all.n--
		w.ring[w.next] = o
		w.next = (w.next + 1) % len(w.ring)
	}
	if user >= 0 {
		w.users[user].sum += m
		w.users[user].n++
	}
	w.all.sum += m
	w.all.n++
	w.seqs.push(seq)
}

// userOf is a user's run-time history bucket.
func userOf(name string) int64 {
	if name == "" {
		return -1 // no user: not one user's history (Predict takes all users')
	}
	h := fnv.New64a()
	h.Write([]byte(name)) //nolint:errcheck // cannot fail
	return int64(h.Sum64() % userBuckets)
}

// swfJob is j of the system sys as the simulation takes it: a job
// without a time limit has its queue's.
func (s *system) swfJob(j *job) swf.Job {
	sj := swf.NewJob()
	sj.ID, sj.Submit, sj.AllocProcs, sj.User, sj.ReqTime = j.ID, j.Submit, j.Cores, userOf(j.User), s.limitOf(j)
	if j.start >= 0 {
		sj.Wait = j.start - j.Submit
	}
	return sj
}

// limitOf is j's time limit, else its queue's.
func (s *system) limitOf(j *job) int64 {
	if j.ReqTime > 0 {
		return j.ReqTime
	}
	if q := s.queues[j.Queue]; q != nil {
		return q.maxWall
	}
	return 1
}

// machine is the pool the simulation plays: the largest queue's cores.
func (s *system) machine() int64 {
	m := int64(0)
	for _, q := range s.queues {
		m = max(m, q.maxCores)
	}
	return m
}

// snapshot fills fc.snap with the system at now (fill); the caller holds
// the system's lock and fc.mu.
func (fc *forecaster) snapshot(s *system, now int64) (bool, string) {
	return fc.fill(&fc.snap, s, now)
}

// fill fills snap with the system at now: its running jobs (by id) and
// its waiting ones in the scheduler's order; false and why when the
// system has none to forecast or more live jobs than the bound. The
// caller holds the system's lock.
func (fc *forecaster) fill(snap *forecast.Snapshot, s *system, now int64) (bool, string) {
	if n := len(s.jobs); n > fc.max {
		return false, fmt.Sprintf("no forecast: %d live jobs on %s, more than the %d a forecast simulates (%s)", n, s.name, fc.max, setting("MaxForecastJobs"))
	}
	m := s.machine()
	if m <= 0 {
		return false, "no forecast: no queue declared"
	}
	*snap = forecast.Snapshot{Now: now, MachineSize: m, Running: snap.Running[:0], Waiting: snap.Waiting[:0]}
	var waiting []*job
	for _, j := range s.jobs {
		if j.start >= 0 {
			snap.Running = append(snap.Running, s.swfJob(j))
		} else {
			waiting = append(waiting, j)
		}
	}
	slices.SortFunc(snap.Running, func(a, b swf.Job) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(waiting, func(a, b *job) int {
		return cmp.Or(cmp.Compare(b.priority, a.priority), cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
	})
	for _, j := range waiting {
		snap.Waiting = append(snap.Waiting, s.swfJob(j))
	}
	return true, ""
}

// queued returns the forecast start of every waiting job of s at now
// (job → start; −1 for a job the simulation cannot place), computed once
// per state and minute. The caller holds the system's lock and fc.mu.
func (fc *forecaster) queued(s *system, now int64) (map[int64]int64, string) {
	if fc.have && fc.gen == s.gen && fc.minute == now/60 {
		return fc.starts, fc.why
	}
	fc.gen, fc.minute, fc.have = s.gen, now/60, true
	fc.starts, fc.why = nil, ""
	if ok, why := fc.snapshot(s, now); !ok {
		fc.why = why
		return nil, why
	}
	fc.runsForTests++
	st, err := fc.f.Forecast(context.Background(), &fc.snap)
	if err != nil {
		fc.why = s.failed("no forecast", err)
		return nil, fc.why
	}
	fc.starts = make(map[int64]int64, len(st))
	for i := range st {
		fc.starts[fc.snap.Waiting[i].ID] = st[i]
	}
	fc.jobs = len(fc.snap.Running) + len(fc.snap.Waiting)
	return fc.starts, ""
}

// part is the ForecastPart of a job of cores forecast to start at start
// (at now), at the level of confidence (percent) if calibrated, else 90%.
func (fc *forecaster) part(cores, start, now int64, confidence, jobs int) *ForecastPart {
	li := len(forecastLevels) - 1
	for i, l := range forecastLevels {
		if int(math.Round(l*100)) == confidence {
			li = i
		}
	}
	w := max(start-now, 0)
	c := fcClass(w)
	lo, hi := fc.cal.interval(c, float64(w), forecastLevels[li], fc.over[c])
	p := &ForecastPart{Wait: w, Start: now + w, Level: int(math.Round(forecastLevels[li] * 100)), Low: int64(math.Floor(lo)), High: -1,
		Calibrated: fc.cal.count(c), Jobs: jobs}
	if !math.IsInf(hi, 1) && hi < maxSpan {
		p.High = int64(math.Ceil(hi))
	}
	p.Low = min(p.Low, w)
	if p.High >= 0 {
		p.High = max(p.High, w)
	}
	return p
}

// overdue notes the jobs of s whose recorded forecast is overdue at now:
// still waiting, they have waited longer than forecast, so their residual
// is at least what it would be if they started now. The interval counts
// them so: a window of started jobs alone lacks the longest waits of the
// jobs still waiting, which are the ones a growing queue or a scheduler's
// reordering delays. The caller holds the system's lock and fc.mu.
func (fc *forecaster) overdue(s *system, now int64) {
	for c := range fc.over {
		fc.over[c] = fc.over[c][:0]
	}
	for _, j := range s.jobs {
		if j.start < 0 && j.fcAt > 0 && now-j.fcAt > max(j.fcWait, fcFloor) {
			c := fcClass(j.fcWait)
			fc.over[c] = append(fc.over[c], fcResidual(float64(j.fcWait), float64(now-j.fcAt)))
		}
	}
	for c := range fc.over {
		slices.Sort(fc.over[c])
	}
}

// forecastStarts is the forecast start of every waiting job at now (nil
// when there is none). The caller holds the system's lock.
func (s *system) forecastStarts(now int64) map[int64]int64 {
	if s.fc == nil {
		return nil
	}
	s.fc.mu.Lock()
	defer s.fc.mu.Unlock()
	starts, _ := s.fc.queued(s, now)
	return starts
}

// forecastJob fills p's forecast of the waiting job j. The caller holds
// the system's lock.
func (s *system) forecastJob(p *Prediction, j *job, now int64) {
	fc := s.fc
	if fc == nil {
		p.ForecastReason = "no forecast: turned off on this service (" + setting("MaxForecastJobs") + ")"
		return
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	starts, why := fc.queued(s, now)
	if starts == nil {
		p.ForecastReason = why
		return
	}
	st, ok := starts[j.ID]
	if !ok || st < 0 {
		p.ForecastReason = "no forecast: the simulation cannot place the job (larger than the machine)"
		return
	}
	fc.overdue(s, now)
	p.Forecast = fc.part(j.Cores, st, now, p.Confidence, fc.jobs)
}

// forecastHypothetical fills p's forecast of a job of p's shape
// submitted now by user of account (either may be ""): where the user's
// (else the account's) most recent waiting job has a priority, the job
// has it, and goes behind the waiting jobs of a priority as high;
// otherwise behind every waiting job. A simulation it must run first
// (not the last one's question) is paid for with pay (nil: free): an
// error, and no forecast, when pay refuses. The caller holds the
// system's lock.
func (s *system) forecastHypothetical(p *Prediction, now int64, user, account string, pay payFunc) error {
	fc := s.fc
	if fc == nil {
		p.ForecastReason = "no forecast: turned off on this service (" + setting("MaxForecastJobs") + ")"
		return nil
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	wall := p.WallTime
	if wall <= 0 {
		wall = s.queues[p.Queue].maxWall
	}
	h := hypoRun{gen: s.gen, now: now, cores: p.Cores, wall: wall, user: user, account: account, have: true}
	if k := fc.hypo; k.have && k.gen == h.gen && k.now == h.now && k.cores == h.cores && k.wall == h.wall && k.user == h.user && k.account == h.account {
		h = k
	} else {
		if jobs := len(s.jobs) + 1; pay != nil && jobs <= fc.max && s.machine() > 0 { // it will simulate
			if err := pay(simulationCost(jobs), fmt.Sprintf(" (a forecast for a new job shape simulates the %d jobs of %s, and counts as %d requests)", jobs, s.name, simulationCost(jobs))); err != nil {
				return err
			}
		}
		h.start, h.jobs, h.why = fc.hypothetical(s, now, p.Cores, wall, user, account)
		fc.hypo = h
	}
	if h.why != "" {
		p.ForecastReason = h.why
		return nil
	}
	fc.overdue(s, now)
	p.Forecast = fc.part(p.Cores, h.start, now, p.Confidence, h.jobs)
	return nil
}

// payFunc takes n more of the rate limit's tokens for the request being
// answered, or returns the 429 to answer it with (why is added to its
// message). The handler makes one per request (Service.payer); a program
// that calls PredictHypothetical itself pays nothing.
type payFunc func(n int, why string) error

// simJobsPerToken is the number of jobs a forecast's simulation plays for
// one token of the rate limit. A token pays for a request, the dearest of
// which, one location's prediction computed anew (a conditional QBETS
// bound, an IBL search of a full base), cost 0.27 ms where a simulation
// at the bound of 2,000 jobs cost 4.5 ms, some 17 of them
// (BenchmarkHandler/job/cache=false and BenchmarkForecastBound, one run
// on a 2-core machine at a load average of 13: noisy): 100 jobs a token
// charges such a simulation 20, a little more than its work. Checked
// since (a probe, not committed: the same GET and a new shape at
// boundSystem, in turn, GOMAXPROCS=1): CPU time, 12 paired rounds at a
// load average of 10–14, a simulation cost 13–33 GETs, about 20 in the
// middle (GOGC=off or not); instructions (callgrind, GOGC=off), 9.7
// million against 1.5 million, 6.3: the simulation's instructions are
// slower (memory, not arithmetic), and the CPU time is what the server
// spends. Its cost grows with the jobs (0.13, 0.83, 1.7 and 3.7 ms at
// 100, 500, 1,000 and 2,000 jobs) and stayed within 2.4–3.7 ms at
// 2,000 for the other mixes of running and waiting sizes tried. Until this
// cost, a hypothetical job of a new shape cost one token whatever it
// simulated: a client at the default rate (100 a second, bursts of 1,000)
// bought 100 simulations of up to 2,000 jobs a second
// (TestHypotheticalChargedBySimulation).
const simJobsPerToken = 100

// simulationCost is the tokens a simulation of jobs jobs costs.
func simulationCost(jobs int) int { return (jobs + simJobsPerToken - 1) / simJobsPerToken }

// hypothetical simulates a job of cores and wall seconds submitted now
// by user of account: its forecast start and the jobs played, or why
// there is none. The caller holds the system's lock and fc.mu.
func (fc *forecaster) hypothetical(s *system, now, cores, wall int64, user, account string) (int64, int, string) {
	if len(s.jobs)+1 > fc.max {
		return 0, 0, fmt.Sprintf("no forecast: %d live jobs on %s and this one, more than the %d a forecast simulates (%s)", len(s.jobs), s.name, fc.max, setting("MaxForecastJobs"))
	}
	if ok, why := fc.snapshot(s, now); !ok {
		return 0, 0, why
	}
	j := swf.NewJob()
	j.ID, j.Submit, j.AllocProcs, j.ReqTime, j.User = -1, now, cores, wall, -1
	if user != "" {
		j.User = userOf(user)
	}
	var st int64
	var err error
	jobs := len(fc.snap.Running) + len(fc.snap.Waiting) + 1 // with j
	fc.runsForTests++
	if pos := s.placeOf(user, account); pos < len(fc.snap.Waiting) {
		fc.snap.Waiting = slices.Insert(fc.snap.Waiting, pos, j)
		var sts []int64
		if sts, err = fc.f.Forecast(context.Background(), &fc.snap); err == nil {
			st = sts[pos]
		}
	} else {
		st, err = fc.f.WhatIf(context.Background(), &fc.snap, j)
	}
	switch {
	case err != nil:
		return 0, 0, s.failed("no forecast", err)
	case st < 0:
		return 0, 0, "no forecast: the simulation cannot place the job (larger than the machine)"
	}
	return st, jobs, ""
}

// placeOf is where a job of user of account submitted now goes in the
// waiting order of snapshot: behind every waiting job whose priority is
// at least that of the user's most recent waiting job with one (else the
// account's); behind all of them (len) when neither has one. The caller
// holds the system's lock.
func (s *system) placeOf(user, account string) int {
	var mine, theirs *job // the user's, the account's most recent
	later := func(a, b *job) bool { return b == nil || a.Submit > b.Submit || a.Submit == b.Submit && a.ID > b.ID }
	waiting := 0
	for _, j := range s.jobs {
		if j.start >= 0 {
			continue
		}
		waiting++
		if j.priority <= 0 {
			continue
		}
		if user != "" && j.User == user && later(j, mine) {
			mine = j
		}
		if account != "" && j.Project == account && later(j, theirs) {
			theirs = j
		}
	}
	if mine == nil {
		mine = theirs
	}
	if mine == nil {
		return waiting
	}
	pos := 0
	for _, j := range s.jobs {
		if j.start < 0 && j.priority >= mine.priority {
			pos++
		}
	}
	return pos
}

// recording is the calibration's forecast of the jobs submitted at one
// instant of the system's clock, made before any later event is applied:
// the snapshot is taken under the system's write lock (forecastsDue), the
// simulation, 7–10 ms at the bound of 2,000 live jobs, runs with no lock
// held (run), so that requests are answered meanwhile, and its result is
// published under the write lock again (publishForecasts), before the
// event that made it due is applied. The writer holds
// Service.ingestMu throughout, so no event is applied in between: the
// state it publishes into is the one it simulated, and the answers are
// those of a simulation under the lock.
type recording struct {
	fc     *forecaster
	now    int64
	fresh  []int64 // the jobs submitted at now, still waiting, not yet forecast
	starts []int64 // their forecast starts, in fc.recSnap.Waiting's order
	err    error
}

// forecastsDue is the recording that e makes due (nil: none): the jobs
// submitted at the last instant are forecast before anything else
// happens to them (no job escapes by starting). It takes them from
// fcFresh, and the snapshot. The caller holds the system's write lock.
func (s *system) forecastsDue(e *Event) *recording {
	if e.Kind == "estimate" || len(s.fcFresh) == 0 || e.Kind == "submit" && e.Time == s.clock {
		return nil
	}
	fc, now := s.fc, s.clock
	var fresh []int64
	for _, id := range s.fcFresh {
		if j := s.jobs[id]; j != nil && j.start < 0 && j.fcAt == 0 {
			fresh = append(fresh, id)
		}
	}
	s.fcFresh = s.fcFresh[:0]
	if fc == nil || len(fresh) == 0 {
		return nil
	}
	if ok, _ := fc.fill(&fc.recSnap, s, now); !ok {
		return nil
	}
	return &recording{fc: fc, now: now, fresh: fresh}
}

// run simulates the recording's snapshot. The caller holds no lock of
// the system, and Service.ingestMu.
func (r *recording) run() {
	if h := r.fc.recHookForTests; h != nil {
		h()
	}
	r.starts, r.err = r.fc.rec.Forecast(context.Background(), &r.fc.recSnap)
}

// publishForecasts records the forecasts of r's jobs, for the
// calibration. The caller holds the system's write lock, and has applied
// no event since forecastsDue.
func (s *system) publishForecasts(r *recording) {
	fc := r.fc
	fc.mu.Lock()
	defer fc.mu.Unlock()
	fc.runsForTests++
	if r.err != nil { // (no client asked: logged, numbered, and not recorded)
		s.failed("no forecast recorded for the calibration", r.err)
		return
	}
	at := make(map[int64]int64, len(r.starts))
	for i := range r.starts {
		at[fc.recSnap.Waiting[i].ID] = r.starts[i]
	}
	rtFrom := fc.rt.seqs.min() // what the run times of this forecast learned from
	for _, id := range r.fresh {
		if j := s.jobs[id]; j != nil && j.start < 0 && j.fcAt == 0 {
			if t, ok := at[id]; ok && t >= 0 {
				j.fcAt, j.fcWait, j.fcFrom = r.now, t-r.now, min(j.subSeq, rtFrom)
			}
		}
	}
}

// applyEvent applies e (apply) under the system's write lock, but for
// the simulation of a recording that e makes due, which runs between
// two holds of the lock (recording). The caller holds Service.ingestMu,
// and not the system's lock.
func (s *system) applyEvent(e *Event, seq int64) error {
	s.mu.Lock()
	r := s.forecastsDue(e)
	if r != nil {
		s.mu.Unlock()
		r.run()
		s.mu.Lock()
		s.publishForecasts(r)
	}
	defer s.mu.Unlock()
	return s.apply(e, seq)
}

// forecastStarted calibrates with a job that started at t. The caller
// holds the system's write lock.
func (s *system) forecastStarted(j *job, t int64) {
	if s.fc == nil || j.fcAt == 0 {
		return
	}
	s.fc.mu.Lock()
	defer s.fc.mu.Unlock()
	s.fc.cal.add(fcClass(j.fcWait), fcResidual(float64(j.fcWait), float64(max(t-j.fcAt, 0))), j.fcFrom)
}

// forecastEnded teaches the run-time predictor a job's run. The caller
// holds the system's write lock.
func (s *system) forecastEnded(j *job, t int64) {
	if s.fc == nil || j.start < 0 {
		return
	}
	s.fc.mu.Lock()
	defer s.fc.mu.Unlock()
	s.fc.rt.add(userOf(j.User), t-j.start, s.limitOf(j), j.subSeq)
}
