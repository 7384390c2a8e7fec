package convert

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
)

// Alibaba's PAI trace of 2020 (cluster-trace-gpu-v2020; Weng et al.,
// NSDI'22) in GPUTrace. Its tables are CSV without a header line (the
// column names are in separate .header files); a job's submission is in
// pai_job_table and its start and GPUs in pai_task_table, so GPUTrace
// takes both in one input (the two files one after the other, in either
// order) and tells each row by its field count: 6 a job, 10 a task. No
// row of the other formats GPUTrace reads has that shape (Helios and Acme
// begin with a header naming job_id and gpu_num, Philly is JSON), and a
// first line is taken for this trace only with one of its status words in
// its status field, so the input is told from its first line as the
// others are.

// The columns of the trace's tables, as its .header files list them.
var (
	paiJobColumns  = []string{"job_name", "inst_id", "user", "status", "start_time", "end_time"}
	paiTaskColumns = []string{"job_name", "task_name", "inst_num", "status", "start_time", "end_time",
		"plan_cpu", "plan_mem", "plan_gpu", "gpu_type"}
	// The other tables, refused by name when given.
	paiOtherTables = map[string][]string{
		"pai_instance_table": {"job_name", "task_name", "inst_name", "worker_name", "inst_id", "status", "start_time", "end_time", "machine"},
		"pai_sensor_table": {"job_name", "task_name", "worker_name", "inst_id", "machine", "gpu_name", "cpu_usage", "gpu_wrk_util",
			"avg_mem", "max_mem", "avg_gpu_wrk_mem", "max_gpu_wrk_mem", "read", "write", "read_count", "write_count"},
		"pai_group_tag_table": {"inst_id", "user", "gpu_type_spec", "group", "workload"},
		"pai_machine_spec":    {"machine", "gpu_type", "cap_cpu", "cap_mem", "cap_gpu"},
		"pai_machine_metric": {"worker_name", "machine", "start_time", "end_time", "machine_cpu_iowait", "machine_cpu_kernel",
			"machine_cpu_usr", "machine_gpu", "machine_load_1", "machine_net_receive", "machine_num_worker", "machine_cpu"},
	}
)

// paiStatuses are the job statuses the trace's README lists ("only
// 'Terminated' tasks are successful").
var paiStatuses = map[string]swf.Status{"Terminated": swf.StatusCompleted, "Failed": swf.StatusFailed,
	"Running": swf.StatusUnknown, "Waiting": swf.StatusUnknown}

// paiStatus returns the status word s names, in the README's case, or "".
func paiStatus(s string) string {
	for w := range paiStatuses {
		if strings.EqualFold(s, w) {
			return w
		}
	}
	return ""
}

// paiKind tells a split line of the trace: "job" or "task" (a row of
// pai_job_table or pai_task_table, by its field count), "job header" or
// "task header" (the .header file's line), the name of another of the
// trace's tables (a row of pai_instance_table, which has a status field
// too, or another table's header), "joined" (a header naming job_name
// beside plan_gpu or inst_num that is none of the published ones: a
// table joined from them), or "". first asks for the marks a first line
// needs (a status word in the status field), which later rows do not:
// there the field count says which table a row is of.
func paiKind(f []string, first bool) string {
	if slices.ContainsFunc(f, isPAIKeyColumn) {
		if k := paiHeader(f); k != "" {
			return k
		}
	}
	switch {
	case len(f) == 6 && (!first || paiStatus(f[3]) != ""):
		return "job"
	case len(f) == 10 && (!first || paiStatus(f[3]) != ""):
		return "task"
	case len(f) == 9 && paiStatus(f[5]) != "":
		return "pai_instance_table"
	}
	return ""
}

// isPAIKeyColumn reports whether s names a column every header of the
// trace has one of, so that a row (whose fields are hex names and
// numbers) is not compared with each header.
func isPAIKeyColumn(s string) bool {
	return strings.EqualFold(s, "job_name") || strings.EqualFold(s, "inst_id") || strings.EqualFold(s, "machine")
}

// paiHeader is paiKind for a line that may be a header.
func paiHeader(f []string) string {
	norm := make([]string, len(f))
	for i, s := range f {
		norm[i] = normColumn(s)
	}
	switch {
	case slices.Equal(norm, paiJobColumns):
		return "job header"
	case slices.Equal(norm, paiTaskColumns):
		return "task header"
	}
	for name, cols := range paiOtherTables {
		if slices.Equal(norm, cols) {
			return name
		}
	}
	if slices.Contains(norm, "job_name") && (slices.Contains(norm, "plan_gpu") || slices.Contains(norm, "inst_num")) {
		return "joined"
	}
	return ""
}

// sniffPAI is sniff's reading of a first line: "pai" (a row or header of
// pai_job_table or pai_task_table), "pai-other" (another of the trace's
// tables), "pai-joined", or "".
func sniffPAI(first string) string {
	if !strings.Contains(first, ",") {
		return ""
	}
	f, _, err := splitCSV(first, nil)
	if err != nil {
		return ""
	}
	switch k := paiKind(f, true); k {
	case "":
		return ""
	case "job", "task", "job header", "task header":
		return "pai"
	case "joined":
		return "pai-joined"
	default:
		return "pai-other"
	}
}

// Reasons of the PAI trace in GPUTrace's Report.
const (
	skipPAIHeader     = "header line"
	skipPAIJobAgain   = "job listed again (the same job_name; the first kept)"
	skipPAITaskAgain  = "task listed again (the same job_name and task_name; the first kept)"
	skipPAIOrphanTask = "task of a job not in pai_job_table"
	notePAINoTask     = "no task in pai_task_table (start and GPUs unknown)"
	notePAIBadTask    = "a task of it malformed (its request left out)"
	notePAINoPlanGPU  = "task without plan_gpu (0 GPUs taken)"
	notePAINoPlanCPU  = "task without plan_cpu (no cores in the demand)"
	notePAINoPlanMem  = "task without plan_mem (no memory in the demand)"
	notePAIShare      = "GPU share rounded up to whole GPUs"
	notePAINoInst     = "no instance (inst_num 0)"
	notePAITooMany    = "more than 16777216 GPUs or instances (processors unknown)"
	notePAIShapes     = "demand: tasks of different shapes, the largest of each per instance"
	notePAIShareNode  = "demand: over one GPU per instance, not whole, rounded up"
	notePAICores      = "demand: plan_cpu not whole cores, rounded up"
)

// paiZone is the zone the trace's README gives its times: read as Unix
// times in Asia/Shanghai they keep the original time of day and weekday
// (the dates are not real). China has kept UTC+8 without daylight saving
// since 1991, and the shifted times fall in 1970, when it had none either.
var paiZone = time.FixedZone("Asia/Shanghai", 8*3600)

// paiEntry is what the rows of one job_name gave: its job row (job: its
// index in jobs + 1; -1 a row skipped; 0 none yet) and its tasks summed.
type paiEntry struct {
	job             int32
	rows, bad       int32 // task rows joined; 1 when one was malformed (its job_name read)
	start           int64 // earliest task start_time, -1 none
	gpuMilli, inst  int64 // Σ inst_num × plan_gpu in thousandths of a GPU; Σ inst_num
	cores, gpuNode  int64 // per instance, the largest over the tasks
	memMiB          float64
	shapes, tooMany bool
	tasks           []string            // task names read (interned)
	taskSet         map[string]struct{} // the same, once there are many (a scan of each row was O(n²))
	notes                               // the tasks' anomalies, the job's when it is written
	anyN            bool                // a task with instances read
}

// paiJob is a job row kept until the tables are joined.
type paiJob struct {
	name, user, state string
	status            swf.Status
	submit, end       int64
	line              int
	notes
}

// paiReader joins the two tables.
type paiReader struct {
	g      *gpuReader
	byName map[string]*paiEntry
	jobs   []paiJob
	tasks  int // task rows read (any)
}

// pai reads the rows of both tables and joins them in finish's order:
// the jobs in the order of their rows (gpuReader.finish sorts them by
// submission).
func (g *gpuReader) pai(in io.Reader) error {
	p := &paiReader{g: g, byName: map[string]*paiEntry{}}
	b := g.b
	lr := newLineReader(in)
	var buf []string
	for {
		line, err := lr.next()
		switch {
		case err == io.EOF:
			return p.join()
		case err == errLineTooLong:
			b.rep.Records++
			if err := b.malformed(lr.line, "", "", err); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		}
		s := strings.TrimSpace(string(line))
		if s == "" {
			continue
		}
		b.rep.Records++
		f, col, err := splitCSV(s, buf)
		buf = f
		if err != nil {
			if err := b.malformed(lr.line, fmt.Sprintf("column %d", col), s, err); err != nil {
				return err
			}
			continue
		}
		if err := p.row(f, s, lr.line); err != nil {
			return err
		}
	}
}

func (p *paiReader) row(f []string, s string, num int) error {
	b := p.g.b
	switch k := paiKind(f, false); k {
	case "job":
		return p.job(f, num)
	case "task":
		p.tasks++
		return p.task(f, num)
	case "job header", "task header":
		b.skip(skipPAIHeader)
		return nil
	case "":
		return b.malformed(num, "", s, fmt.Errorf("%d fields: a row of pai_job_table has 6, of pai_task_table 10", len(f)))
	case "joined":
		return &ParseError{Format: b.format, Line: num, Value: clip(s),
			Err: errors.New("a header of a table joined from the trace's: give pai_job_table and pai_task_table as published")}
	default:
		return &ParseError{Format: b.format, Line: num, Value: clip(s),
			Err: fmt.Errorf("a line of %s: GPUTrace reads pai_job_table and pai_task_table, given together", k)}
	}
}

// entry returns name's entry, made when new.
func (p *paiReader) entry(name string) *paiEntry {
	e := p.byName[name]
	if e == nil {
		name = strings.Clone(name)
		e = &paiEntry{start: -1}
		p.byName[name] = e
	}
	return e
}

// paiTime reads one of the trace's times: seconds from its own origin,
// written as a decimal ("4550879.0"). Empty, "nan" and 0 (the authors'
// analysis reads a start_time of 0 as none) are unknown (-1); a fraction
// is rounded (rounded); a negative number, inf, another spelling of NaN
// and a time past maxTime are errors.
func paiTime(s string) (n int64, rounded bool, err error) {
	switch s {
	case "", "nan", "NaN", "None", "null", "NaT":
		return -1, false, nil
	}
	n, rounded, err = parseAmount(trimPointZero(s), maxTime)
	if err == nil && n == 0 {
		n = -1
	}
	return n, rounded, err
}

// trimPointZero returns s without the ".0" the trace writes its whole
// numbers with ("4550879.0") when the rest is digits, so that parseAmount
// reads it as an integer: strconv.ParseInt's error on the fraction was
// an allocation per time and per inst_num.
func trimPointZero(s string) string {
	t, ok := strings.CutSuffix(s, ".0")
	if !ok || t == "" || strings.Trim(t, "0123456789") != "" {
		return s
	}
	return t
}

// job reads a row of pai_job_table: job_name, inst_id, user, status,
// start_time (the submission), end_time.
func (p *paiReader) job(f []string, num int) error {
	b := p.g.b
	name := f[0]
	if name == "" {
		return b.malformed(num, "job_name", "", errors.New("no job_name: its tasks cannot be joined"))
	}
	e := p.entry(name)
	if e.job != 0 {
		b.skip(skipPAIJobAgain)
		return nil
	}
	e.job = -1 // (a job row of this name was read: its tasks are no orphans)
	// (interned: a field is cut from its line, which it would keep)
	j := paiJob{line: num, user: b.intern(f[2]), end: -1}
	submit, rounded, err := paiTime(f[4])
	switch {
	case err != nil:
		return b.malformed(num, "start_time", f[4], err)
	case submit < 0:
		b.skip(skipNoSubmit)
		return nil
	}
	j.submit = submit
	if rounded {
		j.note(noteRounded)
	}
	if end, rounded, err := paiTime(f[5]); err != nil {
		j.note("unreadable end_time")
		if err := b.fail(num, "end_time", f[5], err); err != nil {
			return err
		}
	} else {
		j.end = end
		if rounded {
			j.note(noteRounded)
		}
	}
	switch st := paiStatus(f[3]); {
	case st == "Running" || st == "Waiting":
		b.skip(skipUnfinished + " (" + st + ")")
		return nil
	case st == "":
		j.state, j.status = b.intern(clip(f[3])), swf.StatusUnknown
		if j.state == "" {
			j.state = "none"
		}
		j.note(noteUnknownState)
	default:
		j.state, j.status = st, paiStatuses[st]
	}
	j.name = strings.Clone(name) // (the job keeps its name for the Result's IDs, not the line)
	p.jobs = append(p.jobs, j)
	e.job = int32(len(p.jobs))
	if len(p.jobs) >= maxGPUJobs {
		return fmt.Errorf("line %d: more than %d jobs in one table", num, maxGPUJobs)
	}
	return nil
}

// paiAmount reads a request of a task: a non-negative decimal of at most
// limit; empty (or "nan", as a data frame writes a missing value) is
// absent.
func paiAmount(s string, limit float64) (v float64, absent bool, err error) {
	switch s {
	case "", "nan", "NaN", "None", "null":
		return 0, true, nil
	}
	if strings.Trim(s, "0123456789.eE+-") != "" {
		return 0, false, errNumber
	}
	v, err = strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return 0, false, errNumber
	case v < 0 || math.IsNaN(v) || v > limit:
		return 0, false, errRange
	}
	return v, false, nil
}

// task reads a row of pai_task_table: job_name, task_name, inst_num,
// status, start_time, end_time, plan_cpu (percent of a core per
// instance), plan_mem (GB per instance), plan_gpu (percent of a GPU per
// instance), gpu_type. Its status, end_time and gpu_type (the GPUs it
// was given, not a request) are not read.
func (p *paiReader) task(f []string, num int) error {
	b := p.g.b
	name := f[0]
	if name == "" {
		return b.malformed(num, "job_name", "", errors.New("no job_name: the task belongs to no job"))
	}
	e := p.entry(name)
	// The request: a task whose request cannot be read leaves its job's
	// incomplete, which the job notes.
	bad := func(field, v string, err error) error {
		e.bad = 1 // (only whether there was one is used: no count to wrap)
		return b.malformed(num, field, v, err)
	}
	var notes notes
	inst, rounded, err := parseAmount(trimPointZero(f[2]), maxProcs)
	if err != nil {
		return bad("inst_num", f[2], err)
	}
	if rounded {
		notes.note(noteRounded)
	}
	var v [3]float64
	for i, c := range []struct {
		col, v, absent string
		limit          float64
	}{{"plan_cpu", f[6], notePAINoPlanCPU, maxProcs * 100}, {"plan_mem", f[7], notePAINoPlanMem, 1 << 30},
		{"plan_gpu", f[8], notePAINoPlanGPU, maxProcs * 100}} {
		x, absent, err := paiAmount(c.v, c.limit)
		if err != nil {
			return bad(c.col, c.v, err)
		}
		if absent {
			notes.note(c.absent)
		}
		v[i] = x
	}
	start, rounded, err := paiTime(f[4])
	if err != nil {
		notes.note("unreadable task start_time")
		if err := b.fail(num, "start_time", f[4], err); err != nil {
			return err
		}
		start = -1
	} else if rounded {
		notes.note(noteRounded)
	}
	if e.hasTask(f[1]) {
		b.skip(skipPAITaskAgain)
		return nil
	}
	e.addTask(b.intern(f[1]))
	e.rows++
	for _, n := range notes {
		e.note(n)
	}
	if start >= 0 && (e.start < 0 || start < e.start) {
		e.start = start
	}
	// Per instance: cores rounded up, memory in MiB (GB taken as GiB, as
	// Acme's), GPUs in thousandths (rounded to the nearest).
	cores := int64(math.Ceil(v[0] / 100))
	if float64(cores*100) != v[0] {
		e.note(notePAICores)
	}
	mem := math.Ceil(v[1] * 1024)
	gpu := int64(math.Round(v[2] * 10))
	if float64(gpu) != v[2]*10 {
		e.note(noteRounded)
	}
	if inst == 0 {
		return nil
	}
	if e.anyN && (cores != e.cores || mem != e.memMiB || gpu != e.gpuNode) {
		e.shapes = true
	}
	e.anyN = true
	e.cores, e.memMiB, e.gpuNode = max(e.cores, cores), max(e.memMiB, mem), max(e.gpuNode, gpu)
	e.inst += inst
	e.gpuMilli += inst * gpu // (≤ 2^24 × 2^34: no overflow before the bound below)
	if e.inst > maxProcs || e.gpuMilli > maxProcs*1000 {
		e.tooMany = true
		e.inst, e.gpuMilli = maxProcs, maxProcs*1000 // (saturated: more rows cannot overflow)
	}
	return nil
}

// manyTasks is the number of tasks of a job over which its task names
// go into a set: most jobs have one task, a scan of a few is cheapest.
const manyTasks = 16

func (e *paiEntry) hasTask(name string) bool {
	if e.taskSet != nil {
		_, ok := e.taskSet[name]
		return ok
	}
	return slices.Contains(e.tasks, name)
}

func (e *paiEntry) addTask(name string) {
	switch {
	case e.taskSet != nil:
		e.taskSet[name] = struct{}{}
	case len(e.tasks) < manyTasks:
		e.tasks = append(e.tasks, name)
	default:
		e.taskSet = make(map[string]struct{}, 2*manyTasks)
		for _, t := range e.tasks {
			e.taskSet[t] = struct{}{}
		}
		e.taskSet[name] = struct{}{}
		e.tasks = nil
	}
}

// join makes each job row a job of its tasks, in input order, and
// accounts for the task rows: Steps counts those joined to a job row
// (written or skipped), the others are skipped.
func (p *paiReader) join() error {
	g, b := p.g, p.g.b
	switch rows := p.jobRows(); {
	case rows > 0 && p.tasks == 0:
		return &ParseError{Format: b.format, Line: b.firstLine,
			Err: errors.New("no row of pai_task_table: a job's start and GPUs are there; give both tables (pai_job_table.csv pai_task_table.csv)")}
	case rows == 0 && p.tasks > 0:
		return &ParseError{Format: b.format, Line: b.firstLine,
			Err: errors.New("no row of pai_job_table: a job's submission is there; give both tables (pai_job_table.csv pai_task_table.csv)")}
	}
	for _, e := range p.byName {
		if e.job == 0 {
			b.rep.Skipped[skipPAIOrphanTask] += int(e.rows)
		} else {
			b.rep.Steps += int(e.rows)
		}
	}
	j := &g.cur
	for k := range p.jobs {
		pj := &p.jobs[k]
		e := p.byName[pj.name]
		j.reset()
		j.notes = append(j.notes, pj.notes...)
		j.id, j.user, j.state, j.status = pj.name, pj.user, pj.state, pj.status
		j.submit, j.end, j.start = pj.submit, pj.end, e.start
		j.started = e.start >= 0
		j.perNode = true
		j.gpus, j.nodes = -1, -1
		switch {
		case e.rows == 0:
			j.note(notePAINoTask)
			j.noStartKnown = true
		case e.tooMany:
			j.note(notePAITooMany)
		case e.inst == 0:
			j.note(notePAINoInst)
			j.gpus = 0
		default:
			j.gpus, j.nodes, j.cores, j.memMiB = (e.gpuMilli+999)/1000, e.inst, e.cores, e.memMiB
			if e.gpuMilli%1000 != 0 {
				j.note(notePAIShare)
			}
			j.gpuMilli = e.gpuNode
			if j.gpuMilli > 1000 && j.gpuMilli%1000 != 0 {
				j.gpuMilli = (j.gpuMilli + 999) / 1000 * 1000
				j.note(notePAIShareNode)
			}
			if e.shapes {
				j.note(notePAIShapes)
			}
		}
		if e.bad > 0 {
			j.note(notePAIBadTask)
		}
		for _, n := range e.notes {
			j.note(n)
		}
		if err := g.add(j, pj.line); err != nil {
			return err
		}
	}
	p.jobs, p.byName = nil, nil
	return nil
}

// jobRows reports the job rows read: kept, or skipped after their
// job_name was read.
func (p *paiReader) jobRows() int {
	n := 0
	for _, e := range p.byName {
		if e.job != 0 {
			n++
		}
	}
	return n
}
