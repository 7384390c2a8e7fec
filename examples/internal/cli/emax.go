package cli

import (
	"fmt"
	"math"
	"strings"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// DegenerateEMax describes a log whose largest estimate, the E_max that
// fills in missing estimates (the thesis's S6), is one corrupt value
// rather than the machine's limit: LLNL-Atlas's job 6762 asks 738,738,720
// s (23 years), 570× the next largest estimate and longer than the log,
// and every job given E_max got 23 years. The thesis's rule is kept (E_max
// is still the largest estimate); estimates and simulate say, with the
// job, how many jobs it reached (stderr; -json's warnings and
// warning_data.degenerate_e_max, this struct).
type DegenerateEMax struct {
	Job     int64   `json:"job"`            // the job whose estimate is E_max
	EMax    int64   `json:"e_max_s"`        // its estimate
	Next    int64   `json:"next_largest_s"` // the largest estimate below it
	Span    int64   `json:"log_span_s"`     // last submit − first submit
	Jobs    int     `json:"jobs_above_next"`
	Percent float64 `json:"percent"` // of the jobs: estimates above Next as used
}

// degenerateFactor: E_max more than this many times the next largest
// estimate is taken for corrupt. Of the shared logs with estimates, only
// LLNL-Atlas (570×) and CEA-Curie (143×, 2^31 − 1 s) pass it, the two
// whose E_max also exceeds the log's span (estimates'
// TestDegenerateEMaxSharedLogs).
const degenerateFactor = 10

// EMaxScan finds, one job at a time (simulate streams its log), what
// CheckEMax needs: the largest estimate and its job, the next largest, how
// many jobs ask the largest, and the span of the submit times. Estimates
// of 0 or less (none) or above sanitize.MaxTime (out of range, which S6
// skips) do not count.
type EMaxScan struct {
	d       DegenerateEMax
	lo, hi  int64
	started bool
	AtMax   int // jobs whose own estimate is the largest
}

// Add counts job j.
func (s *EMaxScan) Add(j *swf.Job) {
	if !s.started {
		s.lo, s.hi, s.started = math.MaxInt64, math.MinInt64, true
	}
	if j.Submit >= 0 {
		s.lo, s.hi = min(s.lo, j.Submit), max(s.hi, j.Submit)
	}
	switch e := j.ReqTime; {
	case !j.HasEstimate() || e > sanitize.MaxTime:
	case e > s.d.EMax:
		s.d.Next, s.d.EMax, s.d.Job, s.AtMax = s.d.EMax, e, j.ID, 1
	case e == s.d.EMax:
		s.AtMax++
	case e > s.d.Next:
		s.d.Next = e
	}
}

// Degenerate returns the degeneracy of the largest estimate added, nil
// when it is neither more than degenerateFactor × the next largest
// (byFactor; no next largest, no factor) nor longer than both the span of
// the jobs' submit times and a year (bySpan). Its Jobs and Percent are the
// caller's to set (Count).
func (s *EMaxScan) Degenerate() *DegenerateEMax {
	d := s.d
	if s.hi >= s.lo {
		d.Span = s.hi - s.lo
	}
	if !d.byFactor() && !d.bySpan() {
		return nil
	}
	return &d
}

// degenerateYear: an estimate longer than the log's span is corrupt only
// when it is longer than a year too (no batch system's limit comes near):
// a log of a day (or one job, or jobs all submitted at once: a span of 0)
// whose jobs ask 36 h is not degenerate, nor a toy log's only estimate of
// 60 s over 30 s of submissions; such a log's only estimate value (no next
// largest) is judged by this rule alone.
const degenerateYear = 365 * 86400

func (d *DegenerateEMax) byFactor() bool { return d.Next > 0 && d.EMax > degenerateFactor*d.Next }
func (d *DegenerateEMax) bySpan() bool   { return d.EMax > d.Span && d.EMax > degenerateYear }

// CheckEMax is EMaxScan's Degenerate over jobs.
func CheckEMax(jobs []swf.Job) *DegenerateEMax {
	var s EMaxScan
	for i := range jobs {
		s.Add(&jobs[i])
	}
	return s.Degenerate()
}

// Count sets how many of jobs, as used (estimates filled in), have an
// estimate above the next largest of the log.
func (d *DegenerateEMax) Count(jobs []swf.Job) {
	n := 0
	for i := range jobs {
		if jobs[i].ReqTime > d.Next {
			n++
		}
	}
	d.Reached(n, len(jobs))
}

// Reached sets that n of total jobs were planned with an estimate above
// the next largest.
func (d *DegenerateEMax) Reached(n, total int) {
	d.Jobs = n
	d.Percent = 0
	if total > 0 {
		d.Percent = 100 * float64(n) / float64(total)
	}
}

// Text is the warning's line, ending with what to do (remedy).
func (d *DegenerateEMax) Text(remedy string) string {
	var why []string
	if d.byFactor() {
		why = append(why, fmt.Sprintf("%.0f× the next largest (%d s)", float64(d.EMax)/float64(d.Next), d.Next))
	}
	if d.bySpan() {
		why = append(why, fmt.Sprintf("longer than the log's %.1f days of submissions", float64(d.Span)/86400))
	}
	return fmt.Sprintf("degenerate E_max: job %d's estimate of %d s (%.1f years) is %s; as the log's largest estimate it is E_max (S6), and %d jobs (%.1f%%) got an estimate above %d s: %s",
		d.Job, d.EMax, float64(d.EMax)/(365.25*86400), strings.Join(why, " and "), d.Jobs, d.Percent, d.Next, remedy)
}
