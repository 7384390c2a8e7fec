package slurm_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// TestHeldPeriodicRun: sched_min_interval holds back the scheduler
// thread's runs (_sched_agent), not the background loop's decisions
// (_slurmctld_background): at a periodic tick the loop clears the queued
// run (job_sched_cnt = 0), notes the tick as its last run
// (last_sched_time) and asks a run over the whole queue, which the thread
// makes SchedMinInterval after its last run. On one CPU job 1 runs from
// 57 (the loop's run for its submission) to 59; job 2, submitted at 58,
// waits; the periodic tick at 60 asks the run, held back to 62 (57 + 5),
// which starts job 2. Submitted at 61, after the tick, job 2 meets that
// run too. The model dropped the held periodic run (Run woke at 62, past
// the tick) and left job 2 to the queued run batch_sched_delay after the
// tick: 63, or 70 with a delay of 10 s.
func TestHeldPeriodicRun(t *testing.T) {
	for _, c := range []struct {
		delay, submit2, want2 int64
	}{
		{0, 58, 62},
		{10, 58, 62},
		{0, 61, 62},
	} {
		jobs := []swf.Job{mkJob(1, 57, 1, 1, 2, 10), mkJob(2, c.submit2, 1, 1, 1, 10)}
		site := slurm.Config{Builtin: true, SchedMinInterval: 5, BatchSchedDelay: c.delay}
		res, _ := run(t, site, sched.Config{MachineSize: 1}, jobs)
		if s := starts(res); s[1] != 57 || s[2] != c.want2 {
			t.Errorf("BatchSchedDelay %d, job 2 submitted at %d: jobs start at %d, %d; want 57, %d", c.delay, c.submit2, s[1], s[2], c.want2)
		}
	}
}

// TestHeldQueuedRun: a queued run the loop asks at its tick is the loop's
// last run from that tick (last_sched_time), however long the thread
// holds it back. With an Epilog, batch_sched_delay 5 and
// sched_min_interval 3, on 3 CPUs: job 1 (3 CPUs) runs 10–20; job 2,
// submitted at 11, fails at the loop's run of 15 and starts at 20, at
// the run job 1's epilog report asks; job 3, submitted at 21, is queued,
// and the loop asks its run at 21 (15 + 5), which the thread makes at 23
// (20 + 3). Job 4, submitted at 24, is queued: the loop's next run comes
// 5 s after 21, at 26, and starts it. The model took the thread's run
// at 23 as the loop's and started job 4 at 28.
func TestHeldQueuedRun(t *testing.T) {
	jobs := []swf.Job{
		mkJob(1, 10, 1, 3, 10, 100), mkJob(2, 11, 1, 1, 100, 200),
		mkJob(3, 21, 1, 1, 100, 200), mkJob(4, 24, 1, 1, 100, 200),
	}
	site := slurm.Config{Builtin: true, Epilog: true, SchedMinInterval: 3, BatchSchedDelay: 5}
	res, _ := run(t, site, sched.Config{MachineSize: 3}, jobs)
	want := map[int64]int64{1: 10, 2: 20, 3: 23, 4: 26}
	for id, w := range want {
		if s := starts(res); s[id] != w {
			t.Errorf("job %d starts at %d, want %d (all: %v)", id, s[id], w, s)
		}
	}
}
