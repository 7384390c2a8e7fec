package convert

import (
	"strings"

	"github.com/batchq/batchq/swf"
)

// noteNoPartition: Slurm's partition is empty, "N/A" or "(null)" (a job
// never given one, as sacct prints it): the queue is unknown (-1), not a
// queue named "N/A".
const noteNoPartition = "no partition (empty, N/A or (null))"

// slurmPartition is a job's queue from Slurm's partition p, and
// noteNoPartition when there is none (p is "", "N/A" or "(null)"): the
// same rule for sacct, sacct --json, jobcomp and the snapshots.
func slurmPartition(p string) (queue, note string) {
	switch strings.TrimSpace(p) {
	case "", "N/A", "(null)":
		return "", noteNoPartition
	}
	return p, ""
}

// slurmState is what a Slurm job state means for the SWF line.
type slurmState struct {
	status swf.Status
	skip   string // not finished (or not a job): skip with this reason
	again  bool   // a later record with the same id is a new attempt (requeue)
	note   string // anomaly noted on the job
}

// slurmStates maps Slurm's base job states (job_state_string). Attempts:
// sacct --duplicates lists each attempt of a requeued job, the earlier ones
// ending REQUEUED (or PREEMPTED, NODE_FAIL, BOOT_FAIL when the requeue was
// automatic); the last one is the job.
var slurmStates = map[string]slurmState{
	"COMPLETED":     {status: swf.StatusCompleted},
	"CANCELLED":     {status: swf.StatusCancelled},
	"FAILED":        {status: swf.StatusFailed},
	"OUT_OF_MEMORY": {status: swf.StatusFailed},
	"TIMEOUT":       {status: swf.StatusFailed, note: noteTimeout},
	"DEADLINE":      {status: swf.StatusFailed},
	"NODE_FAIL":     {status: swf.StatusFailed, again: true},
	"PREEMPTED":     {status: swf.StatusFailed, again: true},
	"BOOT_FAIL":     {status: swf.StatusFailed, again: true},
	"REQUEUED":      {skip: skipRequeued, again: true},
	"REQUEUE_FED":   {skip: skipRequeued, again: true},
	"REQUEUE_HOLD":  {skip: skipRequeued, again: true},
	"SPECIAL_EXIT":  {skip: skipRequeued, again: true},
	"RESIZING":      {skip: skipUnfinished + " (RESIZING)", again: true},
	"PENDING":       {skip: skipUnfinished + " (PENDING)", again: true},
	"RUNNING":       {skip: skipUnfinished + " (RUNNING)", again: true},
	"SUSPENDED":     {skip: skipUnfinished + " (SUSPENDED)", again: true},
	"COMPLETING":    {skip: skipUnfinished + " (COMPLETING)", again: true},
	"CONFIGURING":   {skip: skipUnfinished + " (CONFIGURING)", again: true},
	"STAGE_OUT":     {skip: skipUnfinished + " (STAGE_OUT)", again: true},
	"SIGNALING":     {skip: skipUnfinished + " (SIGNALING)", again: true},
	"STOPPED":       {skip: skipUnfinished + " (STOPPED)", again: true},
	"RESV_DEL_HOLD": {skip: skipUnfinished + " (RESV_DEL_HOLD)", again: true},
	"REVOKED":       {skip: skipRevoked},
}

// baseState reduces a printed state to its base word: "CANCELLED by 1000"
// → "CANCELLED"; sacct's truncated "CANCELLED+" → "CANCELLED", and
// "OUT_OF_ME+" (a state cut to sacct's column width) → the one state it
// begins, "OUT_OF_MEMORY" (it was an unknown state, status -1).
func baseState(s string) string {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " +,")
	cut := i >= 0 && s[i] == '+'
	if i >= 0 {
		s = s[:i]
	}
	s = strings.ToUpper(s)
	if _, known := slurmStates[s]; cut && !known && s != "" {
		var only string
		for k := range slurmStates {
			if strings.HasPrefix(k, s) {
				if only != "" {
					return s // ambiguous ("REQUEUE_+")
				}
				only = k
			}
		}
		if only != "" {
			return only
		}
	}
	return s
}

// applyState sets r's status (or skip reason) from Slurm state s.
func applyState(r *record, s string) {
	r.state = baseState(s)
	st, ok := slurmStates[r.state]
	if !ok {
		r.state = clip(r.state)
		if r.state == "" {
			r.state = "none" // (as Alibaba's: a blank line in the report said nothing)
		}
		r.note(noteUnknownState)
		return
	}
	r.status, r.skip, r.again = st.status, st.skip, st.again
	if st.note != "" {
		r.note(st.note)
	}
}

// finishSlurm settles what depends on several fields: whether the job
// started (a start time and CPUs; Slurm gives a job cancelled while
// pending a start time equal to its end and no CPUs), and the notes that
// depend on it. Without a CPU count read (sacct without AllocCPUS and
// AllocTRES, with an unreadable one, or AllocCPUS 0 without cpu= in
// AllocTRES and a start before the end) the start time decides, a
// cancelled job's equal to its end aside: such a job used to lose its
// wait and run time as "ended without starting".
func finishSlurm(r *record) {
	startFromElapsed(r)
	cancelledPending := r.status == swf.StatusCancelled && r.end == r.start
	r.started = r.start >= 0 && (r.alloc > 0 || r.allocUnread && !cancelledPending)
	if !r.started {
		r.alloc = -1
	}
	if r.started && r.status == swf.StatusCancelled {
		r.note(noteCancelledRun)
	}
}

// slurmLimit reads a time limit in minutes (sacct's TimelimitRaw, the
// jobcomp TimeLimit) or Slurm's clock format (sacct's Timelimit) and its
// special words. clock says which.
func slurmLimit(b *builder, r *record, field, s string, clock bool) error {
	switch s {
	case "UNLIMITED", "INFINITE":
		r.note(noteUnlimited)
		return nil
	case "Partition_Limit":
		r.partLimit = notePartLimit
		return nil
	case "":
		r.note(noteNoLimit)
		return nil
	case "INVALID":
		r.note(noteInvalidLimit)
		return nil
	}
	if clock {
		sec, err := parseDuration(s)
		if err != nil {
			return b.fieldError(r, field, s, err)
		}
		r.limit = int64(sec)
		zeroLimit(r)
		return nil
	}
	m, err := parseCount(s)
	if err == nil && m > maxTime/60 {
		err = errRange // a number, past 230 years (it said "not a number")
	}
	if err != nil {
		return b.fieldError(r, field, s, err)
	}
	r.limit = m * 60
	zeroLimit(r)
	return nil
}

// zeroLimit: a limit of 0 is none imposed, as Slurm reads it (sbatch
// --time=0 is INFINITE); it was written as a requested time of 0, with
// no note.
func zeroLimit(r *record) {
	if r.limit == 0 {
		r.limit = -1
		r.note(noteZeroLimit)
	}
}

// tresValue finds key's value in a TRES list "cpu=2,mem=4000M,node=1".
func tresValue(tres, key string) (string, bool) {
	for _, kv := range strings.Split(tres, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// startFromElapsed takes the start of a job that ran but whose start is
// unknown or unreadable (sacct's Start "Unknown" or a bad date, sacct
// --json's time.start 0) from its end less its elapsed time, as the PBS
// reader takes end - resources_used.walltime, noted. Such a job was
// "ended without starting", its wait and run time -1 though both times
// that give them were read. Its state must say it ran (completed,
// failed or cancelled) and its elapsed time be above 0: slurmdbd sets
// Elapsed to 0 for a job whose start is 0 (sacct's "Unknown"), so an
// Elapsed of 0 says nothing of how long it ran (taken, it made a run
// time of 0 and a wait to the end). Elapsed excludes the time the job
// was suspended (scontrol suspend): that time (sacct's Suspended, sacct
// --json's time.suspended) is taken off too (it was not, the start late
// by it); without it (sacct's column absent) such a start is late by
// that much. A start falling before the submit is kept and noted "start
// before submit", as any; one before 1990 is left unknown.
func startFromElapsed(r *record) {
	ran := r.elapsed + max(r.suspended, 0)
	if r.skip != "" || r.start >= 0 || r.end < 0 || r.elapsed <= 0 || ran > r.end {
		return
	}
	if r.status != swf.StatusCompleted && r.status != swf.StatusFailed && r.status != swf.StatusCancelled {
		return
	}
	if checkTime(r.end-ran) != nil {
		return
	}
	r.start = r.end - ran
	r.note(noteStartElapsed)
}
