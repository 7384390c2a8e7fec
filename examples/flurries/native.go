package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/internal/activity"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// nativeLog is what the detector finds on one uninjected log.
type nativeLog struct {
	name  string    // short name
	jobs  []swf.Job // of known submit time
	cs    sanitize.Candidates
	years float64 // first to last submission
	// unknown counts the jobs of unknown submit time (-1), left out of
	// jobs as the detector and the activity figure leave them out: they
	// were counted among the log's jobs, and one made its weeks and
	// days start at -1.
	unknown int
}

func detectNative(dir string, logs []string, st setup) ([]nativeLog, error) {
	var out []nativeLog
	for _, name := range logs {
		jobs, err := load(dir, name, st.sane, st.notes)
		if err != nil {
			return nil, err
		}
		n := len(jobs) // load's checkSpan leaves at least one of known submit time
		jobs = slices.DeleteFunc(slices.Clone(jobs), func(j swf.Job) bool { return j.Submit < 0 })
		cs, err := sanitize.DetectFlurries(jobs, st.det)
		if err != nil {
			return nil, err
		}
		out = append(out, nativeLog{tracetest.ShortName(name), jobs, cs, float64(jobs[len(jobs)-1].Submit-jobs[0].Submit) / (365.25 * 86400), n - len(jobs)})
	}
	return out, nil
}

// writeNative lists each log's candidates and, for several logs, the total.
func writeNative(w io.Writer, ns []nativeLog) {
	n, years := 0, 0.0
	for i, l := range ns {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %d jobs, %.2f years, %d candidates (%s per year)", l.name, len(l.jobs), l.years, len(l.cs), perYear(len(l.cs), l.years, 1))
		if l.unknown > 0 { // the activity figure's words
			fmt.Fprintf(w, "; jobs left out: %d %s (-1)", l.unknown, sanitize.NoSubmit)
		}
		fmt.Fprintln(w)
		printCandidates(w, l.jobs[0].Submit, l.cs)
		n += len(l.cs)
		years += l.years
	}
	if len(ns) > 1 {
		fmt.Fprintf(w, "\nTogether: %d candidates in %.1f log-years (%s per year).\n", n, years, perYear(n, years, 2))
	}
}

// perYear is n per year of a span of years, with prec decimals; "–" for a
// log whose submissions are all at one instant (it printed NaN).
func perYear(n int, years float64, prec int) string {
	if years <= 0 {
		return "–"
	}
	return strconv.FormatFloat(float64(n)/years, 'f', prec, 64)
}

func printCandidates(w io.Writer, t0 int64, cs sanitize.Candidates) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| user | day | span h | jobs | share jobs/procs | peak | by | week lift | size (share) | estimate s (share) | median run s (±2×) | filter |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---|---|---|---:|---|---|---|---|")
	for _, c := range cs {
		fmt.Fprintf(w, "| %d | %.1f | %.1f | %d | %.2f / %.2f | %.1f @ %dh | %v | %.2f | %d (%.2f) | %d (%.2f) | %d (%.2f) | `%s` |\n",
			c.User, float64(c.First-t0)/86400, float64(c.Span())/3600, c.Jobs, c.JobShare, c.ProcShare,
			c.Peak, c.PeakBin/3600, c.By, c.WeekLift, c.Size, c.SizeShare, c.ReqTime, c.ReqTimeShare, c.MedianRunTime, c.RunTimeShare,
			strings.SplitN(c.Filter.String(), " #", 2)[0])
	}
}

// suffix names a setup's sections: the README's runs are the default, -sane
// and -weeklift -1.
func (st setup) suffix() string {
	switch {
	case st.sane:
		return "-sane"
	case st.det.WeekLift < 0:
		return "-noweeklift"
	}
	return ""
}

func nativeSections(dir string, st setup) ([]section, error) {
	ns, err := detectNative(dir, cleaned, st)
	if err != nil {
		return nil, err
	}
	return []section{nativeSection(ns, st)}, nil
}

func nativeSection(ns []nativeLog, st setup) section {
	title := "Candidates on the uninjected cleaned logs"
	if st.sane {
		title += " (sane jobs only)"
	}
	return section{"native" + st.suffix(), "## " + title, textOf(func(w io.Writer) { writeNative(w, ns) })}
}

// week is the 0-based week of t counted from the log's first submission.
func week(t, t0 int64) int64 { return (t - t0) / activity.Week }

// weeks describes a candidate's span in weeks ("week 76", "weeks 15–16").
func weeks(c *sanitize.Candidate, t0 int64) string {
	a, b := week(c.First, t0), week(c.Last, t0)
	if a == b {
		return fmt.Sprintf("week %d", a)
	}
	return fmt.Sprintf("weeks %d–%d", a, b)
}

// weekTotals is the log's weekly activity; an error names the log (Totals
// refuses submissions past 2^22 weeks, which load's 100 years keep out).
// Its rows were once used unchecked: an error left none, and the busiest
// week panicked (slices.MaxFunc: empty list).
func weekTotals(name string, jobs []swf.Job) ([]activity.Row, error) {
	tot, err := activity.Totals(jobs, activity.Week)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(tot) == 0 {
		return nil, fmt.Errorf("%s: no job to bin", name)
	}
	return tot, nil
}

// busiestWeeks are the weeks with the most jobs and the most processes.
func busiestWeeks(name string, jobs []swf.Job) (byJobs, byProcs int64, err error) {
	tot, err := weekTotals(name, jobs)
	if err != nil {
		return 0, 0, err
	}
	bj := slices.MaxFunc(tot, func(a, b activity.Row) int { return a.Jobs - b.Jobs })
	bp := slices.MaxFunc(tot, func(a, b activity.Row) int { return int(a.Procs - b.Procs) })
	return int64(bj.Week), int64(bp.Week), nil
}

// summarize describes each candidate for the figures' table.
func summarize(l nativeLog) (string, error) {
	t0 := l.jobs[0].Submit
	bj, bp, err := busiestWeeks(l.name, l.jobs)
	if err != nil {
		return "", err
	}
	var parts []string
	for i := range l.cs {
		c := &l.cs[i]
		s := fmt.Sprintf("user %d: %d jobs of size %d in %s (%v)", c.User, c.Jobs, c.Size, weeks(c, t0), c.By)
		var notes []string
		if a, b := week(c.First, t0), week(c.Last, t0); a <= bj && bj <= b {
			notes = append(notes, "the log's busiest week by jobs")
		} else if a <= bp && bp <= b {
			notes = append(notes, "the log's busiest week by processes")
		}
		if c.MedianRunTime < 0 {
			notes = append(notes, "most never ran (median run time −1)")
		}
		if len(notes) > 0 {
			s += ", " + strings.Join(notes, ", ")
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "none", nil // (it said "0 candidates: ." on a log without any)
	}
	return fmt.Sprintf("%d candidates: %s", len(l.cs), strings.Join(parts, "; ")), nil
}

// thesisFigures is the thesis's account of the figures' logs (Figs. 6.8–6.9).
var thesisFigures = []struct{ log, file, thesis string }{
	{"SDSC-SP2", tracetest.SDSCSP2, `an "especially prominent" job flurry at the start; the largest process flurry is the one behind the butterfly effect`},
	{"LANL-CM5", tracetest.LANLCM5, "users 31 and 50 (1995, 71,161 jobs), user 38 (1996, 12,344 jobs)"},
}

// lanlFlurryUsers are the users of the thesis's LANL-CM5 flurries.
var lanlFlurryUsers = []int64{31, 50, 38}

func lanlSections(dir string, st setup) ([]section, error) {
	ns, err := detectNative(dir, []string{tracetest.LANLCM5}, st)
	if err != nil {
		return nil, err
	}
	l := ns[0]
	off := st.det
	off.WeekLift = -1
	all, err := sanitize.DetectFlurries(l.jobs, off)
	if err != nil {
		return nil, err
	}
	bj, bp, err := busiestWeeks(l.name, l.jobs)
	if err != nil {
		return nil, err
	}
	sum, err := summarize(l)
	if err != nil {
		return nil, err
	}
	users := textOf(func(w io.Writer) {
		fmt.Fprintln(w, "| user | jobs in the cleaned log | largest burst with -weeklift -1 (week lift) |")
		fmt.Fprintln(w, "|---:|---:|---|")
		for _, u := range lanlFlurryUsers {
			n := 0
			for i := range l.jobs {
				if l.jobs[i].User == u {
					n++
				}
			}
			lift, found := 0.0, false
			for _, c := range all {
				if c.User == u {
					lift, found = max(lift, c.WeekLift), true
				}
			}
			burst := "none"
			if found {
				burst = fmt.Sprintf("%.2f", lift)
			}
			fmt.Fprintf(w, "| %d | %d | %s |\n", u, n, burst)
		}
		fmt.Fprintf(w, "\nThe log's busiest week is week %d by jobs and week %d by processes. The detector's candidates: %s.\n", bj, bp, sum)
	})
	return []section{
		{"lanl" + st.suffix(), "## LANL-CM5", textOf(func(w io.Writer) { writeNative(w, ns) })},
		{"lanl-users" + st.suffix(), "### The thesis's LANL-CM5 flurry users in the cleaned log", users},
	}, nil
}

// figuresSection is the thesis's account of Figs. 6.8–6.9 beside what the
// detector marks on our figures.
func figuresSection(dir string, st setup) (section, error) {
	var rows []string
	for _, f := range thesisFigures {
		ns, err := detectNative(dir, []string{f.file}, st)
		if err != nil {
			return section{}, err
		}
		sum, err := summarize(ns[0])
		if err != nil {
			return section{}, err
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s |", f.log, f.thesis, sum))
	}
	return section{"figures" + st.suffix(), "## The figures' logs", textOf(func(w io.Writer) {
		fmt.Fprintln(w, "| log | thesis (raw logs, Figs. 6.8–6.9) | ours (cleaned logs; weeks from the first submission, from 0) |")
		fmt.Fprintln(w, "|---|---|---|")
		fmt.Fprintln(w, strings.Join(rows, "\n"))
	})}, nil
}

// quantile is the q-quantile of xs (linear interpolation between order
// statistics), as the detector computes its thresholds.
func quantile(xs []float64, q float64) float64 {
	v := slices.Sorted(slices.Values(xs))
	h := q * float64(len(v)-1)
	lo := int(h)
	if lo+1 >= len(v) {
		return v[len(v)-1]
	}
	return v[lo] + (h-float64(lo))*(v[lo+1]-v[lo])
}

// spreadSections measures how far the 90th-percentile bin lies above the
// median bin at each of the detector's bin widths: why it flags bins by a
// quantile and not by a fixed multiple of the median.
func spreadSections(dir string, st setup) ([]section, error) {
	widths := []struct {
		name string
		bin  int64
	}{{"week", activity.Week}, {"day", 24 * 3600}, {"6 h", 6 * 3600}}
	var rows []string
	empty := false // a median bin without a job or process: its ratio is "–"
	spread := func(xs []float64) string {
		m := quantile(xs, 0.5)
		if m <= 0 {
			empty = true
			return "–"
		}
		return fmt.Sprintf("%.2f", quantile(xs, 0.9)/m)
	}
	for _, name := range cleaned {
		jobs, err := load(dir, name, false, st.notes)
		if err != nil {
			return nil, err
		}
		row := "| " + tracetest.ShortName(name) + " |"
		for _, wd := range widths {
			tot, err := activity.Totals(jobs, wd.bin)
			if err != nil {
				return nil, err
			}
			nj, np := make([]float64, len(tot)), make([]float64, len(tot))
			for i, a := range tot {
				nj[i], np[i] = float64(a.Jobs), float64(a.Procs)
			}
			// (a median of 0, bins mostly empty or jobs of no size, printed
			// NaN or +Inf)
			row += fmt.Sprintf(" %s / %s |", spread(nj), spread(np))
		}
		rows = append(rows, row)
	}
	return []section{{"spread", "## 90th percentile / median activity per bin", textOf(func(w io.Writer) {
		fmt.Fprintln(w, "| log | week: jobs / processes | day | 6 h |")
		fmt.Fprintln(w, "|---|---|---|---|")
		fmt.Fprintln(w, strings.Join(rows, "\n"))
		if empty {
			fmt.Fprintln(w, "\n–: the median bin has no job (or no process: jobs of no size), so the ratio is undefined.")
		}
	})}}, nil
}
