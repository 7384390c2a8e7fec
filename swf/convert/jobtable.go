package convert

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
)

// The job tables of HPC centres that GPUTrace reads beside the GPU
// traces: a CSV (or TSV) header naming the columns, one job a row, its
// processors CPU cores (not GPUs; GPUs go into the demand line). Two
// public schemas are told from the header (csvKind); any other table is
// read by a column map the user gives (Options.ColumnMap).
//
// MIT SuperCloud's slurm-log.csv (Samsi et al., "The MIT Supercloud
// Dataset", HPEC 2021) is a dump of Slurm's accounting database job
// table. Its names and units as the code that reads it uses them: the
// RAPS (ExaDigiT) MIT SuperCloud data loader compares time_submit with
// epoch seconds, reads time_start, time_end, nodes_alloc, id_user,
// id_job, multiplies timelimit by 60 (minutes), and parses tres_alloc
// "1=20,2=170000,4=1,5=20" with TRES 1 cpu, 2 mem (MB) and GPUs as TRES
// 1001 (gpu:tesla) or 1002 (gpu:volta), "one or the other, not both"; an
// analysis loader of the same table reads gres_used and tres_alloc
// likewise; ScSF (LBNL's Slurm simulator framework) reads the same
// table's cpus_req, cpus_alloc, job_name, id_job, id_user, nodes_alloc,
// partition, state, timelimit, time_submit, time_start, time_end. Slurm
// stores state as its enum job_states (slurm.h: 0 PENDING, 1 RUNNING, 2
// SUSPENDED, 3 COMPLETE, 4 CANCELLED, 5 FAILED, 6 TIMEOUT, 7 NODE_FAIL, 8
// PREEMPTED, 9 BOOT_FAIL, 10 DEADLINE, 11 OOM; flags above the low byte),
// 0 for a time not reached, and a time limit of INFINITE (0xffffffff) or
// NO_VAL (0xfffffffe: the partition's).
//
// ALCF's job logs (DIM_JOB_COMPOSITE, e.g. ANL-ALCF-DJC-THETA_*.csv):
// names and units as the analysis code that reads them uses them (a
// public Mira/Theta job-log parser's field list: JOB_NAME, COBALT_JOBID,
// MACHINE_NAME, QUEUED_TIMESTAMP, START_TIMESTAMP and END_TIMESTAMP as
// "%Y-%m-%d %H:%M:%S" with an optional ".%f", USERNAME_GENID,
// PROJECT_NAME_GENID, QUEUE_NAME, WALLTIME_SECONDS, RUNTIME_SECONDS,
// NODES_USED, NODES_REQUESTED, CORES_USED, CORES_REQUESTED, LOCATION,
// EXIT_STATUS, ...; a Theta analysis script renames WALLTIME_SECONDS
// "WallTimeRequested" and RUNTIME_SECONDS "Runtime"), and the ALCF
// reporting tool's options, which take QUEUED_TIMESTAMP as a UTC date.
// There is no job state: EXIT_STATUS 0 is status 1, another 0.

// tableRoles are the roles of a column (Options.ColumnMap's keys).
var tableRoles = []string{"id", "submit", "start", "end", "runtime", "limit", "procs", "reqprocs",
	"nodes", "reqnodes", "gpus", "state", "exit", "user", "group", "queue", "name", "reqmem", "usedmem"}

// tableSchema says which column plays each role: the first of its
// candidates (normalized names) that the header has.
type tableSchema struct {
	format string
	roles  map[string][]string
	unit   map[string]int64 // a duration role's seconds per unit (default 1)
	tres   bool             // Slurm's tres_req and tres_alloc give the demand
	mapped bool             // Options.ColumnMap: a column it names must be there
	// stateNumbers: a number in the state column is Slurm's enum
	// job_states (its database's); else it is no state known.
	stateNumbers bool
	memSuffix    map[string]string // reqmem's and usedmem's suffix (jobtable_mem.go)
}

var superCloudSchema = &tableSchema{format: "supercloud", tres: true, stateNumbers: true, unit: map[string]int64{"limit": 60},
	roles: map[string][]string{"id": {"id_job"}, "submit": {"time_submit"}, "start": {"time_start"},
		"end": {"time_end"}, "limit": {"timelimit"}, "procs": {"cpus_alloc"}, "reqprocs": {"cpus_req"},
		"nodes": {"nodes_alloc"}, "state": {"state"}, "user": {"id_user"}, "group": {"id_group"},
		"queue": {"partition"}, "name": {"job_name", "name_job"}}}

var alcfSchema = &tableSchema{format: "alcf",
	roles: map[string][]string{"id": {"cobalt_jobid", "job_name"}, "submit": {"queued_timestamp"},
		"start": {"start_timestamp"}, "end": {"end_timestamp"}, "limit": {"walltime_seconds"},
		"runtime": {"runtime_seconds"}, "procs": {"cores_used"}, "reqprocs": {"cores_requested"},
		"nodes": {"nodes_used"}, "reqnodes": {"nodes_requested"}, "exit": {"exit_status", "exit_code"},
		"user": {"username_genid"}, "group": {"project_name_genid"}, "queue": {"queue_name"}}}

// roleSuffixes are the suffixes a mapped column may carry
// ("COLUMN:min"), by role: a duration's seconds per unit; state's
// "slurmdb" (its numbers are Slurm's enum job_states).
var roleSuffixes = map[string]map[string]int64{
	"runtime": durationUnits, "limit": durationUnits, "state": {"slurmdb": 1},
	"reqmem": memSuffixes, "usedmem": memSuffixes,
}

// durationUnits are the unit suffixes of a mapped duration column.
var durationUnits = map[string]int64{"s": 1, "min": 60, "h": 3600}

// splitUnit cuts "COLUMN:SUFFIX" into the column and the suffix (lower
// case) when SUFFIX is one of roleSuffixes'; else it returns col and "".
// A column in double quotes ("Wall, min" or "Time:h", a quote doubled
// inside) is its name as written, a suffix only after the closing quote.
func splitUnit(col string) (string, string, error) {
	if t := strings.TrimSpace(col); strings.HasPrefix(t, `"`) {
		name, rest, err := unquote(t)
		if err != nil {
			return "", "", err
		}
		if rest = strings.TrimSpace(rest); rest == "" {
			return name, "", nil
		}
		if suf, ok := strings.CutPrefix(rest, ":"); ok {
			if suf = strings.ToLower(strings.TrimSpace(suf)); knownSuffix(suf) {
				return name, suf, nil
			}
		}
		return "", "", fmt.Errorf("%q after the quoted column name: want nothing or :SUFFIX", clip(rest))
	}
	if i := strings.LastIndexByte(col, ':'); i >= 0 {
		if suf := strings.ToLower(strings.TrimSpace(col[i+1:])); knownSuffix(suf) {
			return col[:i], suf, nil
		}
	}
	return col, "", nil
}

// unitHint says, of a mapped column not in the header whose name is a
// header column and an unknown suffix ("wall:fortnight"), that the suffix
// is the fault: the message blamed the column alone.
func unitHint(t *table, role, col string) string {
	i := strings.LastIndexByte(col, ':')
	if i <= 0 || !t.has(col[:i]) {
		return ""
	}
	units := slices.Sorted(maps.Keys(roleSuffixes[role]))
	if len(units) == 0 {
		return fmt.Sprintf(" (it has %s; %s takes no :SUFFIX)", clip(col[:i]), role)
	}
	return fmt.Sprintf(" (it has %s; %q is not a suffix of %s: %s)", clip(col[:i]), col[i+1:], role, strings.Join(units, ", "))
}

func knownSuffix(suf string) bool {
	for _, m := range roleSuffixes {
		if _, ok := m[suf]; ok {
			return true
		}
	}
	return false
}

// unquote reads a field in double quotes at the start of s, CSV's way
// ("" is a quote), and returns it and what follows the closing quote.
func unquote(s string) (string, string, error) {
	var sb strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '"' {
			sb.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '"' {
			sb.WriteByte('"')
			i++
			continue
		}
		return sb.String(), s[i+1:], nil
	}
	return "", "", errQuote
}

// checkColumnMap is Options.Validate's check of a ColumnMap.
func checkColumnMap(m map[string]string) error {
	var errs []error
	for _, role := range slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}) {
		col, suf, err := splitUnit(m[role])
		_, ok := roleSuffixes[role][suf]
		switch {
		case !slices.Contains(tableRoles, role):
			errs = append(errs, fmt.Errorf("convert: ColumnMap: unknown role %q (the roles: %s)", clip(role), strings.Join(tableRoles, ", ")))
		case err != nil:
			errs = append(errs, fmt.Errorf("convert: ColumnMap[%q] = %q: %w", role, clip(m[role]), err))
		case normColumn(col) == "":
			errs = append(errs, fmt.Errorf("convert: ColumnMap[%q] names no column", role))
		case suf != "" && !ok:
			errs = append(errs, fmt.Errorf("convert: ColumnMap[%q] = %q: %q is not a suffix of %s (%s; a column so named goes in double quotes)",
				role, clip(m[role]), suf, role, suffixList(role)))
		}
	}
	if _, ok := m["submit"]; !ok {
		errs = append(errs, errors.New("convert: ColumnMap has no submit column (every job needs its submit time)"))
	}
	return errors.Join(errs...)
}

// suffixList says which suffixes role takes, for an error.
func suffixList(role string) string {
	if len(roleSuffixes[role]) == 0 {
		return "it takes none"
	}
	return "it takes " + strings.Join(slices.Sorted(maps.Keys(roleSuffixes[role])), ", ")
}

// mappedSchema is the schema of a ColumnMap (valid: Validate ran).
func mappedSchema(m map[string]string) *tableSchema {
	s := &tableSchema{format: "table", mapped: true, roles: map[string][]string{}, unit: map[string]int64{}, memSuffix: map[string]string{}}
	for role, col := range m {
		c, suf, _ := splitUnit(col)
		s.roles[role], s.unit[role] = []string{normColumn(c)}, roleSuffixes[role][suf]
		if role == "state" && suf == "slurmdb" {
			s.stateNumbers = true
		}
		if role == "reqmem" || role == "usedmem" {
			s.unit[role], s.memSuffix[role] = 0, suf // (memSuffix reads it)
		}
	}
	return s
}

// Reasons of the job tables' Report (besides the shared ones).
const (
	noteProcsFromNodes = "processors from nodes x Options.CoresPerNode"
	noteProcsNodesOnly = "processors unknown (nodes only; give Options.CoresPerNode)"
	noteProcsTRES      = "processors from TRES 1 (cpu) of tres_alloc or tres_req (no cpus_alloc or cpus_req)"
	noteProcsRange     = "nodes x Options.CoresPerNode over 16777216 processors (unknown)"
	noteNoStatus       = "no state or exit status column (status -1)"
	noteTRESOther      = "demand: TRES other than cpu, mem, node and GPUs (1001, 1002) not kept"
	noteStateNumber    = "state a number, not read (state=COLUMN:slurmdb reads Slurm's job_states)"
	noteTimeFraction   = "fraction of a second dropped from a time"
)

// slurmDBStates are Slurm's enum job_states (slurm.h), as its database
// stores a job's state (the low byte; flags above it).
var slurmDBStates = []string{"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED", "FAILED",
	"TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"}

// tableReader reads a job table into the builder's records.
type tableReader struct {
	b              *builder
	s              *tableSchema
	t              *table
	col            map[string]int // role → the column's index
	buf            []string
	epochs, stamps int      // times read as epoch seconds, as timestamps
	fraction       bool     // time dropped a fraction of a second (row notes it)
	bareMem        int      // memory values without a unit, read as MiB
	memRoles       []string // reqmem and usedmem, those the header has
	// A record whose quoted value holds a newline (jobtable_join.go).
	joiner
}

// readJobTable converts a job table of schema s (GPUTrace's work for the
// formats supercloud, alcf and table).
func readJobTable(in io.Reader, b *builder, s *tableSchema) (*Result, error) {
	b.format, b.rep.Format = s.format, s.format
	tr := &tableReader{b: b, s: s}
	err := readTable(newLineReader(in), b, "gpu", false, tr.header, tr.feed)
	if err == nil {
		err = tr.flushHeld(true)
	}
	if err != nil {
		return nil, err
	}
	if n := tr.epochs + tr.stamps; n > 0 {
		b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("times: %d read as epoch seconds, %d as timestamps (in %s unless they carry an offset)",
			tr.epochs, tr.stamps, b.opt.location()))
	}
	if tr.bareMem > 0 {
		b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("memory: %d values without a unit read as MiB (reqmem=COLUMN:GB and the like for another)", tr.bareMem))
	}
	res, err := b.finish()
	var fe *FormatError
	if errors.As(err, &fe) {
		fe.Want = "gpu"
	}
	return res, err
}

func (tr *tableReader) header(line string, num int) error {
	later := tr.t != nil // (otherHeader's: its notes say where)
	known := []string{}
	for _, c := range tr.s.roles {
		known = append(known, c...)
	}
	if tr.s.tres {
		known = append(known, "tres_req", "tres_alloc")
	}
	t, notes, err := newTable(line, known)
	if err != nil {
		return &ParseError{Format: tr.s.format, Line: num, Err: err}
	}
	tr.t, tr.col = t, map[string]int{}
	for _, role := range tableRoles {
		cands, ok := tr.s.roles[role]
		if !ok {
			continue
		}
		i := slices.IndexFunc(cands, t.has)
		switch {
		case i >= 0:
			tr.col[role] = t.col[cands[i]]
		case tr.s.mapped:
			return &ParseError{Format: tr.s.format, Line: num, Field: "header", Value: clip(line),
				Err: fmt.Errorf("ColumnMap %s=%s: the header has no such column%s", role, clip(cands[0]), unitHint(t, role, cands[0]))}
		case role == "submit":
			return &ParseError{Format: tr.s.format, Line: num, Field: "header", Value: clip(line),
				Err: fmt.Errorf("no submit column (%s)", cands[0])}
		default:
			notes = append(notes, "no column "+strings.Join(cands, " or "))
		}
	}
	// A wide table (ALCF's has about 60 columns) in one note, not one
	// a column.
	var unread []string
	notes = slices.DeleteFunc(notes, func(n string) bool {
		if c, ok := strings.CutPrefix(n, "column "); ok && strings.HasSuffix(c, " is not read") {
			unread = append(unread, strings.TrimSuffix(c, " is not read"))
			return true
		}
		return false
	})
	if len(unread) > 0 {
		if len(unread) > 8 {
			unread = append(unread[:8], fmt.Sprintf("and %d more", len(unread)-8))
		}
		notes = append(notes, "columns not read: "+strings.Join(unread, ", "))
	}
	if later {
		for i, n := range notes {
			notes[i] = fmt.Sprintf("line %d: %s", num, n)
		}
	}
	tr.memRoles = tr.memRoles[:0] // (the roles memory reads: no map look-up a row without)
	for _, role := range []string{"reqmem", "usedmem"} {
		if _, ok := tr.col[role]; ok {
			tr.memRoles = append(tr.memRoles, role)
		}
	}
	tr.b.rep.Notes = append(tr.b.rep.Notes, notes...)
	return nil
}

// submitColumns are the submit columns of the tables csvKind knows, by
// which otherHeader tells a header line among the rows.
var submitColumns = []string{"time_submit", "queued_timestamp", "submit_time", "creation_time"}

// otherHeader reads a header line among the rows that is not the first
// one repeated (tables concatenated, each with its header, as several
// inputs are read): one of the same table (the schema's kind; with a
// ColumnMap, one naming the map's submit column) applies from there on,
// its columns found again by name (skipped "another header line",
// noted); another table's header is an error. Read as a row, it was a
// malformed record and the rows behind it were read by the first
// header's positions: with cpus_req and cpus_alloc swapped, silently
// wrong. It reports whether line was such a header.
func (tr *tableReader) otherHeader(line string, num int) (bool, error) {
	first, _, _ := strings.Cut(strings.TrimLeft(line, `" `), string(tr.t.sep))
	if isValue(strings.TrimRight(first, `"`)) {
		return false, nil // a row (headerLike's test of its first field): no scan for names
	}
	own := tr.s.roles["submit"]
	if !slices.ContainsFunc(own, func(c string) bool { return hasFold(line, c) }) &&
		!slices.ContainsFunc(submitColumns, func(c string) bool { return hasFold(line, c) }) {
		return false, nil // a row: no allocation
	}
	sep := sepOf(line)
	f, _, err := splitSep(strings.TrimPrefix(line, "\xef\xbb\xbf"), sep, nil)
	if err != nil || !headerLike(f) || sep == tr.t.sep && tr.t.isHeader(f) {
		return false, nil // (csvRow reports it, or skips the repeated header)
	}
	hasOwn := slices.ContainsFunc(f, func(v string) bool { return slices.Contains(own, normColumn(v)) })
	kind := csvKind(line)
	switch {
	case tr.s.mapped && hasOwn, !tr.s.mapped && kind == tr.s.format:
	case kind != "":
		return true, &ParseError{Format: tr.s.format, Line: num, Value: clip(line),
			Err: fmt.Errorf("the header of %s among the rows of %s: convert one table at a time", formatNames[kind], formatNames[tr.s.format])}
	default:
		return false, nil
	}
	tr.b.skip("another header line")
	tr.b.rep.Notes = append(tr.b.rep.Notes, fmt.Sprintf("line %d: another header line; its columns apply from there on", num))
	return true, tr.header(line, num)
}

// headerLike reports whether no field of a line is a number or a time,
// as a header's are: every row of a job table has one, its submit time.
// A name that begins with a digit ("1st_start", "95th_pct") is a name:
// a header holding one was read as a row, malformed, and the rows behind
// it by the first header's positions.
func headerLike(f []string) bool {
	return !slices.ContainsFunc(f, isValue)
}

// isValue reports whether a field is a number, a time or a duration: a
// digit, a sign or a point first, then only digits and the marks of
// numbers, dates and clocks ("1.5e9", "2023-01-02T00:10:00Z", "1-02:00:00",
// "2023-01-02 00:10:00 UTC").
func isValue(v string) bool {
	// A timestamp may end in " UTC", as the job tables' times are read
	// (tableTime): a row of such times and names was taken for a header.
	v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "UTC"))
	if v == "" || strings.IndexByte("0123456789+-.", v[0]) < 0 {
		return false
	}
	for i := 1; i < len(v); i++ { // (a loop: strings.Trim's cutset cost 340 instructions a row)
		if c := v[i]; (c < '0' || c > '9') && strings.IndexByte("+-.:eETZ /", c) < 0 {
			return false
		}
	}
	return true
}

// get returns the row's value of a role's column, "" without one.
func (tr *tableReader) get(row []string, role string) string {
	if i, ok := tr.col[role]; ok && i < len(row) {
		return row[i]
	}
	return ""
}

// label names a role's column in an error.
func (tr *tableReader) label(role string) string {
	if i, ok := tr.col[role]; ok {
		return fmt.Sprintf("%s (column %d)", tr.t.raw[i], i+1)
	}
	return role
}

// row reads one record (joined: of several lines, its quoted values
// holding newlines).
func (tr *tableReader) row(line string, num int, joined bool) error {
	if ok, err := tr.otherHeader(line, num); ok || err != nil {
		return err
	}
	b := tr.b
	row, width, ok, err := b.csvRow(tr.t, line, num, tr.buf)
	tr.buf = row
	if !ok {
		return err
	}
	r := newRecord(num)
	if width != "" {
		r.note(width)
	}
	if joined {
		r.note(noteJoined)
	}
	v := tr.get(row, "submit")
	stamps := [3]string{v, tr.get(row, "start"), tr.get(row, "end")}
	tr.fraction = false
	if r.submit, err = tr.time(v); err != nil {
		return b.malformed(num, tr.label("submit"), v, err)
	}
	for _, c := range []struct {
		role string
		dst  *int64
	}{{"start", &r.start}, {"end", &r.end}} {
		v := tr.get(row, c.role)
		n, err := tr.time(v)
		if err != nil {
			r.note("unreadable " + c.role)
			if err := b.fail(num, tr.label(c.role), v, err); err != nil {
				return err
			}
			continue
		}
		*c.dst = n
	}
	if tr.fraction {
		r.note(noteTimeFraction)
	}
	if r.elapsed, err = tr.duration(&r, row, num, "runtime"); err != nil {
		return err
	}
	settleRepeatedHour(&r, stamps, b.opt.location())
	if err := tr.limit(&r, row, num); err != nil {
		return err
	}
	var procs, req, nodes, reqNodes, gpus int64 = -1, -1, -1, -1, -1
	for _, c := range []struct {
		role string
		dst  *int64
	}{{"procs", &procs}, {"reqprocs", &req}, {"nodes", &nodes}, {"reqnodes", &reqNodes}, {"gpus", &gpus}} {
		v := tr.get(row, c.role)
		if v == "" {
			continue
		}
		n, rounded, err := parseAmount(v, maxProcs)
		if err != nil {
			r.note("unreadable " + c.role)
			if err := b.fail(num, tr.label(c.role), v, err); err != nil {
				return err
			}
			continue
		}
		if rounded {
			r.note(noteRounded)
		}
		*c.dst = n
	}
	if tr.s.tres {
		// The dataset's scheduler-log.csv has no cpus_alloc (nor, in
		// some versions, cpus_req): the CPUs are TRES 1 of tres_alloc
		// (tres_req), which were "processors unknown (nodes only)".
		if procs < 0 {
			if procs = tresCPUs(tr.t.get(row, "tres_alloc")); procs >= 0 {
				r.note(noteProcsTRES)
			}
		}
		if req < 0 {
			if req = tresCPUs(tr.t.get(row, "tres_req")); req >= 0 {
				r.note(noteProcsTRES)
			}
		}
	}
	r.alloc = tr.procs(&r, procs, nodes)
	if procs < 0 && reqNodes < 0 {
		reqNodes = nodes // (a table of nodes only: its request too)
	}
	r.req = tr.procs(&r, req, reqNodes)
	tr.state(&r, row)
	r.started = r.start >= 0 && !(r.status == swf.StatusCancelled && r.start == r.end)
	if r.started && r.status == swf.StatusCancelled {
		r.note(noteCancelledRun)
	}
	dem := &demandIn{nodes: max(cmpPositive(nodes, reqNodes), 0), gpus: max(gpus, 0)}
	if tr.s.tres {
		if err := tr.tres(&r, row, num, dem); err != nil {
			return err
		}
	}
	for _, role := range tr.memRoles {
		if err := tr.memory(&r, row, num, role, nodes, reqNodes, dem); err != nil {
			return err
		}
	}
	if dem.any() {
		r.dem = dem
	}
	r.id, r.key = tr.get(row, "id"), tr.get(row, "id")
	if r.id == "" {
		r.id = "line " + strconv.Itoa(num)
		r.note(noteNoJobID)
	}
	r.user, r.group, r.queue, r.exe = tr.get(row, "user"), tr.get(row, "group"), tr.get(row, "queue"), tr.get(row, "name")
	b.add(r)
	return nil
}

// procs is a job's processors: the column's, or nodes × CoresPerNode
// when only nodes are given (noted), or -1.
func (tr *tableReader) procs(r *record, procs, nodes int64) int64 {
	switch {
	case procs >= 0:
		return procs
	case nodes <= 0:
		return -1
	case tr.b.opt.CoresPerNode > 0:
		p := nodes * tr.b.opt.CoresPerNode // (both ≤ 2^24: no overflow)
		if p > maxProcs {
			r.note(noteProcsRange)
			return -1
		}
		r.note(noteProcsFromNodes)
		return p
	}
	r.note(noteProcsNodesOnly)
	return -1
}

// time reads a time: epoch seconds (a fraction dropped) or a timestamp
// "2006-01-02 15:04:05" (or with a T, a fraction, an offset or Z), read
// in Options.Location without an offset. A fraction other than zeros
// sets tr.fraction: the job's times moved, counted (it was silent). Empty, 0 (Slurm's database: not
// reached), None, NaT, nan, null, Unknown and N/A are unknown (-1).
func (tr *tableReader) time(s string) (int64, error) {
	switch s {
	case "", "0", "None", "NaT", "nan", "NaN", "null", "NULL", "Unknown", "N/A", "(null)":
		return -1, nil
	}
	if whole, frac, _ := strings.Cut(s, "."); whole != "" && strings.Trim(whole, "0123456789") == "" &&
		strings.Trim(frac, "0123456789") == "" {
		n, err := parseCount(whole)
		switch {
		case err == errRange || err == nil && n > maxTime:
			return 0, errFuture
		case err != nil:
			return 0, errTableTime
		case n == 0:
			return -1, nil
		}
		if err := checkTime(n); err != nil {
			return 0, err
		}
		tr.epochs++
		tr.fraction = tr.fraction || strings.Trim(frac, "0") != ""
		return n, nil
	}
	u, err := parseStamp(s, tr.b.opt.location())
	if err != nil {
		return 0, err
	}
	tr.stamps++
	if len(s) > 20 && s[19] == '.' { // (parseStamp's fraction: the digits after the point)
		digits := s[20 : len(s)-len(strings.TrimLeft(s[20:], "0123456789"))]
		tr.fraction = tr.fraction || strings.Trim(digits, "0") != ""
	}
	return u, nil
}

var errTableTime = errors.New(`not a time (epoch seconds, "2006-01-02 15:04:05" or RFC 3339)`)

// parseStamp reads "2006-01-02 15:04:05" or "2006-01-02T15:04:05", with
// an optional fraction (dropped) and an optional offset ("+08:00",
// "-0500", "Z"), in loc without an offset.
func parseStamp(s string, loc *time.Location) (int64, error) {
	if len(s) < 19 || len(s) > 64 || s[10] != ' ' && s[10] != 'T' {
		return 0, errTableTime
	}
	main, rest := s[:10]+" "+s[11:19], s[19:]
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		rest = rest[i:]
	}
	rest = strings.TrimSpace(rest)
	var t time.Time
	var err error
	switch {
	case rest == "":
		t, err = time.ParseInLocation("2006-01-02 15:04:05", main, loc)
	case rest == "Z" || rest == "UTC":
		t, err = time.Parse("2006-01-02 15:04:05", main)
	case strings.Contains(rest, ":"):
		t, err = time.Parse("2006-01-02 15:04:05-07:00", main+rest)
	default:
		t, err = time.Parse("2006-01-02 15:04:05-0700", main+rest)
	}
	if err != nil {
		return 0, errTableTime
	}
	u := t.Unix()
	if err := checkTime(u); err != nil {
		return 0, err
	}
	return u, nil
}

// duration reads a duration role: a number of its unit (seconds unless
// the schema says), or [D-]HH:MM:SS; -1 when empty or unreadable (noted).
func (tr *tableReader) duration(r *record, row []string, num int, role string) (int64, error) {
	v := tr.get(row, role)
	switch v {
	case "", "None", "NaN", "nan", "null", "NULL", "N/A":
		return -1, nil
	}
	n, err := tr.seconds(r, v, role)
	if err != nil {
		r.note("unreadable " + role)
		return -1, tr.b.fail(num, tr.label(role), v, err)
	}
	return n, nil
}

// seconds reads v, a duration of role, in seconds.
func (tr *tableReader) seconds(r *record, v, role string) (int64, error) {
	if strings.Contains(v, ":") {
		f, err := parseDuration(v)
		if err != nil {
			return 0, err
		}
		return int64(math.Round(f)), nil
	}
	unit := max(tr.s.unit[role], 1)
	n, rounded, err := parseAmount(v, maxTime/unit) // (no duration is longer: a limit of 2^40 s was kept)
	if err != nil {
		return 0, err
	}
	if rounded {
		r.note(noteRounded)
	}
	return n * unit, nil
}

// limit reads the time limit, with Slurm's database's special values.
func (tr *tableReader) limit(r *record, row []string, num int) error {
	v := tr.get(row, "limit")
	switch {
	case v == "":
		if _, ok := tr.col["limit"]; ok {
			r.note(noteNoLimit)
		}
		return nil
	case tr.s.format == "supercloud" && v == "4294967295": // INFINITE
		r.note(noteUnlimited)
		return nil
	case tr.s.format == "supercloud" && v == "4294967294": // NO_VAL: the partition's
		r.partLimit = notePartLimit
		return nil
	case v == "UNLIMITED" || v == "INFINITE":
		// Slurm's words for a limit, as sacct prints them (a table
		// exported from it): read as Sacct reads them, not "not a
		// number" (the state column reads its state words).
		r.note(noteUnlimited)
		return nil
	case v == "Partition_Limit":
		r.partLimit = notePartLimit
		return nil
	case v == "INVALID":
		r.note(noteInvalidLimit)
		return nil
	}
	n, err := tr.duration(r, row, num, "limit")
	switch {
	case err != nil:
		return err
	case n == 0:
		r.note(noteZeroLimit)
	case n > 0:
		r.limit = n
	}
	return nil
}

// state sets the status: from a Slurm state word (any case, "CANCELLED
// by 123" and sacct's "CANCELLED+" as Sacct reads them), a number as
// Slurm's database's enum job_states when the schema says so
// (supercloud, a map's state=COLUMN:slurmdb), or an exit code in the
// state column ("0:0", Slurm's exit:signal); else from an exit status
// (0 completed, another failed). Any other value is kept as the job's
// state in the Report and noted: a number the map does not say is
// Slurm's "state a number, not read", a word "unknown state" (a site's
// own codes, squeue's letters: PBS's F is finished, Slurm's failed), never
// mapped to a status by a guess.
func (tr *tableReader) state(r *record, row []string) {
	if _, ok := tr.col["state"]; ok {
		s := strings.TrimSpace(tr.get(row, "state"))
		if n, err := strconv.ParseUint(s, 10, 32); err == nil {
			if base := n & 0xff; tr.s.stateNumbers && base < uint64(len(slurmDBStates)) {
				s = slurmDBStates[base]
			} else if !tr.s.stateNumbers {
				r.state = clip(s)
				r.note(noteStateNumber)
				return
			} // (else the number, an unknown state: "state 12" was reported as the state "STATE")
		}
		if strings.Contains(s, ":") && exitStatus(r, s) {
			return
		}
		applyState(r, s)
		return
	}
	if _, ok := tr.col["exit"]; ok {
		if !exitStatus(r, tr.get(row, "exit")) {
			r.state, r.status = "exit unknown", swf.StatusUnknown
			r.note(noteUnknownState)
		}
		return
	}
	r.state = "none"
	r.note(noteNoStatus)
}

// exitStatus sets r's status from an exit status: an integer ("0.0" as
// a data-frame export writes it), or Slurm's "exit:signal" ("0:0"; a
// signal is a failure whatever the exit code). 0 is completed, another
// failed. It reports false, setting nothing, when v is none of these.
func exitStatus(r *record, v string) bool {
	code, sig, pair := strings.Cut(strings.TrimSpace(v), ":")
	n, err := strconv.ParseInt(code, 10, 64)
	if f, ferr := strconv.ParseFloat(code, 64); !pair && err != nil && ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1<<31 {
		n, err = int64(f), nil // ("0.0", as a data-frame export writes it)
	}
	if err != nil {
		return false
	}
	var signal uint64
	if pair {
		if signal, err = strconv.ParseUint(sig, 10, 8); err != nil {
			return false
		}
	}
	if n == 0 && signal == 0 {
		r.state, r.status = "exit 0", swf.StatusCompleted
	} else {
		r.state, r.status = "exit other", swf.StatusFailed
	}
	return true
}

// tresCPUs is the CPU count of a Slurm database TRES list ("1=40,2=...":
// TRES 1), -1 when it has none or it does not read (tres reports that).
func tresCPUs(v string) int64 {
	for item := range strings.SplitSeq(v, ",") {
		if id, amount, ok := strings.Cut(strings.TrimSpace(item), "="); ok && id == "1" {
			if n, _, err := parseAmount(amount, maxProcs); err == nil {
				return n
			}
			return -1
		}
	}
	return -1
}

// tres reads Slurm's TRES strings into the demand: tres_req, or
// tres_alloc without it (noted). Its memory is also SWF's requested
// memory (field 10, KB per processor: over the requested processors,
// else the allocated); a job without (or 2=0) is counted "no requested
// memory", one whose processors are unknown "memory per processor
// unknown (processors unknown)". Ids: 1 cpu, 2 mem (MB, as MiB), 4
// node, 1001 and 1002 GPUs (MIT SuperCloud's gpu:tesla and gpu:volta, of
// which a job has one; the larger is kept).
func (tr *tableReader) tres(r *record, row []string, num int, dem *demandIn) error {
	v, col := tr.t.get(row, "tres_req"), "tres_req"
	if v == "" {
		if v, col = tr.t.get(row, "tres_alloc"), "tres_alloc"; v != "" {
			r.note(noteDemandAlloc)
		}
	}
	mem := false // (a list without 2=: no requested memory, counted)
	defer func() {
		if !mem && !dem.bad && (tr.t.has("tres_req") || tr.t.has("tres_alloc")) {
			r.note(noteNoReqMem)
		}
	}()
	if v == "" {
		return nil
	}
	for item := range strings.SplitSeq(v, ",") {
		id, amount, ok := strings.Cut(strings.TrimSpace(item), "=")
		k, err1 := strconv.Atoi(id)
		n, _, err2 := parseAmount(amount, maxSeconds)
		if err2 == nil && (k == 4 || k == 1001 || k == 1002) && n > maxProcs {
			err2 = errRange // (nodes and GPUs past 2^24 were kept as 2^24, silently)
		}
		if !ok || err1 != nil || err2 != nil {
			dem.bad = true
			r.reqKB = -1 // (as the demand: none of an unreadable list, whatever its order)
			r.note("unreadable " + col)
			err := errors.New("not a TRES list (id=count,...)")
			if ok && err1 == nil {
				err = fmt.Errorf("TRES %d: %w", k, err2)
			}
			return tr.b.fail(num, tr.t.label(col), v, err)
		}
		switch {
		case k == 1, k == 5: // cpu (the processors' columns say it), billing
		case k == 2:
			dem.memTotal = float64(n)
			mem = n > 0 // ("2=0": none, counted)
			switch p := cmpPositive(r.req, r.alloc); {
			case n > 0 && p > 0:
				r.reqKB = float64(n) * 1024 / float64(p) // (MB as MiB, as the demand takes it)
			case n > 0:
				r.note(noteMemNoProcs) // (the demand may keep it, as a map's reqmem)
			}
		case k == 4:
			if dem.nodes == 0 {
				dem.nodes = n
			}
		case k == 1001 || k == 1002:
			dem.gpus = max(dem.gpus, n)
		default:
			r.note(noteTRESOther)
		}
	}
	return nil
}
