package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/batchq/batchq/internal/slurmjson"
)

// maxJSONJob bounds the bytes of one job object in sacct --json output
// (a job with thousands of steps stays far below it), so that a hostile
// file cannot make one value fill the memory.
const maxJSONJob = 64 << 20

// SacctJSON converts the output of
//
//	sacct --allusers --duplicates --json --starttime ... --endtime ...
//
// (plain or gzip) from Slurm 21.08 to 24.x: numbers may be plain, null,
// or {"set", "infinite", "number"} objects; states a string or a list of
// flags. Jobs are read one at a time. The exit code is never used for the
// status (Slurm 22.05 reports 0 for a job that failed with code 3); a
// FAILED job with exit code 0 is only counted as an anomaly. The status,
// requeues, steps and arrays are read as Sacct's doc says, and the fields
// as Result's says.
//
// The demand is Sacct's, from tres.requested (else tres.allocated,
// noted), with nodes from allocation_nodes and memory from the required
// memory_per_cpu or memory_per_node when the TRES have none.
//
// Job ids are matched within their cluster (sacct -M a,b lists several).
// Errors sacct reports ("errors": [...]) are noted; with no job beside
// them (sacct could not reach the database) they are the error returned.
func SacctJSON(r io.Reader, opt Options) (_ *Result, err error) {
	in, done, b, err := begin(r, &opt, "sacct-json", "json")
	if err != nil {
		return nil, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	var slurmErr string   // the first error sacct reported
	other := func(key string, v json.RawMessage) {
		var list []json.RawMessage
		if key == "errors" && json.Unmarshal(v, &list) == nil && len(list) > 0 {
			slurmErr = clip(string(list[0]))
			b.rep.Notes = append(b.rep.Notes, "sacct reported errors: "+slurmErr)
		}
	}
	err = jsonJobs(in, b, other, func(dec *json.Decoder, num int) error {
		var j jsonJob
		if err := dec.Decode(&j); err != nil {
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				// A syntax or read error: the stream cannot be resynchronized.
				return &ParseError{Format: b.format, Line: num, Err: err}
			}
			if len(j.JobState) > 0 {
				return b.liveQueue(num)
			}
			b.rep.Records++
			return b.jsonTypeError(num, te, "")
		}
		if len(j.JobState) > 0 {
			return b.liveQueue(num)
		}
		b.rep.Records++
		return jsonRecord(b, &j, num)
	})
	if fe := (*FormatError)(nil); err == nil || errors.As(err, &fe) {
		// (Slurm's error without a "jobs" key was "JSON of another kind".)
		if e := slurmFailed(b, "sacct", slurmErr); e != nil {
			return nil, e
		}
	}
	if err != nil {
		return nil, err
	}
	return b.finish()
}

// jsonJobs streams a JSON object whose "jobs" key holds a list, as sacct
// --json and slurmrestd write it, one job at a time: job decodes the next
// element from dec (at most maxJSONJob bytes), given the line where it
// starts; other gets every other top-level key and its value. An input
// that is not such an object is a *FormatError; a syntax error a
// *ParseError.
func jsonJobs(in io.Reader, b *builder, other func(key string, v json.RawMessage), job func(dec *json.Decoder, line int) error) error {
	lim := &limitReader{r: in}
	lc := &lineCounter{r: lim}
	dec := json.NewDecoder(lc)
	dec.UseNumber()
	line := func() int { return lc.nextLine(dec) }
	bad := func(err error) error {
		return &ParseError{Format: b.format, Line: line(), Err: err}
	}
	notOurs := func() error {
		saw := b.saw
		if saw == b.format {
			saw = "json"
		}
		return &FormatError{Want: b.format, Saw: saw, Line: b.firstLine, Sample: b.sample}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return notOurs()
	}
	found := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		key, _ := t.(string)
		if key != "jobs" {
			lim.n = 0
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return bad(err)
			}
			other(key, v)
			continue
		}
		found = true
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return bad(errors.New(`"jobs" is not a list`))
		}
		for dec.More() {
			lim.n = 0
			if err := job(dec, line()); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return bad(err)
		}
	}
	if !found {
		return notOurs()
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return bad(err)
	}
	if err := jsonEnd(dec, errors.New("more after the JSON object (one JSON document per conversion)")); err != nil {
		return bad(err)
	}
	return nil
}

// jsonEnd checks that dec's input ends after the document: nil at its
// end, the read error when reading failed (gzip data truncated or corrupt
// after the document, which was said as more after it, hiding the
// cause), else more (a byte that is not a blank).
func jsonEnd(dec *json.Decoder, more error) error {
	_, err := dec.Token()
	var syntax *json.SyntaxError
	switch {
	case err == io.EOF:
		return nil
	case err != nil && !errors.As(err, &syntax):
		return err
	}
	return more
}

// liveQueue is the error for a job of slurmrestd's /jobs (it has a
// job_state, which sacct's jobs never have) found past what sniff saw.
func (b *builder) liveQueue(line int) error {
	return &FormatError{Want: b.format, Saw: "slurmrestd", Line: line, Sample: b.sample}
}

// jsonTypeError counts a job with a value of the wrong JSON type as a
// malformed record, naming what the value was and what was wanted, after
// job when it is not "" (a job the line alone does not name).
func (b *builder) jsonTypeError(line int, te *json.UnmarshalTypeError, job string) error {
	err := fmt.Errorf("%s, want %s", jsonWhat(te.Value), jsonKind(te.Type))
	if job != "" {
		err = fmt.Errorf("%s: %w", job, err)
	}
	return b.malformed(line, te.Field, te.Value, err)
}

// jsonKind names what a Go type stands for in JSON, for errors (never the
// Go type itself).
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another value"
}

// jsonWhat says what a JSON value was, from encoding/json's
// UnmarshalTypeError.Value ("number", "string", "array", "object", "bool",
// or what jsonNum wrote).
func jsonWhat(v string) string {
	switch v {
	case "number", "string", "bool":
		return "a JSON " + v
	case "array":
		return "a JSON list"
	case "object":
		return "a JSON object"
	}
	return "a JSON " + clip(v)
}

// jsonText is a string that reads as "" when a version of sacct --json
// writes something else there (null, an object), so that a field read
// only for Options.Accounts never makes a job malformed.
type jsonText string

func (t *jsonText) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*t = jsonText(s)
	} else {
		*t = ""
	}
	return nil
}

// jsonJob is the part of a sacct --json job that the conversion reads.
type jsonJob struct {
	// JobState is slurmrestd's (the live queue's) key, never sacct's: its
	// presence makes the input a FormatError.
	JobState  json.RawMessage `json:"job_state"`
	JobID     jsonNum         `json:"job_id"`
	Name      string          `json:"name"`
	User      string          `json:"user"`
	Group     string          `json:"group"`
	Partition string          `json:"partition"`
	Cluster   string          `json:"cluster"`
	Account   jsonText        `json:"account"`
	QOS       jsonText        `json:"qos"`
	State     jsonState       `json:"state"`
	ExitCode  struct {
		Status     jsonState `json:"status"`
		ReturnCode jsonNum   `json:"return_code"`
	} `json:"exit_code"`
	Array struct {
		JobID  jsonNum         `json:"job_id"`
		TaskID jsonNum         `json:"task_id"`
		Task   json.RawMessage `json:"task"`
	} `json:"array"`
	Het struct {
		JobID  jsonNum `json:"job_id"`
		Offset jsonNum `json:"job_offset"`
	} `json:"het"`
	Time struct {
		Submission jsonNum `json:"submission"`
		Start      jsonNum `json:"start"`
		End        jsonNum `json:"end"`
		Elapsed    jsonNum `json:"elapsed"`
		Suspended  jsonNum `json:"suspended"`
		Limit      jsonNum `json:"limit"`
		Total      struct {
			Seconds      jsonNum `json:"seconds"`
			Microseconds jsonNum `json:"microseconds"`
		} `json:"total"`
	} `json:"time"`
	Required struct {
		CPUs          jsonNum `json:"CPUs"`
		MemoryPerCPU  jsonNum `json:"memory_per_cpu"`
		MemoryPerNode jsonNum `json:"memory_per_node"`
	} `json:"required"`
	AllocationNodes jsonNum `json:"allocation_nodes"`
	TRES            struct {
		Allocated []jsonTRES `json:"allocated"`
		Requested []jsonTRES `json:"requested"`
	} `json:"tres"`
	Steps []jsonStep `json:"steps"`
}

type jsonTRES struct {
	Type  string  `json:"type"`
	Name  string  `json:"name"` // "gpu" or "gpu:a100" for a gres; null or "" for most
	Count jsonNum `json:"count"`
}

type jsonStep struct {
	Tasks struct {
		Count jsonNum `json:"count"`
	} `json:"tasks"`
	TRES struct {
		Requested struct {
			Average []jsonTRES `json:"average"`
			Max     []jsonTRES `json:"max"`
		} `json:"requested"`
		Allocated []jsonTRES `json:"allocated"`
	} `json:"tres"`
	Time struct {
		Total struct {
			Seconds      jsonNum `json:"seconds"`
			Microseconds jsonNum `json:"microseconds"`
		} `json:"total"`
	} `json:"time"`
}

func tresCount(list []jsonTRES, typ string) (int64, bool) {
	if n := tresNum(list, typ); n.OK() {
		return n.V, true
	}
	return 0, false
}

// tresNum returns the count of the TRES typ in list, unset when absent.
func tresNum(list []jsonTRES, typ string) jsonNum {
	for _, t := range list {
		if t.Type == typ {
			return t.Count
		}
	}
	return jsonNum{}
}

func jsonRecord(b *builder, j *jsonJob, num int) error {
	if !j.JobID.OK() {
		return b.malformed(num, "job_id", j.JobID.Text, idError(j.JobID))
	}
	r := newRecord(num)
	r.key = strconv.FormatInt(j.JobID.V, 10)
	r.id = r.key
	if j.Cluster != "" {
		r.key = j.Cluster + "/" + r.key // (sacct -M a,b: ids are per cluster)
	}
	tasks := false
	switch {
	case j.Array.JobID.OK() && j.Array.JobID.V > 0 && j.Array.TaskID.OK():
		r.id = fmt.Sprintf("%d_%d", j.Array.JobID.V, j.Array.TaskID.V)
	case j.Array.JobID.OK() && j.Array.JobID.V > 0 && len(j.Array.Task) > 0 && string(j.Array.Task) != "null" && string(j.Array.Task) != `""`:
		// Array tasks that never started, in one record: pending ones
		// are not finished; ended so (CANCELLED while pending), a job
		// each, as Sacct's.
		var spec string
		if st, known := slurmStates[baseState(j.State.First())]; !known || st.skip != "" || json.Unmarshal(j.Array.Task, &spec) != nil {
			b.skip(skipArrayRange)
			return nil
		}
		r.id, tasks = fmt.Sprintf("%d_[%s]", j.Array.JobID.V, spec), true
	case j.Het.JobID.OK() && j.Het.JobID.V > 0 && j.Het.Offset.OK():
		r.id = fmt.Sprintf("%d+%d", j.Het.JobID.V, j.Het.Offset.V)
		r.note(noteHet)
	}
	r.user, r.group, r.exe = j.User, j.Group, j.Name
	var why string
	if r.queue, why = slurmPartition(j.Partition); why != "" {
		r.note(why)
	}
	if b.accounts() {
		r.group, r.qos = string(j.Account), string(j.QOS)
	}
	applyState(&r, j.State.First())
	if r.state == "FAILED" && j.ExitCode.ReturnCode.OK() && j.ExitCode.ReturnCode.V == 0 {
		r.note(noteFailedExit0)
	}
	for _, t := range []struct {
		field string
		n     jsonNum
		dst   *int64
	}{{"time.submission", j.Time.Submission, &r.submit}, {"time.start", j.Time.Start, &r.start},
		{"time.end", j.Time.End, &r.end}, {"time.elapsed", j.Time.Elapsed, &r.elapsed},
		{"time.suspended", j.Time.Suspended, &r.suspended}} {
		// 0 is Slurm's unset time; an absolute one before 1990 is
		// another unset field, a negative one corrupt (it was unknown
		// without a word); the elapsed and suspended times are durations.
		duration := t.dst == &r.elapsed || t.dst == &r.suspended
		early := !duration && t.n.OK() && t.n.V != 0 && t.n.V < minTime
		switch {
		case t.n.Big || t.n.OK() && t.n.V > maxTime || early:
			if err := b.fieldError(&r, t.field, t.n.Text, timeError(t.n)); err != nil {
				return err
			}
		case duration && t.n.OK() && t.n.V < 0:
			// A negative duration is corrupt: unreadable, as a negative
			// time is (it was unknown without a word).
			if err := b.fieldError(&r, t.field, strconv.FormatInt(t.n.V, 10), errRange); err != nil {
				return err
			}
		case t.n.OK() && t.n.V > 0:
			*t.dst = t.n.V
		}
	}
	if r.elapsed < 0 && j.Time.Elapsed.OK() && j.Time.Elapsed.V == 0 {
		r.elapsed = 0
	}
	switch l := j.Time.Limit; {
	case l.Inf:
		r.note(noteUnlimited)
	case l.Big || l.OK() && (l.V < 0 || l.V > maxTime/60):
		// (A negative limit was taken: a requested time of -300 that
		// swf.WriteAll refuses, the conversion failing at its output;
		// slurmrestd's snapshots read it so.)
		r.note(noteInvalidLimit)
	case !l.OK() && l.Null:
		r.partLimit = noteNullLimit
	case !l.OK():
		r.partLimit = notePartLimit
	default:
		r.limit = l.V * 60
		zeroLimit(&r)
	}
	for _, c := range []struct {
		field string
		n     jsonNum
		dst   *int64
	}{{"tres.allocated", tresNum(j.TRES.Allocated, "cpu"), &r.alloc}, {"required.CPUs", j.Required.CPUs, &r.req}} {
		switch {
		case c.n.Big || c.n.OK() && c.n.V > maxProcs:
			if c.dst == &r.alloc {
				r.allocUnread = true
			}
			if err := b.fieldError(&r, c.field, c.n.Text, errProcs); err != nil {
				return err
			}
		case c.dst == &r.req && c.n.OK() && c.n.V < 0:
			// Corrupt, unreadable (it was unknown without a word; a
			// negative tres.allocated is the demand's error).
			if err := b.fieldError(&r, c.field, strconv.FormatInt(c.n.V, 10), errRange); err != nil {
				return err
			}
		case c.n.OK() && c.n.V > 0:
			*c.dst = c.n.V
		}
	}
	// No cpu count in tres.allocated (none, null or 0) is no count
	// either, as Sacct's AllocCPUS 0 without cpu= in AllocTRES, unless
	// the start equals the end (Slurm's mark of a job ended while
	// pending): a job that ran from its start to a later end started on
	// processors unknown. It was "ended without starting", its wait and
	// run time -1.
	r.allocUnread = r.allocUnread || r.alloc < 0 && r.start != r.end
	if cpu := seconds(j.Time.Total.Seconds, j.Time.Total.Microseconds); cpu > 0 {
		r.cpu = cpu
	}
	procs := cmpPositive(r.req, r.alloc)
	if mb, ok := tresCount(j.TRES.Requested, "mem"); ok && procs > 0 {
		r.reqKB = float64(mb) * 1024 / float64(procs)
	}
	if err := jsonDemand(b, &r, j); err != nil {
		return err
	}
	finishSlurm(&r)
	b.rep.Steps += len(j.Steps)
	stepCPU := 0.0
	for _, s := range j.Steps {
		if bytes, ok := tresCount(s.TRES.Requested.Average, "mem"); ok && bytes > 0 {
			tasks := max(s.Tasks.Count.V, 1)
			cpus, ok := tresCount(s.TRES.Allocated, "cpu")
			if !ok || cpus <= 0 {
				cpus = r.alloc
			}
			if cpus > 0 {
				r.usedKB = max(r.usedKB, float64(bytes)*float64(tasks)/float64(cpus)/1024)
			}
		}
		stepCPU += seconds(s.Time.Total.Seconds, s.Time.Total.Microseconds)
	}
	if r.cpu < 0 && stepCPU > 0 {
		r.cpu = stepCPU
	}
	if tasks {
		prefix := ""
		if j.Cluster != "" {
			prefix = j.Cluster + "/"
		}
		return addArrayTasks(b, &r, prefix)
	}
	b.add(r)
	return nil
}

func cmpPositive(a, b int64) int64 {
	if a > 0 {
		return a
	}
	return b
}

func seconds(s, us jsonNum) float64 {
	if !s.OK() {
		return 0
	}
	v := float64(s.V)
	if us.OK() {
		v += float64(us.V) / 1e6
	}
	return v
}

// jsonNum is a number of any Slurm version: 42, "42", null, or
// {"set":…,"infinite":…,"number":…} (see internal/slurmjson, shared with
// the live feed, qbets/karnak/slurmfeed).
type jsonNum = slurmjson.Num

// timeError is why a time stamp past the plausible is unreadable: a
// negative one (a corrupt -9223372036854775808) is out of range, not
// "after the year 2200"; one before 1990 is an unset field (errEarly).
func timeError(n jsonNum) error {
	switch {
	case strings.HasPrefix(n.Text, "-"):
		return errRange
	case !n.Big && n.V < minTime:
		return errEarly
	}
	return errFuture
}

// idError is why a job id is unreadable: one written but past any
// plausible number (Slurm's are 32-bit) is out of range, not missing.
func idError(n jsonNum) error {
	if n.Big || n.Set && !n.Inf && n.V <= 0 {
		return errors.New("job id out of range")
	}
	return errors.New("missing job id")
}

// jsonState is a state of any Slurm version: "COMPLETED", ["COMPLETED"],
// or {"current": either, "reason": ...}.
type jsonState = slurmjson.State

// limitReader fails once n passes maxJSONJob; the caller resets n at
// each job.
type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n > maxJSONJob {
		return 0, fmt.Errorf("a JSON value longer than %d bytes", maxJSONJob)
	}
	k, err := l.r.Read(p)
	l.n += int64(k)
	return k, err
}

// lineCounter keeps the offsets of the newlines read through it that
// are not yet behind the last position asked (nextLine), so that a
// line costs the newlines passed since the last, not the bytes the
// decoder holds ahead: counting those at every job made a stream after
// one large job quadratic (a first Philly job of 80,000 attempts, 11 MB,
// then 100,000 jobs: 9.8 s instead of 1.4 s; one of 64 MiB would never end).
type lineCounter struct {
	r     io.Reader
	read  int64   // bytes read
	nl    []int64 // offsets of the newlines read and not yet passed
	lines int     // newlines passed
}

func (c *lineCounter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	for i := 0; i < k; {
		j := bytes.IndexByte(p[i:k], '\n')
		if j < 0 {
			break
		}
		c.nl = append(c.nl, c.read+int64(i+j))
		i += j + 1
	}
	c.read += int64(k)
	return k, err
}

// nextLine returns the line where dec's next value starts: its offset,
// past the blanks and the comma buffered ahead of it. Offsets only grow
// from call to call.
func (c *lineCounter) nextLine(dec *json.Decoder) int {
	off := dec.InputOffset()
	r := dec.Buffered()
	var buf [64]byte
	for {
		n, _ := r.Read(buf[:])
		i := 0
		for i < n && strings.IndexByte(" \t\r\n,", buf[i]) >= 0 {
			i++
		}
		off += int64(i)
		if i < n || n == 0 {
			break
		}
	}
	k := 0
	for k < len(c.nl) && c.nl[k] < off {
		k++
	}
	c.lines += k
	c.nl = c.nl[k:]
	return 1 + c.lines
}

// jsonDemand reads what the job asks beyond processors, as sacct's demand
// does: tres.requested (else tres.allocated, noted), the node count from
// allocation_nodes when the TRES have none or fewer (moreNodes), required.memory_per_cpu or
// memory_per_node (Slurm ≥ 23.02) when they have no memory.
func jsonDemand(b *builder, r *record, j *jsonJob) error {
	list, field := j.TRES.Requested, "tres.requested"
	if len(list) == 0 {
		if list, field = j.TRES.Allocated, "tres.allocated"; len(list) > 0 {
			r.note(noteDemandAlloc)
		}
	}
	var in demandIn
	entries := make([]tresEntry, 0, len(list))
	for _, t := range list {
		key := t.Type
		if t.Name != "" {
			key += "/" + t.Name
		}
		switch {
		case key == "":
			// (no type: not a TRES slurmTRES reads, as before; an empty
			// key there is a text list's item without '=')
		case t.Count.Big:
			entries = append(entries, tresEntry{key, t.Count.Text}) // fails below, quoted
		case t.Count.OK():
			entries = append(entries, tresEntry{key, strconv.FormatInt(t.Count.V, 10)})
		}
	}
	if key, v, err := slurmTRES(&in, entries); err != nil {
		in.bad = true
		// tres.allocated's cpu count past 2^24 (1e30, say) is the CPU
		// count's error, reported: it was reported twice, the second
		// time "cpu=1e30: not a number".
		if c := tresNum(list, "cpu"); key != "cpu" || field != "tres.allocated" || !c.Big && !(c.OK() && c.V > maxProcs) {
			if err := b.fieldError(r, field, tresItem(key, v), err); err != nil {
				return err
			}
		}
	}
	if n := j.AllocationNodes; n.OK() && n.V > 0 && n.V <= maxProcs {
		moreNodes(&in, n.V, r.note, noteHeldNodes) // the nodes held, when more
	}
	if field == "tres.requested" {
		heldCPUs(&in, r.alloc, r.note) // (tres.allocated's cpu)
	}
	if in.memTotal == 0 {
		if m := j.Required.MemoryPerCPU; m.OK() && m.V > 0 {
			in.memPerCPU = float64(m.V)
		} else if m := j.Required.MemoryPerNode; m.OK() && m.V > 0 {
			in.memPerNode = float64(m.V)
		}
	}
	if in.any() || in.dropped {
		r.dem = &in
	}
	return nil
}

// slurmFailed is the error of a JSON document in which Slurm reported an
// error and no job (sacct --json or slurmrestd that could not reach the
// database or the controller: "errors": [...], "jobs": []): it was an
// empty trace, exit 0, the error in a note.
func slurmFailed(b *builder, who, first string) error {
	if first == "" || b.rep.Records > 0 {
		return nil
	}
	return fmt.Errorf("convert: %s: %s reported an error and no job: %s", b.format, who, first)
}
