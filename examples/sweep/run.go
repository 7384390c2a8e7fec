package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/shake"

	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/load"
	"github.com/batchq/batchq/swf"
)

// Shard is task Index of Count (0 ≤ Index < Count). Shard i holds the runs
// whose number n has n mod Count = i (round-robin: every shard gets every
// trace and policy, so shards take about the same time).
type Shard struct{ Index, Count int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Has reports whether run n belongs to the shard.
func (s Shard) Has(n int) bool { return n%s.Count == s.Index }

// Select returns the shard's runs, in run order.
func (s Shard) Select(runs []Run) []Run {
	var out []Run
	for _, r := range runs {
		if s.Has(r.N) {
			out = append(out, r)
		}
	}
	return out
}

// FileName is the shard's result file in a directory.
func (s Shard) FileName(spec *Spec) string {
	return fmt.Sprintf("%s.shard-%d-of-%d.jsonl", spec.Name, s.Index, s.Count)
}

// ParseShard reads "i/N".
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("-shard %q: want i/N with 0 ≤ i < N", v)
	}
	if n > maxRuns {
		return Shard{}, errTooManyShards("-shard "+strconv.Quote(v), n)
	}
	return Shard{i, n}, nil
}

// errTooManyShards refuses a count of shards above maxRuns: no sweep has
// more runs, and the count is part of every result file's name (a count
// of 2^63-1 with a long sweep name made a name past what a file system
// holds).
func errTooManyShards(what string, n int) error {
	return fmt.Errorf("%s: %d shards, above the %d runs a sweep can have", what, n, maxRuns)
}

// ShardFromEnv finds the shard from an array job's environment when
// -shard is not given:
//
//   - Slurm: with -shards N, SLURM_ARRAY_TASK_ID is the shard number (as
//     the generated script does, so that failed tasks can be resubmitted
//     with --array=3,7); without, SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN
//     of SLURM_ARRAY_TASK_COUNT (any contiguous --array range, step 1);
//   - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX of count (-shards or
//     SWEEP_SHARDS; set it to the Job's completions);
//   - PBS Pro / OpenPBS: PBS_ARRAY_INDEX − SWEEP_SHARD_MIN (default 0) of
//     count (-shards or SWEEP_SHARDS).
//
// count is -shards (0: not given). With none of these variables, the
// shard is 0/1 (the whole sweep). src names the variables used.
func ShardFromEnv(getenv func(string) string, count int) (sh Shard, src string, err error) {
	num := func(name string) (int, error) {
		v := getenv(name)
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not an integer", name, v)
		}
		return n, nil
	}
	countOf := func(who string) (int, error) {
		if count > 0 {
			return count, nil
		}
		if getenv("SWEEP_SHARDS") == "" {
			return 0, fmt.Errorf("%s gives the task index but not the number of tasks: pass -shards N or set SWEEP_SHARDS", who)
		}
		return num("SWEEP_SHARDS")
	}
	check := func(i, n int, src string) (Shard, string, error) {
		if n < 1 || i < 0 || i >= n {
			return Shard{}, src, fmt.Errorf("%s: task %d of %d is out of range (want 0 ≤ index < count)", src, i, n)
		}
		if n > maxRuns {
			return Shard{}, src, errTooManyShards(src, n)
		}
		return Shard{i, n}, src, nil
	}
	switch {
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		src = "SLURM_ARRAY_TASK_ID"
		id, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return sh, src, err
		}
		if count > 0 {
			// The task IDs are the shard numbers (the generated script:
			// --array=0-N-1, or a resubmission of some of them).
			return check(id, count, src)
		}
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = num("SLURM_ARRAY_TASK_MIN"); err != nil {
				return sh, src, err
			}
		}
		if getenv("SLURM_ARRAY_TASK_COUNT") == "" {
			return sh, src, errors.New("SLURM_ARRAY_TASK_ID without SLURM_ARRAY_TASK_COUNT: pass -shards N")
		}
		n, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return sh, src, err
		}
		if getenv("SLURM_ARRAY_TASK_MAX") != "" {
			hi, err := num("SLURM_ARRAY_TASK_MAX")
			if err != nil {
				return sh, src, err
			}
			step := 1
			if getenv("SLURM_ARRAY_TASK_STEP") != "" {
				if step, err = num("SLURM_ARRAY_TASK_STEP"); err != nil {
					return sh, src, err
				}
			}
			if step != 1 || hi-lo+1 != n {
				return sh, src, fmt.Errorf("the Slurm array %d-%d:%d with %d tasks is not contiguous: use --array=0-%d, or pass -shards N to take the task IDs as shard numbers", lo, hi, step, n, n-1)
			}
		}
		return check(id-lo, n, src)
	case getenv("JOB_COMPLETION_INDEX") != "":
		src = "JOB_COMPLETION_INDEX"
		i, err := num("JOB_COMPLETION_INDEX")
		if err != nil {
			return sh, src, err
		}
		n, err := countOf("JOB_COMPLETION_INDEX")
		if err != nil {
			return sh, src, err
		}
		return check(i, n, src)
	case getenv("PBS_ARRAY_INDEX") != "":
		src = "PBS_ARRAY_INDEX"
		i, err := num("PBS_ARRAY_INDEX")
		if err != nil {
			return sh, src, err
		}
		if getenv("SWEEP_SHARD_MIN") != "" {
			lo, err := num("SWEEP_SHARD_MIN")
			if err != nil {
				return sh, src, err
			}
			i -= lo
		}
		n, err := countOf("PBS_ARRAY_INDEX")
		if err != nil {
			return sh, src, err
		}
		return check(i, n, src)
	}
	if count > 1 {
		return sh, "", fmt.Errorf("-shards %d without a task index: pass -shard i/%d or run as an array task", count, count)
	}
	return Shard{0, 1}, "", nil
}

// Line is one result line: the run number, the spec's hash, the run's
// parameters and its metrics. Nothing in it depends on the machine or the
// time it ran: the same spec and run number give the same bytes anywhere.
type Line struct {
	Run     int     `json:"run"`
	Spec    string  `json:"spec"`
	Params  Params  `json:"params"`
	Summary Metrics `json:"summary"`
}

// Metrics are sched.Summary's fields, named for JSON.
type Metrics struct {
	Jobs            int      `json:"jobs"`
	Included        int      `json:"included"`
	Rejected        int      `json:"rejected"`
	Killed          int      `json:"killed"`
	Overran         int      `json:"overran"`
	MeanWait        float64  `json:"mean_wait_s"`
	MeanResponse    float64  `json:"mean_response_s"`
	MeanSlowdown    float64  `json:"mean_slowdown"`
	MeanBSLD        float64  `json:"mean_bsld"`
	Accuracy        float64  `json:"accuracy"`
	BackfillRate    float64  `json:"backfill_rate"`
	MeanCorrections float64  `json:"mean_corrections"`
	Utilization     float64  `json:"utilization"`
	PredRate        float64  `json:"pred_rate"`
	PredAbsMean     float64  `json:"pred_abs_mean_s"`
	PredAbsMedian   float64  `json:"pred_abs_median_s"`
	DelayRate       float64  `json:"delay_rate"`
	DelayMean       float64  `json:"delay_mean_s"`
	DelayMedian     float64  `json:"delay_median_s"`
	HeelToe         *HeelToe `json:"heel_toe,omitempty"`
	// RejectedBy counts Rejected by reason, and Changed the jobs each
	// job-building rule changed (sched.Result.Changed), as simulate's
	// -json names them (no_size, estimate_filled); absent when none. A
	// line held only the total: LLNL-Atlas's 4571 rejected jobs had no
	// reason anywhere in a sweep's results.
	RejectedBy map[string]int `json:"rejected_by,omitempty"`
	Changed    map[string]int `json:"changed,omitempty"`
}

func metricsOf(s sched.Summary) Metrics {
	p := s.Predictability
	return Metrics{s.Jobs, s.Included, s.Rejected, s.Killed, s.Overran, s.MeanWait, s.MeanResponse, s.MeanSlowdown,
		s.MeanBSLD, s.Accuracy, s.BackfillRate, s.MeanCorrections, s.Utilization,
		p.Rate, p.AbsMean, p.AbsMedian, p.DelayRate, p.DelayMean, p.DelayMedian, nil, nil, nil}
}

// encodeLine is the canonical bytes of a line, newline included.
func encodeLine(l Line) []byte {
	b, err := json.Marshal(l)
	if err != nil {
		panic(err) // only plain values: cannot fail except for NaN
	}
	return append(b, '\n')
}

// Sidecar is the shard's machine-dependent record, kept beside the result
// file (FILE.meta.json), never in it.
type Sidecar struct {
	Spec       string    `json:"spec"`
	Shard      string    `json:"shard"`
	ShardFrom  string    `json:"shard_from,omitempty"`
	Host       string    `json:"host"`
	GoOS       string    `json:"goos"`
	GoArch     string    `json:"goarch"`
	GoVersion  string    `json:"go_version"`
	Workers    int       `json:"workers"`
	Started    time.Time `json:"started"`
	Wall       float64   `json:"wall_s"`
	Runs       int       `json:"runs"`       // in the shard
	Skipped    int       `json:"skipped"`    // already done (resumed)
	Ran        int       `json:"ran"`        // this invocation
	Reused     int       `json:"reused"`     // of which copied from -reuse
	RunTime    float64   `json:"run_s"`      // sum of the runs' elapsed times (parsing included)
	Parse      float64   `json:"parse_s"`    // reading the traces
	CPU        float64   `json:"cpu_s"`      // CPU time of the process (user + system; 0 where not measured)
	RunsPerSec float64   `json:"runs_per_s"` // Ran / Wall
	// TrailingZeros is, by trace, the zero bytes after its log's last
	// gzip member, ignored (simulate's and swfstat's key; the text says
	// them too), of the traces this invocation read (none when every
	// run was done already); absent when none had any.
	TrailingZeros map[string]int64 `json:"trailing_zero_bytes,omitempty"`
	// DegenerateEMax is, by trace, its largest estimate when that is one
	// corrupt value (cli.DegenerateEMax: LLNL-Atlas's 23 years) and S6
	// fills the jobs without an estimate with it, as simulate and
	// estimates warn (their warning_data.degenerate_e_max); of the traces
	// this invocation read, absent when none.
	DegenerateEMax map[string]*cli.DegenerateEMax `json:"degenerate_e_max,omitempty"`
	// MalformedLines is, by trace, with the spec's "lenient", the
	// malformed lines its reading skipped (cli.Skipped: the count and the
	// first errors), of the traces this invocation read; absent when none
	// was skipped.
	MalformedLines map[string]cli.Skipped `json:"malformed_lines,omitempty"`
	// HeaderWarnings is, by trace, the header lines its reading did not
	// take as written (cli.Skipped.Header: a MaxProcs after the first job
	// line, ignored, or kept as text, the size then MaxNodes's; the text
	// says them too), of the traces this invocation read; absent when
	// none. cli.ReadLog dropped them and the runs used another size
	// without a word.
	HeaderWarnings map[string][]string `json:"header_warnings,omitempty"`
}

// runOptions are the run command's settings.
type runOptions struct {
	spec      *Spec
	shard     Shard
	shardFrom string
	out       string
	workers   int
	traces    string // directory ("" : tracetest.Dir)
	progress  bool
	// reuse holds the metrics of runs made for other specs, by their
	// parameters (paramKey): a run found there is copied, not simulated.
	reuse map[string]Metrics
}

// paramKey is the canonical JSON of a run's parameters.
func paramKey(p Params) string {
	b, _ := json.Marshal(p)
	return string(b)
}

// loadReuse reads result lines of any spec from files and directories and
// indexes their metrics by parameters. Lines are only worth reusing when
// they were made by the same version of package sched.
func loadReuse(args []string) (map[string]Metrics, error) {
	files, _, err := resultFiles(args, "") // any spec's lines may be reused
	if err != nil {
		return nil, err
	}
	m := map[string]Metrics{}
	for _, f := range files {
		b, err := readMaybeGz(f)
		if err != nil {
			return nil, err
		}
		for k, ln := range bytes.Split(b, []byte{'\n'}) {
			if len(bytes.TrimSpace(ln)) == 0 {
				continue
			}
			var l Line
			if err := json.Unmarshal(ln, &l); err != nil {
				if k == bytes.Count(b, []byte{'\n'}) {
					break // a truncated last line
				}
				return nil, fmt.Errorf("%s:%d: not a result line: %v", f, k+1, err)
			}
			m[paramKey(l.Params)] = l.Summary
		}
	}
	return m, nil
}

// resume reads the finished runs of an existing result file. A last line
// without its newline (an interrupted write) is cut off the file. Lines of
// another spec or shard, or that do not parse, are an error.
func resume(path string, spec *Spec, hash string, sh Shard, nruns int) (map[int]bool, error) {
	done := map[int]bool{}
	b, err := cli.ReadText(path, "result file", int64(maxResultFile))
	if errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, err
	}
	keep := bytes.LastIndexByte(b, '\n') + 1
	lines := bytes.Split(b[:keep], []byte{'\n'})
	for k, ln := range lines {
		if len(ln) == 0 {
			continue
		}
		var l Line
		if err := json.Unmarshal(ln, &l); err != nil {
			return nil, fmt.Errorf("%s:%d: not a result line: %v", path, k+1, err)
		}
		if l.Spec != hash {
			return nil, fmt.Errorf("%s:%d: run %d is from spec %s, not %s (%s): use another -out directory", path, k+1, l.Run, l.Spec, hash, spec.Name)
		}
		if l.Run < 0 || l.Run >= nruns || !sh.Has(l.Run) {
			return nil, fmt.Errorf("%s:%d: run %d is not in shard %s", path, k+1, l.Run, sh)
		}
		if done[l.Run] {
			return nil, fmt.Errorf("%s:%d: run %d twice", path, k+1, l.Run)
		}
		done[l.Run] = true
	}
	if keep < len(b) {
		if err := os.Truncate(path, int64(keep)); err != nil {
			return nil, err
		}
	}
	return done, nil
}

// traceCache parses each trace once per process and keeps each (trace,
// load, seed) input while runs still need it: refs counts the pending runs
// of each key, and the last one releases it.
type traceCache struct {
	dir string
	mu  sync.Mutex
	raw map[string]*entry // by trace name
	in  map[inputKey]*entry
	// pending runs per trace and per input
	rawRefs map[string]int
	inRefs  map[inputKey]int
	parse   time.Duration
	zeros   map[string]int64       // by trace: zero bytes after its last gzip member (cli.ReadLog)
	lenient bool                   // the spec's "lenient": skip malformed lines, counted in skipped
	skipped map[string]cli.Skipped // by trace: the malformed lines skipped (lenient)
	header  map[string][]string    // by trace: header lines not taken as written
	eMax    map[string]*eMaxState  // by trace: a degenerate E_max (degenerateEMax)
}

// eMaxState is a trace's degenerate E_max and the run that counted the
// jobs it reached: the lowest-numbered run that filled estimates with it
// (S6), as simulate counts them (its filled jobs and those that asked
// it, of the jobs simulated); run -1 until one did.
type eMaxState struct {
	d     *cli.DegenerateEMax
	atMax int
	run   int
}

// noteEMax counts, for run n of trace, the jobs its degenerate E_max
// reached, if the run filled estimates with it and no lower-numbered run
// did.
func (c *traceCache) noteEMax(trace string, n int, cfg sched.Config, res *sched.Result) {
	if cfg.Peer != sched.PeerNone || cfg.MaxEstimate != 0 || res.Summary.Filled == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.eMax[trace]; st != nil && (st.run < 0 || n < st.run) {
		st.run = n
		kept := res.Rejected.Kept
		st.d.Reached(min(res.Summary.Filled+st.atMax, kept), kept)
	}
}

// eMaxReached is the degenerate E_max of each trace that a run filled
// estimates with, nil when none did.
func (c *traceCache) eMaxReached() map[string]*cli.DegenerateEMax {
	c.mu.Lock()
	defer c.mu.Unlock()
	var m map[string]*cli.DegenerateEMax
	for t, st := range c.eMax {
		if st.run >= 0 {
			if m == nil {
				m = map[string]*cli.DegenerateEMax{}
			}
			m[t] = st.d
		}
	}
	return m
}

type inputKey struct {
	trace string
	load  float64
	seed  uint64
}

type entry struct {
	once    sync.Once
	jobs    []swf.Job
	machine int64
	offered float64
	skipped int // jobs load.Offered skipped: no logged wait, run time or size
	err     error
}

func newTraceCache(dir string, runs []Run) *traceCache {
	c := &traceCache{dir: dir, raw: map[string]*entry{}, in: map[inputKey]*entry{}, rawRefs: map[string]int{}, inRefs: map[inputKey]int{}}
	for _, r := range runs {
		c.rawRefs[r.Trace]++
		c.inRefs[inputKey{r.Trace, r.Load, r.Seed}]++
	}
	return c
}

func (c *traceCache) path(file string) (string, error) {
	if filepath.IsAbs(file) {
		return file, nil
	}
	dir := c.dir
	if dir == "" {
		d, err := tracetest.Dir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	return filepath.Join(dir, file), nil
}

// input returns the jobs of a run (shared: read only) and the machine size.
func (c *traceCache) input(p Params) ([]swf.Job, int64, error) {
	c.mu.Lock()
	raw := c.raw[p.Trace]
	if raw == nil {
		raw = &entry{}
		c.raw[p.Trace] = raw
	}
	key := inputKey{p.Trace, p.Load, p.Seed}
	in := c.in[key]
	if in == nil {
		in = &entry{}
		c.in[key] = in
	}
	c.mu.Unlock()
	raw.once.Do(func() {
		t0 := time.Now()
		path, err := c.path(p.File)
		if err != nil {
			raw.err = err
			return
		}
		h, jobs, skipped, zeros, err := readTrace(path, c.lenient)
		if err != nil {
			raw.err = fmt.Errorf("trace %s: %w", p.Trace, err)
			return
		}
		if len(skipped.Header) > 0 {
			c.mu.Lock()
			if c.header == nil {
				c.header = map[string][]string{}
			}
			c.header[p.Trace] = skipped.Header
			c.mu.Unlock()
			skipped.Header = nil // (said once, under header_warnings)
		}
		if skipped.Lines > 0 {
			c.mu.Lock()
			if c.skipped == nil {
				c.skipped = map[string]cli.Skipped{}
			}
			c.skipped[p.Trace] = skipped
			c.mu.Unlock()
		}
		if zeros > 0 {
			c.mu.Lock()
			if c.zeros == nil {
				c.zeros = map[string]int64{}
			}
			c.zeros[p.Trace] = zeros
			c.mu.Unlock()
		}
		if len(jobs) == 0 {
			// As simulate, swfstat and forecast refuse it: its runs were
			// written with 0 jobs and the report blamed rejection or
			// warm-up for a log that has no job at all.
			raw.err = fmt.Errorf("trace %s: %s: no job lines", p.Trace, path)
			return
		}
		if d, atMax := degenerateEMax(jobs); d != nil {
			c.mu.Lock()
			if c.eMax == nil {
				c.eMax = map[string]*eMaxState{}
			}
			c.eMax[p.Trace] = &eMaxState{d: d, atMax: atMax, run: -1}
			c.mu.Unlock()
		}
		raw.jobs, raw.machine = jobs, p.Machine
		if raw.machine == 0 {
			if raw.machine, err = h.MachineSize(); err != nil {
				raw.err = fmt.Errorf("trace %s: machine size unknown (set \"machine\" in the spec): %w", p.Trace, err)
				return
			}
			// sched refuses it, with an error that names no trace
			if err := cli.CheckMachine(raw.machine); err != nil {
				raw.err = fmt.Errorf("trace %s: %s: %w (set \"machine\" in the spec)", p.Trace, path, err)
				return
			}
		}
		raw.offered, raw.skipped = load.Offered(inRange(jobs), raw.machine)
		c.mu.Lock()
		c.parse += time.Since(t0)
		c.mu.Unlock()
	})
	if raw.err != nil {
		return nil, 0, raw.err
	}
	in.once.Do(func() {
		jobs := raw.jobs
		if p.Seed != 0 {
			shaken, _, err := shake.Shake(jobs, shake.Config{Seed: p.Seed})
			if err != nil {
				in.err = err
				return
			}
			jobs = shaken
		}
		if p.Load != 0 {
			if !(raw.offered > 0) {
				// Say why: NASA-iPSC and LLNL-Atlas log no wait, and the
				// offered load is that of the log's own schedule (S8).
				in.err = fmt.Errorf("trace %s: cannot compute its offered load to scale to %v: %d of its %d jobs have no logged wait, run time or size (the load is that of the log's own schedule, S8)",
					p.Trace, p.Load, raw.skipped, len(raw.jobs))
				if n := len(inRange(raw.jobs)); raw.skipped < n {
					// Some jobs were measured and their load is 0. ("0 of
					// its 300 jobs have no logged wait" said no why, and
					// "4 of its 300 jobs have none" of a log submitted at
					// one instant blamed the 4.)
					in.err = fmt.Errorf("trace %s: cannot compute its offered load to scale to %v: it is 0 (every run time 0, or every job submitted at one instant: the log's own schedule, S8, holds no processor-second between the warm-up and the last arrival; %d of its %d jobs measured, the others without a logged wait, run time or size)",
						p.Trace, p.Load, n-raw.skipped, len(raw.jobs))
				}
				if len(raw.jobs) > 0 && len(inRange(raw.jobs)) == 0 {
					// (said "every run time 0" of a log whose every job
					// was left out of the load)
					in.err = fmt.Errorf("trace %s: cannot compute its offered load to scale to %v: every one of its %d jobs has a size past 2^40 processors or a time past 2^40 s, which sched rejects",
						p.Trace, p.Load, len(raw.jobs))
				}
				return
			}
			scaled, err := scaleInRange(jobs, raw.offered/p.Load)
			if err != nil {
				in.err = err
				return
			}
			jobs = scaled
		}
		in.jobs = jobs
	})
	return in.jobs, raw.machine, in.err
}

// inRange is jobs without those whose size is past 2^40 processors or a
// time past 2^40 s (cli.InRange's bounds, not its partial executions),
// which sched rejects: load.Offered counted them, and one corrupt size of
// 2^63 − 1 made the offered load about 10^16, so that a load to scale to
// stretched the arrivals past 2^62 s and failed the runs. jobs is not
// changed.
func inRange(jobs []swf.Job) []swf.Job {
	var out []swf.Job
	for i := range jobs {
		j := &jobs[i]
		if cli.OutOfRange(j) != "" {
			if out == nil {
				out = append(make([]swf.Job, 0, len(jobs)), jobs[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, *j)
		}
	}
	if out == nil {
		return jobs
	}
	return out
}

// scaleInRange is load.Scale of the jobs within inRange's bounds, the
// others kept as they are, in their places, for sched to reject and count
// as it does without a load: one submit time of 2^63 − 1, scaled, left
// ±2^62 s and failed every run with a load ("load: job 18: submit time
// 9223372036854775807 scaled by 1.47 …").
func scaleInRange(jobs []swf.Job, c float64) ([]swf.Job, error) {
	kept := inRange(jobs)
	scaled, err := load.Scale(kept, c)
	if err != nil || len(kept) == len(jobs) {
		return scaled, err
	}
	out := make([]swf.Job, 0, len(jobs))
	k := 0
	for i := range jobs {
		if cli.OutOfRange(&jobs[i]) != "" {
			out = append(out, jobs[i])
			continue
		}
		out = append(out, scaled[k])
		k++
	}
	return out, nil
}

// release drops a run's claim on its inputs.
func (c *traceCache) release(p Params) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := inputKey{p.Trace, p.Load, p.Seed}
	if c.inRefs[key]--; c.inRefs[key] == 0 {
		delete(c.in, key)
	}
	if c.rawRefs[p.Trace]--; c.rawRefs[p.Trace] == 0 {
		delete(c.raw, p.Trace)
	}
}

// simulate makes one run and returns its line.
func simulateRun(ctx context.Context, c *traceCache, hash string, r Run) ([]byte, error) {
	defer c.release(r.Params)
	jobs, machine, err := c.input(r.Params)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Config(machine)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", r.N, err)
	}
	var ht *heelToeObserver
	if r.HeelToe {
		ht = newHeelToeObserver(machine)
	}
	res, err := runObserved(ctx, cfg, jobs, ht)
	if err != nil {
		return nil, fmt.Errorf("run %d (%s %s): %w", r.N, r.Trace, r.Policy, err)
	}
	if res.Rejected.Kept == 0 {
		return nil, fmt.Errorf("run %d (%s %s): %w", r.N, r.Trace, r.Policy, c.nothingSimulated(r.Params, len(jobs), res))
	}
	c.noteEMax(r.Trace, r.N, cfg, res)
	m := metricsOf(res.Summary)
	if len(res.Rejected.Excluded) > 0 {
		m.RejectedBy = cli.ReasonKeys(cli.ByReason(res.Rejected))
	}
	m.Changed = res.Changed()
	if ht != nil {
		m.HeelToe = &ht.m
	}
	return encodeLine(Line{Run: r.N, Spec: hash, Params: r.Params, Summary: m}), nil
}

// nothingSimulated is the error of a run that simulated no job of the
// read of its trace, each rejected: simulate's words, and the lines the
// spec's "lenient" skipped (cli.NothingLeft's), which may have been the
// jobs it missed. A run of 0 jobs was written as a result, exit 0, and
// the report's averages read 0 (simulate, varq and coalloc fail so).
func (c *traceCache) nothingSimulated(p Params, read int, res *sched.Result) error {
	path, err := c.path(p.File)
	if err != nil {
		path = p.File
	}
	c.mu.Lock()
	skipped := c.skipped[p.Trace].Lines
	c.mu.Unlock()
	err = fmt.Errorf("trace %s: %s: no job was simulated: every one of the %d read was rejected (%s)",
		p.Trace, path, read, cli.Reasons(cli.ByReason(res.Rejected)))
	return cli.NothingLeftAs(err, skipped, `the spec's "lenient"`)
}

// runObserved is sched.Run with an observer when o is not nil.
func runObserved(ctx context.Context, cfg sched.Config, jobs []swf.Job, o *heelToeObserver) (*sched.Result, error) {
	if o == nil {
		return sched.Run(ctx, cfg, jobs)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := sched.New(cfg)
	if err != nil {
		return nil, err
	}
	s.Observe(o)
	if err := s.Load(jobs); err != nil {
		return nil, err
	}
	return s.FinishContext(ctx)
}

// runShard makes the shard's runs that the result file does not hold yet,
// K at a time, and appends their lines to the file in run order.
func runShard(ctx context.Context, o runOptions, stderr io.Writer) (*Sidecar, error) {
	t0, cpu0 := time.Now(), processCPU()
	hash := o.spec.Hash()
	all := o.spec.Expand()
	mine := o.shard.Select(all)
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(o.out, o.shard.FileName(o.spec))
	done, err := resume(path, o.spec, hash, o.shard, len(all))
	if err != nil {
		return nil, err
	}
	var todo []Run
	for _, r := range mine {
		if !done[r.N] {
			todo = append(todo, r)
		}
	}
	host, _ := os.Hostname()
	side := &Sidecar{Spec: hash, Shard: o.shard.String(), ShardFrom: o.shardFrom, Host: host, GoOS: runtime.GOOS,
		GoArch: runtime.GOARCH, GoVersion: runtime.Version(), Workers: o.workers, Started: t0.UTC().Truncate(time.Second),
		Runs: len(mine), Skipped: len(mine) - len(todo)}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if len(todo) > 0 {
		cpu, err := execute(ctx, o, hash, todo, f, stderr)
		side.RunTime, side.Ran, side.Reused = cpu.sim.Seconds(), cpu.ran, cpu.reused
		side.Parse, side.TrailingZeros, side.DegenerateEMax = cpu.parse.Seconds(), cpu.zeros, cpu.eMax
		side.MalformedLines, side.HeaderWarnings = cpu.skipped, cpu.header
		if err != nil {
			return side, err
		}
	}
	if err := f.Close(); err != nil {
		return side, err
	}
	side.Wall = time.Since(t0).Seconds()
	side.CPU = (processCPU() - cpu0).Seconds()
	if side.Wall > 0 {
		side.RunsPerSec = float64(side.Ran) / side.Wall
	}
	b, _ := json.MarshalIndent(side, "", "  ")
	return side, os.WriteFile(path+".meta.json", append(b, '\n'), 0o644)
}

type cpuUse struct {
	sim, parse  time.Duration
	ran, reused int
	zeros       map[string]int64               // traceCache.zeros
	skipped     map[string]cli.Skipped         // traceCache.skipped
	header      map[string][]string            // traceCache.header
	eMax        map[string]*cli.DegenerateEMax // traceCache.eMax
}

// maxWorkers bounds run's -j.
const maxWorkers = 4096

// execute runs todo on o.workers goroutines (at most one a run); lines are written in run order
// as soon as every earlier run of todo is written.
func execute(ctx context.Context, o runOptions, hash string, todo []Run, w io.Writer, stderr io.Writer) (cpuUse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cache := newTraceCache(o.traces, todo)
	cache.lenient = o.spec.Lenient
	type result struct {
		k      int
		line   []byte
		d      time.Duration
		err    error
		reused bool
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for range max(1, min(o.workers, len(todo))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				t := time.Now()
				if m, ok := o.reuse[paramKey(todo[k].Params)]; ok {
					cache.release(todo[k].Params)
					results <- result{k, encodeLine(Line{Run: todo[k].N, Spec: hash, Params: todo[k].Params, Summary: m}), 0, nil, true}
					continue
				}
				line, err := simulateRun(ctx, cache, hash, todo[k])
				results <- result{k, line, time.Since(t), err, false}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for k := range todo {
			select {
			case jobs <- k:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	bar := progress.New(stderr, o.progress, 1)
	defer bar.Done()
	bar.Stage(fmt.Sprintf("%s %s", o.spec.Name, o.shard), 1)
	var use cpuUse
	var firstErr error
	pending := map[int][]byte{}
	next := 0
	bw := bufio.NewWriter(w)
	for res := range results {
		if res.err != nil {
			if firstErr == nil {
				firstErr = res.err
				cancel()
			}
			continue
		}
		use.sim += res.d
		if res.reused {
			use.reused++
		}
		pending[res.k] = res.line
		for pending[next] != nil && firstErr == nil {
			bw.Write(pending[next])
			delete(pending, next)
			next++
			use.ran++
			// One flush per line: an interruption leaves at most one partial
			// line, which resume cuts off.
			if err := bw.Flush(); err != nil {
				firstErr = err
				cancel()
			}
		}
		bar.Set(float64(next) / float64(len(todo)))
	}
	use.parse = cache.parse
	use.eMax = cache.eMaxReached()
	cache.mu.Lock()
	use.zeros, use.skipped, use.header = cache.zeros, cache.skipped, cache.header
	cache.mu.Unlock()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if errors.Is(firstErr, context.Canceled) {
		firstErr = fmt.Errorf("interrupted after %d of %d runs (run again to resume)", next, len(todo))
	}
	return use, firstErr
}

// readTrace is cli.ReadLogHeader (the header lines not taken as written
// in the Skipped's Header), lenient (the spec's "lenient") skipping the
// malformed lines, counted; strict, a malformed line's error says that
// "lenient" skips it (sweep's words for cli.LenientHint's).
func readTrace(path string, lenient bool) (*swf.Header, []swf.Job, cli.Skipped, int64, error) {
	if lenient {
		h, jobs, st, zeros, err := cli.ReadLogLenient(path, true)
		return h, jobs, cli.SkippedOf(st), zeros, err
	}
	h, jobs, zeros, header, err := cli.ReadLogHeader(path)
	if pe := (*swf.ParseError)(nil); errors.As(err, &pe) {
		err = fmt.Errorf("%w (\"lenient\": true in the spec skips malformed lines, counted and reported)", err)
	}
	return h, jobs, cli.Skipped{Header: header}, zeros, err
}

// degenerateEMax is the log's largest estimate if it is one corrupt value
// (cli.DegenerateEMax, simulate's and estimates' rule) and some job has no
// estimate, which S6 fills with it in every run but a peer's (-compat),
// with how many jobs ask it; nil otherwise. The jobs it reached are
// counted by the runs (traceCache.noteEMax).
func degenerateEMax(jobs []swf.Job) (*cli.DegenerateEMax, int) {
	var s cli.EMaxScan
	missing := 0
	for i := range jobs {
		s.Add(&jobs[i])
		if !jobs[i].HasEstimate() {
			missing++
		}
	}
	d := s.Degenerate()
	if d == nil || missing == 0 {
		return nil, 0
	}
	return d, s.AtMax
}
