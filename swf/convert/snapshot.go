package convert

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
)

// Snapshot is a Slurm controller's queue at one moment: the jobs waiting
// and the jobs running then, as slurmrestd's GET /slurm/v0.0.XX/jobs (or
// squeue --json) and scontrol show job print them. It is not accounting:
// it says nothing of how the jobs end, only what the scheduler knew at
// Time — the input a start-time forecast needs.
type Snapshot struct {
	// Time is the moment of the snapshot, epoch seconds: Options.Now when
	// set; otherwise the latest moment the input shows (a running job's
	// start + RunTime in scontrol's output, slurmrestd's last_update, the
	// latest time stamp), a lower bound, which Report.Notes names.
	Time int64
	// Running are the jobs holding resources (RUNNING, SUSPENDED,
	// COMPLETING, ...), by start time.
	Running []QueuedJob
	// Waiting are the pending jobs (PENDING and the held and requeued
	// states), one per pending array task, in the order Slurm's main
	// scheduler takes them: priority, highest first, then submit time, then
	// job id (partition priority tiers, reservations and QOS are not
	// seen).
	Waiting []QueuedJob
	// Report accounts for every record of the input: each is a running or
	// waiting job (a record of n pending array tasks is n jobs: Jobs counts
	// jobs) or skipped with its reason (finished jobs the controller still
	// lists, malformed records, ...). States counts the records.
	Report Report

	opt Options
}

// QueuedJob is a job of a Snapshot. Times are epoch seconds, durations
// seconds; -1 is unknown.
type QueuedJob struct {
	// ID is Slurm's: "123", "123_4" for an array task, "123+1" for a
	// heterogeneous job's component.
	ID     string
	Submit int64
	// Start is when a running job started; for a waiting job it is the
	// start Slurm expects (its backfill's estimate, as squeue --start
	// shows), -1 when it has none.
	Start int64
	// Elapsed is how long a running job has run at the snapshot's Time,
	// suspended time excluded; 0 for a waiting job.
	Elapsed int64
	// TimeLimit is the job's limit (the user's estimate), -1 when
	// UNLIMITED, 0 (none imposed, noted) or unknown.
	TimeLimit int64
	// CPUs and Nodes are those allocated to a running job, the minimum
	// requested by a waiting one.
	CPUs, Nodes int64
	// Priority is Slurm's (higher runs first); 0 for a held job.
	Priority int64
	// State is Slurm's state word (PENDING, RUNNING, SUSPENDED, ...);
	// Reason why a waiting job waits (Priority, Resources,
	// JobHeldUser, ...), "" when none.
	State, Reason                  string
	Name, User, Account, Partition string
	// QOS is the job's quality of service ("" when the input has none).
	QOS string
	// Demand is what the job asks beyond processors (nodes, memory per
	// node, GPUs; see QueueSnapshot's doc), nil when the input shows
	// nothing more. Array tasks of one record share it.
	Demand *swf.Demand
}

// snapshot states: what a state word means for the queue.
const (
	qWaiting = iota + 1
	qRunning
	qFinished
)

// queueStates maps Slurm's state words (base states and the flags that
// slurmrestd v0.0.40+ lists beside them, which v0.0.37–39 and scontrol
// print instead of the base state) to their place in the queue.
var queueStates = map[string]int{
	"PENDING": qWaiting, "REQUEUED": qWaiting, "REQUEUE_FED": qWaiting, "REQUEUE_HOLD": qWaiting,
	"SPECIAL_EXIT": qWaiting, "RESV_DEL_HOLD": qWaiting,
	"RUNNING": qRunning, "SUSPENDED": qRunning, "COMPLETING": qRunning, "CONFIGURING": qRunning,
	"STAGE_OUT": qRunning, "SIGNALING": qRunning, "RESIZING": qRunning, "STOPPED": qRunning,
	"COMPLETED": qFinished, "CANCELLED": qFinished, "FAILED": qFinished, "TIMEOUT": qFinished,
	"NODE_FAIL": qFinished, "PREEMPTED": qFinished, "BOOT_FAIL": qFinished, "DEADLINE": qFinished,
	"OUT_OF_MEMORY": qFinished, "REVOKED": qFinished,
}

// queueState places a job by its state words: a flag that holds nodes
// (COMPLETING, ...) or keeps it pending (REQUEUED, ...) decides over a
// finished base state. It returns 0 for an unknown state.
func queueState(words []string) (place int, state string) {
	for _, w := range words {
		w = baseState(w)
		p := queueStates[w]
		if p == 0 {
			continue
		}
		if place == 0 || place == qFinished && p != qFinished {
			place, state = p, w
		}
	}
	return place, state
}

// Reasons of a Snapshot's Report.
const (
	skipFinished     = "finished, still listed by the controller"
	skipUnknownState = "unknown state"
	skipArrayHuge    = "pending array tasks over 65536 in one record"
	skipArrayTotal   = "pending array tasks past 2097152 in the snapshot"
	noteNoStart      = "running without a start time"
	noteStartLate    = "start after the snapshot time"
	noteSuspended    = "suspended"
	noteNoCPUs       = "CPUs unknown"
)

// queued is a job as a snapshot parser read it.
type queued struct {
	QueuedJob
	line        int
	place       int
	tasks       string // pending array tasks "2-4,7" (the ID is the array's)
	end         int64  // Slurm's expected end, for the time of the snapshot
	suspendTime int64  // last suspend or resume, -1 none
	preSus      int64  // seconds run before the last suspension
	runTime     int64  // scontrol's RunTime, -1 none
	lastEval    int64  // last scheduling evaluation
	partLimit   bool   // TimeLimit is the partition's (Partition_Limit, NO_VAL)
	notes
}

func newQueued(line int) queued {
	return queued{QueuedJob: QueuedJob{Submit: -1, Start: -1, TimeLimit: -1, CPUs: -1, Nodes: -1, Priority: -1},
		line: line, end: -1, suspendTime: -1, preSus: 0, runTime: -1, lastEval: -1}
}

// snapBuilder collects a snapshot's jobs; b keeps the Report and errors.
type snapBuilder struct {
	b          *builder
	jobs       []queued
	lastUpdate int64  // slurmrestd's last_update, -1 none
	slurmErr   string // the first error slurmrestd reported
	tasks      int    // the jobs pending array records expanded to so far
}

// maxSnapshotTasks bounds the jobs all the pending array records of one
// snapshot expand to together (slurmfeed's bound of an squeue poll,
// maxQueueTasks there): each record is bounded (maxArrayTasks), but a few
// hundred KB of records "1-65536" made billions of jobs. A record that
// would pass it is skipped whole, counted (skipArrayTotal). A variable so
// that a test can lower it.
var maxSnapshotTasks = 1 << 21

// fieldError notes an unreadable field of q (left -1).
func (s *snapBuilder) fieldError(q *queued, field, value string, err error) error {
	q.note("unreadable " + field)
	return s.b.fail(q.line, field, value, err)
}

// add files a job read whole.
func (s *snapBuilder) add(q queued, words []string) {
	q.place, q.State = queueState(words)
	switch q.place {
	case 0:
		s.b.skip(skipUnknownState + " (" + clip(strings.Join(words, ",")) + ")")
		return
	case qFinished:
		s.b.skip(skipFinished + " (" + q.State + ")")
		return
	}
	if q.Submit < 0 {
		s.b.skip(skipNoSubmit)
		return
	}
	for _, str := range []*string{&q.ID, &q.tasks, &q.State, &q.Reason, &q.Name, &q.User, &q.Account, &q.Partition, &q.QOS} {
		*str = s.b.intern(*str)
	}
	s.jobs = append(s.jobs, q)
}

// QueueSnapshot reads a snapshot of a Slurm controller's queue (plain or
// gzip), in either form, told apart by its first bytes:
//
//	curl -H "X-SLURM-USER-TOKEN: $SLURM_JWT" http://HOST:6820/slurm/v0.0.40/jobs   # v0.0.37 to v0.0.41
//	squeue --json                                                                 # the same shape
//	scontrol show job          # records of indented lines, blank lines between
//	scontrol show job -o       # one line per record
//
// (Report.Format says which: "slurmrestd" or "scontrol"). Times in
// scontrol's output are read in Options.Location unless it ran with
// SLURM_TIME_FORMAT=%s. A record of pending array tasks ("ArrayTaskId=2-4",
// slurmrestd's array_task_string) becomes one waiting job per task.
// Give Options.Now, the moment of the snapshot, when it is known: neither
// form states it. Jobs the controller still lists after their end
// (MinJobAge) are skipped and counted. Accounting logs are read by Sacct,
// SacctJSON, Jobcomp and PBS instead.
//
// A snapshot lists the controller's jobs at one moment, not accounting:
// nothing in it says how a job ends. The Snapshot has its Time, the
// running jobs (start, elapsed time, time limit, CPUs and nodes held) and
// the waiting jobs in the scheduler's order (priority, Slurm's expected
// start, reason), each with partition, user and account — what a
// start-time forecast starts from. Jobs the controller still lists after
// their end are skipped ("finished, still listed by the controller
// (STATE)"); a record of pending array tasks becomes a job per task (at
// most 65536, and 2^21 in all: a record past either is skipped,
// counted). Snapshot.Jobs gives the jobs as swf.Jobs on the epoch clock,
// for a forecast by simulation; Snapshot.SWF the SWF form, with the
// snapshot's time in the header. Without Options.Now, the latest moment
// the input shows is taken (noted as a lower bound). With
// Options.Accounts, Snapshot.SWF writes each job's account in Group and
// its QOS in Partition, as the accounting conversions do. Report's doc
// lists the reasons a snapshot adds.
//
// The demand (QueuedJob.Demand; Result's doc gives the common rules)
// comes, from scontrol, from ReqTRES, else TRES (a running job's
// allocation before Slurm 23.02: no memory where it is not tracked), else
// AllocTRES (a running job's AllocTRES first); NumNodes; MinMemoryNode or
// MinMemoryCPU; TresPerNode ("gres:gpu:a100:2"), TresPerJob, TresPerTask
// or -d's GRES when the TRES name no GPU; OverSubscribe=NO for whole
// nodes. From slurmrestd: tres_req_str, else tres_alloc_str (a running
// job's first); node_count; memory_per_node or memory_per_cpu;
// gres_detail or tres_per_* when the TRES name no GPU (snapGPUs).
func QueueSnapshot(r io.Reader, opt Options) (_ *Snapshot, err error) {
	const want = "slurmrestd or scontrol"
	in, done, b, err := begin(r, &opt, want, "slurmrestd", "scontrol", "json")
	if err != nil {
		return nil, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	s := &snapBuilder{b: b, lastUpdate: -1}
	b.format = b.saw
	if b.format != "slurmrestd" && b.format != "scontrol" {
		// Unrecognised: JSON is read as slurmrestd's, anything else as
		// scontrol's text; nothing readable is a FormatError below.
		b.format = "scontrol"
		if strings.HasPrefix(b.sample, "{") || strings.HasPrefix(b.sample, "[") {
			b.format = "slurmrestd"
		}
	}
	b.rep.Format = b.format
	if b.format == "slurmrestd" {
		err = s.readJSON(in)
		if fe := (*FormatError)(nil); err == nil || errors.As(err, &fe) {
			// (Slurm's error without a "jobs" key was "JSON of another kind".)
			if e := slurmFailed(b, "slurmrestd", s.slurmErr); e != nil {
				err = e
			}
		}
	} else {
		err = s.readText(in)
	}
	if err != nil {
		var fe *FormatError
		if errors.As(err, &fe) {
			fe.Want = want
		}
		return nil, err
	}
	return s.finish()
}

// finish settles the time of the snapshot, the elapsed times, expands
// pending array tasks and orders the jobs.
func (s *snapBuilder) finish() (*Snapshot, error) {
	b := s.b
	snap := &Snapshot{opt: *b.opt}
	// Every record malformed, or scontrol text without one record (and
	// not its empty queue's line), is an input of another kind.
	fe := b.unreadable()
	if fe == nil && b.rep.Records == 0 && b.format == "scontrol" && b.sample != "No jobs in the system" {
		fe = &FormatError{Line: b.firstLine, Sample: b.sample}
		if b.saw != b.format {
			fe.Saw = b.saw
		}
	}
	if fe != nil {
		fe.Want = "slurmrestd or scontrol"
		return nil, fe
	}
	snap.Time = s.when()
	for i := range s.jobs {
		q := &s.jobs[i]
		if q.place == qRunning {
			s.elapsed(q, snap.Time)
		}
		if q.TimeLimit < 0 && q.partLimit {
			if lim := b.opt.PartitionLimits[q.Partition]; lim > 0 {
				q.TimeLimit = lim
				q.note(notePartLimitUsed)
			} else {
				q.note(notePartLimit)
			}
		}
		if q.CPUs < 0 {
			q.note(noteNoCPUs)
		}
		if q.place == qWaiting && q.tasks != "" {
			if err := s.expand(q, snap); err != nil {
				return nil, err
			}
			continue
		}
		s.count(q)
		if q.place == qRunning {
			snap.Running = append(snap.Running, q.QueuedJob)
		} else {
			snap.Waiting = append(snap.Waiting, q.QueuedJob)
		}
	}
	slices.SortStableFunc(snap.Running, func(x, y QueuedJob) int {
		return cmp.Or(cmp.Compare(x.Start, y.Start), compareIDs(x.ID, y.ID))
	})
	slices.SortStableFunc(snap.Waiting, func(x, y QueuedJob) int {
		return cmp.Or(cmp.Compare(y.Priority, x.Priority), cmp.Compare(x.Submit, y.Submit), compareIDs(x.ID, y.ID))
	})
	b.rep.Jobs = len(snap.Running) + len(snap.Waiting)
	for _, l := range [][]QueuedJob{snap.Running, snap.Waiting} {
		for _, q := range l {
			if q.Demand != nil {
				b.rep.Demands++
			}
		}
	}
	snap.Report = b.rep
	return snap, nil
}

// count adds a job's state and notes to the Report.
func (s *snapBuilder) count(q *queued) {
	s.b.rep.States[q.State]++
	for _, n := range q.notes {
		s.b.rep.Anomalies[n]++
	}
}

func compareIDs(x, y string) int {
	xa, xt := idOrder(x)
	ya, yt := idOrder(y)
	return cmp.Or(cmp.Compare(xa, ya), cmp.Compare(xt, yt), strings.Compare(x, y))
}

// when returns the time of the snapshot and notes where it came from.
func (s *snapBuilder) when() int64 {
	b := s.b
	if !b.opt.Now.IsZero() {
		return b.opt.Now.Unix()
	}
	var latest, run int64 = -1, -1
	for _, q := range s.jobs {
		latest = max(latest, q.Submit, q.lastEval, q.suspendTime)
		if q.place == qRunning {
			latest = max(latest, q.Start)
			if q.runTime >= 0 && q.Start >= 0 && q.suspendTime < 0 && q.State != "SUSPENDED" {
				run = max(run, q.Start+q.runTime)
			}
		}
	}
	var from string
	switch t := max(latest, run, s.lastUpdate); {
	case t < 0:
		b.rep.Notes = append(b.rep.Notes, "snapshot time unknown (no jobs and no Options.Now)")
		return -1
	case t == run:
		from = "a running job's start + RunTime"
	case t == s.lastUpdate:
		from = "last_update"
	default:
		from = "the latest time stamp in the input"
	}
	t := max(latest, run, s.lastUpdate)
	b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("snapshot time %d (%s) from %s: a lower bound; give Options.Now (convert -now)",
		t, time.Unix(t, 0).UTC().Format(time.RFC3339), from))
	return t
}

// elapsed sets a running job's run time so far, as scontrol computes its
// RunTime: the time before the last suspension, plus the time since the
// last resume unless it is suspended.
func (s *snapBuilder) elapsed(q *queued, now int64) {
	switch {
	case q.State == "SUSPENDED":
		q.Elapsed = q.preSus
		q.note(noteSuspended)
	case q.runTime >= 0 && s.b.opt.Now.IsZero():
		q.Elapsed = q.runTime
	case q.Start < 0:
		q.note(noteNoStart)
	case q.suspendTime > 0:
		q.Elapsed = q.preSus + now - q.suspendTime
	default:
		q.Elapsed = now - q.Start
	}
	if q.Elapsed < 0 {
		q.Elapsed = 0
		q.note(noteStartLate)
	}
}

// expand makes one waiting job per task of q.tasks ("2-4,7", "1-99:2",
// "0-9%2"), with ids "A_T".
func (s *snapBuilder) expand(q *queued, snap *Snapshot) error {
	ids, over, err := arrayTasks(q.tasks)
	switch {
	case err != nil:
		s.b.rep.Skipped[skipMalformed]++
		return s.b.fail(q.line, "array tasks", q.tasks, err)
	case over:
		s.b.skip(skipArrayHuge)
		return nil
	case len(ids) > maxSnapshotTasks-s.tasks:
		s.b.skip(skipArrayTotal)
		return nil
	}
	s.tasks += len(ids)
	s.count(q)
	base, _, _ := strings.Cut(q.ID, "_")
	for _, t := range ids {
		j := q.QueuedJob
		j.ID = s.b.intern(base + "_" + strconv.FormatInt(t, 10))
		snap.Waiting = append(snap.Waiting, j)
	}
	return nil
}

// Jobs returns the snapshot as the SWF jobs a forecast by simulation
// starts from, times in epoch seconds (Submit is the epoch submit time, so
// that Time is "now" on the same clock): running jobs, by start, with
// their wait (start − submit) and their CPUs allocated and requested;
// waiting jobs, in the scheduler's order, with wait -1 and their CPUs
// requested. Run time and status are -1 (not ended), requested time the
// time limit. user and queue number the user and partition names (nil
// leaves them -1), so that numbers stay the same across snapshots of a
// feed; ID is the job's place, running jobs first, from 1.
func (s *Snapshot) Jobs(user, queue func(name string) int64) (running, waiting []swf.Job) {
	num := func(f func(string) int64, name string) int64 {
		if f == nil {
			return swf.Unknown
		}
		return f(name)
	}
	job := func(k int, q *QueuedJob, run bool) swf.Job {
		j := q.swfJob(int64(k+1), run)
		j.User, j.Queue = num(user, q.User), num(queue, q.Partition)
		return j
	}
	for k := range s.Running {
		running = append(running, job(k, &s.Running[k], true))
	}
	for k := range s.Waiting {
		waiting = append(waiting, job(len(s.Running)+k, &s.Waiting[k], false))
	}
	return running, waiting
}

// swfJob is q as the SWF job numbered id: its submit time, its CPUs
// requested and its time limit; a running job also its wait (start −
// submit) and its CPUs allocated. The rest is unknown (-1): a snapshot's
// jobs have not ended.
func (q *QueuedJob) swfJob(id int64, running bool) swf.Job {
	j := swf.NewJob()
	j.ID, j.Submit, j.ReqProcs, j.ReqTime = id, q.Submit, q.CPUs, q.TimeLimit
	j.Demand = q.Demand
	if running {
		j.AllocProcs = q.CPUs
		if q.Start >= q.Submit {
			j.Wait = q.Start - q.Submit
		}
	}
	return j
}

var snapshotSources = map[string]string{"slurmrestd": "slurmrestd GET /jobs", "scontrol": "scontrol show job"}

// SWF returns the snapshot as an SWF trace, for the tools that read one:
// the running and waiting jobs in submit order, submit relative to the
// first (the header's UnixStartTime), the snapshot's Time in the header
// ("; SnapshotTime: epoch seconds"). A running job has its wait (start −
// submit), its CPUs allocated and requested, run time -1 (it has not
// ended; it has run SnapshotTime − start so far); a waiting job has wait,
// run time and allocated processors -1. Requested time is the time limit,
// status -1 (not ended), queue the partition, user and executable (the job
// name) numbered as in the accounting conversions. IDs keep Slurm's ids.
func (s *Snapshot) SWF() *Result {
	all := make([]QueuedJob, 0, len(s.Running)+len(s.Waiting))
	all = append(append(all, s.Running...), s.Waiting...)
	running := len(s.Running)
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		return cmp.Or(cmp.Compare(all[x].Submit, all[y].Submit), compareIDs(all[x].ID, all[y].ID))
	})
	res := &Result{Jobs: make([]swf.Job, len(all)), IDs: make([]string, len(all)), Report: s.Report}
	users, queues, exes, accounts, qos := newNames(), newNames(), newNames(), newNames(), newNames()
	var base, maxAlloc int64
	if len(all) > 0 {
		base = all[order[0]].Submit
	}
	over := procsOver{max: s.opt.MaxProcs}
	for k, i := range order {
		q := all[i]
		j := q.swfJob(int64(k+1), i < running)
		j.Submit -= base
		if j.ReqProcs == 0 {
			j.ReqProcs = -1
		}
		j.User, j.Queue, j.Executable = users.number(q.User), queues.number(q.Partition), exes.number(q.Name)
		if s.opt.Accounts {
			j.Group, j.Partition = accounts.number(q.Account), qos.number(q.QOS)
		}
		res.Jobs[k], res.IDs[k] = j, q.ID
		maxAlloc = max(maxAlloc, j.AllocProcs)
		over.add(&j)
	}
	res.Report.Notes = slices.Clip(res.Report.Notes) // (s's own Notes stay as they are)
	over.note(&res.Report.Notes, "processors (cores), not its nodes")
	opt := &s.opt
	loc := opt.location()
	h := &swf.Header{
		Version: "2.2", Computer: opt.Computer, Installation: opt.Installation,
		Conversion: "batchq swf/convert from a Slurm queue snapshot (" + snapshotSources[s.Report.Format] + ")",
		MaxJobs:    int64(len(all)), MaxRecords: int64(len(all)), MaxProcs: opt.MaxProcs,
		MaxQueues: int64(len(queues.list)), Queue: queues.mapping(),
	}
	if len(all) > 0 {
		setSpan(h, base, max(s.Time, base), loc)
	}
	h.Other = append(h.Other, swf.KeyValue{Key: "SnapshotTime", Value: strconv.FormatInt(s.Time, 10)})
	h.Note = append(h.Note,
		fmt.Sprintf("A queue snapshot, not accounting: the %d jobs running and %d waiting at SnapshotTime (epoch seconds). "+
			"Running jobs have a wait and run time -1 (not ended; they have run SnapshotTime - UnixStartTime - submit - wait "+
			"so far); waiting jobs have wait and run time -1. Status -1: not ended. Requested time is the time limit.",
			len(s.Running), len(s.Waiting)),
		"Queue is the partition numbered from 1; User and Executable (the job name) are numbered from 1 in order of "+
			"first use. Processors are CPUs (cores), never nodes.")
	if opt.MaxProcs == 0 {
		h.Note = append(h.Note, fmt.Sprintf("MaxProcs unknown: the largest running job holds %d processors.", maxAlloc))
	}
	named := []struct {
		key string
		n   *names
	}{{"User", users}, {"Executable", exes}}
	if opt.Accounts {
		h.MaxPartitions, h.Partitions, h.Partition = int64(len(qos.list)), "Slurm QOS", qos.mapping()
		h.Note = append(h.Note, "Group is the Slurm account (the \"Account:\" lines name them); "+
			"Partition is the job's QOS (the \"Partition:\" lines name them).")
		named = append(named, struct {
			key string
			n   *names
		}{"Account", accounts})
	}
	if !opt.HideNames {
		for _, kv := range named {
			for _, m := range kv.n.mapping() {
				h.Other = append(h.Other, swf.KeyValue{Key: kv.key, Value: m})
			}
		}
	}
	res.Header = h
	return res
}
