package convert

import (
	"cmp"
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

// GPUTrace converts the job table of a public GPU cluster trace, plain or
// gzip, told from its first bytes (Report.Format says which):
//
//	helios  SenseTime Helios (Hu et al., SC'21; S-Lab-System-Group/HeliosData),
//	        a cluster's cluster_log.csv:
//	        job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue
//	acme    Shanghai AI Lab's Acme (Hu et al., NSDI'24; InternLM/AcmeTrace),
//	        trace_seren.csv or trace_kalos.csv: job_id,user,node_num,gpu_num,cpu_num,
//	        [mem_per_pod_GB,shared_mem_per_pod,]type,state,submit_time,start_time,end_time,
//	        [fail_time,stop_time,]duration,queue,gpu_time
//	philly  Microsoft Philly (Jeon et al., ATC'19; msr-fiddle/philly-traces),
//	        cluster_job_log: a JSON list of {status, vc, jobid, attempts:
//	        [{start_time, end_time, detail: [{ip, gpus: [...]}]}], submitted_time, user}
//	pai     Alibaba PAI (Weng et al., NSDI'22; alibaba/clusterdata,
//	        cluster-trace-gpu-v2020): pai_job_table.csv and pai_task_table.csv,
//	        one after the other in either order, without header lines:
//	        job_name,inst_id,user,status,start_time,end_time and
//	        job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type
//
// A CSV header with job_id, gpu_num, submit_time and start_time is a GPU
// job table: acme when it has type, gpu_time or mem_per_pod_GB, else
// helios. Columns are found by name, in any order and letter case.
//
// Processors (fields 5 and 8) are GPUs: the resource these clusters queue
// for. A one-pool simulation takes the cluster's GPUs as -machine; a job
// of 0 GPUs (a CPU job, half of Helios's) then has 0 processors, counted
// as "CPU job (0 GPUs)". Each job's swf.Demand holds its nodes (node_num;
// Philly: the servers of its first attempt), cores per node (cpu_num over
// the nodes, rounded up; Philly has none), memory per node (Acme Kalos's
// mem_per_pod_GB × 1024 MiB, GB taken as GiB) and GPUs per node (rounded
// up), for a simulation on a machine of nodes (simulate -nodes).
//
// Times: Helios and Philly write "2020-06-09 18:41:01" without a zone,
// read in Options.Location; Acme's carry their offset ("+08:00" Seren,
// "+00:00" Kalos), which is used. Wait is start − submit, run time end −
// start (Helios and Acme's duration when end_time is empty); requested
// time is -1 (no trace has a time limit; a Report note counts the jobs).
// Philly: wait is the first attempt's start − submit, run time the last
// attempt's end − the first's start (the authors' notebook's queueing
// delay and run time), counted as "several attempts" when there are more;
// when the first attempt has no start_time the first one recorded is used
// (the notebook leaves such a job without wait and run time), counted as
// "attempt without start_time". GPUs are the first attempt's (as the
// notebook counts them). Queue is
// Helios's and Philly's vc, executable Acme's type; user numbered.
//
// Status (Helios and Acme print Slurm's states):
//
//	COMPLETED, Pass                 1
//	FAILED, NODE_FAIL, Failed       0
//	TIMEOUT                         0, counted as "killed at its time limit"
//	CANCELLED, Killed               5; wait and run time -1 when it never started
//	                                (no start time, or CANCELLED with start = end)
//	RUNNING, PENDING, SUSPENDED...  skipped: not finished at dump (Philly: no
//	                                end_time on the last attempt, unless Pass,
//	                                Failed or Killed: run time -1, "no end time")
//	others                          -1, "unknown state"
//
// The Report accounts for every row (Philly: every job object): Records =
// Jobs + Σ Skipped. Skipped: "malformed record" (an unreadable
// submit_time, gpu_num, cpu_num, node_num or mem_per_pod_GB; a Philly job
// that is not an object of the schema), "no submit time", "not finished
// at dump (STATE)", "repeated header line", "another header line" (files
// concatenated: a header of the same table with other columns, which
// apply from there on, noted; one of the other table is an error).
// Anomalies (jobs written): "CPU
// job (0 GPUs)", "no job id" (the ID is "line N"), "job id reused" (both
// kept; a job whose id, times, request, user and state all repeat an
// earlier one's, a table given twice, is kept too, unlike the job
// tables' "record listed again" below, and a Note counts such jobs: a
// map of every job to skip them is more than the jobs' own memory),
// "unreadable FIELD" (start_time, end_time, duration: -1),
// "start before submit", "end before start", "no end time", "ended
// without starting", "cancelled while running", "killed at its time
// limit", "unknown state", "no node count" (one node assumed), "several
// attempts", "attempt without start_time", "attempts with different
// GPUs", "GPUs unknown (no attempt)" (a Philly job without attempts: no
// processors, no demand), "record of several lines (a newline in a
// value)" (Helios, Acme: a quoted value spanning lines, joined as the
// job tables' below), "fewer fields than the header", "more fields
// than the header", "fractional value rounded" and the demand rules
// (Result's doc).
//
// The schemas are those of each repository's README (column names and
// order, seconds, states; Helios has no job name column) and, for Philly,
// of the analysis notebook beside it (how it parses times, None, GPUs,
// wait and run time). Not stated there, so not assumed: the zone of
// Helios's and Philly's times (give Options.Location: Philly's utilization
// logs are stamped PST/PDT, Helios's clusters are in China), whether
// mem_per_pod_GB is GB or GiB.
//
// Memory: a job takes its Result's share (its swf.Job, 152 bytes, and
// its id) and, until the Result is made, a 64-byte record; jobs asking
// the same demand share one *swf.Demand (copy it before changing one
// job's). The jobs are sorted only when the input is not in submit
// order. TestGPUTraceMemory bounds what a job keeps and allocates.
//
// PAI's tables have no header line (the names are in .header files):
// the input is PAI's when its first line is a row of 6 or 10 fields with
// one of the README's statuses (Terminated, Failed, Running, Waiting) in
// the fourth, or a .header file's line, which no Helios or Acme header
// and no Philly list is; after it each row is a job (6 fields) or a task
// (10). A job is a pai_job_table row joined with its tasks by job_name
// (both kept until the input ends, a map entry per job_name).
// Submit is the job's start_time ("timestamp of job submission time");
// its start the earliest start_time of its tasks (the README: "the gap
// between job.start_time and the earliest task.start_time in the job
// implies its wait time"); its end its end_time. Times are seconds on the
// trace's own clock ("4550879.0"; a fraction rounded, noted); 0, empty
// and nan are unknown, as the authors' analysis reads a start_time of 0.
// Processors: Σ inst_num × plan_gpu / 100 over its tasks (plan_gpu is a
// percentage of a GPU per instance: the README's job of tasks ps 1 × 0%
// and worker 2 × 50% asks 1 GPU), rounded up to whole GPUs ("GPU share
// rounded up to whole GPUs"). The demand: a node per instance (Σ
// inst_num), per node the largest over the tasks of plan_cpu / 100 cores
// (rounded up), plan_mem GB as GiB, and plan_gpu in thousandths of a GPU
// (a share of one kept; over one GPU rounded up to whole ones); tasks of
// different shapes are noted. gpu_type (the GPUs a task was given, not
// asked for) and the tasks' status and end_time are not read. Status:
// Terminated 1, Failed 0 ("ended without starting" when no task has a
// start_time), Running and Waiting skipped as not finished, others -1
// ("unknown state"). User is numbered; there is no queue. The header's
// zone is Asia/Shanghai whatever Options.Location says: the README's
// times, shifted by a constant, keep the time of day and weekday there.
// Report.Steps counts the task rows joined to a job row (Records = Jobs
// + Steps + Σ Skipped). PAI's reasons: skipped "header line", "job listed
// again (...)", "task listed again (...)", "task of a job not in
// pai_job_table", "malformed record" (no job_name; an unreadable
// submission, inst_num, plan_cpu, plan_mem or plan_gpu; another field
// count); anomalies "no task in pai_task_table (start and GPUs
// unknown)", "a task of it malformed (its request left out)", "task
// without plan_gpu (0 GPUs taken)" (and plan_cpu, plan_mem), "GPU share
// rounded up to whole GPUs", "no instance (inst_num 0)", "more than
// 16777216 GPUs or instances (processors unknown)", "unreadable end_time",
// "unreadable task start_time", "demand: tasks of different shapes, the
// largest of each per instance", "demand: over one GPU per instance, not
// whole, rounded up", "demand: plan_cpu not whole cores, rounded up". Given only one of the two tables, a row of another
// of the trace's tables (pai_instance_table, ...), or a table joined from
// them (a header naming job_name beside plan_gpu), GPUTrace returns an
// error that says what to give. Not read: pai_instance_table, whose
// instances' start_time the authors' notebook measures a task's wait to
// (from the task's start_time, analysis/utils.py): this wait is the job's,
// as the README defines it.
//
// HPC job tables. GPUTrace also reads the job tables HPC centres publish,
// told from the header line: "supercloud", a Slurm accounting-database
// job table as MIT SuperCloud's slurm-log.csv (id_job, time_submit,
// time_start, time_end in epoch seconds, 0 not reached; timelimit in
// minutes, 4294967295 INFINITE and 4294967294 the partition's, which
// Options.PartitionLimits fills; cpus_alloc, cpus_req (without them,
// as the dataset's scheduler-log.csv, TRES 1 of tres_alloc, tres_req;
// noted), nodes_alloc;
// state as Slurm's enum job_states or its word; id_user, id_group,
// partition, job_name; tres_req, else tres_alloc, for the demand: 2
// memory in MB, also SWF's requested memory, 4 nodes, 1001 and 1002 GPUs), and "alcf", an ALCF job
// log (DIM_JOB_COMPOSITE: COBALT_JOBID, QUEUED_TIMESTAMP,
// START_TIMESTAMP, END_TIMESTAMP as "2023-01-02 00:10:00[.ffffff]" in
// Options.Location, WALLTIME_SECONDS, RUNTIME_SECONDS, CORES_USED,
// CORES_REQUESTED, NODES_USED, NODES_REQUESTED, EXIT_STATUS,
// USERNAME_GENID, PROJECT_NAME_GENID, QUEUE_NAME). With Options.ColumnMap
// it reads any table with a header line, comma or tab separated, by the
// columns the map names (Report.Format "table"). These are filled as the
// accounting logs are (Result's doc): processors are cores, never GPUs
// (which go into the demand line), requested time the time limit, user,
// group and queue numbered; status from a Slurm state (Sacct's doc; in a
// mapped table a number is one only by state=COLUMN:slurmdb, else noted
// "state a number, not read (...)"), or from an exit status (also
// Slurm's "exit:signal" in a state column): 0 (0:0) is 1, another 0. A table of nodes without cores
// (ALCF without CORES_USED, a map without procs) takes nodes ×
// Options.CoresPerNode, noted "processors from nodes x
// Options.CoresPerNode"; without it the processors are -1, noted
// "processors unknown (nodes only; give Options.CoresPerNode)" ("nodes x
// Options.CoresPerNode over 16777216 processors (unknown)" past the
// bound). Each time is read as epoch seconds or a timestamp ("2006-01-02
// 15:04:05", with a T, a fraction, an offset or Z), counted in a Report
// note; a fraction of a second is dropped (SWF's whole seconds), its job
// noted "fraction of a second dropped from a time". Reasons besides Sacct's: skipped "malformed record" (no readable
// submit time, a row that does not split), "record listed again
// (overlapping dumps)", "repeated header line", "another header line"
// (tables concatenated: its columns apply from there on, found by name;
// another table's header is an error); anomalies "unreadable
// ROLE" (start, end, runtime, limit, procs, reqprocs, nodes, reqnodes,
// gpus, tres_req, tres_alloc: -1, the error in Errors), "no job id",
// "job id reused", "no state or exit status column (status -1)",
// "demand: TRES other than cpu, mem, node and GPUs (1001, 1002) not
// kept", "no requested memory", "no used memory", "memory per processor
// unknown (processors unknown)", "memory per node, nodes unknown (not
// kept)", "unreadable reqmem" (and usedmem), "record of several lines (a
// newline in a value)" (a quoted value spanning lines, read as one
// record; a quote not closed within 64 lines, or closed where no field
// ends, leaves its line malformed and the others read again),
// "fewer fields than the header", "more fields than the header",
// "fractional value rounded"; skipped "no submit time" too. Where the
// names and units come from: README.md (in this directory).
func GPUTrace(r io.Reader, opt Options) (_ *Result, err error) {
	also := []string{"helios", "acme", "philly", "pai", "supercloud", "alcf"}
	if opt.ColumnMap != nil {
		// The user's map says what the table is, whatever its header
		// looks like (a header line sniff takes for another table's).
		also = append(also, "", "alibaba", "alibaba-nodes", "nodes", "squeue", "sacct-fixed")
	}
	in, done, b, err := begin(r, &opt, "gpu", also...)
	if err != nil {
		return nil, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	switch {
	case opt.ColumnMap != nil:
		return readJobTable(in, b, mappedSchema(opt.ColumnMap))
	case b.saw == "supercloud":
		return readJobTable(in, b, superCloudSchema)
	case b.saw == "alcf":
		return readJobTable(in, b, alcfSchema)
	}
	if b.saw != "helios" && b.saw != "acme" && b.saw != "philly" && b.saw != "pai" {
		return nil, &FormatError{Want: "gpu", Saw: b.saw, Line: b.firstLine, Sample: b.sample}
	}
	g := &gpuReader{b: b, noID: map[int]int{}, users: newNames(), queues: newNames(), exes: newNames(),
		demandIdx: map[[5]int64]int32{}, demandOf: map[[6]int64]madeDemand{}}
	b.format, b.rep.Format = b.saw, b.saw
	switch b.saw {
	case "philly":
		err = g.philly(in)
	case "pai":
		err = g.pai(in)
	default:
		var buf []string
		row := func(s string, line int, joined bool) (err error) { buf, err = g.row(s, line, buf, joined); return err }
		err = readTable(newLineReader(in), b, b.saw, false,
			func(s string, line int) (err error) { return g.header(s, line) },
			func(s string, line int) error { return g.feed(b, g.t, s, line, row) })
		if err == nil {
			err = g.flush(b, g.t, true, row)
		}
	}
	if err != nil {
		return nil, err
	}
	return g.finish()
}

// Reasons of GPUTrace's Report.
const (
	noteCPUJob      = "CPU job (0 GPUs)"
	noteNoJobID     = "no job id"
	noteNoNodes     = "no node count"
	noteAttempts    = "several attempts"
	noteNoAttStart  = "attempt without start_time"
	noteAttemptGPUs = "attempts with different GPUs"
)

// gpuColumns are the columns read; the others listed are known and
// ignored: queue, duration's twin (start − submit), gpu_time (duration ×
// gpu_num), fail_time and stop_time (end_time is their later), and
// shared_mem_per_pod (/dev/shm, inside the pod's memory).
var gpuColumns = []string{"job_id", "user", "vc", "gpu_num", "cpu_num", "node_num", "state", "submit_time",
	"start_time", "end_time", "duration", "mem_per_pod_gb", "type",
	"queue", "gpu_time", "fail_time", "stop_time", "shared_mem_per_pod"}

// gpuJob is one row as read, in epoch seconds, -1 unknown: the reader's
// scratch, made into a gpuRec at once (add).
type gpuJob struct {
	id                          string
	state                       string
	status                      swf.Status
	submit, start, end, elapsed int64
	started                     bool
	gpus, cpus, nodes           int64   // cpus, nodes -1 unknown
	memMiB                      float64 // per node, 0 none
	user, queue, exe            string
	// PAI: the demand per node (instance) as given: cores, and GPUs in
	// thousandths (a share of one), instead of totals over the nodes.
	perNode         bool
	cores, gpuMilli int64
	// PAI: a job without tasks, whose start is not known (not "ended
	// without starting").
	noStartKnown bool
	notes
}

// reset makes j a fresh row, keeping its notes' array.
func (j *gpuJob) reset() {
	n := j.notes[:0]
	*j = gpuJob{submit: -1, start: -1, end: -1, elapsed: -1, cpus: -1, nodes: -1, notes: n}
}

// gpuRec is a job kept until finish: its SWF fields that vary (the
// others are -1 for every job), 64 bytes where a swf.Job is 152 and its
// Demand 80 more.
type gpuRec struct {
	id                    string
	submit, wait, run     int64 // submit in epoch seconds
	procs                 int32 // GPUs (≤ maxProcs; Philly: ≤ maxJSONJob), allocated too when alloc
	user, queue, exe, dem int32 // numbers in input order (-1 none); dem: index in demands + 1 (0 none)
	status                int8
	alloc                 bool
}

// recChunk is the number of gpuRecs in a chunk: chunks never move (an
// appended slice is copied at each growth, five times its final size
// allocated in all). 64 KiB: a table of ten rows took 2 MiB, zeroed, at
// 1<<15 (GPUTrace on testdata/gpu-helios.csv 0.87 to 2 ms, was 0.12).
const recChunk = 1 << 10

// gpuReader keeps each job as a gpuRec, in chunks, in input order; the
// Report's counts are taken as each job is read (no per-job notes, and
// the ids' duplicates are found by a sort, not a map). finish sorts the
// jobs by submit when the input is not in that order, and makes the
// Result, allocated at once. The full Helios (3.36 M jobs) took 2.9 GB
// when each job was kept as read (about 200 bytes, its notes, a map of
// ids) and its swf.Job made after a sort.
type gpuReader struct {
	b                   *builder
	t                   *table
	cur                 gpuJob
	recs                [][]gpuRec
	n                   int
	noID                map[int]int // index of a job without id → its line
	users, queues, exes *names      // numbered in input order
	last, maxAlloc      int64
	demands             []*swf.Demand           // one of each value (share)
	demandIdx           map[[5]int64]int32      // value → index in demands + 1
	demandOf            map[[6]int64]madeDemand // request → its demand
	// A Helios or Acme record whose quoted value holds a newline, joined
	// as the generic job table's (jobtable_join.go): it was split, its
	// first line a malformed record and the rest rows of their own.
	joiner
}

// rec returns the i-th job read.
func (g *gpuReader) rec(i int) *gpuRec { return &g.recs[i/recChunk][i%recChunk] }

func (g *gpuReader) header(s string, line int) error {
	t, notes, err := newTable(s, gpuColumns)
	if err != nil {
		return &ParseError{Format: g.b.format, Line: line, Err: err}
	}
	for _, c := range []string{"state", "end_time", "cpu_num", "node_num"} {
		if !t.has(c) {
			notes = append(notes, "no column "+c)
		}
	}
	if g.t != nil { // a later header: its notes say where
		for i, n := range notes {
			notes[i] = fmt.Sprintf("line %d: %s", line, n)
		}
	}
	g.t = t
	g.b.rep.Notes = append(g.b.rep.Notes, notes...)
	return nil
}

// otherHeader reads a header line among the rows that is not the first
// one repeated (files concatenated, each with its header: Acme's Seren
// and Kalos tables, or a table exported again with its columns in another
// order): its columns apply from there on, as a later sacct header's do.
// Read as a row, it was a malformed record and every row behind it
// another, or read by the first header's columns when as many. A header
// of the other table (Helios's in Acme's) is an error: one trace per
// conversion. It reports whether line was such a header.
func (g *gpuReader) otherHeader(line string, num int) (bool, error) {
	if !hasFold(line, "submit_time") {
		return false, nil // a row: no allocation (csvKind's split, TestGPUTraceMemory)
	}
	sep := sepOf(line) // (a TSV's repeated header: "another header line" when split at commas)
	if f, _, err := splitSep(line, sep, nil); err != nil || !allNames(f) || sep == g.t.sep && g.t.isHeader(f) {
		return false, nil // (csvRow skips the repeated header)
	}
	kind := csvKind(line)
	if kind != "helios" && kind != "acme" {
		return false, nil
	}
	b := g.b
	if kind != b.format {
		return true, &ParseError{Format: b.format, Line: num, Value: clip(line),
			Err: fmt.Errorf("the header of %s among the rows of %s: convert one trace at a time", formatNames[kind], formatNames[b.format])}
	}
	b.skip("another header line")
	b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("line %d: another header line; its columns apply from there on", num))
	return true, g.header(line, num)
}

// hasFold reports whether s holds sub, a lower-case ASCII word, in any case.
func hasFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if (s[i]|0x20 == sub[0] || s[i] == sub[0]) && strings.EqualFold(s[i:i+len(sub)], sub) { // ("_": 0x5f|0x20 is not it)
			return true
		}
	}
	return false
}

// row reads one job of a Helios or Acme table; joined: of several lines.
func (g *gpuReader) row(line string, num int, buf []string, joined bool) ([]string, error) {
	if ok, err := g.otherHeader(line, num); ok || err != nil {
		return buf, err
	}
	b, t := g.b, g.t
	row, width, ok, err := b.csvRow(t, line, num, buf)
	if !ok {
		return row, err
	}
	j := &g.cur
	j.reset()
	if width != "" {
		j.note(width)
	}
	if joined {
		j.note(noteJoined)
	}
	// The request: a row whose request cannot be read is no job.
	for _, a := range []struct {
		col string
		dst *int64
	}{{"gpu_num", &j.gpus}, {"cpu_num", &j.cpus}, {"node_num", &j.nodes}} {
		v := t.get(row, a.col)
		if v == "" {
			if a.col == "gpu_num" {
				return row, b.malformed(num, t.label(a.col), "", errors.New("no GPU count"))
			}
			continue
		}
		n, rounded, err := parseAmount(v, maxProcs)
		if err != nil {
			return row, b.malformed(num, t.label(a.col), v, err)
		}
		if rounded {
			j.note(noteRounded)
		}
		*a.dst = n
	}
	// GB taken as GiB, converted before rounding ("0.5" is 512 MiB).
	if v := t.get(row, "mem_per_pod_gb"); v != "" {
		n, err := parseSize(v, 1<<30)
		switch {
		case err == nil && strings.Trim(v, "0123456789.") != "":
			err = errNumber // (a unit)
		case err == nil && n > maxProcs<<30:
			err = errRange
		}
		if err != nil {
			return row, b.malformed(num, t.label("mem_per_pod_gb"), v, err)
		}
		j.memMiB = n / (1 << 20)
	}
	v := t.get(row, "submit_time")
	if v == "" {
		b.skip(skipNoSubmit)
		return row, nil
	}
	if j.submit, err = parseGPUTime(v, b.opt.location()); err != nil {
		return row, b.malformed(num, t.label("submit_time"), v, err)
	}
	for _, c := range []struct {
		col string
		dst *int64
	}{{"start_time", &j.start}, {"end_time", &j.end}} {
		v := t.get(row, c.col)
		n, err := parseGPUTime(v, b.opt.location())
		if err != nil {
			j.note("unreadable " + c.col)
			if err := b.fail(num, t.label(c.col), v, err); err != nil {
				return row, err
			}
			continue
		}
		*c.dst = n
	}
	if v := t.get(row, "duration"); v != "" {
		n, _, err := parseAmount(v, maxSeconds)
		if err != nil {
			j.note("unreadable duration")
			if err := b.fail(num, t.label("duration"), v, err); err != nil {
				return row, err
			}
		} else {
			j.elapsed = n
		}
	}
	settleLocal([3]*int64{&j.submit, &j.start, &j.end}, [3]string{v, t.get(row, "start_time"), t.get(row, "end_time")},
		j.elapsed, -1, &j.notes, b.opt.location())
	j.id, j.user, j.queue, j.exe = t.get(row, "job_id"), t.get(row, "user"), t.get(row, "vc"), t.get(row, "type")
	state := t.get(row, "state")
	if skip := j.setState(state); skip != "" {
		b.skip(skip)
		return row, nil
	}
	j.started = j.start >= 0 && !(j.status == swf.StatusCancelled && j.start == j.end)
	return row, g.add(j, num)
}

// setState maps a Slurm state (Helios, Acme) and returns a skip reason
// for a job not finished.
func (j *gpuJob) setState(s string) string {
	j.state = baseState(s)
	st, ok := slurmStates[j.state]
	switch {
	case !ok:
		j.state, j.status = clip(j.state), swf.StatusUnknown
		if j.state == "" {
			j.state = "none"
		}
		j.note(noteUnknownState)
	case st.skip != "":
		return st.skip
	default:
		j.status = st.status
		if st.note != "" {
			j.note(st.note)
		}
	}
	return ""
}

// maxGPUJobs bounds a table's jobs (a var only so that a test can lower
// it).
var maxGPUJobs = math.MaxInt32

// add keeps j's job and counts it in the Report. The records' indices
// are int32 (the sort's order, the numbers of users, queues and
// executables): a table of more jobs is refused rather than wrapped.
func (g *gpuReader) add(j *gpuJob, num int) error {
	if g.n >= maxGPUJobs {
		return fmt.Errorf("line %d: more than %d jobs in one table", num, maxGPUJobs)
	}
	b := g.b
	s, dem := g.job(j)
	if j.id == "" {
		j.note(noteNoJobID)
		g.noID[g.n] = num
	}
	b.rep.States[b.intern(j.state)]++
	if dem > 0 {
		b.rep.Demands++
	}
	for _, n := range j.notes {
		b.rep.Anomalies[n]++
	}
	g.last = max(g.last, j.submit, j.start, j.end)
	g.maxAlloc = max(g.maxAlloc, s.AllocProcs)
	if g.n%recChunk == 0 {
		g.recs = append(g.recs, make([]gpuRec, recChunk))
	}
	*g.rec(g.n) = gpuRec{id: strings.Clone(j.id), submit: s.Submit, wait: s.Wait, run: s.RunTime,
		procs: int32(s.ReqProcs), alloc: s.AllocProcs == s.ReqProcs, status: int8(s.Status), dem: dem,
		user: int32(g.users.number(b.intern(j.user))), queue: int32(g.queues.number(b.intern(j.queue))),
		exe: int32(g.exes.number(b.intern(j.exe)))}
	g.n++
	return nil
}

// parseGPUTime reads "2006-01-02 15:04:05" in loc, or with its offset
// ("+08:00"), seconds possibly with a fraction (as a data-frame export
// writes them; truncated); "", "None", "NaT" and "nan" are unknown (-1),
// a time before 1990 unreadable (errEarly).
func parseGPUTime(s string, loc *time.Location) (int64, error) {
	switch s {
	case "", "None", "NaT", "nan", "null":
		return -1, nil
	}
	var t time.Time
	var err error
	if len(s) > 19 && strings.ContainsAny(s[19:], "+-Z") { // (not a fraction of a second: ".5")
		t, err = time.Parse("2006-01-02 15:04:05Z07:00", s)
	} else {
		t, err = time.ParseInLocation("2006-01-02 15:04:05", s, loc)
	}
	if err != nil {
		return 0, errGPUTime
	}
	u := t.Unix()
	if err := checkTime(u); err != nil {
		return 0, err
	}
	return u, nil
}

var errGPUTime = errors.New(`not a time ("2006-01-02 15:04:05", optionally with "+08:00")`)

// finish counts reused ids, sorts the jobs by submit time (ties in input
// order) unless they are in that order, and makes the Result.
func (g *gpuReader) finish() (*Result, error) {
	b := g.b
	r, same := g.reusedIDs()
	if r > 0 {
		b.rep.Anomalies[noteIDReused] += r
	}
	if same > 0 {
		// Kept, unlike Sacct's and the job tables' "record listed
		// again": a map of every job to skip them at once is more
		// than the table's jobs take (TestGPUTraceMemory). Said, so
		// that a table given twice is not read as a load doubled.
		b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("%d jobs repeat an earlier job's id, times, request, user and state (the table given twice?): kept, the load counted twice", same))
	}
	for k, num := range g.noID {
		g.rec(k).id = "line " + strconv.Itoa(num)
	}
	var order []int32 // (nil: input order)
	for i := 1; i < g.n; i++ {
		if g.rec(i).submit < g.rec(i-1).submit {
			order = make([]int32, g.n)
			for k := range order {
				order[k] = int32(k)
			}
			slices.SortFunc(order, func(x, y int32) int {
				return cmp.Or(cmp.Compare(g.rec(int(x)).submit, g.rec(int(y)).submit), cmp.Compare(x, y))
			})
			break
		}
	}
	res := &Result{Jobs: make([]swf.Job, g.n), IDs: make([]string, g.n)}
	var base int64
	// The names numbered anew in order of first use in the sorted jobs.
	users, queues, exes := newNames(), newNames(), newNames()
	ru, rq, re := renumber(g.users, users), renumber(g.queues, queues), renumber(g.exes, exes)
	over := procsOver{max: b.opt.MaxProcs}
	for k := range res.Jobs {
		i := k
		if order != nil {
			i = int(order[k])
		}
		r := g.rec(i)
		if k == 0 {
			base = r.submit
		}
		s := swf.NewJob()
		s.ID, s.Submit, s.Wait, s.RunTime, s.Status = int64(k+1), r.submit-base, r.wait, r.run, swf.Status(r.status)
		s.ReqProcs = int64(r.procs)
		if r.alloc {
			s.AllocProcs = s.ReqProcs
		}
		if r.dem > 0 {
			s.Demand = g.demands[r.dem-1]
		}
		s.User, s.Queue, s.Executable = ru(int64(r.user)), rq(int64(r.queue)), re(int64(r.exe))
		res.Jobs[k], res.IDs[k] = s, r.id
		over.add(&s)
	}
	g.recs = nil
	over.note(&b.rep.Notes, "GPUs, not its nodes")
	b.rep.Jobs = len(res.Jobs)
	if err := b.unreadable(); err != nil {
		err.Want = "gpu" // (b.format is the table's kind)
		return nil, err
	}
	if b.rep.Jobs > 0 {
		b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("no time limit in the trace: requested time -1 for all %d jobs", b.rep.Jobs))
	}
	res.Header = g.swfHeader(base, g.last, g.maxAlloc, users, queues, exes)
	res.Report = b.rep
	return res, nil
}

// renumber returns the map from a number of from to one of to, which
// numbers each name at its first use through the map.
func renumber(from, to *names) func(int64) int64 {
	num := make([]int64, len(from.list)+1)
	return func(k int64) int64 {
		if k <= 0 {
			return k
		}
		if num[k] == 0 {
			num[k] = to.number(from.list[k-1])
		}
		return num[k]
	}
}

// reusedIDs counts the ids (but "") that an earlier job has: the jobs
// noted "job id reused", and of them the jobs whose every field repeats
// an earlier one's (same). It sorts the jobs' indices by id, then by
// their fields (4 bytes a job, for a moment) instead of keeping a map of
// every id.
func (g *gpuReader) reusedIDs() (n, same int) {
	idx := make([]int32, 0, g.n)
	for k := range g.n {
		if g.rec(k).id != "" {
			idx = append(idx, int32(k))
		}
	}
	slices.SortFunc(idx, func(x, y int32) int {
		a, b := g.rec(int(x)), g.rec(int(y))
		return cmp.Or(strings.Compare(a.id, b.id), cmp.Compare(a.submit, b.submit), cmp.Compare(a.wait, b.wait),
			cmp.Compare(a.run, b.run), cmp.Compare(a.procs, b.procs), cmp.Compare(a.status, b.status),
			cmp.Compare(a.dem, b.dem), cmp.Compare(a.user, b.user), cmp.Compare(a.queue, b.queue),
			cmp.Compare(a.exe, b.exe), cmp.Compare(boolInt(a.alloc), boolInt(b.alloc)))
	})
	for k := 1; k < len(idx); k++ {
		a, b := g.rec(int(idx[k])), g.rec(int(idx[k-1]))
		if a.id == b.id {
			n++
			if *a == *b {
				same++
			}
		}
	}
	return n, same
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// job makes j's SWF line, submit in epoch seconds, and its demand's
// number (share).
func (g *gpuReader) job(j *gpuJob) (swf.Job, int32) {
	s := swf.NewJob()
	s.Submit, s.Status, s.ReqProcs = j.submit, j.status, j.gpus
	if j.gpus == 0 {
		j.note(noteCPUJob)
	}
	if j.started {
		s.AllocProcs = j.gpus
		if j.gpus < 0 {
			j.note(noteNoAlloc)
		}
		if j.start >= j.submit {
			s.Wait = j.start - j.submit
		} else {
			j.note(noteStartBefore)
		}
		switch {
		case j.end >= j.start:
			s.RunTime = j.end - j.start
		case j.end >= 0:
			j.note(noteEndBefore)
		case j.elapsed >= 0:
			s.RunTime = j.elapsed
		default:
			j.note(noteNoEnd)
		}
		if j.status == swf.StatusCancelled {
			j.note(noteCancelledRun)
		}
	} else if j.status != swf.StatusCancelled && j.status != swf.StatusUnknown && !j.noStartKnown {
		j.note(noteNeverStarted)
	}
	if j.gpus < 0 {
		return s, 0 // (Philly without attempts: nothing known of its request)
	}
	in := &demandIn{nodes: max(j.nodes, 0), cpus: max(j.cpus, 0), gpus: j.gpus, memPerNode: j.memMiB}
	if j.perNode {
		in.cpus, in.gpus, in.cores, in.gpuMilli = 0, 0, j.cores, j.gpuMilli
		if in.nodes == 0 {
			return s, 0 // (no instance: nothing asked)
		}
	}
	if in.nodes == 0 {
		in.nodes = 1
		j.note(noteNoNodes)
	}
	// makeDemand once for each request (a new Demand and its notes were
	// 140 bytes a job to collect).
	k := [6]int64{in.nodes, in.cpus, in.gpus, int64(math.Float64bits(in.memPerNode)), in.cores, in.gpuMilli}
	d, ok := g.demandOf[k]
	if !ok {
		d.n = g.share(makeDemand(in, 0, d.note))
		g.demandOf[k] = d
	}
	for _, n := range d.notes {
		j.note(n)
	}
	return s, d.n
}

// madeDemand is a request's demand (its number for share) and the notes
// that makeDemand took on it.
type madeDemand struct {
	n int32
	notes
}

// share returns the number of d's value (0 for nil): the jobs asking the
// same share one *swf.Demand (Helios and Acme: a few hundred values for
// millions of jobs, 80 bytes a job kept otherwise).
func (g *gpuReader) share(d *swf.Demand) int32 {
	if d == nil {
		return 0
	}
	k := [5]int64{d.Nodes, d.Cores, d.Memory, d.GPUs, 0}
	if d.Exclusive {
		k[4] = 1
	}
	plain := d.GPUModels == nil && d.Named == nil // (always here; else one a job)
	if n, ok := g.demandIdx[k]; ok && plain {
		return n
	}
	g.demands = append(g.demands, d)
	n := int32(len(g.demands))
	if plain {
		g.demandIdx[k] = n
	}
	return n
}

func (g *gpuReader) swfHeader(base, last, maxAlloc int64, users, queues, exes *names) *swf.Header {
	b := g.b
	loc := b.opt.location()
	if b.format == "pai" {
		loc = paiZone // (its README's; the times are numbers, read in no zone)
	}
	h := &swf.Header{
		Version: "2.2", Computer: b.opt.Computer, Installation: b.opt.Installation,
		Conversion: "batchq swf/convert from " + formatNames[b.format],
		MaxJobs:    int64(b.rep.Jobs), MaxRecords: int64(b.rep.Jobs), MaxProcs: b.opt.MaxProcs,
		MaxQueues: int64(len(queues.list)), Queue: queues.mapping(),
		Acknowledge: gpuCites[b.format],
	}
	if b.rep.Jobs > 0 {
		setSpan(h, base, last, loc)
	}
	status := "Status: 1 COMPLETED or Pass; 0 FAILED, NODE_FAIL, TIMEOUT or Failed; 5 CANCELLED or Killed " +
		"(wait and run time -1 when it never started)."
	if b.format == "pai" {
		status = "Status: 1 Terminated; 0 Failed (wait and run time -1 when no task started)."
	}
	h.Note = append(h.Note,
		"Submit times are seconds after UnixStartTime (the first submit); job k is the k-th submitted. "+
			"Processors are GPUs (a CPU job has 0); requested time is -1: the trace has no time limits.",
		status,
		"A line \";= nodes=N cores=C mem=MiB gpus=G\" before a job's line is what the job asks of each of N nodes "+
			"(GPUs in thousandths): batchq's demand extension, a comment to tools that read the 18 fields.")
	switch b.format {
	case "helios":
		h.Note = append(h.Note, "Queue is the job's virtual cluster (vc).")
	case "acme":
		h.Note = append(h.Note, "Executable is the job's workload type.")
	case "philly":
		h.Note = append(h.Note, "Queue is the job's virtual cluster (vc). Wait is the first attempt's start - submit, "+
			"run time the last attempt's end - the first attempt's start; GPUs are the first attempt's.")
	case "pai":
		h.Note = append(h.Note, "UnixStartTime is the trace's own clock: its times were shifted by a constant, "+
			"and read in Asia/Shanghai keep the time of day and weekday, not the date (its README).",
			"Submit is pai_job_table's start_time; wait is the earliest start_time of the job's tasks (pai_task_table) - submit, "+
				"run time end_time - that start. Processors are the GPUs of all its instances (inst_num x plan_gpu / 100 "+
				"over its tasks) rounded up; a demand node is an instance, its GPUs the share each asks.")
	}
	if b.opt.MaxProcs == 0 {
		h.Note = append(h.Note, fmt.Sprintf("MaxProcs unknown: the largest job was allocated %d GPUs.", maxAlloc))
	}
	if !b.opt.HideNames {
		for _, m := range users.mapping() {
			h.Other = append(h.Other, swf.KeyValue{Key: "User", Value: m})
		}
		for _, m := range exes.mapping() {
			h.Other = append(h.Other, swf.KeyValue{Key: "Executable", Value: m})
		}
	}
	return h
}

var gpuCites = map[string]string{
	"helios": "Hu et al., Characterization and Prediction of Deep Learning Workloads in Large-Scale GPU Datacenters, SC 2021",
	"acme":   "Hu et al., Characterization of Large Language Model Development in the Datacenter, NSDI 2024",
	"philly": "Jeon et al., Analysis of Large-Scale Multi-Tenant GPU Clusters for DNN Training Workloads, USENIX ATC 2019",
	"pai":    "Weng et al., MLaaS in the Wild: Workload Analysis and Scheduling in Large-Scale Heterogeneous GPU Clusters, NSDI 2022",
}
