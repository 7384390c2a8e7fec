package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// shortNames maps the names used on the command line to shared traces and
// the machine size the thesis simulates (0: the header's).
// eMax is the log's maximal estimate X of Tab 5.1 (a few stray larger
// estimates exist in SDSC and BLUE; they are left as they are). filter, if
// set, selects the thesis's Ch. 5 variant of the log from its sane jobs.
var shortNames = map[string]struct {
	file   string
	procs  int64
	eMax   int64
	filter func([]swf.Job) []swf.Job
}{
	"ctc":  {tracetest.CTC, 512, 18 * 3600, nil}, // S32: the thesis uses 512, not the ~430 batch nodes
	"kth":  {tracetest.KTH, 0, 60 * 3600, nil},
	"sdsc": {tracetest.SDSCSP2, 0, 18 * 3600, nil},
	"blue": {tracetest.SDSCBlue, 0, 36 * 3600, nil},
	// KTH4H (§5.5, S12): KTH's weekday 4-hour-limit jobs, the KTH workload
	// of Ch. 5, on the same 100-processor machine.
	"kth4h": {tracetest.KTH, 0, 4 * 3600, estimateAtMost(4 * 3600)},
	// SDSC-106 (§5.5): SDSC without the estimate values its most inventive
	// user alone used.
	"sdsc106": {tracetest.SDSCSP2, 0, 18 * 3600, withoutOwnedModes},
}

// loadTrace reads a trace given as a path or a short name (ctc, kth, kth4h,
// sdsc, sdsc106, blue), keeps its sane jobs (thesis S4/S5) and returns them with the
// machine size. procs > 0 overrides the machine size.
func loadTrace(name string, procs int64) (*swf.Header, []swf.Job, int64, sanitize.Report, error) {
	path := name
	var filter func([]swf.Job) []swf.Job
	if s, ok := shortNames[strings.ToLower(name)]; ok {
		filter = s.filter
		p, err := tracetest.Find(s.file)
		if err != nil {
			return nil, nil, 0, sanitize.Report{}, fmt.Errorf("trace %s: %w", name, err)
		}
		path = p
		if procs == 0 {
			procs = s.procs
		}
	} else if _, err := os.Stat(path); err != nil {
		if p, err2 := tracetest.Find(name); err2 == nil {
			path = p
		} else {
			return nil, nil, 0, sanitize.Report{}, err
		}
	}
	hdr, jobs, err := cli.ReadTrace(path)
	if err != nil {
		return nil, nil, 0, sanitize.Report{}, err
	}
	if len(jobs) == 0 { // (before the header's size: an empty file has no header either)
		return nil, nil, 0, sanitize.Report{}, fmt.Errorf("%s: no job lines: no sane job to give an estimate to", path)
	}
	if procs == 0 {
		if procs, err = hdr.MachineSize(); err != nil {
			return nil, nil, 0, sanitize.Report{}, fmt.Errorf("%s: %w (give -procs)", path, err)
		}
		if procs > sanitize.MaxTime {
			// Refused as simulate, forecast, replay and varq refuse it.
			return nil, nil, 0, sanitize.Report{}, fmt.Errorf("%s: machine size %d above 2^40 processors (give -procs)", path, procs)
		}
	}
	sane, rep := sanitize.Sane(jobs, procs)
	if filter != nil {
		sane = filter(sane)
	}
	return hdr, sane, procs, rep, nil
}

// logSetting is what the modal model is told about a log in the thesis's
// "vanilla" setting (§5.12.1): E_max, N and the share of jobs at E_max, taken
// from the log itself; for SDSC-BLUE also the (2 h, x%) bin that makes 2 h its
// effective maximum (01:59 merged into 2 h, as Tab 5.5 does). E_max is the
// thesis's X for the shared logs (Tab 5.1), else the largest estimate.
type logSetting struct {
	EMax    int64
	Share   float64 // % of jobs at E_max
	Bins    []estmodel.UserBin
	Missing int // jobs without an estimate (given E_max, S6)
}

func vanilla(name string, jobs []swf.Job) logSetting {
	var s logSetting
	for i := range jobs {
		if jobs[i].HasEstimate() {
			s.EMax = max(s.EMax, jobs[i].ReqTime)
		} else {
			s.Missing++
		}
	}
	if x, ok := shortNames[strings.ToLower(name)]; ok {
		s.EMax = x.eMax
	}
	at, twoH := 0, 0
	for i := range jobs {
		switch e := jobs[i].ReqTime; {
		case e == s.EMax || !jobs[i].HasEstimate():
			at++
		case e == 7140 || e == 7200:
			twoH++
		}
	}
	n := float64(len(jobs))
	s.Share = 100 * float64(at) / n
	s.Bins = []estmodel.UserBin{{Time: s.EMax, Percent: s.Share}}
	if strings.EqualFold(name, "blue") {
		s.Bins = append(s.Bins, estmodel.UserBin{Time: 7200, Percent: 100 * float64(twoH) / n})
	}
	return s
}

// fillMissing gives jobs without an estimate the log's E_max (S6) and
// truncates run times above E_max to it (as the thesis does for every
// estimate model, §5.1), returning how many of each it changed.
func fillMissing(jobs []swf.Job, eMax int64) (filled, truncated int) {
	for i := range jobs {
		if !jobs[i].HasEstimate() {
			jobs[i].ReqTime = eMax
			filled++
		}
		if jobs[i].RunTime > eMax {
			jobs[i].RunTime = eMax
			truncated++
		}
	}
	return filled, truncated
}

// degenerateEMax describes a log whose largest estimate, E_max of the
// vanilla setting (S6), is one corrupt value rather than the machine's
// limit: LLNL-Atlas's job 6762 asks 738,738,720 s (23 years), 570× the
// next largest estimate of its sane jobs and longer than the log, and every
// job given E_max got 23 years. The thesis's rule is kept (E_max is still the largest
// estimate); the report says, with the job, how many jobs it reached.
type degenerateEMax struct {
	Job     int64   `json:"job"`            // the job whose estimate is E_max
	EMax    int64   `json:"e_max_s"`        // its estimate
	Next    int64   `json:"next_largest_s"` // the largest estimate below it (0: none)
	Span    int64   `json:"log_span_s"`     // last submit − first submit
	Jobs    int     `json:"jobs_above_next"`
	Percent float64 `json:"percent"` // of the sane jobs: estimates above Next after the model
}

// degenerateFactor: E_max more than this many times the next largest
// estimate is taken for corrupt. Of the shared logs with estimates, only
// LLNL-Atlas (570×) and CEA-Curie (143×, 2^31 − 1 s) pass it, the two
// whose E_max also exceeds the log's span (TestDegenerateEMaxSharedLogs).
const degenerateFactor = 10

// degenerateYear: an estimate longer than the log's span is corrupt only
// when it is longer than a year too (no batch system's limit comes near):
// a log of a day (or one job, or jobs all submitted at once: a span of 0)
// whose jobs ask 36 h is not degenerate, and such a log's only estimate
// value (no next largest) is judged by this rule alone.
const degenerateYear = 365 * 86400

// checkEMax returns the degeneracy of the log's largest estimate, nil
// when it is not more than degenerateFactor × the next largest and not
// longer than both the span of the jobs' submit times and a year.
func checkEMax(jobs []swf.Job) *degenerateEMax {
	var d degenerateEMax
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range jobs {
		j := &jobs[i]
		lo, hi = min(lo, j.Submit), max(hi, j.Submit)
		switch e := j.ReqTime; {
		case !j.HasEstimate():
		case e > d.EMax:
			d.Next, d.EMax, d.Job = d.EMax, e, j.ID
		case e > d.Next && e < d.EMax:
			d.Next = e
		}
	}
	if d.EMax <= 0 {
		return nil
	}
	d.Span = hi - lo
	if !d.byFactor() && !d.bySpan() {
		return nil
	}
	return &d
}

func (d *degenerateEMax) byFactor() bool { return d.Next > 0 && d.EMax > degenerateFactor*d.Next }
func (d *degenerateEMax) bySpan() bool   { return d.EMax > d.Span && d.EMax > degenerateYear }

// count sets how many of jobs, after the model, have an estimate above
// the next largest of the log.
func (d *degenerateEMax) count(jobs []swf.Job) {
	for i := range jobs {
		if jobs[i].ReqTime > d.Next {
			d.Jobs++
		}
	}
	d.Percent = 100 * float64(d.Jobs) / float64(len(jobs))
}

func (d *degenerateEMax) String() string {
	var why []string
	if d.byFactor() {
		why = append(why, fmt.Sprintf("%.0f× the next largest (%d s)", float64(d.EMax)/float64(d.Next), d.Next))
	}
	if d.bySpan() {
		why = append(why, fmt.Sprintf("longer than the log's %.1f days of submissions", float64(d.Span)/86400))
	}
	return fmt.Sprintf("degenerate E_max: job %d's estimate of %d s (%.1f years) is %s; as the log's largest estimate it is E_max (S6), and %d jobs (%.1f%%) got an estimate above %d s: give -emax",
		d.Job, d.EMax, float64(d.EMax)/(365.25*86400), strings.Join(why, " and "), d.Jobs, d.Percent, d.Next)
}
