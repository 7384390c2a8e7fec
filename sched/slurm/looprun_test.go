package slurm_test

import (
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// TestLoopRunWhileIdle: slurmctld's background loop makes a queued main
// scheduler run batch_sched_delay (3 s) after its last one whether or not
// a job waits, and that run is its last. Job 1, submitted at 100, starts
// at once (the last run was the periodic one at 60) and ends at 101; its
// end queues a run, made at 103 with nothing waiting. Job 2, submitted at
// 104, waits for the run 3 s after that one: 106. The model passed over
// the run at 103 (no pass: nothing waited) and started job 2 at 104. Job
// 2 submitted at 103 meets that run itself; with batch_sched_delay 0 it
// starts at once. (sched/builtin: no backfill cycle to start it.)
func TestLoopRunWhileIdle(t *testing.T) {
	for _, c := range []struct {
		delay, submit2, want2 int64
	}{
		{0, 104, 106},
		{0, 103, 103},
		{0, 110, 110},
		{-1, 104, 104},
	} {
		jobs := []swf.Job{mkJob(1, 100, 1, 1, 1, 10), mkJob(2, c.submit2, 1, 1, 1, 10)}
		res, _ := run(t, slurm.Config{Builtin: true, BatchSchedDelay: c.delay}, sched.Config{MachineSize: 1}, jobs)
		if s := starts(res); s[1] != 100 || s[2] != c.want2 {
			t.Errorf("BatchSchedDelay %d, job 2 submitted at %d: jobs start at %d, %d; want 100, %d", c.delay, c.submit2, s[1], s[2], c.want2)
		}
	}
}

// TestLoopRunAfterIdlePeriodic: a periodic run made while no job waits
// (no pass notes it) is the loop's last run too. Job 1 runs from 100
// (the periodic run before it was at 60) to 121; the periodic run at 120
// comes while it runs, so the run its end queues at 121 is made at 123,
// batch_sched_delay after 120, not at 121. Job 2, submitted at 122,
// meets that run (123); submitted at 124, after it, it waits for the
// next one, 3 s on: 126. loopRan read the periodic run from the last
// pass's grid (60, then 120 taken as after the end) and made the run at
// 121: 124 and 124. Ending at 120, job 1's end meets the periodic run of
// 120 itself, so job 2 at 121 waits until 123.
func TestLoopRunAfterIdlePeriodic(t *testing.T) {
	for _, c := range []struct {
		run1, submit2, want2 int64
	}{
		{21, 122, 123},
		{21, 124, 126},
		{20, 121, 123},
	} {
		jobs := []swf.Job{mkJob(1, 100, 1, 1, c.run1, 100), mkJob(2, c.submit2, 1, 1, 1, 10)}
		res, _ := run(t, slurm.Config{Builtin: true}, sched.Config{MachineSize: 1}, jobs)
		if s := starts(res); s[1] != 100 || s[2] != c.want2 {
			t.Errorf("job 1 running %d s, job 2 submitted at %d: jobs start at %d, %d; want 100, %d", c.run1, c.submit2, s[1], s[2], c.want2)
		}
	}
}

// TestEpilogRunWhileIdle: with an Epilog a job's end runs the main
// scheduler at once (schedule() from the epilog's report), whether or
// not a job waits, and that run is not the background loop's: a job
// submitted later waits for the loop's run, batch_sched_delay (3 s)
// after its last (job 1's, at 100). Job 1 ends at 101 with nothing
// waiting; job 2, submitted at 102, starts at 103, at 104 at 104. The
// model left the end's run to the next pass, job 2's submission, and
// made it then: job 2 started at 102.
func TestEpilogRunWhileIdle(t *testing.T) {
	for _, c := range []struct{ submit2, want2 int64 }{{102, 103}, {103, 103}, {104, 104}} {
		jobs := []swf.Job{mkJob(1, 100, 1, 1, 1, 10), mkJob(2, c.submit2, 1, 1, 1, 10)}
		res, _ := run(t, slurm.Config{Builtin: true, Epilog: true}, sched.Config{MachineSize: 1}, jobs)
		if s := starts(res); s[1] != 100 || s[2] != c.want2 {
			t.Errorf("job 2 submitted at %d: jobs start at %d, %d; want 100, %d", c.submit2, s[1], s[2], c.want2)
		}
	}
}
