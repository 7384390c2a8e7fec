package karnak

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/batchq/batchq/internal/swfname"
	"github.com/batchq/batchq/internal/sysname"
	"github.com/batchq/batchq/swf"
)

// simClock is a replay's simulated clock: trace time advances speed times
// faster than wall time from (wall0, t0), and stops at end, the log's last
// event: past it the replay represents nothing (the clock ran on at the
// speed, and a replay at ×10^12 answered "now" in the year 33,567,
// TestReplayClockStopsAtEnd). ended is set once every event is applied.
type simClock struct {
	mu    sync.Mutex
	t0    int64
	end   int64
	wall0 time.Time
	speed float64
	ended bool
}

// now is the trace time, at most maxSpan (2^40 s, every event's bound):
// at a speed such as 10^300 (any finite speed is one) the product
// overflowed int64, its conversion wrapped to -2^63, and the replay,
// whose next event never came due, stalled for ever with its system's
// clock before 1970 (TestReplayClockSaturates); at 10^12 it wrapped
// after 107 days.
func (c *simClock) now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := time.Since(c.wall0).Seconds() * c.speed; d < float64(maxSpan-c.t0) {
		return min(c.t0+int64(d), c.end)
	}
	return min(max(c.t0, maxSpan), c.end)
}

// state is the replay's state as the status shows it: "running", or
// "ended" once every event of the log is applied (the clock then stands
// at the last one).
func (c *simClock) state() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return "ended"
	}
	return "running"
}

// TraceEvents turns an SWF trace into the event sequence of a system:
// one queue declaration per SWF queue number ("q<n>", or "default"
// when the trace has none), then submit, start
// and end of every job with a known submit time, wait, run time and size,
// in time order (at equal times: ends of jobs that ran, submits, starts,
// ends of zero-length jobs — the order the former ibl.Evaluate replayed). Times are
// shifted to Unix time by the header's UnixStartTime. A queue's limits
// are the header's MaxProcs (else MaxNodes) and MaxRuntime, or, where the
// header has none, the largest size and requested or actual run time the
// trace shows in that queue. A submit carries the job's GPUs in all
// (Event.GPUs) from its Demand, and its user, group and executable as
// User "u<n>", Project "g<n>" and Name "x<n>", none where SWF has −1
// (before 2026-12-02 "u-1", "g-1", "x-1": see ReplayEvents). skipped counts unusable jobs: no job
// number (below 0), submit time, wait, run time or size; a size, estimate or GPUs in all beyond an
// event's bound (2^40) or an end (UnixStartTime + submit + wait + run
// time) past 2^40 s, whose times would otherwise wrap past 2^63; a line
// of a partial execution (status 2, 3 or 4: a run of a checkpointed job
// whose summary line carries the whole, as sanitize leaves it out); a job
// number used again while its first job is still live (submitted, not
// ended), which the service refuses; a number used again after its job
// ended names a new job. A header UnixStartTime below 0 (SWF's -1:
// unknown) or past 2^40 s is no time base: the times are taken from 0
// (1970), as when the header has none or swf kept a value past ±2^40 s
// as text (Replay says so). Replay logs these counts by reason.
func TraceEvents(h *swf.Header, jobs []swf.Job, system string) (evs []Event, skipped int) {
	evs, why := traceEvents(h, jobs, system)
	for _, n := range why {
		skipped += n
	}
	return evs, skipped
}

// traceEvents is TraceEvents with the unusable jobs counted by reason
// (sanitize.Reason's names where one applies, written out: karnak
// imports nothing of the simulator's side), so that Replay
// can say why each job was left out.
func traceEvents(h *swf.Header, jobs []swf.Job, system string) (evs []Event, why map[string]int) {
	why = map[string]int{}
	base, _ := timeBase(h)
	type limits struct{ cores, wall int64 }
	lim := map[string]*limits{}
	type ev struct {
		Event
		order int
		job   int32 // index in jobs
	}
	var out []ev
	first := int64(math.MaxInt64)
	for i := range jobs {
		j := &jobs[i]
		gpus, ok := demandGPUs(j.Demand)
		if r := unusable(base, j, ok); r != "" {
			why[r]++
			continue
		}
		q := fmt.Sprint("q", j.Queue)
		if j.Queue < 0 {
			q = "default" // the trace does not record queues
		}
		l := lim[q]
		if l == nil {
			l = &limits{}
			lim[q] = l
		}
		l.cores = max(l.cores, j.Size())
		l.wall = max(l.wall, j.ReqTime, j.RunTime)
		req := max(j.ReqTime, 0)
		sub, start := base+j.Submit, base+j.Submit+j.Wait
		first = min(first, sub)
		endOrder := 0
		if j.RunTime == 0 {
			endOrder = 3
		}
		out = append(out,
			// (A missing user, project or name is "": no such feature for
			// IBL, no user's for the forecast's run times.)
			ev{Event{Kind: "submit", System: system, Job: j.ID, Time: sub, Queue: q, Cores: j.Size(), GPUs: gpus, WallTime: req,
				User: swfname.Known("u", j.User), Project: swfname.Known("g", j.Group), Name: swfname.Known("x", j.Executable)}, 1, int32(i)},
			ev{Event{Kind: "start", System: system, Job: j.ID, Time: start}, 2, int32(i)},
			ev{Event{Kind: "end", System: system, Job: j.ID, Time: start + j.RunTime}, endOrder, int32(i)})
	}
	// Sort small keys, not the events: swapping whole events dominated
	// the cost (the memmove of 3 × 10^5 large structs per sort pass).
	idx := make([]int32, len(out))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(i, j int32) int {
		a, b := &out[i], &out[j]
		// (the log's order last: of two jobs under one number submitted
		// at one instant, the first read keeps it)
		return cmp.Or(cmp.Compare(a.Time, b.Time), cmp.Compare(a.order, b.order), cmp.Compare(a.Job, b.Job), cmp.Compare(a.job, b.job))
	})
	// A number submitted again while its first job is live: the later
	// job is dropped, all three of its events.
	live := map[int64]bool{}
	dropped := make([]bool, len(jobs))
	kept := idx[:0]
	for _, i := range idx {
		e := &out[i]
		switch {
		case dropped[e.job]:
			continue
		case e.Kind == "submit":
			if live[e.Job] {
				dropped[e.job] = true
				why["duplicate ID"]++
				continue
			}
			live[e.Job] = true
		case e.Kind == "end":
			delete(live, e.Job)
		}
		kept = append(kept, i)
	}
	idx = kept
	names := make([]string, 0, len(lim))
	for n := range lim {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		l := lim[n]
		if m := cmp.Or(h.MaxProcs, h.MaxNodes); m > 0 {
			l.cores = max(l.cores, m)
		}
		if h.MaxRuntime > 0 {
			l.wall = max(l.wall, h.MaxRuntime)
		}
		evs = append(evs, Event{Kind: "queue", System: system, Time: first, Queue: n, Cores: l.cores, WallTime: max(l.wall, 1)})
	}
	for _, i := range idx {
		evs = append(evs, out[i].Event)
	}
	return evs, why
}

// unusable says why TraceEvents cannot replay j ("" if it can); gpusOK
// is demandGPUs' verdict on its demand.
func unusable(base int64, j *swf.Job, gpusOK bool) string {
	switch {
	case j.ID < 0:
		// (SWF's -1: the service refuses such a job id, and the replay,
		// stopped at its first batch, stopped qserve.)
		return "no job number"
	case j.Submit < 0:
		return "no submit time"
	case j.Wait < 0:
		return "no wait time"
	case j.RunTime < 0:
		return "no run time"
	case j.Size() <= 0:
		return "no size"
	case !gpusOK:
		return "GPUs out of range"
	case j.Size() > maxSpan:
		return "size out of range"
	case !inSpan(base, j):
		return "time out of range"
	case j.Status.Partial():
		// One run of a checkpointed job (status 2, 3 or 4) whose summary
		// line, under the same number, carries the whole: replayed, it
		// was a job of its own, and the summary a "duplicate ID" (or the
		// reverse), where every simulator and command leaves it out.
		return "partial execution"
	}
	return ""
}

// timeBase is the header's UnixStartTime as the base of a trace's times,
// and whether it is one: a value below 0 or past 2^40 s is none, and the
// base is 0. One rule for every value that is no date of a log: SWF
// writes -1 for what is unknown, a log before 1970 is no batch log, and
// swf keeps a value past ±2^40 s as text, leaving the field 0. (A base
// of -1 refused every job, while one past 2^40 s, read as 0, replayed
// them all.)
func timeBase(h *swf.Header) (int64, bool) {
	if h.UnixStartTime < 0 || h.UnixStartTime > maxSpan {
		return 0, false
	}
	return h.UnixStartTime, true
}

// inSpan reports whether j's estimate is within an event's bound and its
// end, shifted by base, is at most 2^40 s (each term is bounded first, so
// the sum cannot wrap; timeBase has bounded base, and the times are not
// negative).
func inSpan(base int64, j *swf.Job) bool {
	if j.ReqTime > maxSpan || j.Submit > maxSpan || j.Wait > maxSpan || j.RunTime > maxSpan {
		return false
	}
	return base+j.Submit+j.Wait+j.RunTime <= maxSpan
}

// demandGPUs is a demand's GPUs in all, in thousandths (per node times
// the nodes; a spread job, Nodes 0, has none), false beyond an event's
// bound.
func demandGPUs(d *swf.Demand) (int64, bool) {
	if d == nil || d.Nodes <= 0 || d.GPUs <= 0 {
		return 0, true
	}
	if d.GPUs > maxSpan/d.Nodes {
		return 0, false
	}
	return d.GPUs * d.Nodes, true
}

// Replay feeds a trace into the service as system name at speed times
// real time, on a simulated clock that starts at the first event (or, on
// a restart, resumes after the events of this system already stored).
// Each tick ingests, in one stored batch, every event whose time has
// come. It returns when the trace is done or ctx is cancelled. From its
// start the system refuses live events (IngestBatch and the HTTP feed:
// an *Error, 409), repairs and other replays until the replay ends or is
// stopped: a live event taken before is the last stored event it resumes
// after (or is refused by).
func (s *Service) Replay(ctx context.Context, path, name string, speed float64, logf func(string, ...any)) error {
	if !(speed > 0) {
		return fmt.Errorf("speed: %v, want > 0", speed)
	}
	if !validName(name) {
		return fmt.Errorf("system: %q is not a name", name)
	}
	h, jobs, err := swf.ReadFile(path)
	if err != nil {
		return err
	}
	if len(jobs) == 0 { // as the commands say it of an empty log (it said "no usable jobs (0 unusable)")
		return fmt.Errorf("%s: no job lines", path)
	}
	// A UnixStartTime past 2^40 s either way of 1970 is kept as text in
	// Other (swf's header warning, which ReadFile drops), and the field is
	// 0, as when the header has none: say so, since the times are then
	// replayed from 1970 (such a base left every job unusable). A later
	// line may still have set it (swf): then it is the base, and nothing
	// is said (it said "times from 0" of a replay from 1996).
	// A value below 0 (SWF's -1: unknown) is none either (timeBase).
	base, ok := timeBase(h)
	if !ok {
		logf("replay %s: header UnixStartTime %d is no time base (below 0: unknown): times from 0 (1970)", path, h.UnixStartTime)
	}
	for _, kv := range h.Other {
		if h.UnixStartTime == 0 && strings.EqualFold(kv.Key, "UnixStartTime") {
			logf("replay %s: header UnixStartTime %q is no time base (kept as text): times from 0 (1970)", path, kv.Value)
			break // (once)
		}
	}
	evs, why := traceEvents(h, jobs, name)
	if len(evs) == 0 {
		return fmt.Errorf("%s: no usable jobs (%s)", path, reasons(why))
	}
	// The first event is the first usable job's submission, which need
	// not be the trace's start: a cleaned trace drops its first days (the
	// KTH trace's first job is 6.9 days after its UnixStartTime), and the
	// log said "resuming at" that time as if a week had been replayed.
	logf("replay %s as %q: %d jobs (%s), %d events, speed ×%g; its first event (the first usable job's submission) at %s, %s after the trace's start (UnixStartTime %s)",
		path, name, len(jobs), reasons(why), len(evs), speed, stamp(evs[0].Time), hms(evs[0].Time-base), stamp(base))
	return s.ReplayEvents(ctx, evs, name, speed, logf)
}

// ReplayEvents is Replay over events already made by TraceEvents (every
// one of system name). On a restart it resumes after the system's last
// stored event, which must be one of evs (else the store holds another
// history under that name, and the replay is refused rather than mixed),
// or one of evs as TraceEvents named it before a job's missing user,
// group or executable was none (legacyNames). A system another replay is
// feeding is refused, as its live events are: an *Error, 409. A replay
// stopped before it stored an event leaves no system (replayStopped).
func (s *Service) ReplayEvents(ctx context.Context, evs []Event, name string, speed float64, logf func(string, ...any)) error {
	if !s.ready.Load() {
		return errNotReady
	}
	if len(evs) == 0 {
		// (Replay says why a trace gave none; a caller of ReplayEvents
		// gets an error, not an index out of range.)
		return fmt.Errorf("replay %s: no events", name)
	}
	if !(speed > 0) {
		// (A clock at 0, NaN or below never came to its next event: the
		// replay held its system, refusing its live events, until
		// stopped; TestReplayEventsSpeed.)
		return fmt.Errorf("replay %s: speed: %v, want > 0", clip(name), speed)
	}
	if !validName(name) {
		// (Its events would be refused at its first batch, once it had
		// claimed and listed a system of that name.)
		return fmt.Errorf("replay: system: %q is not a name (%s)", clip(name), sysname.Rule)
	}
	for i := range evs {
		// Its claim is on name: events of another system would be fed
		// unclaimed, interleaved with that system's live events
		// (TestReplayEventsOtherSystem).
		if evs[i].System != name {
			return fmt.Errorf("replay %s: events[%d].system: %q, want %q", name, i, clip(evs[i].System), name)
		}
	}
	sys, clk, done, err := s.claimReplay(evs, name, speed)
	if err != nil {
		return err
	}
	defer s.replayStopped(name, sys, clk)
	if s.hooks.replayClaimed != nil {
		s.hooks.replayClaimed()
	}
	t0 := clk.t0
	if done == 0 {
		logf("replay %q: none of its %d events stored yet: starting at its first event, %s", name, len(evs), stamp(t0))
	} else {
		logf("replay %q: %d of %d events already stored, resuming after the last stored, at %s", name, done, len(evs), stamp(t0))
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	const maxBatch = 10000
	for done < len(evs) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		now := clk.now()
		n := done
		for n < len(evs) && n-done < maxBatch && evs[n].Time <= now {
			n++
		}
		if n == done {
			continue
		}
		if _, err := s.ingestBatch("", evs[done:n], clk); err != nil {
			return fmt.Errorf("replay %s: %w", name, err)
		}
		done = n
	}
	clk.mu.Lock()
	clk.ended = true
	clk.mu.Unlock()
	logf("replay %s: all %d events applied; its clock stops at the last, %s", name, len(evs), stamp(evs[len(evs)-1].Time))
	return nil
}

// claimReplay makes a replay of evs the feeder of system name: it reads
// the last event stored (where the replay resumes, or why it is refused)
// and sets the system's clock, all under ingestMu, with which IngestBatch
// checks a system's feeder. A live event stored before is the last the
// replay reads, and refuses or resumes after as its rules say; one after
// is refused (409). With the last event read before the claim, a live
// event could land in between, and the replay's next batch, before it in
// time, stopped the replay and qserve (TestReplayClaimRace); with the
// clock set after the claim, the system's "now" was the trace's first
// event meanwhile (TestReplayClaimClock). A system another replay feeds
// is refused (409): the second claim took it over, and both fed it
// (TestReplayTwice). done is how many of evs are stored already.
func (s *Service) claimReplay(evs []Event, name string, speed float64) (sys *system, clk *simClock, done int, err error) {
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	if s.replayOf(name) != nil {
		return nil, nil, 0, &Error{Code: http.StatusConflict, Message: fmt.Sprintf("replay %s: system %q is being fed by another trace replay; replay it once that one has ended (its status then says so) or has been stopped, or under another name", name, name)}
	}
	if last, ok := s.Last(name); ok {
		same := func(e Event) bool { return e == last.Event || legacyNames(e) == last.Event }
		i, _ := slices.BinarySearchFunc(evs, last.Event.Time, func(e Event, t int64) int { return cmp.Compare(e.Time, t) })
		for ; i < len(evs) && evs[i].Time == last.Event.Time && !same(evs[i]); i++ {
		}
		if end := evs[len(evs)-1].Time; (i == len(evs) || !same(evs[i])) && last.Event.Time >= end {
			// A system whose replay had ended takes live events: its
			// last is then after the trace's, and the advice below
			// (another name, another store) would leave its history.
			return nil, nil, 0, fmt.Errorf("replay %s: the last event stored for system %q, at %s, is not one of this trace's but at or after its last (%s): the system took live events after its replay ended (or holds another history); serve it without replaying this trace, or rewind it to %d to drop what came after the trace",
				name, name, stamp(last.Event.Time), stamp(end), end)
		}
		if i == len(evs) || !same(evs[i]) {
			return nil, nil, 0, fmt.Errorf("replay %s: the last event stored for system %q is not one of this trace's (replay it under another name, or use another store)", name, name)
		}
		done = i + 1
	}
	if s.hooks.claimRead != nil {
		s.hooks.claimRead()
	}
	sys, err = s.systemFor(name, false)
	if err != nil {
		return nil, nil, 0, err
	}
	t0 := evs[0].Time
	if done > 0 {
		t0 = evs[done-1].Time
	}
	clk = &simClock{t0: t0, end: evs[len(evs)-1].Time, wall0: time.Now(), speed: speed}
	sys.mu.Lock()
	sys.sim = clk
	sys.mu.Unlock()
	return sys, clk, done, nil
}

// replayStopped ends the claim of a replay that returns (clk its clock,
// on system name). A replay stopped before its log's end (its context
// done, an event refused) feeds the system no more: it is a system fed
// live, as after a restart without the replay. Its clock ran on at the
// speed, and the system refused live events and repairs ("stop it
// first") for as long as the service ran. A stopped replay that stored
// none of its events leaves no system: the claim made it, and it stayed
// listed with no queue and no job, counted in MaxSystems, until a drop
// (TestReplayStoppedLeavesNoSystem). No other system has no event: one
// is made by its first event, and Drop and Rewind remove one left with
// none. Under ingestMu, so that no live event lands between the end of
// the claim and the removal.
func (s *Service) replayStopped(name string, sys *system, clk *simClock) {
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	sys.mu.Lock()
	stopped := sys.sim == clk && clk.state() == "running"
	if stopped {
		sys.sim = nil
	}
	empty := sys.nextSnap < 0 // (Last: no event applied)
	sys.mu.Unlock()
	s.mu.RLock()
	listed := s.systems[name] == sys
	s.mu.RUnlock()
	if stopped && empty && listed {
		s.remove(name, sys)
	}
}

// reasons writes TraceEvents' unusable jobs by reason, the most frequent
// first: "0 unusable" or "7 unusable: 5 no wait, 2 duplicate ID".
func reasons(why map[string]int) string {
	keys := slices.Collect(maps.Keys(why))
	total := 0
	for _, n := range why {
		total += n
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(why[b], why[a]), cmp.Compare(a, b)) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprint(why[k], " ", k)
	}
	if total == 0 {
		return "0 unusable"
	}
	return fmt.Sprintf("%d unusable: %s", total, strings.Join(parts, ", "))
}

// legacyNames is e as TraceEvents made it before a job without a user,
// group or executable (SWF's −1) had none: a submit's missing names were
// "u-1", "g-1" and "x-1". A store replayed then may end with such a
// submit, after which ReplayEvents resumes; the jobs stored before keep
// those names.
func legacyNames(e Event) Event {
	if e.Kind == KindSubmit {
		for _, f := range []struct {
			v    *string
			name string
		}{{&e.User, "u-1"}, {&e.Project, "g-1"}, {&e.Name, "x-1"}} {
			if *f.v == "" {
				*f.v = f.name
			}
		}
	}
	return e
}
