package cli

import (
	"errors"
	"math"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/swf"
)

// AgentFirstID returns the first job number an agent (varq/agent's
// SchedMachine) may give the jobs it submits to a simulation that loaded
// jobs (one Load or several, before any submission, of at most these
// jobs): above every number the simulation holds, the log's and those
// sched makes up for its jobs without one (10^18 + n, n ≤ len(jobs): the
// rule id_made_up). A log's numbers stay far below 10^18: then it is the
// largest plus one, as before, which no made-up number is, or, when a
// job has no number, 10^18 + len(jobs) + 1, above the made-up ones too:
// sched orders the arrivals of one instant by number, and the agent's
// jobs then come after the log's as they do in the same log numbered (it
// was the largest real number plus one, 1 on a log of -1s, so that a copy
// of CTC-SP2 numbered -1 gave other VARQ cells than the original). The
// largest plus one wrapped to −2^63 on a log with a job 2^63 − 1 (the
// agent then numbered from 1, a loaded job's number, and a watch of the
// number computed never fired), and it was a made-up number on a log of
// "-1" lines and a real 10^18 + 1 (line 2's), a duplicate while that job
// was live. An error when no number is left above the log's.
func AgentFirstID(jobs []swf.Job) (int64, error) {
	hi, missing := int64(0), false
	for i := range jobs {
		if jobid.Missing(jobs[i].ID) {
			missing = true
		}
		hi = max(hi, jobs[i].ID)
	}
	if missing {
		hi = max(hi, jobid.MadeUp(int64(len(jobs))))
	}
	if hi == math.MaxInt64 {
		return 0, errors.New("a job number is 2^63 − 1: no number is left above the log's for the jobs the agent submits")
	}
	return hi + 1, nil
}
