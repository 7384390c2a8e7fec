package convert

import (
	"cmp"
	"errors"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
)

// PBS converts a PBS/Torque or PBS Pro accounting log (server_priv/accounting/
// YYYYMMDD files, concatenated in order, plain or gzip): lines
//
//	04/01/2024 10:00:00;E;123.server;user=alice group=staff queue=batch ctime=... qtime=...
//	etime=... start=... end=... exec_host=n1/0-7+n2/0-7 Resource_List.nodes=2:ppn=8
//	Resource_List.walltime=01:00:00 resources_used.walltime=00:10:00 resources_used.mem=1234kb Exit_status=0
//
// (on one line). Q records give the submit time and queue, S records the
// start, E records everything at the end; D (deleted) and A (aborted)
// records make the job cancelled (status 5), before or after its start; a
// D or A record without the job's Q or S record before it (a log from
// mid-job) waits for the job's E record, one job with it.
// Processors are counted from Resource_List.nodes (nodes × ppn),
// Resource_List.select / ncpus (PBS Pro) and exec_host — never the node
// count; a Cray ALPS job's from Resource_List.mppwidth × mppdepth (its
// exec_host and ncpus are the login node's; noted). An E record without a start (start=0 or none, and no S record:
// the job's start in a log file not given) takes it from the end less
// resources_used.walltime, noted (not a wall time of 0 without exec_host:
// no sign that the job ran). A job started again (a second S record,
// after a rerun, a Q record between them or not) is counted in
// Report.Requeued and written once, with its last start; records given
// again (logs of days that overlap, concatenated) are counted, not read as
// a rerun nor a second job. Result's doc says how the SWF fields are filled.
//
// E records carry no state, only Exit_status: 0 is status 1, anything
// else 0 (-11, Torque's walltime kill, also noted as a timeout); D and A
// records make the job 5.
//
// The demand (Result's doc gives the rules common to all formats) comes
// from the Resource_List.select chunks (PBS Pro: N:ncpus=:ngpus=:mem=:
// gpu_model=) or nodes (Torque: N:ppn=:gpus=), each chunk a node; nodect
// without them; mem (in all, unless the chunks give theirs) or pmem (per
// process); ngpus when the chunks give none; place=excl or exclhost, or
// naccesspolicy=singlejob, for whole nodes. Chunks of different shapes in
// one select become that many nodes of the largest shape (the largest
// CPUs, memory and GPUs of any chunk, per node; noted), which never asks
// less than the job needs; place=pack puts every chunk on one node
// (noted).
func PBS(r io.Reader, opt Options) (_ *Result, err error) {
	in, done, b, err := begin(r, &opt, "pbs")
	if err != nil {
		return nil, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	p := &pbsParser{b: b, jobs: map[string]*pbsJob{}}
	if opt.Accounts {
		b.rep.Notes = append(b.rep.Notes, "Options.Accounts applies to Slurm logs: Group stays the Unix group, Partition -1")
	}
	if err := eachLine(in, b, p.record); err != nil {
		return nil, err
	}
	if err := b.empty(); err != nil {
		return nil, err
	}
	// The jobs still open, in order of their first record.
	open := slices.SortedFunc(maps.Values(p.jobs), func(x, y *pbsJob) int { return cmp.Compare(x.seq, y.seq) })
	for _, j := range open {
		if err := p.close(j); err != nil {
			return nil, err
		}
	}
	return b.finish()
}

// pbsJob is a job whose records are being gathered.
type pbsJob struct {
	r        record
	attrs    map[string]string // from the latest S or E record
	queued   int64             // Q record time
	startedS int64             // latest S record time, -1 none
	ended    int64             // E record time, -1 none
	deleted  int64             // D or A record time, -1 none
	how      string            // the record type that ended it
	reruns   int               // S records after the first: counted when the job is filed
	rerunR   bool              // an R record since the latest S: the job is queued again
	seq      int               // order of its first record, for a stable finish
	// The wall clocks of the Q, S, E and D (or A) records, "2006-01-02
	// 15:04:05", when Options.Location is not UTC: the times the job
	// takes from its records (no ctime, start or end) are settled by
	// them at a daylight-saving change, as the Slurm readers' are.
	queuedAt, startedAt, endedAt, deletedAt string
}

// pbsParser keeps the open jobs only: a job filed is the builder's
// record, and nothing of its lines stays (the ids of the jobs in order of
// first record and of those ended were substrings of their lines, kept to
// the end of the log: 400 jobs of 64 KiB lines held 30 MB).
type pbsParser struct {
	b    *builder
	jobs map[string]*pbsJob // the open jobs, by id (a copy, not the line's)
	seq  int                // jobs opened
	err  error              // the first field error in strict mode
	// counted holds the reruns counted for an unfinished job's record
	// (its index in the builder's), which a later record of the job (the
	// log given again) supersedes and counts again.
	counted map[int]int
}

// bad notes an unreadable field of r; in strict mode the first error is
// kept in p.err for close to return.
func (p *pbsParser) bad(r *record, field, value string, err error) {
	if e := p.b.fieldError(r, field, value, err); e != nil && p.err == nil {
		p.err = e
	}
}

func (p *pbsParser) record(line string, num int) error {
	b := p.b
	parts := strings.SplitN(line, ";", 4)
	if len(parts) < 3 {
		return b.malformed(num, "", line, errors.New("not a PBS accounting line (want DATE TIME;TYPE;ID;ATTRIBUTES)"))
	}
	when, err := time.ParseInLocation("01/02/2006 15:04:05", parts[0], b.opt.location())
	if err != nil {
		return b.malformed(num, "timestamp", parts[0], errors.New("not a MM/DD/YYYY HH:MM:SS time"))
	}
	if err := checkTime(when.Unix()); err != nil {
		return b.malformed(num, "timestamp", parts[0], err)
	}
	wall := "" // the wall clock written, for settleRepeatedHour
	if b.opt.location() != time.UTC {
		wall = pbsWall(parts[0])
	}
	typ, id := parts[1], strings.TrimSpace(parts[2])
	attrs := ""
	if len(parts) == 4 {
		attrs = parts[3]
	}
	if id == "" {
		return b.malformed(num, "id", line, errors.New("empty job id"))
	}
	switch typ {
	case "Q", "S", "E", "D", "A":
	case "R":
		b.skip("rerun record (counted at the next start)")
		if j := p.jobs[id]; j != nil && j.startedS >= 0 && j.how == "" {
			j.rerunR = true
		}
		return nil
	default:
		b.skip("record type " + clip(typ) + " (not a job event)")
		return nil
	}
	if strings.Contains(id, "[]") {
		b.skip(skipArrayParent)
		return nil
	}
	t := when.Unix()
	j := p.jobs[id]
	if j == nil && (typ == "D" || typ == "A") && p.ended(id) {
		b.skip(skipAfterEnd)
		return nil
	}
	if j != nil && j.rerunR && j.how == "" && typ == "Q" {
		// A job rerun enters its queue again (PBS Pro writes a Q record
		// each time a job enters a queue): the same job, its submit time
		// kept, its next S record a rerun. It was closed, unfinished, and
		// the job of its next start written "superseded (overlapping
		// dumps)", the rerun not counted.
		return nil
	}
	if j != nil && (j.how != "" || j.startedS >= 0) && typ == "Q" {
		// The id is used again by a new job, or queued again after it
		// started (no rerun writes Q; a log given twice does): the
		// first is closed, unfinished if it did not end, and the second
		// S record no rerun of it.
		if err := p.close(j); err != nil {
			return err
		}
		j = nil
	}
	if j == nil {
		j = &pbsJob{r: newRecord(num), queued: -1, startedS: -1, ended: -1, deleted: -1, seq: p.seq}
		p.seq++
		id = strings.Clone(id) // (not the line: the job may stay open long)
		j.r.id, j.r.key = id, id
		p.jobs[id] = j
	}
	kv := pbsAttrs(attrs)
	switch typ {
	case "Q":
		j.queued, j.queuedAt = t, wall
		if q := kv["queue"]; q != "" {
			j.r.queue = q
		}
	case "S":
		// An S record at or before the job's latest is one listed again
		// (logs of overlapping days concatenated: a rerun starts later),
		// no rerun: it was counted in Report.Requeued, and its start
		// taken for the job's latest.
		if t <= j.startedS {
			break
		}
		if j.startedS >= 0 {
			j.reruns++
		}
		j.startedS, j.attrs, j.r.line, j.rerunR = t, kv, num, false
		j.startedAt = wall
	case "E":
		j.ended, j.attrs, j.r.line, j.endedAt = t, kv, num, wall
		if j.how == "" {
			j.how = "E"
		}
	case "D", "A":
		if j.deleted < 0 {
			j.deleted, j.deletedAt = t, wall
		}
		if j.how == "" {
			j.how = typ
		}
	}
	// A job deleted or aborted before it started has no E record to wait
	// for; one deleted while running gets its E record next. Without its
	// Q record either (the log begins after the job's start) nothing says
	// which: it waits for an E record, the same job's (it was filed at the
	// D record, skipped "no submit time", and the E record made a second
	// job, "job id reused"). None coming, it is filed at a Q record of the
	// id or at the end of the log, as before.
	if j.how != "" && (j.ended >= 0 || j.startedS < 0 && j.attrs == nil && j.queued >= 0) {
		return p.close(j)
	}
	return nil
}

// pbsWall is a record's time stamp, read by ParseInLocation's
// "01/02/2006 15:04:05", as the wall clock "2006-01-02 15:04:05" that
// settleRepeatedHour reads: the digits moved when the stamp has its usual
// 19 bytes (time.Parse and Format cost more than the settling itself),
// else parsed (an hour of one digit).
func pbsWall(s string) string {
	if len(s) == 19 {
		var w [19]byte // (one allocation, not concatenation's)
		copy(w[:4], s[6:10])
		w[4] = '-'
		copy(w[5:7], s[0:2])
		w[7] = '-'
		copy(w[8:10], s[3:5])
		copy(w[10:], s[10:])
		return string(w[:])
	}
	w, err := time.Parse("01/02/2006 15:04:05", s)
	if err != nil {
		return ""
	}
	return w.Format("2006-01-02 15:04:05")
}

// close files j with the builder: a job still queued or running (at the
// end of the log) is skipped, one deleted while running without an E
// record ends at its D record.
func (p *pbsParser) close(j *pbsJob) error {
	delete(p.jobs, j.r.id)
	r := &j.r
	if j.how == "" {
		if j.startedS >= 0 {
			r.skip = skipUnfinished + " (running)"
		} else {
			r.skip = skipUnfinished + " (queued)"
		}
		// Its submit, as a finished job's is read, tells its later
		// record (the log given again) from another job of the id: it
		// was -1, and that record "job id reused".
		r.submit = j.queued
		for _, k := range []string{"qtime", "ctime"} {
			if n, err := parseCount(j.attrs[k]); err == nil && checkTime(n) == nil {
				r.submit = n
			}
		}
		p.file(j)
		return nil
	}
	kv := j.attrs
	if kv == nil {
		kv = map[string]string{}
	}
	r.state = j.how
	r.user, r.group = kv["user"], kv["group"]
	r.queue = cmp.Or(kv["queue"], r.queue)
	r.exe = kv["jobname"]
	// A time from the epoch attributes is one moment; one from a
	// record's local time stamp (the attribute absent or 0) is settled
	// below, with its stamp.
	var stamps [3]string
	if r.submit = cmp.Or(p.epoch(r, kv, "ctime"), p.epoch(r, kv, "qtime")); r.submit == 0 {
		r.submit, stamps[0] = j.queued, j.queuedAt
	}
	if r.start = p.epoch(r, kv, "start"); r.start == 0 {
		r.start, stamps[1] = j.startedS, j.startedAt
	}
	if r.end = p.epoch(r, kv, "end"); r.end == 0 {
		r.end, stamps[2] = j.ended, j.endedAt
	}
	if r.end < 0 && j.deleted >= 0 && r.start >= 0 {
		// Deleted while running, filed without the E record that ends
		// it (a Q record of the id came first, or the log's end): a
		// later record of the job, the log given again up to its E
		// record, replaces this one (it was a second job, "job id
		// reused").
		r.end, r.guess, stamps[2] = j.deleted, true, j.deletedAt
	}
	// In the hour a daylight-saving change repeats a record's time
	// stamp names two moments: time.ParseInLocation took the earlier
	// (New York) or the later (Paris), a job ending in that hour "end
	// before start" or an hour short, without a word. The Slurm readers'
	// rule: the choice that keeps submit <= start <= end, noted.
	settleRepeatedHour(r, stamps, p.b.opt.location())
	if v := kv["resources_used.walltime"]; v != "" && r.start < 0 && r.end >= 0 {
		// An E record without a start (start=0 or none, its S record in
		// a file not given) of a job that ran: the start is its end less
		// the wall time it used. It was "ended without starting", wait
		// and run time -1 (and a walltime kill's "killed at its time
		// limit" beside it). A wall time of 0 without exec_host is no
		// sign that the job ran: its start stays unknown (it was made
		// a job started at its end, its whole stay in the queue a
		// wait). One so long that the start falls before 1990 is
		// unreadable, counted (it was dropped without a word). Where
		// the wall time leaves out a suspension (PBS Pro's does), the
		// start comes that much late: the suspension counts as wait.
		switch w, err := parseDuration(v); {
		case err != nil:
			p.bad(r, "resources_used.walltime", v, err)
		case w == 0 && kv["exec_host"] == "":
		case checkTime(r.end-int64(w)) != nil:
			p.bad(r, "resources_used.walltime", v, errRange)
		default:
			r.start = r.end - int64(w)
			r.note(noteStartWalltime)
		}
	}
	r.started = r.start >= 0
	if !r.started {
		r.start, r.end = -1, -1
	}
	p.resources(r, kv)
	switch j.how {
	case "D", "A":
		r.status = swf.StatusCancelled
		if r.started {
			r.note(noteCancelledRun)
		}
	case "E":
		v, ok := kv["Exit_status"]
		code, err := strconv.ParseInt(v, 10, 64)
		switch {
		case !ok:
			r.note("no Exit_status")
		case err != nil:
			p.bad(r, "Exit_status", v, errNumber)
		case code == 0:
			r.status = swf.StatusCompleted
		default:
			r.status = swf.StatusFailed
			if code == -11 || r.limit > 0 && r.end-r.start >= r.limit {
				r.note(noteTimeout)
			}
		}
	}
	p.file(j)
	return p.err
}

// ended reports whether the latest job of id, none open, was filed
// finished: a D or A record then (qdel of a job that just ended) is a
// record of that job, not a new job without a submit time. The builder's
// index of the records by id tells it (a Q record opens a new job of the
// id, whose record is the latest once filed).
func (p *pbsParser) ended(id string) bool {
	r := p.b.last(id)
	return r != nil && !strings.HasPrefix(r.skip, skipUnfinished)
}

// file adds j's record to the builder and, when kept (not a record
// listed again: the log given twice), counts its reruns in
// Report.Requeued, less those counted for its unfinished record that it
// supersedes (counted twice).
func (p *pbsParser) file(j *pbsJob) {
	b := p.b
	prev, had := b.latest[j.r.key]
	if o := b.last(j.r.key); o != nil && j.r.state == "E" && (o.state == "D" || o.state == "A") &&
		o.id == j.r.id && o.submit == j.r.submit && o.start == j.r.start && o.end == j.r.end {
		// The E record of a job filed at its D record: given again (a
		// log from past its D record) for a job deleted while running,
		// or written after the D record of a job deleted while queued
		// (Q, D, E). The same job, not a second one of the id ("job id
		// reused", the job written twice).
		if o.started {
			b.skip(skipDuplicate)
		} else {
			b.skip(skipAfterEnd)
		}
		return
	}
	if !b.add(j.r) {
		return
	}
	n := j.reruns
	if had && b.recs[prev].skip == skipSuperseded && b.recs[prev].id == j.r.id {
		n = max(n-p.counted[prev], 0)
		delete(p.counted, prev)
	}
	if (j.r.skip != "" || j.r.guess) && j.reruns > 0 {
		if p.counted == nil {
			p.counted = map[int]int{}
		}
		p.counted[len(b.recs)-1] = j.reruns
	}
	b.rep.Requeued += n
}

// epoch reads an epoch-seconds attribute. An absent, zero or unreadable
// one (before 1990 too: an unset field) is 0, so that cmp.Or passes over
// it to the next source of the time.
func (p *pbsParser) epoch(r *record, kv map[string]string, key string) int64 {
	v, ok := kv[key]
	if !ok || v == "" || v == "0" {
		return 0
	}
	n, err := parseCount(v)
	switch {
	case err == nil:
		err = checkTime(n)
	case err == errRange && v[0] != '-':
		err = errFuture // (a negative time, "-1" say, is out of range, not in the future)
	}
	if err != nil {
		p.bad(r, key, v, err)
		return 0
	}
	return n
}

// resources reads processors, time limit, memory and CPU time.
func (p *pbsParser) resources(r *record, kv map[string]string) {
	if v, ok := kv["Resource_List.walltime"]; ok {
		if s, err := parseDuration(v); err != nil {
			p.bad(r, "Resource_List.walltime", v, err)
		} else {
			// A limit of 0 is none (-1, noted), as every other reader
			// takes it: it was written 0, which the simulators read as no
			// estimate, without a word here.
			r.limit = int64(s)
			zeroLimit(r)
		}
	} else {
		r.note(noteNoLimit)
	}
	var chunkMem float64
	switch {
	case kv["Resource_List.select"] != "":
		// PBS Pro: ncpus is the total it computed from the select.
		r.req, chunkMem = p.spec(r, "Resource_List.select", kv["Resource_List.select"], "ncpus")
		if n := p.count(r, kv, "Resource_List.ncpus"); n > 0 {
			r.req = n
		}
	case kv["Resource_List.nodes"] != "":
		// Torque: nodes × ppn, plus procs (processors on any nodes).
		r.req, _ = p.spec(r, "Resource_List.nodes", kv["Resource_List.nodes"], "ppn")
		if n := p.count(r, kv, "Resource_List.procs"); n > 0 && r.req >= 0 {
			r.req += n // both ≤ 2^24
		}
	case kv["Resource_List.procs"] != "":
		r.req = p.count(r, kv, "Resource_List.procs")
	case kv["Resource_List.ncpus"] != "":
		r.req = p.count(r, kv, "Resource_List.ncpus")
	}
	if r.started {
		if v := kv["exec_host"]; v != "" {
			if n, err := execHostCPUs(v); err != nil {
				p.bad(r, "exec_host", v, err)
			} else {
				r.alloc = n
			}
		}
		if r.alloc <= 0 {
			r.alloc = p.count(r, kv, "resources_used.ncpus")
		}
	}
	cray := p.cray(r, kv)
	procs := cmpPositive(r.req, r.alloc)
	switch {
	case kv["Resource_List.mem"] != "" && procs > 0:
		if v, err := parseSize(kv["Resource_List.mem"], 1); err != nil {
			p.bad(r, "Resource_List.mem", kv["Resource_List.mem"], err)
		} else {
			r.reqKB = v / 1024 / float64(procs)
		}
	case kv["Resource_List.pmem"] != "":
		if v, err := parseSize(kv["Resource_List.pmem"], 1); err != nil {
			p.bad(r, "Resource_List.pmem", kv["Resource_List.pmem"], err)
		} else {
			r.reqKB = v / 1024
		}
	case chunkMem > 0 && procs > 0:
		r.reqKB = chunkMem / 1024 / float64(procs)
	}
	if cray == nil {
		p.demand(r, kv)
	} else if cray.any() {
		r.dem = cray
	}
	if v := kv["resources_used.mem"]; v != "" && r.alloc > 0 {
		if m, err := parseSize(v, 1); err != nil {
			p.bad(r, "resources_used.mem", v, err)
		} else {
			r.usedKB = m / 1024 / float64(r.alloc)
		}
	}
	if v := kv["resources_used.cput"]; v != "" {
		if s, err := parseDuration(v); err != nil {
			p.bad(r, "resources_used.cput", v, err)
		} else if s > 0 {
			r.cpu = s
		}
	}
}

// noteCray: the processors of a Cray job are its ALPS processing
// elements, not what exec_host or ncpus say.
const noteCray = "Cray ALPS job: processors from Resource_List.mppwidth (× mppdepth)"

// cray reads a Cray XT/XE job's size under PBS or Torque with ALPS:
// Resource_List.mppwidth processing elements of mppdepth threads each,
// mppnppn to a node, which aprun places on compute nodes. Its ncpus,
// select and exec_host name the login (MOM) node it runs from
// ("exec_host=nid00007/17", ncpus=1): a job of 64 elements was written
// as 1 processor. It returns nil for another job, else the demand
// (nodes of mppnppn × mppdepth cores when mppnppn is given, else none).
func (p *pbsParser) cray(r *record, kv map[string]string) *demandIn {
	w := p.count(r, kv, "Resource_List.mppwidth")
	if w <= 0 {
		return nil
	}
	depth := max(p.count(r, kv, "Resource_List.mppdepth"), 1)
	if w*depth > maxProcs { // each ≤ 2^24: no overflow
		p.bad(r, "Resource_List.mppdepth", kv["Resource_List.mppdepth"], errProcs)
		return nil
	}
	r.req = w * depth
	if r.started {
		r.alloc = r.req
	}
	r.note(noteCray)
	in := &demandIn{}
	if nppn := p.count(r, kv, "Resource_List.mppnppn"); nppn > 0 {
		in.nodes = (w + nppn - 1) / nppn
		in.cores = min(nppn, w) * depth
	}
	return in
}

func (p *pbsParser) count(r *record, kv map[string]string, key string) int64 {
	v := kv[key]
	if v == "" {
		return -1
	}
	n, err := parseProcs(v) // every count read so is of processors
	if err != nil {
		p.bad(r, key, v, err)
		return -1
	}
	return n
}

// spec counts the processors of a Torque nodes spec ("2:ppn=8+n5:ppn=4",
// per is "ppn") or a PBS Pro select ("2:ncpus=8:mem=4gb+1:ncpus=2", per
// is "ncpus"): the sum over "+" chunks of count × per (count 1 when the
// chunk starts with a host name or property, per 1 when absent). For a
// select it also sums the chunks' mem, in bytes.
func (p *pbsParser) spec(r *record, field, s, per string) (procs int64, mem float64) {
	for chunk := range strings.SplitSeq(s, "+") {
		toks := strings.Split(chunk, ":")
		n, err := parseCount(toks[0])
		switch {
		case err == errNumber:
			n = 1 // a host name or a property
		case err != nil || n > maxProcs:
			p.bad(r, field, s, errProcs)
			return -1, 0
		}
		each := int64(1)
		for _, t := range toks[1:] {
			k, v, _ := strings.Cut(t, "=")
			switch k {
			case per:
				c, err := parseProcs(v)
				if err != nil {
					p.bad(r, field, s, err)
					return -1, 0
				}
				each = c
			case "mem":
				if m, err := parseSize(v, 1); err == nil {
					mem += float64(n) * m
				}
			}
		}
		procs += n * each // each factor ≤ 2^24: no overflow
		if procs > maxProcs {
			p.bad(r, field, s, errProcs)
			return -1, 0
		}
	}
	return procs, mem
}

// execHostCPUs counts the CPU slots of exec_host: Torque "n1/0-3,5+n2/0"
// (5 + 1) or PBS Pro "n1/0*8+n2/0*8" (8 + 8).
func execHostCPUs(s string) (int64, error) {
	var total int64
	for chunk := range strings.SplitSeq(s, "+") {
		_, slots, ok := strings.Cut(chunk, "/")
		if !ok {
			total++ // a bare host: one slot
			continue
		}
		if _, n, ok := strings.Cut(slots, "*"); ok {
			c, err := parseProcs(n)
			if err != nil {
				return 0, err
			}
			total += c
		} else {
			for part := range strings.SplitSeq(slots, ",") {
				lo, hi, isRange := strings.Cut(part, "-")
				a, err := parseCount(lo)
				if err != nil {
					return 0, err
				}
				if !isRange {
					total++
					continue
				}
				z, err := parseCount(hi)
				if err != nil || z < a {
					return 0, errNumber
				}
				// a, z ≤ 2^40 and total ≤ 2^24 here: no overflow.
				if total += z - a + 1; total > maxProcs {
					return 0, errProcs
				}
			}
		}
		if total > maxProcs {
			return 0, errProcs
		}
	}
	return total, nil
}

// pbsAttrs splits "k=v k2=v2" attributes. A token without '=' continues
// the previous value (a job name with blanks).
func pbsAttrs(s string) map[string]string {
	kv := map[string]string{}
	last := ""
	for _, tok := range strings.Fields(s) {
		if k, v, ok := strings.Cut(tok, "="); ok && k != "" && !strings.ContainsAny(k, ":,") {
			kv[k], last = v, k
			continue
		}
		if last != "" {
			kv[last] += " " + tok
		}
	}
	return kv
}
