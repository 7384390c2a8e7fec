package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
)

// recording is what the live check measured: the site (the slurm.conf
// lines that differ from slurm-cluster.sh's, the node line, the QOS and
// the fair-share tree as sacctmgr and sshare showed them before the
// first job), the workload as planned and the Slurm id of each job, what
// Slurm did (sacct), the pending jobs' priorities sampled during the run
// (sprio) and the times the priorities were recomputed (the decay
// thread's runs). All times are Unix seconds (sacct and sprio with
// SLURM_TIME_FORMAT=%s), sample times milliseconds.
type recording struct {
	Note     string       `json:"note"`
	Conf     string       `json:"slurm_conf"`
	QOS      string       `json:"sacctmgr_qos"`
	Shares   string       `json:"sshare"`
	Workload []plannedJob `json:"workload"`
	IDs      []string     `json:"ids"`
	// Submitted is when each sbatch was called (Unix ms), to compare the
	// submission schedules of two runs more finely than sacct's seconds;
	// absent from recordings made before it was kept.
	Submitted []int64 `json:"submitted_ms,omitempty"`
	Sacct     string  `json:"sacct"`
	// SharesEnd is sshare after the last job: the usage Slurm charged.
	SharesEnd string   `json:"sshare_end"`
	Samples   []sample `json:"samples"`
	// Decays are the times (ms) the decay thread wrote its state file
	// (priority_last_decay_ran): each is a PriorityCalcPeriod tick, when
	// usage is decayed and every pending job's priority recomputed.
	Decays []int64 `json:"decays_ms"`
	// Log is what slurmctld's log (info level) says of each job: when
	// it was allocated and completed, to the millisecond, and whether
	// backfill started it (else the main scheduler did).
	Log []logJob `json:"slurmctld_log"`
	// name is the file the recording was read from: the errors on its
	// contents name it (named), as a log's errors name the log.
	name string
}

// named prefixes err with the recording's file.
func (r *recording) named(err error) error {
	if err == nil || r.name == "" {
		return err
	}
	return fmt.Errorf("%s: %w", r.name, err)
}

// logJob is one job in slurmctld's log.
type logJob struct {
	ID       string `json:"id"`
	Start    int64  `json:"start_ms"`
	End      int64  `json:"end_ms"`
	Backfill bool   `json:"backfill"`
	// Node is the node list the job was allocated (the log line's
	// NodeList= or "on NODES"); absent from recordings made before it was
	// kept.
	Node string `json:"node,omitempty"`
}

// sample is one sprio of the pending jobs: its lines are sprioFormat's.
type sample struct {
	T     int64  `json:"t_ms"`
	Sprio string `json:"sprio"`
}

// recordPath is the committed recording of a live run; TestLiveSlurmCheck
// rewrites it only with BATCHQ_UPDATE_README=1.
const recordPath = "testdata/live.json"

// secondPath is a second live run of the same workload and site, made with
// BATCHQ_SLURMCHECK_RECORD=testdata/live2.json: how far Slurm agrees with
// itself.
const secondPath = "testdata/live2.json"

// sampleEvery is the time between two sprio samples of a live run.
const sampleEvery = 2 * time.Second

// The commands' formats, fixed because the comparison parses them.
const (
	sacctFormat = "JobID,User,Account,Partition,QOS,Submit,Eligible,Start,End,ElapsedRaw,TimelimitRaw,AllocCPUS,State,Priority"
	// sprioFormat: job, priority, then the weighted age, fair-share, job
	// size, partition and QOS factors.
	sprioFormat = "%i|%Y|%A|%F|%J|%P|%Q"
	// sacctTRESFormat is sacctFormat with each job's allocated TRES
	// (its memory and GPUs: "billing=2,cpu=2,gres/gpu=1,mem=3000M,node=1"),
	// as recorded from the site of memory and GPUs on; parseSacct reads
	// either.
	sacctTRESFormat = sacctFormat + ",AllocTRES"
	sshareArgs      = "-a -P -l"
	qosArgs         = "-P show qos format=Name,Priority"
)

// maxRecording bounds a recording as read whole (/dev/zero was read until
// the command was killed).
const maxRecording = 4 << 30

func readRecording(path string) (*recording, error) {
	b, err := cli.ReadText(path, "recording", maxRecording)
	if err != nil {
		return nil, err
	}
	return decodeRecording(b, path)
}

func decodeRecording(b []byte, name string) (*recording, error) {
	// An empty file or other JSON said only "unexpected end of JSON
	// input" or nothing at all: the error names the file and what it
	// should hold.
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s: empty file, not a slurmcheck recording (%s)", name, recordingShape)
	}
	var r recording
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: not a slurmcheck recording (%s): %w", name, recordingShape, err)
	}
	r.name = name
	// The commands' outputs are read line by line: a recording saved with
	// CRLF line endings (an editor, a Windows copy) is read as LF, as the
	// SWF reader reads a log; sacct's header was "not" the format.
	for _, s := range []*string{&r.Conf, &r.QOS, &r.Shares, &r.Sacct, &r.SharesEnd} {
		*s = strings.ReplaceAll(*s, "\r\n", "\n")
	}
	for i := range r.Samples {
		r.Samples[i].Sprio = strings.ReplaceAll(r.Samples[i].Sprio, "\r\n", "\n")
	}
	if len(r.Workload) == 0 || r.Sacct == "" {
		return nil, fmt.Errorf("%s: not a slurmcheck recording: no \"workload\" or no \"sacct\" (%s)", name, recordingShape)
	}
	if len(r.IDs) != len(r.Workload) {
		return nil, fmt.Errorf("%s: %d job ids for %d planned jobs", name, len(r.IDs), len(r.Workload))
	}
	// A live run lasts minutes: a time far from the others (a hand-edited
	// or damaged recording) made the Slurm side's 250 ms sampling loop run
	// for hours, and one near 2^63 overflowed it.
	lo, hi := int64(maxRecordMs), int64(0)
	span := func(what string, t int64) error {
		if t <= 0 || t > maxRecordMs {
			return fmt.Errorf("%s: %s %d ms is not a time of a live run (Unix ms before 2100)", name, what, t)
		}
		lo, hi = min(lo, t), max(hi, t)
		return nil
	}
	for _, t := range r.Submitted {
		if err := span("submitted_ms", t); err != nil {
			return nil, err
		}
	}
	// The decay ticks and the sprio samples are times of the same run: a
	// decay at -5 ms or 2^63-1 ms was taken as Slurm's first
	// recalculation (1,795,939,357 s before the first submission), and
	// a shift of the second run's ticks wrapped.
	for _, t := range r.Decays {
		if err := span("decays_ms", t); err != nil {
			return nil, err
		}
	}
	for _, s := range r.Samples {
		if err := span("samples t_ms", s.T); err != nil {
			return nil, err
		}
	}
	for _, l := range r.Log {
		if err := span("slurmctld_log start_ms", l.Start); err != nil {
			return nil, err
		}
		if l.End != 0 {
			if err := span("slurmctld_log end_ms", l.End); err != nil {
				return nil, err
			}
		}
	}
	if hi-lo > maxRunMs {
		return nil, fmt.Errorf("%s: its times span %.1f days; a live run lasts minutes", name, float64(hi-lo)/86400e3)
	}
	return &r, nil
}

// recordingShape says what a recording is, for the errors of a file that
// is not one.
const recordingShape = `want the JSON object TestLiveSlurmCheck records: "slurm_conf", "workload", "ids", "sacct", "samples", …`

// Bounds of a recording's times: Unix ms before 2100, all within a week.
const (
	maxRecordMs = 4102444800000
	maxRunMs    = 7 * 86400e3
)

// parseCtldLog reads the starts and ends of jobs from slurmctld's log,
// whose times are local (loc) to the millisecond: "sched: Allocate
// JobId=N NodeList=NODES" (the main scheduler), "sched/backfill:
// _start_job: Started JobId=N in PARTITION on NODES" (backfill) and
// "_job_complete: JobId=N done". Jobs in the order of their start; a
// start line without a job ID, or a kept line's malformed time, is an
// error.
func parseCtldLog(text string, loc *time.Location) ([]logJob, error) {
	var out []logJob
	at := map[string]int{}
	for _, l := range strings.Split(text, "\n") {
		if len(l) < 26 || l[0] != '[' || l[24] != ']' {
			continue
		}
		msg := l[26:]
		var id, node string
		kind := 0
		switch {
		case strings.HasPrefix(msg, "sched: Allocate JobId="):
			rest := msg[len("sched: Allocate JobId="):]
			f := strings.Fields(rest)
			if len(f) == 0 || rest[0] == ' ' { // (the ID follows "JobId=" at once)
				return nil, fmt.Errorf("slurmctld log: %q: no job ID", l)
			}
			id, kind = f[0], 1
			for _, w := range f[1:] {
				if n, ok := strings.CutPrefix(w, "NodeList="); ok {
					node = n
				}
			}
		case strings.HasPrefix(msg, "sched/backfill: _start_job: Started JobId="):
			rest := msg[len("sched/backfill: _start_job: Started JobId="):]
			f := strings.Fields(rest)
			if len(f) == 0 || rest[0] == ' ' { // (the ID follows "JobId=" at once)
				return nil, fmt.Errorf("slurmctld log: %q: no job ID", l)
			}
			id, kind = f[0], 2
			if k := slices.Index(f, "on"); k >= 0 && k+1 < len(f) {
				node = f[k+1]
			}
		case strings.HasPrefix(msg, "_job_complete: JobId=") && strings.HasSuffix(msg, " done"):
			id, kind = strings.TrimSuffix(msg[len("_job_complete: JobId="):], " done"), 3
		default:
			continue
		}
		t, err := time.ParseInLocation("2006-01-02T15:04:05.000", l[1:24], loc)
		if err != nil {
			return nil, fmt.Errorf("slurmctld log: %q: %w", l, err)
		}
		ms := t.UnixMilli()
		if kind == 3 {
			if i, ok := at[id]; ok {
				out[i].End = ms
			}
			continue
		}
		at[id] = len(out)
		out = append(out, logJob{ID: id, Start: ms, Backfill: kind == 2, Node: node})
	}
	return out, nil
}

// realJob is one job as sacct shows it (its allocation line).
type realJob struct {
	ID                            string
	User, Account, Partition, QOS string
	Submit, Eligible, Start, End  int64 // Unix seconds; 0: none
	Limit                         int64 // seconds
	// NoLimit is TimelimitRaw's form when it gives no limit (Limit 0):
	// noLimitForms says which sacct prints and what each means.
	NoLimit string
	CPUs    int64
	// Mem (MB) and GPUs are AllocTRES's mem and gres/gpu, TRES whether
	// the recording has the column (sacctTRESFormat).
	Mem, GPUs int64
	TRES      bool
	State     string
	Priority  int64 // sacct's Priority: the job's priority when it started
}

// parseSacct reads sacct -P -X -o sacctFormat output (with a header line).
func parseSacct(text string) (map[string]realJob, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	fields := 14
	switch {
	case len(lines) > 0 && lines[0] == strings.ReplaceAll(sacctFormat, ",", "|"):
	case len(lines) > 0 && lines[0] == strings.ReplaceAll(sacctTRESFormat, ",", "|"):
		fields = 15
	default:
		return nil, fmt.Errorf("sacct: the header is not %q nor %q", sacctFormat, sacctTRESFormat)
	}
	jobs := map[string]realJob{}
	for n, l := range lines[1:] {
		f := strings.Split(l, "|")
		if len(f) != fields {
			return nil, fmt.Errorf("sacct line %d: %d fields, want %d", n+2, len(f), fields)
		}
		num := func(i int) (int64, error) {
			switch f[i] {
			case "Unknown", "None", "":
				return 0, nil
			}
			// (The column is named: "field 11: strconv.ParseInt: parsing
			// "2-03:04:05": invalid syntax" left the reader to count.)
			col := strings.Split(sacctFormat, ",")[i]
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("sacct line %d field %d (%s): %q is not a whole number (sacct -P --format %s prints Unix times, minutes and counts)", n+2, i+1, col, f[i], sacctFormat)
			}
			// Times (×1000 later), limits (×60) and counts: a negative or
			// an absurd value is an error, not a wrapped product.
			if v < 0 || v > 1<<40 {
				return 0, fmt.Errorf("sacct line %d field %d (%s): %d out of range", n+2, i+1, col, v)
			}
			return v, nil
		}
		j := realJob{ID: f[0], User: f[1], Account: f[2], Partition: f[3], QOS: f[4], State: f[12]}
		var err error
		for _, p := range []struct {
			i int
			v *int64
		}{{5, &j.Submit}, {6, &j.Eligible}, {7, &j.Start}, {8, &j.End}, {10, &j.Limit}, {11, &j.CPUs}, {13, &j.Priority}} {
			if p.i == 10 {
				if form, ok := noLimitForm(f[10]); ok {
					j.NoLimit = form // (Limit stays 0: prepare sets it)
					continue
				}
				if f[10] == "Unknown" || f[10] == "None" {
					// Forms of sacct's times, not of a limit: num took them as 0.
					return nil, fmt.Errorf("sacct line %d field 11 (TimelimitRaw): %q is not a limit (sacct prints minutes, UNLIMITED, Partition_Limit or nothing)", n+2, f[10])
				}
				if f[10] == "" || f[10] == "0" {
					// A limit of 0 (sacct prints nothing for it): not
					// "no limit". Slurm's backfill plans the job with 0
					// minutes (MIN(0, MaxTime)) and slurmctld ends it at
					// its first time-limit check; no estimate of the
					// simulations plans that.
					return nil, fmt.Errorf("sacct line %d field 11 (TimelimitRaw): %q is a limit of 0 minutes, which Slurm's backfill plans as ending at once (not as no limit: that is UNLIMITED or Partition_Limit); the simulations cannot plan it", n+2, f[10])
				}
			}
			if *p.v, err = num(p.i); err != nil {
				return nil, err
			}
		}
		j.Limit *= 60
		if fields == 15 {
			j.TRES = true
			if j.Mem, j.GPUs, err = parseTRES(f[14]); err != nil {
				return nil, fmt.Errorf("sacct line %d field 15 (AllocTRES): %w", n+2, err)
			}
		}
		jobs[j.ID] = j
	}
	return jobs, nil
}

// noLimitForms are the TimelimitRaw values sacct prints for a job with no
// limit of its own (src/sacct/print.c): UNLIMITED for a limit of INFINITE
// (no --time in a partition of MaxTime=UNLIMITED, or an administrator's
// --time=UNLIMITED), Partition_Limit for NO_VAL (a limit never set: the
// partition's applies). Slurm's backfill plans a job of INFINITE or
// NO_VAL with its partition's MaxTime, a year when that is UNLIMITED
// (backfill.c, part_time_limit, Slurm 22.05); prepare gives the
// simulations the same, and the report counts such jobs by form. The
// empty form, a limit of 0, is not one of them: backfill plans it as 0
// minutes (sbatch -t 0 sends INFINITE, but a job submitted through the
// API with 0 keeps it), and parseSacct refuses it.
var noLimitForms = map[string]string{"UNLIMITED": "UNLIMITED", "Partition_Limit": "Partition_Limit"}

// noLimitForm returns the name of TimelimitRaw's value v if it is one of
// noLimitForms.
func noLimitForm(v string) (string, bool) {
	form, ok := noLimitForms[v]
	return form, ok
}

// prio is one line of a sprio sample: the job's priority and its weighted
// factors (age, fair share, job size, partition, QOS).
type prio struct {
	ID       string
	Priority int64
	Factors  [5]float64
}

func parseSprio(text string) ([]prio, error) {
	var out []prio
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		f := strings.Split(l, "|")
		if len(f) != 7 {
			return nil, fmt.Errorf("sprio: %q has %d fields, want 7", l, len(f))
		}
		p := prio{ID: strings.TrimSpace(f[0])}
		var err error
		if p.Priority, err = strconv.ParseInt(strings.TrimSpace(f[1]), 10, 64); err != nil {
			return nil, fmt.Errorf("sprio: %q: %w", l, err)
		}
		for i := range p.Factors {
			if p.Factors[i], err = strconv.ParseFloat(strings.TrimSpace(f[2+i]), 64); err != nil {
				return nil, fmt.Errorf("sprio: %q: %w", l, err)
			}
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b prio) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// parseTRES reads AllocTRES's memory (MB: sacct writes it with a unit,
// K, M, G or T, of 1024) and gres/gpu count; each 0 when absent.
func parseTRES(v string) (mem, gpus int64, err error) {
	if v == "" {
		return 0, 0, nil
	}
	for _, kv := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(kv, "=")
		if !ok {
			return 0, 0, fmt.Errorf("%q is not KEY=VALUE", kv)
		}
		switch k {
		case "mem":
			scale := map[byte]float64{'K': 1.0 / 1024, 'M': 1, 'G': 1024, 'T': 1024 * 1024}
			var s float64
			if val != "" {
				s, ok = scale[val[len(val)-1]]
			}
			if !ok || val == "" {
				return 0, 0, fmt.Errorf("mem=%q: want a size with K, M, G or T", val)
			}
			x, err := strconv.ParseFloat(val[:len(val)-1], 64)
			if err != nil || !(x >= 0 && x*s <= 1<<40) { // (NaN too)
				return 0, 0, fmt.Errorf("mem=%q: not a size", val)
			}
			mem = int64(math.Round(x * s))
		case "gres/gpu":
			if gpus, err = strconv.ParseInt(val, 10, 64); err != nil || gpus < 0 || gpus > 1<<20 {
				return 0, 0, fmt.Errorf("gres/gpu=%q: not a count", val)
			}
		}
	}
	return mem, gpus, nil
}
