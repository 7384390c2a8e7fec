package sched

import (
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestConservativeEqualsPlainWideRapid is TestConservativeEqualsPlainRapid
// on deeper queues than its generator draws: machines of up to 64
// processors, up to 120 jobs, most of them small or near the machine's
// size (so that the bounds most, movedMost and the slots' most leave gains out, and the
// instant r-1 before a slot is blocked by a gain that a bound left out),
// run times and estimates on a fine grid with a few long ones (so that
// a job's window from now reaches its slot, r ≤ now+d, while gains end
// before r-1), bursts of arrivals at one instant and long gaps. The
// records must be the plain pass's. In its 100 runs (counted on a
// scratch copy, 2026-12-01) a slot is kept at r because r-1 blocks every
// start left about 600 times, a scan skips starts before the range the
// last fruitless scan walked (noStart from now) about 3,000, and the
// arrivals-only pass follows an end or a correction about 200 (55, 50
// and 78 in TestConservativeEqualsPlainRapid's).
func TestConservativeEqualsPlainWideRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { consWide(t) })
}

// consWide draws a run of TestConservativeEqualsPlainWideRapid and fails t
// where the conservative scheduler's records differ from the plain
// pass's.
func consWide(t *rapid.T) {
	P := rapid.Int64Range(1, 64).Draw(t, "P")
	n := rapid.IntRange(1, 120).Draw(t, "n")
	jobs := make([]swf.Job, n)
	var sub int64
	for i := range jobs {
		switch rapid.IntRange(0, 3).Draw(t, "gapKind") {
		case 0: // at the same instant
		case 1:
			sub += rapid.Int64Range(1, 3).Draw(t, "gap")
		default:
			sub += rapid.Int64Range(0, 40).Draw(t, "gap")
		}
		r := rapid.Int64Range(0, 120).Draw(t, "run")
		if rapid.IntRange(0, 9).Draw(t, "long") == 0 {
			r = rapid.Int64Range(120, 1000).Draw(t, "runLong")
		}
		e := max(r+rapid.Int64Range(-20, 200).Draw(t, "slack"), 1)
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime = int64(i+1), sub, r, e
		switch rapid.IntRange(0, 3).Draw(t, "sizeKind") {
		case 0:
			j.AllocProcs = rapid.Int64Range(max(P-2, 1), P).Draw(t, "size")
		case 1:
			j.AllocProcs = rapid.Int64Range(1, P).Draw(t, "size")
		default:
			j.AllocProcs = rapid.Int64Range(1, max(P/4, 1)).Draw(t, "size")
		}
		j.ReqProcs, j.User = j.AllocProcs, rapid.Int64Range(1, 4).Draw(t, "user")
		jobs[i] = j
	}
	consSamePlain(t, P, jobs, 6, sub+200)
}

// TestConservativeEqualsPlainBoundLeftOut: runs that the wide generator
// draws about twice in a thousand, shrunk, in which a settled job keeps
// its slot at r without a scan (its window from now reaches r) while a
// gain since covers r-1 and was left out of its starts by a bound: the
// gain since the last pass, n above most (an overrun, S3, first), and
// the last pass's slots given back, n above their most (given). r-1 is blocked then
// only because the bound leaves fewer than n there. The records must be
// the plain pass's.
func TestConservativeEqualsPlainBoundLeftOut(t *testing.T) {
	for _, c := range []struct {
		name string
		P    int64
		jobs [][4]int64 // submit, run time, estimate, size
	}{
		{"most", 2, [][4]int64{{0, 4, 8, 1}, {0, 9, 6, 1}, {0, 0, 1, 1}, {0, 0, 4, 2}, {0, 0, 1, 1}}},
		{"mostA", 4, [][4]int64{{0, 0, 1, 2}, {0, 0, 1, 2}, {0, 0, 1, 2}, {0, 0, 1, 2}, {0, 120, 120, 1}, {0, 0, 1, 2},
			{0, 0, 1, 2}, {0, 2, 2, 1}, {0, 0, 1, 3}, {0, 0, 2, 2}, {0, 0, 1, 1}, {0, 120, 120, 2}, {0, 0, 1, 1}}},
	} {
		jobs := make([]swf.Job, len(c.jobs))
		for i, q := range c.jobs {
			j := swf.NewJob()
			j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs, j.ReqProcs, j.User = int64(i+1), q[0], q[1], q[2], q[3], q[3], 1
			jobs[i] = j
		}
		run := func(s Scheduler) *Result {
			return runCancelled(t, Config{MachineSize: c.P, Scheduler: s}, jobs, nil, nil)
		}
		t.Run(c.name, func(t *testing.T) { samePlainRecords(t, run(plainConservative{}), run(conservativeScheduler{})) })
	}
}
