package convert

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/swf"
)

// Reasons in Report.Skipped and Report.Anomalies (the package
// documentation lists them with their meaning).
const (
	skipMalformed   = "malformed record"
	skipUnfinished  = "not finished at dump"
	skipRequeued    = "requeued, pending again at dump"
	skipRevoked     = "revoked federated copy"
	skipNoSubmit    = "no submit time"
	skipArrayRange  = "pending array tasks"
	skipArrayParent = "array parent record"
	skipDuplicate   = "record listed again (overlapping dumps)"
	skipResized     = "record ended by a resize (RESIZING), the job's later record kept"
	skipSuperseded  = "unfinished, a later record of the job follows (overlapping dumps)"
	skipAfterEnd    = "record after the job ended"

	noteUnlimited     = "time limit UNLIMITED"
	notePartLimit     = "time limit Partition_Limit, partition limit unknown"
	notePartLimitUsed = "time limit Partition_Limit, partition limit from Options"
	noteNullLimit     = "time limit null (UNLIMITED or Partition_Limit)"
	noteInvalidLimit  = "time limit INVALID"
	noteNoLimit       = "no time limit"
	noteZeroLimit     = "time limit 0 (none imposed)"
	noteStartBefore   = "start before submit"
	noteEndBefore     = "end before start"
	noteNoEnd         = "no end time"
	noteNoAlloc       = "allocated processors unknown"
	noteNeverStarted  = "ended without starting"
	noteUnknownState  = "unknown state"
	noteIDReused      = "job id reused"
	noteHet           = "heterogeneous job component"
	noteFailedExit0   = "FAILED with exit code 0"
	noteCancelledRun  = "cancelled while running"
	noteTimeout       = "killed at its time limit"
	noteMemRange      = "memory over 1 PiB per processor"
	noteNoAccount     = "no account"
	noteNoQOS         = "no QOS"
	noteStartWalltime = "start from end - resources_used.walltime"
	noteStartElapsed  = "start from end - Elapsed"
	noteRunElapsed    = "run time from Elapsed (no end time)"
	noteJoined        = "record of several lines (a newline in a value)"
	noteResized       = "resized: start from its record before the resize"
)

// record is one job as a parser read it, in absolute times, before the
// jobs are sorted and numbered.
type record struct {
	id    string // the scheduler's id as printed ("123_4", "127", "12.srv")
	key   string // the id attempts of one requeued job share (JobIDRaw)
	line  int
	order int
	state string // the scheduler's final state word, for Report.States
	skip  string // not a job to write, with this reason
	again bool   // a later record with the same key is another attempt of this job
	// guess: the record's end is a guess a later record of the job (the
	// same id and submit) replaces: a PBS job deleted while running,
	// filed at its D record without the E record that gives its end.
	guess bool

	started            bool
	status             swf.Status
	submit, start, end int64 // epoch seconds, -1 unknown
	// resizedStart is the start of the job's record ended RESIZING
	// before this one (0 none): Slurm starts the record after a resize
	// at the resize.
	resizedStart  int64
	elapsed       int64   // seconds, -1 unknown
	suspended     int64   // seconds suspended (sacct's Suspended), which Elapsed leaves out; -1 unknown
	limit         int64   // requested time, seconds, -1 unknown
	partLimit     string  // the limit is the partition's: this note if Options has none
	alloc, req    int64   // processors, -1 unknown
	allocUnread   bool    // sacct: no CPU count read (no column, empty, unreadable), not "none"
	cpu           float64 // total CPU seconds, -1 unknown
	cpuSteps      bool    // cpu is the sum of the steps' (the job's own was unknown)
	usedKB, reqKB float64 // memory per processor, kilobytes, -1 unknown

	user, group, queue, exe string
	qos                     string    // Options.Accounts: the QOS (group is then the account)
	notes                             // anomalies, one per reason
	dem                     *demandIn // what the log records beyond processors, nil if nothing
}

func newRecord(line int) record {
	return record{line: line, status: swf.StatusUnknown, submit: -1, start: -1, end: -1,
		elapsed: -1, suspended: -1, limit: -1, alloc: -1, req: -1, cpu: -1, usedKB: -1, reqKB: -1}
}

// notes are a record's anomalies, each reason once; embedded, so that
// a record, a pod, a GPU job and a queued job each note(reason).
type notes []string

// note marks the anomaly reason, once.
func (n *notes) note(reason string) {
	if !slices.Contains(*n, reason) {
		*n = append(*n, reason)
	}
}

// builder collects records, replaces requeued attempts and makes the
// Result.
type builder struct {
	format string
	opt    *Options
	// damage, set by begin on a gzip input, inflates the rest of it and
	// returns the stream's error (damaged).
	damage func() error
	rep    Report
	recs   []record
	latest map[string]int    // key → index in recs of its latest record
	gone   []bool            // recs[i] was replaced by a later attempt
	names  map[string]string // one copy of each user, group, queue, job name, state
	seen   map[uint64]int    // hash of a record's dupSig → its index in recs, to tell one listed again
	seed   maphash.Seed

	// widthLine is the line of the last row filed as of another width
	// than its header (csvRow): a field of it that then fails to read is
	// that error's consequence, not a second error of the line (an
	// Alibaba row of 2 fields was also "field cpu_milli: not a number").
	widthLine int

	// tasks counts the jobs addArrayTasks made beyond one a record, for
	// its bound on them.
	tasks int

	// What sniff saw at the start of the input, for a FormatError.
	saw       string
	firstLine int
	sample    string
}

func newBuilder(format string, opt *Options) *builder {
	return &builder{format: format, opt: opt, latest: map[string]int{}, seen: map[uint64]int{}, seed: maphash.MakeSeed(), names: map[string]string{},
		rep: Report{Format: format, States: map[string]int{}, Skipped: map[string]int{}, Anomalies: map[string]int{}}}
}

// fail records a parse error: in strict mode it is returned, otherwise
// kept (up to MaxErrors) and nil returned so that the caller goes on.
func (b *builder) fail(line int, field, value string, err error) error {
	pe := &ParseError{Format: b.format, Line: line, Field: field, Value: clip(value), Err: err}
	if b.opt.Strict {
		return pe
	}
	if line > 0 && line == b.widthLine {
		return nil // the row's width is its error, filed already
	}
	if len(b.rep.Errors) < b.opt.maxErrors() {
		b.rep.Errors = append(b.rep.Errors, pe)
	}
	return nil
}

// malformed skips a whole record.
func (b *builder) malformed(line int, field, value string, err error) error {
	b.rep.Skipped[skipMalformed]++
	return b.fail(line, field, value, err)
}

// fieldError sets nothing (the caller leaves the field -1) but notes the
// unreadable field on r.
func (b *builder) fieldError(r *record, field, value string, err error) error {
	r.note("unreadable " + field)
	return b.fail(r.line, field, value, err)
}

// skip counts a record that is not a job to write.
func (b *builder) skip(reason string) { b.rep.Skipped[reason]++ }

// dupSig is what tells a record listed twice: its job, times and state.
type dupSig struct {
	key, id, state     string
	submit, start, end int64
}

func (r *record) sig() dupSig { return dupSig{r.key, r.id, r.state, r.submit, r.start, r.end} }

// add files r and reports whether it was kept. A record whose key has an
// earlier record marked again (a requeued attempt) replaces it; any other
// repeated key is a reused job id and both are kept. A record that
// repeats one filed (the same key, id, submit, start, end and state) is
// that record listed again, as dumps of overlapping windows list the jobs
// running across their bounds (or one file given twice): skipped,
// counted. It was a second job ("job id reused"), or the earlier one's
// later attempt, the job then written twice.
func (b *builder) add(r record) bool {
	r.order = len(b.recs)
	// The strings are cut from the input line: keep copies, not the lines.
	r.id, r.key = strings.Clone(r.id), strings.Clone(r.key)
	for _, s := range []*string{&r.user, &r.group, &r.queue, &r.exe, &r.state, &r.qos} {
		*s = b.intern(*s)
	}
	if r.key != "" {
		// By a hash, a map entry of two words per record (the signature
		// as the key was 72 bytes), checked on the record it names: a
		// collision only misses a repeat.
		sig := r.sig()
		h := maphash.Comparable(b.seed, sig)
		if i, ok := b.seen[h]; ok && b.recs[i].sig() == sig {
			b.skip(skipDuplicate)
			return false
		}
		b.seen[h] = len(b.recs)
		if i, ok := b.latest[r.key]; ok {
			switch o := &b.recs[i]; {
			case strings.HasPrefix(o.skip, skipUnfinished) && o.id == r.id && o.submit == r.submit:
				// The job as an earlier dump saw it, unfinished: no
				// attempt of a requeue (which sacct lists REQUEUED, with
				// a submit of its own), as every job running across
				// the bound of overlapping dumps was counted.
				o.skip = skipSuperseded
				if o.state == "RESIZING" {
					o.skip = skipResized
				}
				if o.state == "RESIZING" && o.start >= 0 {
					// (Kept apart from r.start until finish, so
					// that a copy of r in an overlapping dump is
					// still told by its signature.)
					r.resizedStart = o.start
					if o.resizedStart > 0 {
						r.resizedStart = o.resizedStart
					}
				}
			case o.guess && o.id == r.id && o.submit == r.submit:
				// The same job, ended in full by the later record (the
				// log given again past the earlier copy's end): not a
				// second job of the id.
				o.skip = skipSuperseded
			case o.again && nextAttempt(o, &r):
				b.gone[i] = true
				b.rep.Requeued++
			default:
				r.note(noteIDReused)
			}
		}
		b.latest[r.key] = len(b.recs)
	}
	b.recs = append(b.recs, r)
	b.gone = append(b.gone, false)
	return true
}

// maxRequeueGap bounds the time from an attempt's end to the submit of
// the next attempt of the job: Slurm submits the job again when the
// earlier attempt's epilog completes, seconds after its end (a requeue
// by hand of a job ended, kept as long as MinJobAge, minutes). A day is
// far beyond either and far below the time Slurm takes to use its job
// ids up (MaxJobId, 67,043,328 by default) and wrap around.
const maxRequeueGap = 24 * 3600

// nextAttempt reports whether r can be the next attempt of o, a record
// whose state makes a later record of its id another attempt (REQUEUED,
// NODE_FAIL, PREEMPTED, ...): its user is o's (when both are known), and
// it was submitted at or after o's end (its submit when o has no end),
// within maxRequeueGap. Otherwise the id was used again by another job
// (Slurm's ids wrap at MaxJobId; a NODE_FAIL job not requeued keeps its
// id's record): both are kept, r noted "job id reused". It was always
// the next attempt, o dropped as one.
func nextAttempt(o, r *record) bool {
	if o.user != "" && r.user != "" && o.user != r.user {
		return false
	}
	from := max(o.end, o.start, o.submit)
	return r.submit < 0 || from < 0 || r.submit >= from && r.submit-from <= maxRequeueGap
}

func (b *builder) intern(s string) string {
	if c, ok := b.names[s]; ok {
		return c
	}
	c := strings.Clone(s)
	b.names[c] = c
	return c
}

// last returns the latest record with key, or nil.
func (b *builder) last(key string) *record {
	if i, ok := b.latest[key]; ok {
		return &b.recs[i]
	}
	return nil
}

// finish sorts the records by submit time, numbers them from 1, maps
// names to numbers and builds the header.
func (b *builder) finish() (*Result, error) {
	var live []*record
	for i := range b.recs {
		r := &b.recs[i]
		switch {
		case b.gone[i]:
		case r.skip != "":
			b.rep.Skipped[r.skip]++
		case r.submit < 0:
			b.rep.Skipped[skipNoSubmit]++
		default:
			if r.resizedStart > 0 && (r.start < 0 || r.resizedStart < r.start) {
				r.start = r.resizedStart
				r.note(noteResized)
			}
			live = append(live, r)
		}
	}
	// Jobs submitted in the same second go in job id order (the order
	// Slurm and PBS number them in), array tasks by task id.
	slices.SortStableFunc(live, func(x, y *record) int {
		xa, xt := idOrder(x.id)
		ya, yt := idOrder(y.id)
		return cmp.Or(cmp.Compare(x.submit, y.submit), cmp.Compare(xa, ya), cmp.Compare(xt, yt), cmp.Compare(x.order, y.order))
	})
	res := &Result{Jobs: make([]swf.Job, len(live)), IDs: make([]string, len(live))}
	users, groups, queues, exes, qos := newNames(), newNames(), newNames(), newNames(), newNames()
	accounts := b.accounts()
	var base, last, maxAlloc int64
	over := procsOver{max: b.opt.MaxProcs}
	if len(live) > 0 {
		base = live[0].submit
		last = base
	}
	for k, r := range live {
		j := b.job(r, base)
		j.ID = int64(k + 1)
		j.User, j.Group = users.number(r.user), groups.number(r.group)
		j.Queue, j.Executable = queues.number(r.queue), exes.number(r.exe)
		if accounts {
			j.Partition = qos.number(r.qos)
			if r.group == "" {
				r.note(noteNoAccount)
			}
			if r.qos == "" {
				r.note(noteNoQOS)
			}
		}
		res.Jobs[k], res.IDs[k] = j, r.id
		b.rep.States[r.state]++
		for _, n := range r.notes {
			b.rep.Anomalies[n]++
		}
		last = max(last, r.submit, r.start, r.end)
		maxAlloc = max(maxAlloc, j.AllocProcs)
		over.add(&j)
	}
	over.note(&b.rep.Notes, "processors (cores), not its nodes")
	b.rep.Jobs = len(live)
	if err := b.unreadable(); err != nil {
		return nil, err
	}
	res.Header = b.header(base, last, maxAlloc, users, groups, queues, exes, qos)
	res.Report = b.rep
	return res, nil
}

// accounts reports whether Options.Accounts applies: Slurm formats only.
func (b *builder) accounts() bool { return b.opt.Accounts && b.format != "pbs" }

// idOrder reads the leading number of a job id and the number after its
// "_", "+" or "[" (array task, heterogeneous component, PBS array index):
// "123_4" → 123, 4; "127.server" → 127, -1.
func idOrder(id string) (int64, int64) {
	lead := func(s string) (int64, string) {
		i := 0
		for i < len(s) && i < 18 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return -1, s
		}
		n, _ := strconv.ParseInt(s[:i], 10, 64)
		return n, s[i:]
	}
	a, rest := lead(id)
	if rest == "" || !strings.ContainsRune("_+[", rune(rest[0])) {
		return a, -1
	}
	t, _ := lead(rest[1:])
	return a, t
}

// job makes r's SWF line, submit relative to base, names still unmapped.
func (b *builder) job(r *record, base int64) swf.Job {
	j := swf.Job{Submit: r.submit - base, Wait: -1, RunTime: -1, AllocProcs: -1, AvgCPUTime: -1,
		UsedMemory: -1, ReqProcs: -1, ReqTime: -1, ReqMemory: -1, Status: r.status,
		Partition: -1, PrecedingJob: -1, ThinkTime: -1}
	if r.started {
		if r.start >= r.submit {
			j.Wait = r.start - r.submit
		} else {
			r.note(noteStartBefore)
		}
		switch {
		case r.end >= r.start:
			j.RunTime = r.end - r.start
		case r.end >= 0:
			r.note(noteEndBefore)
		case r.elapsed >= 0:
			// (Elapsed leaves the suspended time out.) Noted, as a start
			// from it is: it was said of no job of a log with an End column.
			j.RunTime = r.elapsed + max(r.suspended, 0)
			r.note(noteRunElapsed)
		default:
			r.note(noteNoEnd)
		}
		if r.alloc > 0 {
			j.AllocProcs = r.alloc
			if r.cpu > 0 {
				j.AvgCPUTime = math.Round(r.cpu/float64(r.alloc)*1000) / 1000
			}
		} else {
			r.note(noteNoAlloc)
		}
		if r.usedKB > maxMemKB {
			r.note(noteMemRange)
		} else if r.usedKB > 0 {
			j.UsedMemory = math.Round(r.usedKB)
		}
	} else if r.status != swf.StatusCancelled && r.status != swf.StatusUnknown {
		r.note(noteNeverStarted)
	}
	if r.req > 0 {
		j.ReqProcs = r.req
	}
	j.ReqTime = r.limit
	if r.partLimit != "" {
		if s := b.opt.PartitionLimits[r.queue]; s > 0 {
			j.ReqTime = s
			r.note(notePartLimitUsed)
		} else {
			r.note(r.partLimit)
		}
	}
	if r.reqKB > maxMemKB {
		r.note(noteMemRange)
	} else if r.reqKB > 0 {
		j.ReqMemory = math.Round(r.reqKB)
	}
	if j.Demand = b.demand(r); j.Demand != nil {
		b.rep.Demands++
	}
	return j
}

// procsOver counts the jobs larger than Options.MaxProcs (max, 0 none),
// and the largest, as each reader makes its jobs.
type procsOver struct {
	max, largest int64
	n            int
}

func (o *procsOver) add(j *swf.Job) {
	if o.max > 0 && (j.AllocProcs > o.max || j.ReqProcs > o.max) {
		o.n++
		o.largest = max(o.largest, j.AllocProcs, j.ReqProcs)
	}
}

// note says the jobs counted in notes: a machine size smaller than the
// log's jobs (nodes given for cores, say) made a trace whose every such
// job the simulators reject, which the conversion did not say. unit is
// what the reader's processors are.
func (o *procsOver) note(notes *[]string, unit string) {
	if o.n > 0 {
		*notes = append(*notes, fmt.Sprintf("%d jobs allocated or asked more processors than MaxProcs %d (the largest %d): "+
			"a simulation rejects them; MaxProcs is the machine's %s", o.n, o.max, o.largest, unit))
	}
}
