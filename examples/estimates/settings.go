package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
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
	why    string // what filter leaves out, for the report
}{
	"ctc":  {tracetest.CTC, 512, 18 * 3600, nil, ""}, // S32: the thesis uses 512, not the ~430 batch nodes
	"kth":  {tracetest.KTH, 0, 60 * 3600, nil, ""},
	"sdsc": {tracetest.SDSCSP2, 0, 18 * 3600, nil, ""},
	"blue": {tracetest.SDSCBlue, 0, 36 * 3600, nil, ""},
	// KTH4H (§5.5, S12): KTH's weekday 4-hour-limit jobs, the KTH workload
	// of Ch. 5, on the same 100-processor machine.
	"kth4h": {tracetest.KTH, 0, 4 * 3600, estimateAtMost(4 * 3600), "no estimate or one above 4 h"},
	// SDSC-106 (§5.5): SDSC without the estimate values its most inventive
	// user alone used.
	"sdsc106": {tracetest.SDSCSP2, 0, 18 * 3600, withoutOwnedModes, "an estimate value one user alone gave"},
}

// loadedTrace is a trace as loadTrace reads it.
type loadedTrace struct {
	hdr   *swf.Header
	jobs  []swf.Job // the sane jobs (thesis S4/S5), a short name's filter applied
	procs int64     // the machine size (-procs, the short name's, or the header's)
	sane  sanitize.Report
	zeros int64 // zero bytes after the last gzip member (ignored, and said: cli.PaddingNote)
	// skipped is the malformed lines skipped (lenient).
	skipped cli.Skipped
	// read is the job lines read; leftOut the sane jobs a short name's
	// filter left out (kth4h, sdsc106), leftWhy what they had.
	read, leftOut int
	leftWhy       string
}

// loadTrace reads a trace given as a path or a short name (ctc, kth, kth4h,
// sdsc, sdsc106, blue) and keeps its sane jobs. procs > 0 overrides the
// machine size. lenient skips malformed lines (counted) instead of failing.
func loadTrace(name string, procs int64, lenient bool) (loadedTrace, error) {
	path := name
	var filter func([]swf.Job) []swf.Job
	why := ""
	if s, ok := shortNames[strings.ToLower(name)]; ok {
		filter, why = s.filter, s.why
		p, err := tracetest.Find(s.file)
		if err != nil {
			return loadedTrace{}, fmt.Errorf("trace %s: %w", name, err)
		}
		path = p
		if procs == 0 {
			procs = s.procs
		}
	} else if _, err := os.Stat(path); err != nil {
		if p, err2 := tracetest.Find(name); err2 == nil {
			path = p
		} else {
			// Say what a name may be: "-logs ctc,kt4h" said only
			// "stat kt4h: no such file or directory".
			return loadedTrace{}, fmt.Errorf("%w (want a path or a short name: %s)", err, strings.Join(slices.Sorted(maps.Keys(shortNames)), ", "))
		}
	}
	hdr, jobs, st, zeros, err := cli.ReadLogLenient(path, lenient)
	if err != nil {
		return loadedTrace{}, err
	}
	if len(jobs) == 0 { // (before the header's size: an empty file has no header either)
		return loadedTrace{}, fmt.Errorf("%s: no job lines: no sane job to give an estimate to", path)
	}
	if procs == 0 {
		if procs, err = hdr.MachineSize(); err != nil {
			return loadedTrace{}, fmt.Errorf("%s: %w (give -procs)", path, err)
		}
		if err := cli.CheckMachine(procs); err != nil {
			// Refused as simulate, forecast, replay and varq refuse it.
			return loadedTrace{}, fmt.Errorf("%s: %w (give -procs)", path, err)
		}
	}
	sane, rep := sanitize.Sane(jobs, procs)
	n := len(sane)
	if filter != nil {
		sane = filter(sane)
	}
	return loadedTrace{hdr: hdr, jobs: sane, procs: procs, sane: rep, zeros: zeros, skipped: cli.SkippedOf(st),
		read: len(jobs), leftOut: n - len(sane), leftWhy: why}, nil
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
