package convert

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// SacctFormat is the column set to give sacct's --format (-o) for Sacct.
// Other sets work too, in any order, as long as the header line names
// them: JobID (or JobIDRaw), State and Submit are required; without the
// others the fields they feed are -1 (Report.Notes says which). Elapsed
// and Timelimit may replace ElapsedRaw and TimelimitRaw, NCPUS AllocCPUS.
const SacctFormat = "JobID,JobIDRaw,JobName,User,UID,Group,GID,Partition,Account,QOS,State,ExitCode," +
	"Submit,Start,End,ElapsedRaw,Suspended,TimelimitRaw,AllocCPUS,ReqCPUS,NNodes,ReqMem,ReqTRES,AllocTRES," +
	"TotalCPU,AveRSS,MaxRSS,NTasks"

// colNames are the columns read that SacctFormat leaves out, spelled as
// sacct does, for errors.
const colNames = ",Elapsed,Timelimit,ReqNodes,AllocNodes,ReqGRES,AllocGRES"

// sacctColumns are the columns Sacct reads, with what is lost without them.
var sacctColumns = []struct{ name, feeds string }{
	{"JobIDRaw", "requeued attempts and steps are matched by JobID"},
	{"JobName", "no executable numbers"},
	{"Partition", "no queue numbers"},
	{"Start", "no wait or run time"},
	{"End", "run time from Elapsed"},
	{"AllocCPUS", "allocated processors from AllocTRES"},
	{"ReqCPUS", "no requested processors"},
	{"TotalCPU", "no average CPU time"},
	{"AveRSS", "used memory from MaxRSS"},
	{"NTasks", "used memory assumes one task per step"},
	{"NNodes", "per-node ReqMem (Slurm < 21.08) unusable"},
	{"ReqTRES", "demands (nodes, memory, GPUs) from AllocTRES (the allocation), or ReqMem and NNodes"},
}

// Sacct converts the output of
//
//	sacct --allusers --duplicates --parsable2 --starttime ... --endtime ... --format <SacctFormat>
//
// (plain or gzip). The header line is required (no --noheader): it names
// the columns, whose order may vary. A '|' inside a text column (JobName,
// Constraints "intel|amd", WorkDir, Comment, ...) is put back when the
// header has one such column; with several the line is malformed (which
// one holds it cannot be told), as it is when the State column after it
// then reads no state (a line of too many fields for another reason).
// Job steps (123.batch, 123.0, 123.extern) are not jobs: they are
// counted in Report.Steps and give their job its used memory (and its
// CPU time when the job line has none). A job that ran (completed, failed or cancelled, with an Elapsed
// above 0: slurmdbd gives a job whose start is unknown an Elapsed of 0)
// whose Start is unknown or unreadable takes it from End less Elapsed
// and Suspended (the time it was suspended, which Elapsed leaves out),
// noted (SacctJSON the same from time.end, time.elapsed and
// time.suspended).
// Result's doc says how the SWF fields are filled.
//
// The status comes from the job state, never the exit code (Slurm 22.05's
// sacct --json reports 0 for a job that failed with code 3); SacctJSON
// and Jobcomp read it the same way:
//
//	COMPLETED                                    1
//	FAILED, NODE_FAIL, OUT_OF_MEMORY,
//	PREEMPTED, BOOT_FAIL, DEADLINE               0
//	TIMEOUT                                      0, run time kept: it ran to its limit
//	                                             and was killed, as sched writes jobs
//	                                             killed at their estimate
//	CANCELLED before the start                   5, wait and run time -1
//	CANCELLED after the start                    5, wait and run time kept (SWF's
//	                                             "cancelled"; the swf package's
//	                                             StatusCancelled covers both)
//	PENDING, RUNNING, REQUEUED and the other     skipped: not finished at dump
//	states of unfinished jobs
//
// Requeues, steps, arrays (the same in SacctJSON and Jobcomp): sacct
// --duplicates and the jobcomp file list a requeued job once per attempt,
// all with the same raw job id; the earlier attempts end REQUEUED (or
// NODE_FAIL, PREEMPTED, BOOT_FAIL when Slurm requeued it itself). The last
// attempt is the job, with its own submit, start and end; the earlier ones
// are counted in Report.Requeued. A raw id seen again after a final state
// is a reused id: both jobs are kept, the later noted "job id reused"; so
// is one seen again after NODE_FAIL, PREEMPTED, BOOT_FAIL or REQUEUED by
// another user, or submitted before that record's end or more than a day
// after it (Slurm submits the next attempt as the earlier one's epilog
// completes; its ids wrap around at MaxJobId). Job
// steps (123.batch, 123.extern, 123.0) are counted in Report.Steps, never
// written as jobs. Array tasks still pending print as one record
// "123_[5-9]": skipped as "pending array tasks"; such a record of tasks
// that ended so (CANCELLED while pending) is a job per task, "123_5" to
// "123_9", each cancelled before its start, noted (Report.Records counts
// it once per task). With a Cluster column
// (sacct -M a,b, or -L) job ids are matched within their cluster.
//
// The demand (Job.Demand; the rules common to all formats are Result's)
// comes from ReqTRES (else AllocTRES, the allocation, noted): cpu, mem
// (the job's total), node, gres/gpu, gres/gpu:MODEL (models), other
// gres/X (Named, "gres/X"; one with a unit, "40G", in MiB as mem);
// gres/gpumem, gres/gpuutil, billing, energy, fs/*, vmem are ignored;
// license/* and bb/* are not kept (cluster-wide, noted). Nodes come from
// ReqNodes, AllocNodes or NNodes when the TRES have none; memory from
// ReqMem (suffix c per CPU, n per node, none in all) when they have none;
// GPUs from the old ReqGRES or AllocGRES ("gpu:tesla:2", per node). sacct
// records no --exclusive, but a job that held more CPUs than its ReqTRES
// asked (AllocCPUS: --exclusive, a whole-node partition, cores rounded
// up) has a demand of the CPUs held, noted (heldCPUs).
func Sacct(r io.Reader, opt Options) (_ *Result, err error) {
	in, done, b, err := begin(r, &opt, "sacct")
	if err != nil {
		return nil, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	p := &sacctParser{b: b}
	lines := 0
	err = eachLine(in, b, func(line string, num int) error {
		lines = num
		if p.col == nil || isSacctHeader(line) {
			// The header line is not a record. A header after job lines
			// starts another sacct output (files concatenated): its column
			// order holds from there on.
			b.rep.Records--
			if err := p.flushHeld(); err != nil {
				return err
			}
			if p.col != nil {
				b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("line %d: another header line; its columns apply from there on", num))
			}
			return p.header(line, num)
		}
		return p.record(line, num)
	})
	if err == nil {
		err = p.flushHeld()
	}
	if err != nil {
		return nil, err
	}
	if p.col == nil && lines == 0 {
		// no line but blank ones: "empty", as the other formats say
		return nil, &FormatError{Want: "sacct", Line: b.firstLine, Sample: b.sample}
	}
	if p.col == nil {
		return nil, &ParseError{Format: "sacct", Line: max(lines, 1), Err: errors.New("no header line (run sacct without --noheader)")}
	}
	if p.orphans > 0 {
		b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("%d steps of jobs not in the input ignored", p.orphans))
	}
	return b.finish()
}

// sacctParser holds the column layout of one sacct output.
type sacctParser struct {
	b        *builder
	col      map[string]int // lower-case column name → index
	n        int            // number of columns
	trailing bool           // --parsable: every line ends in a delimiter
	orphans  int            // steps whose job line was not seen
	headers  int            // header lines read
	dup      string         // key of the last job line, when it repeated a record filed
	text     []int          // the columns of free text, which may hold the delimiter
	held     []string       // lines cut short by a newline in a text column, until the rest comes
	heldNum  int            // the first held line's number
	heldBars int            // the held lines' '|'
	heldSize int            // the held lines' bytes, joined
}

// textColumns are sacct's columns of free text, in which a user may write
// the delimiter '|' (a job name, a --constraint "intel|amd", a comment, a
// path). Split gives a line with one in more fields than the header has.
var textColumns = []string{"jobname", "constraints", "comment", "admincomment", "systemcomment", "workdir",
	"submitline", "stdout", "stderr", "stdin", "wckey", "container", "extra"}

func (p *sacctParser) header(line string, num int) error {
	if !strings.Contains(line, "|") {
		return &ParseError{Format: "sacct", Line: num, Value: clip(line),
			Err: errors.New("no header line with '|'-separated column names (run sacct --parsable2 without --noheader)")}
	}
	p.trailing = strings.HasSuffix(line, "|")
	names := strings.Split(strings.TrimSuffix(line, "|"), "|")
	p.col, p.n, p.text = map[string]int{}, len(names), nil
	for i, name := range names {
		name = strings.ToLower(strings.TrimSpace(name))
		if slices.Contains(textColumns, name) {
			p.text = append(p.text, i) // (each: a name given twice holds a '|' in either)
		}
		if _, dup := p.col[name]; dup {
			// A --format naming a field twice: sacct prints the same
			// values in both. The first is read, as the CSV tables read
			// theirs; the last was, without a word.
			p.b.rep.Notes = append(p.b.rep.Notes, fmt.Sprintf("line %d: column %d repeats %q: ignored, the first is read", num, i+1, clip(strings.TrimSpace(names[i]))))
			continue
		}
		p.col[name] = i
	}
	if _, ok := p.col["alloccpus"]; !ok {
		// NCPUS is AllocCPUS under another name (sacct's man page): a
		// --format with it lost every job's processors, "allocated
		// processors unknown".
		if i, ok := p.col["ncpus"]; ok {
			p.col["alloccpus"] = i
		}
	}
	if !p.has("jobid") && !p.has("jobidraw") || !p.has("state") || !p.has("submit") {
		return &ParseError{Format: "sacct", Line: num, Value: clip(line),
			Err: errors.New("header lacks JobID (or JobIDRaw), State or Submit; use --format " + SacctFormat)}
	}
	if p.headers++; p.headers > 1 {
		return nil // absent columns are noted at the first header
	}
	for _, c := range sacctColumns {
		if !p.has(c.name) && c.feeds != "" {
			p.b.rep.Notes = append(p.b.rep.Notes, "column "+c.name+" absent: "+c.feeds)
		}
	}
	if p.b.accounts() {
		for _, c := range []string{"Account", "QOS"} {
			if !p.has(c) {
				p.b.rep.Notes = append(p.b.rep.Notes, "column "+c+" absent: no "+c+" numbers (Options.Accounts)")
			}
		}
	}
	if !p.has("timelimitraw") && !p.has("timelimit") {
		p.b.rep.Notes = append(p.b.rep.Notes, "column TimelimitRaw (or Timelimit) absent: no requested time")
	}
	return nil
}

// isSacctHeader tells a header line among job lines: it names the State
// and Submit columns, and no field of it begins with a digit, as a job
// line's JobID (and Submit) do: a job named "x|State|Submit" was taken for
// a header, its columns for the lines after it.
func isSacctHeader(line string) bool {
	var state, submit bool
	for f := range strings.SplitSeq(strings.ToLower(line), "|") {
		if f != "" && f[0] >= '0' && f[0] <= '9' {
			return false
		}
		state = state || f == "state"
		submit = submit || f == "submit"
	}
	return state && submit
}

func (p *sacctParser) has(name string) bool { _, ok := p.col[strings.ToLower(name)]; return ok }

// split cuts a line into the header's columns. A text column containing
// the delimiter makes extra fields; they are joined back when the header
// has one text column (JobName, say), and the line is malformed when it
// has several (JobName and Constraints): which one holds the delimiter
// cannot be told. The extra fields went to JobName, shifting the columns
// after it, a constraint "intel|amd" making the state "amd" or worse, a
// number read from another column. joined says extra fields were joined.
func (p *sacctParser) split(line string) (f []string, joined, ok bool) {
	if p.trailing {
		line = strings.TrimSuffix(line, "|")
	}
	f = strings.Split(line, "|")
	if extra := len(f) - p.n; extra > 0 {
		if len(p.text) != 1 {
			return nil, false, false
		}
		jn := p.text[0]
		name := strings.Join(f[jn:jn+extra+1], "|")
		f = append(append(f[:jn:jn], name), f[jn+extra+1:]...)
		joined = true
	}
	return f, joined, len(f) == p.n
}

// fields counts line's fields as split would before joining.
func (p *sacctParser) fields(line string) int {
	if p.trailing {
		line = strings.TrimSuffix(line, "|")
	}
	return strings.Count(line, "|") + 1
}

// cutInText tells a line that may be the start of a record cut by a
// newline in a text column: fewer fields than the header, the last in a
// text column, the first a job id (a digit). A short line of anything
// else ("junk") is malformed at once, not joined to the next. (A cut
// line lacks --parsable's closing '|': one it ends with is a delimiter,
// the text column's value beginning with the newline.)
func (p *sacctParser) cutInText(line string) bool {
	n := strings.Count(line, "|") + 1
	if n >= p.n || line == "" || line[0] < '0' || line[0] > '9' {
		return false
	}
	for _, i := range p.text {
		if i < n {
			return true
		}
	}
	return false
}

// flushHeld reports held lines that no continuation completed as one
// malformed record.
func (p *sacctParser) flushHeld() error {
	if len(p.held) == 0 {
		return nil
	}
	held, num := strings.Join(p.held, "\n"), p.heldNum
	p.held = p.held[:0]
	return p.b.malformed(num, "", held, fmt.Errorf("%d fields, the header has %d", p.heldBars+1, p.n))
}

// record reads one line. sacct prints a newline in a text column (a job
// name "a\nb", a comment) as it is, cutting the record in two lines of
// too few fields: such a line is held and the next one joined to it, the
// pair one record when they make the header's fields (it was two
// malformed ones, the job lost and its steps counted "of jobs not in the
// input"). The held lines are kept apart, their '|' and bytes counted,
// and joined once (joining each to the last made a file of short lines
// quadratic).
func (p *sacctParser) record(line string, num int) error {
	b := p.b
	if len(p.held) > 0 {
		n := p.heldBars + p.fields(line) // fields of the lines joined
		size := p.heldSize + 1 + len(line)
		// Exactly the header's fields: a text column holding a newline
		// and a '|' is not joined back, lest the next record (a step
		// "16.batch|...") be read into the name as extra fields.
		switch {
		case n == p.n:
			b.rep.Records-- // (one record of two lines)
			line, num = strings.Join(append(p.held, line), "\n"), p.heldNum
			p.held = p.held[:0]
		case n < p.n && size <= maxLine:
			b.rep.Records--
			p.held, p.heldBars, p.heldSize = append(p.held, line), p.heldBars+strings.Count(line, "|"), size
			return nil
		default:
			if err := p.flushHeld(); err != nil {
				return err
			}
		}
	}
	f, joined, ok := p.split(line)
	if !ok && p.cutInText(line) {
		p.held, p.heldNum, p.heldBars, p.heldSize = append(p.held, line), num, strings.Count(line, "|"), len(line)
		return nil
	}
	if !ok {
		err := fmt.Errorf("%d fields, the header has %d", strings.Count(line, "|")+1, p.n)
		if len(p.text) > 1 && strings.Count(line, "|")+1 > p.n {
			err = fmt.Errorf("%w: a '|' in one of its %d text columns, which cannot be told", err, len(p.text))
		}
		return b.malformed(num, "", line, err)
	}
	if si := p.col["state"]; joined && si > p.text[0] { // (joined: one text column)
		// The extra fields were joined into the text column: a line with
		// too many fields for another reason (damaged, or of an output
		// with more columns) shifts the columns after it, a State of a
		// time or a number then, and a job was written from the wrong
		// columns ("unknown state", its submit its end's).
		if _, known := slurmStates[baseState(f[si])]; !known {
			return b.malformed(num, "", line, fmt.Errorf("%d fields, the header has %d (the extra '|' in its text column would make State %q)",
				p.fields(line), p.n, clip(f[si])))
		}
	}
	get := func(name string) string {
		if i, ok := p.col[name]; ok {
			return strings.TrimSpace(f[i])
		}
		return ""
	}
	id, key := get("jobid"), get("jobidraw")
	if id == "" {
		id = key
	}
	if key == "" {
		key = id
	}
	if id == "" {
		return b.malformed(num, "JobID", "", errors.New("empty job id"))
	}
	base, _, isStep := strings.Cut(key, ".")
	if c := get("cluster"); c != "" {
		// sacct -M a,b (or -L) lists the jobs of several clusters, whose
		// ids are their own: a job of one cluster replaced another's of
		// the same id (PREEMPTED, NODE_FAIL) as its "earlier attempt",
		// and steps went to either.
		base, key = c+"/"+base, c+"/"+key
	}
	if isStep {
		return p.step(base, get, num)
	}
	tasks := strings.Contains(id, "_[")
	if tasks {
		if st, known := slurmStates[baseState(get("state"))]; !known || st.skip != "" {
			b.skip(skipArrayRange)
			return nil
		}
	}
	r := newRecord(num)
	r.id, r.key = id, key
	if strings.Contains(line, "\n") {
		// Its lines were joined (record): a guess that two damaged lines
		// could make as well, so it is told.
		r.note(noteJoined)
	}
	if strings.Contains(id, "+") {
		r.note(noteHet)
	}
	r.user, r.group = cmp.Or(get("user"), get("uid")), cmp.Or(get("group"), get("gid"))
	r.exe = get("jobname")
	if _, ok := p.col["partition"]; ok {
		// (Without the column, Report.Notes says so once.)
		var why string
		if r.queue, why = slurmPartition(get("partition")); why != "" {
			r.note(why)
		}
	}
	if b.accounts() {
		r.group, r.qos = get("account"), get("qos")
	}
	applyState(&r, get("state"))
	if r.state == "FAILED" && p.has("exitcode") && get("exitcode") == "0:0" {
		r.note(noteFailedExit0)
	}
	loc := b.opt.location()
	for _, t := range []struct {
		name string
		dst  *int64
	}{{"submit", &r.submit}, {"start", &r.start}, {"end", &r.end}} {
		v, err := parseTime(get(t.name), loc)
		if err != nil {
			if err := b.fieldError(&r, colName(t.name), get(t.name), err); err != nil {
				return err
			}
			continue
		}
		*t.dst = v
	}
	if err := p.numbers(&r, get); err != nil {
		return err
	}
	settleRepeatedHour(&r, [3]string{get("submit"), get("start"), get("end")}, loc)
	finishSlurm(&r)
	p.dup = ""
	if tasks {
		prefix := ""
		if c := get("cluster"); c != "" {
			prefix = c + "/"
		}
		return addArrayTasks(b, &r, prefix)
	}
	if !b.add(r) {
		p.dup = key // its steps are the filed record's, read already
	}
	return nil
}

// numbers reads the counts, durations and sizes of a job line.
func (p *sacctParser) numbers(r *record, get func(string) string) error {
	b := p.b
	count := func(name string, dst *int64) error {
		v := get(name)
		if v == "" {
			return nil
		}
		var n int64
		var err error
		if name == "elapsedraw" {
			if n, err = parseCount(v); err == nil && n > maxTime {
				err = errRange
			}
		} else {
			n, err = parseProcs(v)
		}
		if err != nil {
			return b.fieldError(r, colName(name), v, err)
		}
		*dst = n
		return nil
	}
	var nodes int64 = -1
	for _, c := range []struct {
		name string
		dst  *int64
	}{{"elapsedraw", &r.elapsed}, {"alloccpus", &r.alloc}, {"reqcpus", &r.req}, {"nnodes", &nodes}} {
		if err := count(c.name, c.dst); err != nil {
			return err
		}
	}
	if v := get("suspended"); v != "" {
		if s, err := parseDuration(v); err != nil {
			if err := b.fieldError(r, "Suspended", v, err); err != nil {
				return err
			}
		} else {
			r.suspended = int64(s)
		}
	}
	if v := get("elapsed"); r.elapsed < 0 && v != "" {
		if s, err := parseDuration(v); err != nil {
			if err := b.fieldError(r, "Elapsed", v, err); err != nil {
				return err
			}
		} else {
			r.elapsed = int64(s)
		}
	}
	tresCPU := false // AllocTRES gives cpu=
	if r.alloc <= 0 {
		if v, ok := tresValue(get("alloctres"), "cpu"); ok {
			tresCPU = true
			n, err := parseProcs(v)
			if err != nil {
				if err := b.fieldError(r, "AllocTRES", v, err); err != nil {
					return err
				}
			} else {
				r.alloc = n
			}
		}
	}
	// AllocCPUS 0 without cpu= in AllocTRES is no count either, unless
	// the start equals the end (Slurm's mark of a job ended while pending,
	// whatever its state): a job that ran from its start to a later end
	// started, on processors unknown, and did not "end without starting".
	r.allocUnread = r.alloc < 0 || r.alloc == 0 && !tresCPU && r.start != r.end
	var err error
	switch {
	case p.has("timelimitraw"):
		err = slurmLimit(b, r, "TimelimitRaw", get("timelimitraw"), false)
	case p.has("timelimit"):
		err = slurmLimit(b, r, "Timelimit", get("timelimit"), true)
	}
	if err != nil {
		return err
	}
	if v := get("totalcpu"); v != "" {
		s, err := parseDuration(v)
		if err != nil {
			if err := b.fieldError(r, "TotalCPU", v, err); err != nil {
				return err
			}
		} else if s > 0 {
			r.cpu = s
		}
	}
	if err := p.reqMem(r, get, nodes); err != nil {
		return err
	}
	return p.demand(r, get, nodes)
}

// demand reads what the job asks beyond processors: ReqTRES (else
// AllocTRES, noted) for CPUs, nodes, memory, GPUs and their models and
// other GRES; the node count from ReqNodes or NNodes when the TRES have
// none, NNodes when larger (moreNodes); ReqMem (per CPU, per node or in all) when they have no memory;
// the old ReqGRES or AllocGRES ("gpu:tesla:2", per node) when they have no
// GPUs. Values reqMem already failed on are not reported twice.
func (p *sacctParser) demand(r *record, get func(string) string, nodes int64) error {
	var in demandIn
	defer func() {
		if in.any() || in.dropped {
			c := in
			r.dem = &c
		}
	}()
	tres, field := get("reqtres"), "ReqTRES"
	if tres == "" {
		if tres, field = get("alloctres"), "AllocTRES"; tres != "" {
			r.note(noteDemandAlloc)
		}
	}
	if key, v, err := slurmTRES(&in, tresEntries(tres)); err != nil {
		in.bad = true
		if key != "mem" || field != "ReqTRES" {
			return p.b.fieldError(r, field, tresItem(key, v), err)
		}
	}
	if in.nodes == 0 {
		for _, col := range []string{"reqnodes", "allocnodes"} {
			v := get(col)
			if v == "" {
				continue
			}
			n, err := parseProcs(v)
			if err != nil {
				// Unreadable, as an unreadable node= of the TRES is: the
				// demand is not kept (it was skipped for the next column
				// without a note).
				in.bad = true
				return p.b.fieldError(r, colName(col), v, err)
			}
			if n > 0 {
				in.nodes = n
				break
			}
		}
	}
	// NNodes, the nodes the job held when ReqTRES named fewer (--gpus=8
	// on 4-GPU nodes: node=1, 2 held).
	moreNodes(&in, nodes, r.note, noteHeldNodes)
	if field == "ReqTRES" {
		heldCPUs(&in, r.alloc, r.note) // (AllocCPUS, or AllocTRES's cpu=)
	}
	if v := get("reqmem"); in.memTotal == 0 && v != "" && v != "0" {
		per := v[len(v)-1]
		if per == 'c' || per == 'n' {
			v = v[:len(v)-1]
		}
		size, err := parseSize(v, 1<<20)
		switch {
		case err != nil:
			in.bad = true // reqMem reported it
		case per == 'c':
			in.memPerCPU = size / (1 << 20)
		case per == 'n':
			in.memPerNode = size / (1 << 20)
		default:
			in.memTotal = size / (1 << 20)
		}
	}
	if in.gpus == 0 {
		for _, col := range []string{"reqgres", "allocgres"} {
			if v := get(col); v != "" {
				n, models, err := slurmGRES(v)
				if err != nil {
					in.bad = true
					return p.b.fieldError(r, colName(col), v, err)
				}
				in.gpusNode = n
				in.models = append(in.models, models...)
				break
			}
		}
	}
	return nil
}

// reqMem sets the requested memory per processor: from ReqTRES's mem (the
// job's total, Slurm ≥ 21.08), else from ReqMem, whose "c" and "n"
// suffixes (Slurm < 21.08) say per CPU or per node.
func (p *sacctParser) reqMem(r *record, get func(string) string, nodes int64) error {
	procs := r.req
	if procs <= 0 {
		procs = r.alloc
	}
	if v, ok := tresValue(get("reqtres"), "mem"); ok {
		total, err := parseSize(v, 1<<20)
		if err != nil {
			return p.b.fieldError(r, "ReqTRES", v, err)
		}
		if procs > 0 {
			r.reqKB = total / 1024 / float64(procs)
		}
		return nil
	}
	v := get("reqmem")
	if v == "" || v == "0" {
		return nil
	}
	per := v[len(v)-1]
	if per == 'c' || per == 'n' {
		v = v[:len(v)-1]
	}
	size, err := parseSize(v, 1<<20)
	if err != nil {
		return p.b.fieldError(r, "ReqMem", get("reqmem"), err)
	}
	switch {
	case per == 'c':
		r.reqKB = size / 1024
	case per == 'n' && nodes > 0 && procs > 0:
		r.reqKB = size * float64(nodes) / 1024 / float64(procs)
	case per != 'n' && procs > 0:
		r.reqKB = size / 1024 / float64(procs)
	}
	return nil
}

// step adds a step's memory use (and CPU time, when the job line had
// none) to its job, the latest job line with the same raw id.
func (p *sacctParser) step(key string, get func(string) string, num int) error {
	b := p.b
	b.rep.Steps++
	if key == p.dup {
		return nil // (its CPU time was added twice)
	}
	r := b.last(key)
	if r == nil {
		p.orphans++
		return nil
	}
	mem, memField := get("averss"), "AveRSS"
	if mem == "" {
		mem, memField = get("maxrss"), "MaxRSS"
	}
	if mem != "" && mem != "0" {
		bytes, err := parseSize(mem, 1)
		if err != nil {
			r.note("unreadable " + memField)
			return b.fail(num, memField, mem, err)
		}
		tasks, cpus := int64(1), r.alloc
		if n, err := parseCount(get("ntasks")); err == nil && n > 0 {
			tasks = n
		}
		if n, err := parseProcs(get("alloccpus")); err == nil && n > 0 {
			cpus = n
		}
		if cpus > 0 {
			r.usedKB = max(r.usedKB, bytes*float64(tasks)/float64(cpus)/1024)
		}
	}
	if v := get("totalcpu"); v != "" && (r.cpu < 0 || r.cpuSteps) {
		s, err := parseDuration(v)
		if err != nil {
			r.note("unreadable TotalCPU")
			return b.fail(num, "TotalCPU", v, err)
		}
		if s > 0 {
			r.cpu, r.cpuSteps = max(r.cpu, 0)+s, true
		}
	}
	return nil
}

// colName spells a lower-case column name as sacct does, for errors.
func colName(lower string) string {
	for _, n := range strings.Split(SacctFormat+colNames, ",") {
		if strings.ToLower(n) == lower {
			return n
		}
	}
	return lower
}
