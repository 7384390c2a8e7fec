package slurm_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// A job submitted past sanitize.MaxTime is rejected (time out of range),
// and the run ends: Run stepped an hour at a time to the latest submit
// time of every job, rejected ones too, and from a submit time of 2^63−1
// its clock wrapped past 2^63 and never got there (a hostile log line hung
// examples/simulate -slurm-conf). The other jobs are simulated as without
// it.
func TestRunSubmitPastMaxTime(t *testing.T) {
	for _, submit := range []int64{math.MaxInt64, math.MaxInt64 - 3599, sanitize.MaxTime + 1} {
		jobs := []swf.Job{mkJob(1, 0, 1, 4, 100, 200), mkJob(2, submit, 1, 4, 100, 200), mkJob(3, 50, 2, 8, 10, 20)}
		p, err := slurm.New(slurm.Config{}, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := p.Run(ctx, jobs)
		cancel()
		if err != nil {
			t.Fatalf("submit %d: %v (a run of three jobs did not end)", submit, err)
		}
		if err := res.Check(); err != nil {
			t.Fatal(err)
		}
		by := res.Rejected.Excluded
		if len(by) != 1 || by[0].Reason != sanitize.TimeOutOfRange || len(res.Records) != 2 {
			t.Errorf("submit %d: rejected %v, %d records; want job 2 alone rejected, time out of range", submit, by, len(res.Records))
		}
		want, _ := run(t, slurm.Config{}, sched.Config{MachineSize: 8}, []swf.Job{jobs[0], jobs[2]})
		if s, w := starts(res), starts(want); s[1] != w[1] || s[3] != w[3] {
			t.Errorf("submit %d: starts %v, want %v as without job 2", submit, s, w)
		}
	}
}

// A time limit near 2^63 plus OverTimeLimit saturates: it wrapped
// negative, the job read as having no limit, and it was simulated with an
// estimate filled in where without OverTimeLimit it is rejected (time out
// of range).
func TestOverTimeLimitNoWrap(t *testing.T) {
	jobs := []swf.Job{mkJob(1, 0, 1, 4, 100, 200), mkJob(2, 10, 1, 4, 100, math.MaxInt64), mkJob(3, 20, 1, 4, 100, math.MaxInt64-100)}
	for _, otl := range []int64{0, 60, 65533} {
		p, err := slurm.New(slurm.Config{OverTimeLimit: otl}, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		if n := res.Rejected.Count(sanitize.TimeOutOfRange); n != 2 || len(res.Records) != 1 || res.Summary.Filled != 0 {
			t.Errorf("OverTimeLimit %d: %d rejected as time out of range, %d records, %d estimates filled; want 2, 1, 0",
				otl, n, len(res.Records), res.Summary.Filled)
		}
	}
}

// A time of the policy above 2^40 s (sanitize.MaxTime) is refused, as
// UnixStart's was: each is added to the time of the last run, and
// BatchSchedDelay 2^63−1 wrapped lastSched + delay negative: on 8
// processors the main scheduler ran at job 1's end (130) and started job
// 2 there, where with 2^40, 2^61 or 2^62 it waits for the backfill cycle
// at 150. 2^40 itself is taken.
func TestConfigTimeAboveMaxTime(t *testing.T) {
	for _, set := range []func(*slurm.Config, int64){
		func(c *slurm.Config, v int64) { c.MaxAge = v },
		func(c *slurm.Config, v int64) { c.CalcPeriod = v },
		func(c *slurm.Config, v int64) { c.DecayHalfLife = v },
		func(c *slurm.Config, v int64) { c.BackfillInterval = v },
		func(c *slurm.Config, v int64) { c.BackfillWindow = v },
		func(c *slurm.Config, v int64) { c.BackfillResolution = v },
		func(c *slurm.Config, v int64) { c.SchedInterval = v },
		func(c *slurm.Config, v int64) { c.SchedMinInterval = v },
		func(c *slurm.Config, v int64) { c.BatchSchedDelay = v },
		func(c *slurm.Config, v int64) { c.OverTimeLimit = v },
		func(c *slurm.Config, v int64) { c.UnixStart = v },
	} {
		for _, v := range []int64{sanitize.MaxTime + 1, math.MaxInt64} {
			var c slurm.Config
			set(&c, v)
			if _, err := slurm.New(c, sched.Config{MachineSize: 8}); err == nil {
				t.Errorf("%+v: New took a time of %d", c, v)
			}
		}
		var c slurm.Config
		set(&c, sanitize.MaxTime)
		if _, err := slurm.New(c, sched.Config{MachineSize: 8}); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	jobs := []swf.Job{mkJob(1, 0, 1, 4, 100, 200), mkJob(2, 10, 2, 8, 100, 300)}
	res, _ := run(t, slurm.Config{BatchSchedDelay: sanitize.MaxTime}, sched.Config{MachineSize: 8}, jobs)
	if s := starts(res); s[1] != 30 || s[2] != 150 {
		t.Errorf("BatchSchedDelay 2^40: starts %v, want job 1 at 30 and job 2 at 150 (backfill cycles)", s)
	}
}

// A time limit within 2^40 s whose limit plus OverTimeLimit is past it
// was rejected as "time out of range", which named the limit, in range;
// Run cancels it at submission, counted in Unrunnable under a reason that
// says what is out of range. A limit of 2^40 − OverTimeLimit is killed at
// 2^40 and simulated; without OverTimeLimit 2^40 itself is.
func TestOverTimeLimitPastMaxTime(t *testing.T) {
	const why = "time limit plus OverTimeLimit past 2^40 s"
	for _, c := range []struct {
		otl, limit int64
		over       bool
	}{
		{60, sanitize.MaxTime - 10, true},
		{60, sanitize.MaxTime, true},
		{60, sanitize.MaxTime - 59, true},
		{60, sanitize.MaxTime - 60, false},
		{0, sanitize.MaxTime, false},
	} {
		jobs := []swf.Job{mkJob(1, 0, 1, 4, 100, 200), mkJob(2, 10, 1, 4, 100, c.limit), mkJob(3, 20, 1, 4, 100, 200)}
		p, err := slurm.New(slurm.Config{OverTimeLimit: c.otl}, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Check(); err != nil {
			t.Fatal(err)
		}
		cancelled := 0
		for _, r := range res.Records {
			if r.Cancelled {
				cancelled++
			}
		}
		n := 0
		if c.over {
			n = 1
		}
		if len(res.Rejected.Excluded) != 0 || len(res.Records) != 3 || p.Unrunnable()[why] != n || cancelled != n {
			t.Errorf("OverTimeLimit %d, limit 2^40%+d: rejected %v, %d records, %d cancelled, unrunnable %v; want none rejected, 3 records, %d cancelled as %q",
				c.otl, c.limit-sanitize.MaxTime, res.Rejected.Excluded, len(res.Records), cancelled, p.Unrunnable(), n, why)
		}
	}
}

// Run keys the jobs it cancels for OverTimeLimit by {ID, submit, limit}:
// a line with a limit OverTimeLimit below an over-kill line's, and its ID
// and submit time, has that key once OverTimeLimit is added. Of two such
// lines (a duplicate ID) Load keeps the first and rejects the other; when
// the first was the one in range, it was cancelled as past 2^40 s all the
// same. It runs; the other is rejected as a duplicate ID, as in either
// order when both are in range.
func TestOverTimeLimitKeyCollision(t *testing.T) {
	const otl = 60
	why := "time limit plus OverTimeLimit past 2^40 s"
	over := int64(sanitize.MaxTime - 10)
	for _, c := range []struct {
		first, second int64 // job 2's limits, in load order
		cancelled     int
	}{
		{over - otl, over, 0},
		{over, over - otl, 1},
	} {
		jobs := []swf.Job{mkJob(1, 0, 1, 4, 100, 200), mkJob(2, 10, 1, 4, 100, c.first), mkJob(2, 10, 1, 4, 100, c.second), mkJob(3, 20, 1, 4, 100, 200)}
		p, err := slurm.New(slurm.Config{OverTimeLimit: otl}, sched.Config{MachineSize: 8})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		cancelled := 0
		for _, r := range res.Records {
			if r.Cancelled {
				cancelled++
			}
		}
		by := res.Rejected.Excluded
		if len(by) != 1 || by[0].Reason != sanitize.DuplicateID || p.Unrunnable()[why] != c.cancelled || cancelled != c.cancelled {
			t.Errorf("limits 2^40%+d then 2^40%+d: rejected %v, %d cancelled, unrunnable %v; want one duplicate ID rejected, %d cancelled",
				c.first-sanitize.MaxTime, c.second-sanitize.MaxTime, by, cancelled, p.Unrunnable(), c.cancelled)
		}
	}
}
