package slurmfeed

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/batchq/batchq/internal/slurmjson"
)

// job is one Slurm job, or one task of a job array, as a poll sees it.
type job struct {
	key string // Slurm's name: "123", or "120_3" for an array task
	id  int64  // the service's job id (jobID)
	// unnamed: the key is made of what could not be read (no job id, an
	// array's unreadable tasks), not a job's: such a record may be a job
	// the feed holds, and several may share the key (see distinctKeys).
	unnamed   bool
	partition string
	cores     int64
	gpus      int64 // GPUs in all, thousandths of a GPU (karnak.Event.GPUs); 0 = none
	wall      int64 // requested run time, seconds; 0 = none; -1 = the partition's limit
	user      string
	account   string
	name      string
	submit    int64
	start     int64 // when started
	end       int64 // when ended
	started   bool
	ended     bool
	estimate  int64  // Slurm's expected start while pending (0 = none)
	priority  int64  // Slurm's priority while pending (0 = none)
	bad       string // why the record cannot be fed ("" = it can)
}

// jobID is the service's id of a Slurm job: the job id itself, or, for a
// task of an array, a number made of the array's job id and the task index
// (bit 62 set, the array's id in bits 22–61, the task in bits 0–21). A task
// must have an id before it starts, and Slurm gives it its own job id only
// when it starts (squeue shows the waiting tasks as one record).
func jobID(arrayJob, task int64) (int64, error) {
	if arrayJob == 0 {
		return task, nil
	}
	if arrayJob < 0 || arrayJob >= 1<<40 || task < 0 || task >= 1<<22 {
		return 0, fmt.Errorf("array job %d task %d is beyond the id space (job < 2^40, task < 2^22)", arrayJob, task)
	}
	return 1<<62 | arrayJob<<22 | task, nil
}

// Slurm's special 32-bit values: INFINITE (UNLIMITED) and NO_VAL (here:
// the partition's limit).
const (
	infinite32 = 0xffffffff
	noVal32    = 0xfffffffe
)

// minutes converts a time limit in minutes to seconds: 0 for UNLIMITED,
// -1 for NO_VAL (the partition's limit). A limit that is no 32-bit count
// of minutes makes the record bad (*bad, when "" so far): m*60 wrapped, so
// that 2^62 minutes was fed as -2^63+... seconds.
func minutes(m *int64, src string, bad *string) int64 {
	switch {
	case m == nil || *m == noVal32:
		return -1
	case *m == infinite32:
		return 0
	case *m < 0 || *m > infinite32:
		if *bad == "" {
			*bad = fmt.Sprintf("%s: time limit %d minutes out of range", src, *m)
		}
		return -1
	}
	return *m * 60
}

// maxArrayTasks caps the tasks one squeue record may expand to (Slurm's own
// MaxArraySize is at most 4,000,001).
const maxArrayTasks = 1 << 16

// maxQueueTasks caps the tasks all of one squeue output's array records
// may expand to together: each record is capped, but a 1 GiB output holds
// enough records to expand to billions of jobs. Records past it are bad
// records, counted with their reason.
const maxQueueTasks = 1 << 21

// maxSlurmTime is the last plausible Unix time (year 2100); a larger or
// negative time in Slurm's output is a bad record.
const maxSlurmTime = 4102444800

func badTime(ts ...int64) bool {
	for _, t := range ts {
		if t < 0 || t > maxSlurmTime {
			return true
		}
	}
	return false
}

// stateClass sorts Slurm's job states: waiting, running, done (an end time
// is known), or unknown ("").
func stateClass(s string) string {
	base, _, _ := strings.Cut(s, "+") // flags, as in CANCELLED+
	switch base {
	case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "CONFIGURING":
		return "waiting"
	case "RUNNING", "SUSPENDED", "COMPLETING", "RESIZING", "SIGNALING", "STAGE_OUT":
		return "running"
	case "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
		"BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "SPECIAL_EXIT", "REVOKED":
		return "done"
	}
	return ""
}

// cpuOf returns the cpu count of a TRES string such as
// "cpu=8,mem=4000M,node=1" (0 when absent).
func cpuOf(tres string) int64 {
	for _, f := range strings.Split(tres, ",") {
		if v, ok := strings.CutPrefix(f, "cpu="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// gpuTally adds up the GPUs of a job's TRES: gres/gpu is the total;
// the typed counts (gres/gpu:a100), which Slurm lists beside it when
// AccountingStorageTRES names the types, stand in when it is absent.
type gpuTally struct {
	total, typed int64
	bad          string // the first unreadable count, quoted
}

// maxGPUs bounds a job's GPU count (its thousandths are far below the
// service's bound).
const maxGPUs = 1 << 20

// add counts TRES name (as sacct names it: "gres/gpu", "gres/gpu:a100")
// with the count v; other names are not GPUs.
func (g *gpuTally) add(name, v string) {
	if name != "gres/gpu" && !strings.HasPrefix(name, "gres/gpu:") {
		return
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > maxGPUs {
		if g.bad == "" {
			g.bad = quote(name + "=" + v)
		}
		return
	}
	if name == "gres/gpu" {
		g.total = n
	} else {
		g.typed = min(g.typed+n, maxGPUs)
	}
}

// milli is the job's GPUs in thousandths of a GPU (karnak.Event.GPUs).
func (g *gpuTally) milli() int64 { return cmp.Or(g.total, g.typed) * 1000 }

// gpusOf reads the GPUs of a TRES string such as "cpu=1,mem=4000M,node=1,
// billing=1,gres/gpu=2" in thousandths (0 when absent), and the first
// unreadable GPU count ("" when none).
func gpusOf(tres string) (int64, string) {
	var g gpuTally
	for _, f := range strings.Split(tres, ",") {
		k, v, _ := strings.Cut(f, "=")
		g.add(k, v)
	}
	return g.milli(), g.bad
}

// text bounds a free-text field for the service: valid UTF-8, at most
// 256 bytes.
func text(s string) string {
	s = strings.ToValidUTF8(s, "?")
	for len(s) > 256 {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
	}
	return s
}

// quote shows at most 64 bytes of a bad value in an error.
func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return strconv.Quote(s)
}

// jsonOutput is a --json output: its errors (E) and its job records (J:
// a list of records, or of their texts when one cannot be read).
type jsonOutput[E, J any] struct {
	Errors E `json:"errors"`
	Jobs   J `json:"jobs"`
}

// squeueErrors are squeue --json's errors.
type squeueErrors = []json.RawMessage

// squeueRecord is one job record of `squeue --json`, in the forms of Slurm
// 22.05 (openapi/v0.0.38: plain numbers, the state a string) and of 23.02
// and later (data_parser v0.0.39 on: numbers as {"set","infinite",
// "number"} objects, the state a list of its base state and flags); see
// the package doc for what an unset or infinite value means.
type squeueRecord struct {
	JobID       slurmjson.Num   `json:"job_id"`
	ArrayJobID  slurmjson.Num   `json:"array_job_id"`
	ArrayTaskID slurmjson.Num   `json:"array_task_id"`
	ArrayTasks  string          `json:"array_task_string"`
	State       slurmjson.State `json:"job_state"`
	Submit      slurmjson.Num   `json:"submit_time"`
	Start       slurmjson.Num   `json:"start_time"`
	End         slurmjson.Num   `json:"end_time"`
	TimeLimit   slurmjson.Num   `json:"time_limit"`
	Partition   string          `json:"partition"`
	CPUs        slurmjson.Num   `json:"cpus"`
	TRESReq     string          `json:"tres_req_str"`
	TRESAlloc   string          `json:"tres_alloc_str"`
	Nodes       string          `json:"nodes"`
	User        string          `json:"user_name"`
	Account     string          `json:"account"`
	Name        string          `json:"name"`
	Priority    slurmjson.Num   `json:"priority"`
}

// readOutput reads a --json output: its errors and its job records, all
// at once or, when one record cannot be read, each alone (the whole
// output read twice, on such polls only), those unreadable coming back as
// their text in raws (nil: read), and, for one nested beyond encoding/json's
// depth limit, what of it is too deep in deep (split.go; raws then holds
// its other members). Output that is not JSON, or errors or a list of
// jobs of another kind, fail the poll.
func readOutput[E, T any](out []byte) (errs E, recs []T, raws []json.RawMessage, deep []string, err error) {
	var all jsonOutput[E, []T]
	werr := json.Unmarshal(out, &all)
	if werr == nil {
		return all.Errors, all.Jobs, make([]json.RawMessage, len(all.Jobs)), make([]string, len(all.Jobs)), nil
	}
	var texts []json.RawMessage
	if se := (*json.SyntaxError)(nil); errors.As(werr, &se) {
		// Not JSON, or nested beyond maxDepth, which encoding/json calls
		// a syntax error too: only the latter is read, its records found
		// by splitOutput. Output within the depth that encoding/json
		// refuses fails the poll as it did (its checks, not split.go's).
		if _, _, d, _ := scanValue(out, 0); d <= maxDepth {
			return errs, nil, nil, nil, werr
		}
		if errs, texts, err = splitOutput[E](out); err != nil {
			return errs, nil, nil, nil, err
		}
	} else {
		var t jsonOutput[E, []json.RawMessage]
		if err := json.Unmarshal(out, &t); err != nil {
			return errs, nil, nil, nil, err
		}
		errs, texts = t.Errors, t.Jobs
	}
	recs, raws, deep = make([]T, len(texts)), make([]json.RawMessage, len(texts)), make([]string, len(texts))
	for i, raw := range texts {
		if _, _, d, _ := scanValue(raw, 0); d > maxDepth {
			if deep[i], raws[i], err = tooDeep(raw); err != nil {
				return errs, nil, nil, nil, err
			}
			continue
		}
		if err := json.Unmarshal(raw, &recs[i]); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return errs, nil, nil, nil, err // not JSON: the output is cut or garbled
			}
			raws[i] = raw
		}
	}
	return errs, recs, raws, deep, nil
}

// maxPriority bounds a priority sent to the service (Slurm's are 32-bit).
const maxPriority = 1 << 40

// parseSqueue reads `squeue --json`. A record it cannot use comes back
// with its reason in bad: one it cannot read at all (a job id past 2^63, a
// time of 1e300, "Unknown" for a number) too, under its job id or, when
// that is what cannot be read, a key of its own. Only output that is not
// squeue's JSON, or that reports errors, fails the poll.
func parseSqueue(out []byte) ([]job, error) {
	errs, recs, raws, deep, err := readOutput[squeueErrors, squeueRecord](out)
	if err != nil {
		return nil, fmt.Errorf("squeue --json: %v", err)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("squeue --json: errors: %s", quote(string(errs[0])))
	}
	var jobs []job
	tasksLeft := maxQueueTasks // array tasks the records may still expand to
	for i := range recs {
		r := &recs[i]
		if raw := raws[i]; raw != nil || deep[i] != "" {
			var k struct {
				JobID      slurmjson.Num `json:"job_id"`
				ArrayJobID slurmjson.Num `json:"array_job_id"`
				ArrayTask  slurmjson.Num `json:"array_task_id"`
			}
			var kk *recordKey
			if json.Unmarshal(raw, &k) == nil {
				kk = &recordKey{k.JobID, k.ArrayJobID, k.ArrayTask}
			}
			jobs = append(jobs, unreadable("squeue", reflect.TypeFor[squeueRecord](), raw, kk, deep[i]))
			continue
		}
		j := job{
			partition: r.Partition,
			user:      text(r.User), account: text(r.Account), name: text(r.Name),
		}
		// The first reason is kept: setBad leaves one already set.
		setBad := func(why string) {
			if j.bad == "" {
				j.bad = why
			}
		}
		id := readNum(r.JobID, "squeue: job_id", setBad)
		if !r.JobID.OK() || id <= 0 {
			setBad("squeue: job_id: " + numText(r.JobID) + " is not a job id")
		}
		arrayJob := readNum(r.ArrayJobID, "squeue: array_job_id", setBad)
		j.submit = readNum(r.Submit, "squeue: submit_time", setBad)
		if !r.Submit.OK() && !r.Submit.Big {
			setBad("squeue: no submit time")
		}
		start := readNum(r.Start, "squeue: start_time", setBad) // unset: no expected start yet
		end := readNum(r.End, "squeue: end_time", setBad)
		j.wall = minutes(limitOf(r.TimeLimit, "squeue", &j.bad), "squeue", &j.bad)
		if cpus := readNum(r.CPUs, "squeue: cpus", setBad); cpus > 0 {
			j.cores = cpus
		} else if j.cores = cpuOf(r.TRESAlloc); j.cores == 0 {
			j.cores = cpuOf(r.TRESReq)
		}
		field := "tres_alloc_str"
		gpus, badGPUs := gpusOf(r.TRESAlloc)
		if gpus == 0 && badGPUs == "" { // a waiting job has no allocation
			field = "tres_req_str"
			gpus, badGPUs = gpusOf(r.TRESReq)
		}
		if j.gpus = gpus; badGPUs != "" {
			setBad("squeue: " + field + ": GPU count " + badGPUs)
		}
		state := r.State.First()
		switch stateClass(state) {
		case "waiting":
			j.estimate = start // the expected start, as `squeue --start` shows it
			if p := readNum(r.Priority, "squeue: priority", setBad); p > 0 {
				j.priority = min(p, maxPriority) // the scheduler's order
			}
		case "running":
			j.start, j.started = start, true
			if start == 0 {
				setBad("squeue: " + quote(state) + " job without its start time")
			}
		case "done":
			// A job cancelled while waiting has a start time (= its end)
			// but was never given nodes.
			j.started = r.Nodes != "" && start > 0
			if j.started {
				j.start = start
			}
			j.end, j.ended = end, true
			if end == 0 {
				setBad("squeue: " + quote(state) + " job without its end time")
			}
		default:
			setBad("squeue: unknown job state " + quote(strings.Join(r.State.Words, ",")))
		}
		if j.bad == "" {
			j.bad = checkTimes("squeue", &j, start, end)
		}
		switch {
		case !r.JobID.OK() || id <= 0:
			j.key = "job_id " + numText(r.JobID) // not a Slurm key: never fed
			j.unnamed = true
			jobs = append(jobs, j)
		case arrayJob == 0:
			j.key, j.id = strconv.FormatInt(id, 10), id
			jobs = append(jobs, j)
		case r.ArrayTaskID.OK():
			jobs = append(jobs, arrayTask(j, "squeue", arrayJob, r.ArrayTaskID.V))
		case r.ArrayTaskID.Inf || r.ArrayTaskID.Big:
			j.key = fmt.Sprintf("%d_%s", arrayJob, numText(r.ArrayTaskID))
			j.unnamed = true
			setBad("squeue: array_task_id: " + numText(r.ArrayTaskID) + " is not a task index")
			jobs = append(jobs, j)
		default: // the waiting tasks of an array, as one record
			tasks, err := expandTasks(r.ArrayTasks, tasksLeft)
			if err != nil {
				j.key = fmt.Sprintf("%d_[%s]", arrayJob, text(r.ArrayTasks))
				j.unnamed = true
				setBad("squeue: array_task_string: " + err.Error())
				jobs = append(jobs, j)
				continue
			}
			tasksLeft -= len(tasks)
			for _, t := range tasks {
				jobs = append(jobs, arrayTask(j, "squeue", arrayJob, t))
			}
		}
	}
	return jobs, nil
}

// readNum is n's value: 0 when it has none (unset, null, NO_VAL,
// infinite), which each caller reads as its field's "none". A number past
// any plausible value (Big, as 1e300) makes the record bad; what names
// the source and the field.
func readNum(n slurmjson.Num, what string, setBad func(string)) int64 {
	if n.Big {
		setBad(what + ": " + numText(n) + " out of range")
	}
	if !n.OK() {
		return 0
	}
	return n.V
}

// limitOf is a time limit for minutes: nil for no value (NO_VAL: the
// partition's limit), INFINITE for an infinite one (no limit). A number
// past any plausible value makes the record bad (*bad, when "" so far).
func limitOf(n slurmjson.Num, src string, bad *string) *int64 {
	switch {
	case n.Inf:
		return new(int64(infinite32))
	case n.Big:
		if *bad == "" {
			*bad = src + ": time limit " + numText(n) + " minutes out of range"
		}
	case n.OK():
		return &n.V
	}
	return nil
}

// numText shows a number as written, or what it was instead.
func numText(n slurmjson.Num) string {
	switch {
	case n.Inf:
		return "infinite"
	case n.Text == "":
		return "unset"
	}
	return quote(n.Text) // a value, Big, or a NO_VAL sentinel
}

// recordKey is what names a record: its job id, and its array's job id
// and task index.
type recordKey struct{ job, array, task slurmjson.Num }

// unreadable is a record of src's JSON that cannot be read (a field of
// the wrong kind: a string where a number goes, "Unknown" for a time): a
// bad job under its key when k can be read (k nil: it cannot), else under
// a key made of the job id as written, or "src record without job_id"
// when there is no job id at all (such keys are never a Slurm job's; not
// its place in the output, which moves as other jobs leave: it would be
// counted again). deep, when not "", is what of the record is nested
// beyond maxDepth (raw: its other members, or nil), which is its reason.
func unreadable(src string, t reflect.Type, raw json.RawMessage, k *recordKey, deep string) job {
	var j job
	if deep != "" {
		j.bad = fmt.Sprintf("%s: %s nested deeper than %d levels", src, deep, maxDepth)
	} else {
		j.bad = src + ": " + fieldError(raw, t, "")
	}
	var rawID struct {
		JobID json.RawMessage `json:"job_id"`
	}
	switch {
	case k != nil && k.job.OK() && k.job.V > 0 && !k.array.Big && !k.array.Inf:
		switch {
		case !k.array.OK() || k.array.V == 0:
			j.key, j.id = strconv.FormatInt(k.job.V, 10), k.job.V
		case k.task.OK():
			j = arrayTask(j, src, k.array.V, k.task.V)
		default:
			j.key = fmt.Sprintf("%d_[?]", k.array.V)
			j.unnamed = true
		}
	case json.Unmarshal(raw, &rawID) == nil && len(rawID.JobID) > 0:
		j.key = "job_id " + shown(rawID.JobID)
		j.unnamed = true
	default:
		j.key, j.unnamed = src+" record without job_id", true
	}
	return j
}

// fieldError says which field of an unreadable record of type t is wrong,
// and how: the first of the fields the feed reads (in t's order; those of
// a nested object named as "time.start") that cannot be read alone, or
// what is wrong with the record as a whole.
func fieldError(raw json.RawMessage, t reflect.Type, prefix string) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		if prefix == "" {
			return "a record that is not a JSON object"
		}
		return strings.TrimSuffix(prefix, ".") + ": " + shown(raw) + " is not a JSON object"
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("json")
		v, ok := fields[name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(v, reflect.New(f.Type).Interface()); err != nil {
			if f.Type.Kind() == reflect.Struct && f.Type.NumField() > 0 && f.Type != reflect.TypeFor[slurmjson.Num]() && f.Type != reflect.TypeFor[slurmjson.State]() {
				return fieldError(v, f.Type, prefix+name+".")
			}
			return prefix + name + ": " + shown(v) + " is not " + kind(f.Type)
		}
	}
	return "a record that cannot be read"
}

// shown quotes a JSON value for a reason: a string as its text.
func shown(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return quote(s)
	}
	return quote(string(v))
}

// kind names what a field of a record holds.
func kind(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[slurmjson.Num]():
		// Slurm's numbers are whole: "cpus: 2.5 is not a number" was
		// read as a bug of the reader's, since 2.5 is one.
		return "a whole number"
	case t == reflect.TypeFor[slurmjson.State]():
		return "a job state"
	case t.Kind() == reflect.Slice:
		return "a list of TRES"
	case t.Kind() == reflect.Pointer || t.Kind() == reflect.String:
		return "a string"
	}
	return "a JSON object"
}

// checkTimes says what is wrong with a record's times ("" if nothing).
func checkTimes(src string, j *job, start, end int64) string {
	switch {
	case badTime(j.submit, start, end) || j.submit == 0:
		return src + ": submit, start or end time out of range"
	case j.started && j.start < j.submit || j.ended && (j.end < j.submit || j.started && j.end < j.start):
		return src + ": times out of order (submit ≤ start ≤ end)"
	}
	return ""
}

// arrayTask is j as task t of array job a.
func arrayTask(j job, src string, a, t int64) job {
	j.key = fmt.Sprintf("%d_%d", a, t)
	id, err := jobID(a, t)
	if err != nil && j.bad == "" {
		j.bad = src + ": " + err.Error()
	}
	j.id = id
	return j
}

// expandTasks reads squeue's array_task_string: "2-5", "1,3,7-9",
// "0-20:2", each optionally followed by "%N" (the throttle). It expands to
// at most maxArrayTasks tasks, and to at most left: the tasks the queue's
// other records have left of maxQueueTasks.
func expandTasks(s string, left int) ([]int64, error) {
	s, _, _ = strings.Cut(s, "%")
	if s == "" {
		return nil, fmt.Errorf("empty")
	}
	var out []int64
	for _, part := range strings.Split(s, ",") {
		rng, stepS, hasStep := strings.Cut(part, ":")
		loS, hiS, isRange := strings.Cut(rng, "-")
		lo, err1 := strconv.ParseInt(loS, 10, 64)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.ParseInt(hiS, 10, 64)
		}
		step, err3 := int64(1), error(nil)
		if hasStep {
			step, err3 = strconv.ParseInt(stepS, 10, 64)
		}
		if err1 != nil || err2 != nil || err3 != nil || lo < 0 || hi < lo || step < 1 {
			return nil, fmt.Errorf("%s is not a task range", quote(part))
		}
		// Counted and stepped without overflow: "0-9223372036854775807"
		// made the count wrap negative (and pass), and a range ending
		// near 2^63 made t wrap past hi: either looped for ever.
		n := uint64(hi-lo)/uint64(step) + 1
		if n > uint64(maxArrayTasks-len(out)) {
			return nil, fmt.Errorf("more than %d tasks in %s", maxArrayTasks, quote(s))
		}
		if n > uint64(max(left-len(out), 0)) {
			return nil, fmt.Errorf("%s: more than %d array tasks in the queue", quote(s), maxQueueTasks)
		}
		for k := range int64(n) {
			out = append(out, lo+k*step)
		}
	}
	return out, nil
}

// sacctErrors are sacct --json's errors. Its exit codes are not read:
// Slurm 22.05 reports 0 for a job that failed with exit code 3; the feed
// needs times only.
type sacctErrors = []struct {
	Description string `json:"description"`
	ErrorNumber int    `json:"error_number"`
}

// sacctRecord is one job of `sacct --json`, in the forms of 22.05
// (openapi/dbv0.0.38) and of 23.02 and later (as squeueRecord; the state
// {"current": "COMPLETED"} or {"current": ["COMPLETED"]}).
type sacctRecord struct {
	JobID slurmjson.Num `json:"job_id"`
	Array struct {
		JobID  slurmjson.Num `json:"job_id"`
		TaskID slurmjson.Num `json:"task_id"`
	} `json:"array"`
	State slurmjson.State `json:"state"`
	Time  struct {
		Submission slurmjson.Num `json:"submission"`
		Start      slurmjson.Num `json:"start"`
		End        slurmjson.Num `json:"end"`
		Limit      slurmjson.Num `json:"limit"`
	} `json:"time"`
	Partition string `json:"partition"`
	Required  struct {
		CPUs slurmjson.Num `json:"CPUs"`
	} `json:"required"`
	TRES struct {
		Allocated []sacctTRES `json:"allocated"`
		Requested []sacctTRES `json:"requested"`
	} `json:"tres"`
	User    string `json:"user"`
	Account string `json:"account"`
	Name    string `json:"name"`
}

// sacctTRES is one TRES of sacct --json: type "cpu", or type "gres"
// with name "gpu" (or "gpu:a100", a typed count).
type sacctTRES struct {
	Type  string        `json:"type"`
	Name  *string       `json:"name"`
	Count slurmjson.Num `json:"count"`
}

// sacctGPUs is gpusOf for sacct --json's TRES list.
func sacctGPUs(list []sacctTRES) (int64, string) {
	var g gpuTally
	for _, t := range list {
		if t.Type != "gres" || t.Name == nil {
			continue
		}
		switch {
		case t.Count.OK():
			g.add("gres/"+*t.Name, strconv.FormatInt(t.Count.V, 10))
		case t.Count.Big || t.Count.Inf:
			g.add("gres/"+*t.Name, cmp.Or(t.Count.Text, "infinite")) // unreadable: bad
		}
	}
	return g.milli(), g.bad
}

// parseSacct reads `sacct --json`, keeping the jobs that started or ended
// (waiting jobs come from squeue, which also has their expected start). A
// record it cannot read is a bad job, as in parseSqueue.
func parseSacct(out []byte) ([]job, error) {
	errs, recs, raws, deep, err := readOutput[sacctErrors, sacctRecord](out)
	if err != nil {
		return nil, fmt.Errorf("sacct --json: %v", err)
	}
	for _, e := range errs {
		// "Nothing found" is how 22.05 answers an empty window.
		if !strings.Contains(strings.ToLower(e.Description), "nothing found") {
			return nil, fmt.Errorf("sacct --json: error %d: %s", e.ErrorNumber, quote(e.Description))
		}
	}
	var jobs []job
	for i := range recs {
		r := &recs[i]
		if raw := raws[i]; raw != nil || deep[i] != "" {
			var k struct {
				JobID slurmjson.Num `json:"job_id"`
				Array struct {
					JobID  slurmjson.Num `json:"job_id"`
					TaskID slurmjson.Num `json:"task_id"`
				} `json:"array"`
			}
			var kk *recordKey
			if json.Unmarshal(raw, &k) == nil {
				kk = &recordKey{k.JobID, k.Array.JobID, k.Array.TaskID}
			}
			jobs = append(jobs, unreadable("sacct", reflect.TypeFor[sacctRecord](), raw, kk, deep[i]))
			continue
		}
		state := r.State.First()
		class := stateClass(state)
		if class == "waiting" {
			continue
		}
		var bad []string // every reason, the first kept
		setBad := func(why string) { bad = append(bad, why) }
		id := readNum(r.JobID, "sacct: job_id", setBad)
		arrayJob := readNum(r.Array.JobID, "sacct: array.job_id", setBad)
		readNum(r.Array.TaskID, "sacct: array.task_id", setBad) // (read below)
		submit := readNum(r.Time.Submission, "sacct: time.submission", setBad)
		start := readNum(r.Time.Start, "sacct: time.start", setBad) // unset or 0: not started
		end := readNum(r.Time.End, "sacct: time.end", setBad)
		cores := readNum(r.Required.CPUs, "sacct: required.CPUs", setBad)
		j := job{
			partition: r.Partition, cores: cores,
			user: text(r.User), account: text(r.Account), name: text(r.Name), submit: submit,
			start: start, started: start > 0, end: end, ended: class == "done" && end > 0,
		}
		var badLimit string
		j.wall = minutes(limitOf(r.Time.Limit, "sacct", &badLimit), "sacct", &badLimit)
		for _, t := range r.TRES.Allocated {
			if t.Type == "cpu" && t.Count.OK() && t.Count.V > 0 {
				j.cores = t.Count.V
			}
		}
		field := "tres.allocated"
		gpus, badGPUs := sacctGPUs(r.TRES.Allocated)
		if gpus == 0 && badGPUs == "" { // cancelled while waiting: none allocated
			field = "tres.requested"
			gpus, badGPUs = sacctGPUs(r.TRES.Requested)
		}
		j.gpus = gpus
		switch {
		case !r.JobID.OK() || id <= 0:
			j.bad = "sacct: job_id: " + numText(r.JobID) + " is not a job id"
		case len(bad) > 0:
			j.bad = bad[0]
		case class == "":
			j.bad = "sacct: unknown job state " + quote(strings.Join(r.State.Words, ","))
		case class == "running" && !j.started || class == "done" && !j.ended:
			j.bad = "sacct: " + quote(state) + " job without its start or end time"
		case badGPUs != "":
			j.bad = "sacct: " + field + ": GPU count " + badGPUs
		case badLimit != "":
			j.bad = badLimit
		default:
			j.bad = checkTimes("sacct", &j, start, end)
		}
		switch {
		case !r.JobID.OK() || id <= 0:
			j.key = "job_id " + numText(r.JobID) // not a Slurm key: never fed
			j.unnamed = true
			jobs = append(jobs, j)
		case arrayJob == 0 || !r.Array.TaskID.OK():
			j.key, j.id = strconv.FormatInt(id, 10), id
			jobs = append(jobs, j)
		default:
			jobs = append(jobs, arrayTask(j, "sacct", arrayJob, r.Array.TaskID.V))
		}
	}
	return jobs, nil
}

// partition is one Slurm partition as a queue: its CPUs and its time limit
// (seconds; unlimited is the service's largest duration).
type partition struct {
	name  string
	cores int64
	wall  int64
}

const unlimitedWall = 1 << 40 // the service's largest duration

// parsePartitions reads `scontrol show partition --oneliner`: one line per
// partition of Key=Value fields (22.05's sinfo --json lists nodes, not
// partitions). A partition without CPUs is left out.
func parsePartitions(out []byte) ([]partition, error) {
	var parts []partition
	for n, line := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		kv := map[string]string{}
		for _, f := range strings.Fields(line) {
			k, v, _ := strings.Cut(f, "=")
			kv[k] = v
		}
		p := partition{name: kv["PartitionName"]}
		if p.name == "" {
			return nil, fmt.Errorf("scontrol show partition: line %d: no PartitionName in %s", n+1, quote(line))
		}
		cpus, err := strconv.ParseInt(kv["TotalCPUs"], 10, 64)
		if err != nil || cpus < 0 {
			return nil, fmt.Errorf("scontrol show partition: line %d: TotalCPUs: %s is not a count", n+1, quote(kv["TotalCPUs"]))
		}
		if cpus == 0 {
			continue // no nodes: its jobs are skipped as in an unknown partition
		}
		p.cores = cpus
		if p.wall, err = parseLimit(kv["MaxTime"]); err != nil {
			return nil, fmt.Errorf("scontrol show partition: line %d: MaxTime: %v", n+1, err)
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// parseLimit reads a Slurm time limit as scontrol prints it: UNLIMITED,
// [days-]hours:minutes:seconds, minutes:seconds, or minutes.
func parseLimit(s string) (int64, error) {
	if s == "UNLIMITED" || s == "INFINITE" {
		return unlimitedWall, nil
	}
	bad := fmt.Errorf("%s is not a time limit", quote(s))
	var days int64
	if d, rest, ok := strings.Cut(s, "-"); ok {
		v, err := strconv.ParseInt(d, 10, 64)
		if err != nil || v < 0 || v > 1e6 {
			return 0, bad
		}
		days, s = v, rest
	}
	f := strings.Split(s, ":")
	if len(f) > 3 || s == "" {
		return 0, bad
	}
	var v [3]int64
	for i, x := range f {
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil || n < 0 || n > 1e9 {
			return 0, bad
		}
		v[i] = n
	}
	var secs int64
	switch len(f) {
	case 1:
		secs = v[0] * 60
	case 2:
		secs = v[0]*60 + v[1]
	case 3:
		secs = v[0]*3600 + v[1]*60 + v[2]
	}
	secs += days * 86400
	if secs < 1 || secs > unlimitedWall {
		return 0, bad
	}
	return secs, nil
}
