package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// Every command counts the jobs it leaves out by reason and says so in
// the same words: sanitize.Reason's names ("no run time", "duplicate
// ID"), whichever command or rule left them out.

// ByReason counts the jobs of rep (sanitize.Sane's, or a simulator's
// Result.Rejected) by their reason's name.
func ByReason(rep sanitize.Report) map[string]int {
	by := map[string]int{}
	// A run of jobs with one reason takes one map assignment, not one a
	// job (a string key's hash and a probe: SDSC-SP2's 5,671 rejected
	// jobs, whose reasons come in long runs, cost 0.83 M instructions).
	for ex := rep.Excluded; len(ex) > 0; {
		r, n := ex[0].Reason, 1
		for n < len(ex) && ex[n].Reason == r {
			n++
		}
		by[r.String()] += n
		ex = ex[n:]
	}
	return by
}

// TakePartial removes the lines of partial executions from by (ByReason's
// counts) and returns how many there were: they are not jobs, and a report
// that counts rejected jobs says them apart (a checkpointed log's runs
// read as "mostly rejected").
func TakePartial(by map[string]int) int {
	k := sanitize.PartialExecution.String()
	n := by[k]
	delete(by, k)
	return n
}

// Reasons is by as "49 duplicate ID, 2 no size", reasons in alphabetical
// order; "" when by is empty.
func Reasons(by map[string]int) string {
	parts := make([]string, 0, len(by))
	for _, k := range slices.Sorted(maps.Keys(by)) {
		parts = append(parts, fmt.Sprintf("%d %s", by[k], k))
	}
	return strings.Join(parts, ", ")
}

// RuleCounts is the jobs changed per rule (sched.Result.Changed) as
// "estimate_filled 3, size_from_requested 2", rules in alphabetical order;
// "none" when m is empty.
func RuleCounts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(m))
	for _, r := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", r, m[r]))
	}
	return strings.Join(parts, ", ")
}

// MostlyChanged is the rules of changed (sched.Result.Changed) that
// changed more than half of the n jobs simulated, in alphabetical order:
// a schedule they built reflects the rule more than the log (simulate's
// degenerate warning, sweep's report). The rules that take a value from
// another field of the same line rather than make one up (the other
// processor count, a demand's cores) are left out, as is id_made_up,
// which changes no job's size or times: a log where most jobs need them
// is not degenerate for that (a GPU trace on nodes, whose CPU jobs, over
// half of Helios's, have no processors but a demand). So is sched/slurm's
// queue_0_no_partition: a job of queue 0 runs in the default partition as
// one without a queue (−1) does, which no rule counts.
func MostlyChanged(changed map[string]int, n int) []string {
	var rules []string
	for _, rule := range slices.Sorted(maps.Keys(changed)) {
		if !sameInformation[rule] && 2*changed[rule] > n {
			rules = append(rules, rule)
		}
	}
	return rules
}

var sameInformation = map[string]bool{"size_from_requested": true, "size_from_allocated": true, "size_from_demand": true, "id_made_up": true,
	"queue_0_no_partition": true}

// FirstIDs leaves out, in place, every job under a number an earlier job
// of jobs has (the first keeps it) and returns the rest, in order, and how
// many it left out (sanitize.DuplicateID). A log repeats numbers when a
// scheduler's counter wraps or two logs are joined; the simulator rejects
// such a job only while the first is live, and predictors that key by
// number would mix the two up, so a command that must compare like with
// like leaves them all out first. A job without a number (below 1, SWF's
// -1) is no duplicate: it is kept, and the simulator numbers it
// (sched's rule id_made_up), unless MadeUpIDs did before. Nor is a line
// of a partial execution, under its job's number by definition: it is
// kept, for InRange to leave out under its own reason.
func FirstIDs(jobs []swf.Job) ([]swf.Job, int) {
	seen := make(map[int64]bool, len(jobs))
	kept := jobs[:0]
	for _, j := range jobs {
		if jobid.Missing(j.ID) || j.Status.Partial() {
			kept = append(kept, j)
			continue
		}
		if seen[j.ID] {
			continue
		}
		seen[j.ID] = true
		kept = append(kept, j)
	}
	return kept, len(jobs) - len(kept)
}

// MadeUpID is the rule's name under which sched counts a job it
// numbered (sched.Result.Changed), and the commands that number jobs
// themselves (MadeUpIDs) count them.
const MadeUpID = "id_made_up"

// MadeUpIDs numbers, in place, every job of jobs without a number (ID
// below 1: SWF's -1, "missing", or 0) by its position n in jobs (1 for
// the first), 10^18 + n, as sched numbers the lines of a log (the rule
// id_made_up, internal/jobid: no real job has such a number), and returns
// how many it numbered. For a command whose predictors key by job number
// before any simulation (the replays of QBETS, IBL and APQ): every such
// job was one number, and all but the first were left out as duplicates.
// sched keeps the numbers (they are not below 1), so the command and its
// simulations name a job alike. jobs must be the log's job lines as read,
// for n to be the line's position.
func MadeUpIDs(jobs []swf.Job) int {
	n := 0
	for i := range jobs {
		if jobid.Missing(jobs[i].ID) {
			jobs[i].ID = jobid.MadeUp(int64(i + 1))
			n++
		}
	}
	return n
}

// MaxSize bounds a job's size and a machine's, in processors (2^40), as
// sanitize.MaxTime bounds its times.
const MaxSize = 1 << 40

// InRange leaves out, in place, every job with a size above MaxSize or a
// submit, wait or run time or estimate above sanitize.MaxTime (2^40 s, the
// simulators' bound) and returns the rest, in order, and how many it left
// out by sanitize's reason ("larger than machine" for the size, tested
// first as sanitize.Check does, else "time out of range"; -json writes
// them as simulate does, ReasonKeys). SWF allows any int64, but no real
// log comes near: such a field is corrupt, and a replay's submit + wait +
// run time must neither wrap past 2^63 (a wait of 2^63 − 1 failed a whole
// log in qbets: "Start -9223372036854771809 is before Submit") nor pass
// 2^53, where float64 stops being exact; bounding each term at 2^40 does
// both. It leaves out the lines of a partial execution too (status 2, 3
// or 4, "partial execution", sanitize.PartialExecution, tested last as
// sanitize.Check does): one run of a checkpointed job whose summary line
// carries the whole, with a requeue's wait, not a submission's; every
// simulation leaves them out.
func InRange(jobs []swf.Job) ([]swf.Job, map[string]int) {
	why := map[string]int{}
	kept := jobs[:0]
	for _, j := range jobs {
		switch r := OutOfRange(&j); {
		case r != "":
			why[r]++
		case j.Status.Partial():
			why[sanitize.PartialExecution.String()]++
		default:
			kept = append(kept, j)
		}
	}
	return kept, why
}

// OutOfRange is InRange's reason for leaving j out for its size or a time
// ("larger than machine" past MaxSize, tested first, else "time out of
// range" past sanitize.MaxTime), "" when both are within the bounds; not
// its partial executions. apq and sweep, which decide on those otherwise,
// use the bounds through it: there is one copy of them.
func OutOfRange(j *swf.Job) string {
	switch {
	case j.Size() > MaxSize:
		return sanitize.LargerThanMachine.String()
	case j.ReqTime > sanitize.MaxTime || j.Submit > sanitize.MaxTime || j.Wait > sanitize.MaxTime || j.RunTime > sanitize.MaxTime:
		return sanitize.TimeOutOfRange.String()
	}
	return ""
}

// ReasonKeys is by keyed as -json writes reasons (simulate's "rejected"):
// the name in lower case with _ for spaces, "no run time" → "no_run_time",
// "duplicate ID" → "duplicate_id" (snake_case as every other -json key;
// it was "duplicate_ID").
func ReasonKeys(by map[string]int) map[string]int {
	keys := make(map[string]int, len(by))
	for k, n := range by {
		keys[strings.ToLower(strings.ReplaceAll(k, " ", "_"))] += n
	}
	return keys
}

// NoSaneJob is the error of a command left with no job to work on: every
// one of the read lines of path was left out, counted by reason (by), in
// the same words in every command ("no sane job (1 record: 1 no submit
// time)"); a file without a job line says "no job lines", as every
// command says it of an empty log (it said "no sane job (0 records)").
func NoSaneJob(path string, read int, by map[string]int) error {
	if read == 0 {
		return fmt.Errorf("%s: no job lines", path)
	}
	noun := "records"
	if read == 1 {
		noun = "record"
	}
	why := ""
	if len(by) > 0 {
		why = ": " + Reasons(by)
	}
	return fmt.Errorf("%s: no sane job (%d %s%s)", path, read, noun, why)
}
