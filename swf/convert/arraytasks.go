package convert

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// maxArrayTasks bounds the tasks one record of an array range expands to
// (Slurm's MaxArraySize is at most 4,000,001; one record of a hostile
// input must not fill the memory).
const maxArrayTasks = 1 << 16

// tasksPerRecord bounds the jobs that ranges of cancelled array tasks
// make in all, beyond maxArrayTasks: on average 16 a record of the log. A
// real log is far below it (most records are jobs or steps); a hostile
// one of 1,000 short lines "N_[1-65536]" would have made 65 million jobs,
// some 20 GB, from 100 KB.
const tasksPerRecord = 16

// arrayTasks lists the task ids of a Slurm array range as squeue, scontrol
// and sacct print it ("2-4,7", "1-99:2", "0-9%2": the throttle after '%'
// ignored). over says it names more than maxArrayTasks (ids nil); err that
// it does not read.
func arrayTasks(spec string) (ids []int64, over bool, err error) {
	spec, _, _ = strings.Cut(spec, "%")
	for part := range strings.SplitSeq(spec, ",") {
		rng, step, hasStep := strings.Cut(part, ":")
		lo, hi, isRange := strings.Cut(rng, "-")
		a, err := parseCount(lo)
		z := a
		if err == nil && isRange {
			z, err = parseCount(hi)
		}
		st := int64(1)
		if err == nil && hasStep {
			st, err = parseCount(step)
		}
		if err != nil || z < a || st < 1 {
			return nil, false, errNumber
		}
		if (z-a)/st+1 > int64(maxArrayTasks-len(ids)) {
			return nil, true, nil
		}
		for t := a; t <= z; t += st {
			ids = append(ids, t)
		}
	}
	return ids, false, nil
}

// Reasons of the accounting readers' array ranges.
const (
	skipArrayOver = "array tasks ended before their start, over 65536 in one record or 16 a record in all"
	skipArrayRan  = "array range record with a start (which task ran is unknown)"
	noteArrayTask = "array task of a range record (ended before its start)"
)

// addArrayTasks files r, a record of array tasks that ended without
// starting ("123_[5-9]" CANCELLED: the array cancelled while they were
// pending, sacct's one record for them all), as a job per task, ids
// "123_5" ... "123_9", keyed within prefix (a cluster's "a/"). Each is a
// job submitted and cancelled, as the other readers write one (status 5,
// wait and run time -1), noted; Report.Records counts the record once
// per task, so that Records = Jobs + Steps + Requeued + Σ Skipped holds.
// They were one record skipped as "pending array tasks". A range that
// does not read is malformed; one of more than maxArrayTasks tasks, or
// past tasksPerRecord a record in all, is skipped, counted, as is one that started (damaged: Slurm gives a task
// that starts a record of its own).
func addArrayTasks(b *builder, r *record, prefix string) error {
	if r.started {
		// Slurm gives a task that starts a record of its own: a range
		// that ran is damaged, and written once a task it would be that
		// many runs.
		b.skip(skipArrayRan)
		return nil
	}
	base, spec, _ := strings.Cut(r.id, "_[")
	ids, over, err := arrayTasks(strings.TrimSuffix(spec, "]"))
	switch {
	case err != nil:
		return b.malformed(r.line, "JobID", r.id, errors.New("not an array range (want ID_[TASKS], tasks as 2-4,7 or 1-99:2)"))
	case over || b.tasks+len(ids)-1 > maxArrayTasks+tasksPerRecord*(b.rep.Records-b.tasks):
		b.skip(skipArrayOver)
		return nil
	}
	b.tasks += len(ids) - 1
	b.rep.Records += len(ids) - 1
	for _, t := range ids {
		c := *r
		c.notes = slices.Clone(r.notes) // (each job notes its own)
		c.id = base + "_" + strconv.FormatInt(t, 10)
		c.key = prefix + c.id
		c.note(noteArrayTask)
		b.add(c)
	}
	return nil
}
