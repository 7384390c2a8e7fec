package sched

import (
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// logChecker runs the conservative scheduler and, before each of its
// passes, compares consDiff (the running jobs' change read from the
// memo's log) with the difference of two profiles built in full: the
// running jobs' profile now less the base the memo's final profile was
// planned on (the running jobs' profile at the last conservative pass,
// with the jobs it started taken from then for max(p, 1)). The built-in
// EASY runs at the passes easy marks, so that jobs start between
// conservative passes too.
type logChecker struct {
	t      *rapid.T
	easy   []bool
	n      int
	base   []point // nil before the first conservative pass
	passes int     // the passes compared
	inCons bool    // in a conservative pass
	took   []slot  // what the jobs it started took (observe)
	// lost: an observer cancelled a waiting job during the pass, maybe
	// one the pass planned to start now, which its base holds (and the
	// log gives back) but no start shows: the next pass is not compared
	lost bool
}

// observe makes c see the jobs a conservative pass starts, as they start
// (before an observer registered later can cancel them), and the waiting
// jobs cancelled during it: register it first.
func (c *logChecker) observe(s *Sim) {
	running := map[int64]bool{}
	s.Observe(Hooks{End: func(now int64, j *swf.Job, cancelled bool) {
		if c.inCons && cancelled && !running[j.ID] {
			c.lost = true
		}
		delete(running, j.ID)
	}, Start: func(now int64, j *swf.Job, _ bool) {
		running[j.ID] = true
		if !c.inCons {
			return
		}
		s.run.Ascend(func(r *Job) bool {
			if r.j.ID == j.ID {
				c.took = append(c.took, slot{now, max(r.p, 1), r.n})
				return false
			}
			return true
		})
	}})
}

func (c *logChecker) Schedule(p *Pass) {
	s := p.s
	easy := c.easy[c.n%len(c.easy)]
	c.n++
	if easy {
		EASYScheduler{}.Schedule(p)
		return
	}
	m := s.prof.memo
	var got []point
	if m != nil && m.logOK && c.base != nil {
		got = s.consDiff(m, nil)
	}
	full := slices.Clone(p.Profile().pts)
	if got != nil {
		c.passes++
		if want := profileDiff(full, c.base, s.now); !slices.Equal(got, want) {
			c.t.Fatalf("at %d: consDiff %v, the profiles' difference %v (now %v, base %v)", s.now, got, want, full, c.base)
		}
	}
	c.inCons, c.took = true, c.took[:0]
	conservativeScheduler{}.Schedule(p)
	c.inCons = false
	b := Profile{pts: full}
	for _, q := range c.took {
		b.Allocate(q.t, q.d, q.n)
	}
	c.base = b.pts
	if c.lost {
		c.base, c.lost = nil, false
	}
}

// profileDiff is a - b from now on as steps: a point at now, then one
// per change (a and b start at or before now).
func profileDiff(a, b []point, now int64) []point {
	at := func(pts []point, t int64) int64 {
		v := int64(0)
		for _, q := range pts {
			if q.t > t {
				break
			}
			v = q.free
		}
		return v
	}
	var ts []int64
	for _, q := range append(slices.Clone(a), b...) {
		if q.t > now {
			ts = append(ts, q.t)
		}
	}
	slices.Sort(ts)
	d := []point{{now, at(a, now) - at(b, now)}}
	for _, t := range ts {
		if v := at(a, t) - at(b, t); v != d[len(d)-1].free {
			d = append(d, point{t, v})
		}
	}
	return d
}

// TestConservativeLogRapid: the running jobs' change since the last
// conservative pass, read from the memo's log (starts, ends, kills at
// the estimate, corrections, cancellations of running jobs, jobs that
// outlive their prediction, EASY's starts between the passes), is the
// difference of the profiles built in full, at every pass that reads it,
// and the records are the plain pass's.
func TestConservativeLogRapid(t *testing.T) {
	passes := 0
	rapid.Check(t, func(t *rapid.T) {
		lc := drawLogCase(t)
		run := func(s Scheduler, setup func(*Sim)) *Result {
			return runCancelled(t, lc.config(t, s), lc.jobs, lc.cancels, setup)
		}
		c := &logChecker{t: t, easy: lc.easy}
		got := run(c, c.observe)
		passes += c.passes
		samePlainRecords(t, run(&alternator{inner: plainConservative{}, act: lc.easy}, nil), got)
	})
	if passes == 0 {
		t.Fatal("no pass read the log")
	}
	t.Logf("%d passes compared", passes)
}

// logCase is a drawn case of the log tests: jobs, a predictor, kills at
// the estimate or not, passes per event or not, the passes at which the
// built-in EASY runs, and cancellations at set times.
type logCase struct {
	P              int64
	n, pred        int
	jobs           []swf.Job
	kill, perEvent bool
	easy           []bool
	cancels        []consCancel
}

func drawLogCase(t *rapid.T) logCase {
	var c logCase
	c.P = rapid.Int64Range(1, 8).Draw(t, "P")
	c.n = rapid.IntRange(1, 40).Draw(t, "n")
	c.jobs = drawConsJobs(t, c.P, c.n, 2)
	c.pred = rapid.IntRange(0, 3).Draw(t, "predictor")
	c.kill = rapid.Bool().Draw(t, "kill")
	c.perEvent = rapid.Bool().Draw(t, "perEvent")
	c.easy = rapid.SliceOfN(rapid.SampledFrom([]bool{false, false, false, true}), 1, 8).Draw(t, "easy")
	c.cancels = drawCancels(t, 4, 200, c.n)
	return c
}

// config is the case's Config with Scheduler s.
func (c logCase) config(t *rapid.T, s Scheduler) Config {
	cfg := Config{MachineSize: c.P, Scheduler: s, KillAtEstimate: c.kill, PerEventPass: c.perEvent}
	withPredictor(t, &cfg, c.pred)
	return cfg
}
