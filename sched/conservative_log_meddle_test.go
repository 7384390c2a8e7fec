package sched

import (
	"reflect"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestConservativeLogMeddledRapid: the log (consDiff) is the difference
// of the profiles built in full, and the records are the plain pass's,
// when the running set changes behind the log's back in every way a
// caller has: a user Scheduler's Pass.Start and cancellation of a
// running job before the pass (meddler), an observer that cancels a job
// (running or not) or submits one at a reservation or a start, so during
// the pass's own starts (consStarted's untrimmed log), cancellations and
// submissions at set times between passes (Sim.At), the built-in EASY's
// starts between conservative passes, kills at the estimate,
// corrections, re-predictions, and the run cut by RunUntil at drawn
// times. Each of these fails it at 300 checks (tried 2026-11-30): a
// consRun call dropped (start, end, cancellation of a running job,
// correction), consDiff's log read from now+1 or its jobs overdue at now
// (>= instead of >), its first second taken always from free0 or always
// from the log, the pass's starts trimmed from a log with an observer's
// change among them, and free0 not lowered by the pass's starts.
func TestConservativeLogMeddledRapid(t *testing.T) {
	passes := 0
	rapid.Check(t, func(t *rapid.T) {
		lc := drawLogCase(t)
		n, jobs, easy := lc.n, lc.jobs, lc.easy
		act := rapid.SliceOfN(rapid.SampledFrom([]int{0, 0, 0, 1, 2, 3}), 1, 12).Draw(t, "act")
		k := rapid.Int64Range(0, 40).Draw(t, "k")
		obs := rapid.SliceOfN(rapid.SampledFrom([]int{0, 0, 0, 0, 1, 2}), 1, 12).Draw(t, "obs")
		ids := rapid.SliceOfN(rapid.Int64Range(1, int64(n)), 1, 12).Draw(t, "ids")
		cuts := rapid.SliceOfN(rapid.Int64Range(0, 200), 0, 4).Draw(t, "cuts")
		run := func(inner Scheduler, c *logChecker) *Result {
			m := &meddler{inner: inner, act: act, k: k}
			sim, err := New(lc.config(t, m))
			if err != nil {
				t.Fatal(err)
			}
			m.sim = sim
			if err := sim.Load(jobs); err != nil {
				t.Fatal(err)
			}
			if c != nil {
				c.observe(sim) // before meddle's observer
			}
			for _, c := range lc.cancels {
				sim.At(c.at, func(int64) { sim.Cancel(c.id) })
			}
			meddle(sim, jobs, obs, ids)
			last := int64(-1)
			for _, c := range cuts {
				if c > last {
					if err := sim.RunUntil(c); err != nil {
						t.Fatal(err)
					}
					last = c
					// a submission between two RunUntil calls
					j := jobs[int(c)%n]
					j.ID, j.Submit = int64(1000+c), c
					sim.Submit(j)
				}
			}
			res, err := sim.Finish()
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		c := &logChecker{t: t, easy: easy}
		got := run(c, c)
		passes += c.passes
		samePlainRecords(t, run(&alternator{inner: plainConservative{}, act: easy}, nil), got)
	})
	if passes == 0 {
		t.Fatal("no pass read the log")
	}
	t.Logf("%d passes compared", passes)
}

// TestConservativeLogOverflow: a Scheduler that runs the built-in EASY
// for long stretches between conservative passes fills the log past
// consLogMax (every start and end an entry); the pass after it builds
// the running jobs' profile again and gives the plain pass's records.
// The log holds consLogMax entries at most. A log that kept consLogMax
// entries and dropped the rest without giving up fails it (tried
// 2026-11-30: the records of stretches 511 to 513 differ).
func TestConservativeLogOverflow(t *testing.T) {
	const n = 1500
	jobs := make([]swf.Job, n)
	for i := range jobs {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime = int64(i+1), int64(i/3), int64(1+i%7), int64(3+i%11)
		j.AllocProcs = int64(1 + i%4)
		j.ReqProcs, j.User = j.AllocProcs, 1
		jobs[i] = j
	}
	anyOverflow := false
	for _, stretch := range []int{1, 100, 300, 511, 512, 513} {
		act := make([]bool, stretch+1)
		for i := range stretch {
			act[i] = true
		}
		act = append(act, false, false) // two conservative passes in a row
		run := func(inner Scheduler, check bool) (*Result, bool) {
			sim, err := New(Config{MachineSize: 8, Scheduler: &alternator{inner: inner, act: act}})
			if err != nil {
				t.Fatal(err)
			}
			if err := sim.Load(jobs); err != nil {
				t.Fatal(err)
			}
			overflowed := false
			if check {
				sim.Observe(Hooks{Start: func(int64, *swf.Job, bool) {
					if m := sim.prof.memo; m != nil {
						if len(m.log) > consLogMax {
							t.Fatalf("stretch %d: log of %d entries", stretch, len(m.log))
						}
						overflowed = overflowed || !m.logOK
					}
				}})
			}
			res, err := sim.Finish()
			if err != nil {
				t.Fatal(err)
			}
			return res, overflowed
		}
		want, _ := run(plainConservative{}, false)
		got, overflowed := run(conservativeScheduler{}, true)
		if !reflect.DeepEqual(want.Records, got.Records) {
			t.Errorf("stretch %d: the records differ from the plain pass's", stretch)
		}
		t.Logf("stretch %d: overflowed %v", stretch, overflowed)
		anyOverflow = anyOverflow || overflowed
	}
	if !anyOverflow {
		t.Errorf("the log never overflowed")
	}
}

// TestConsRunBound: the log keeps consLogMax entries and gives up at the
// next one; nothing is logged without a memo or after giving up.
func TestConsRunBound(t *testing.T) {
	s := &Sim{}
	s.consRun(0, 5, 1) // no memo: a nil check
	m := &consMemo{logOK: true}
	s.prof.memo = m
	for i := range consLogMax {
		s.consRun(int64(i), int64(i)+1, 1)
	}
	if len(m.log) != consLogMax || !m.logOK {
		t.Fatalf("after %d: %d entries, logOK %v", consLogMax, len(m.log), m.logOK)
	}
	s.consRun(0, 1, 1)
	if len(m.log) != consLogMax || m.logOK {
		t.Fatalf("after %d: %d entries, logOK %v", consLogMax+1, len(m.log), m.logOK)
	}
	s.consRun(0, 1, 1)
	if len(m.log) != consLogMax {
		t.Fatalf("logged after giving up: %d entries", len(m.log))
	}
}
