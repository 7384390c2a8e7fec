package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// logData is one log as read: its records and what the job-set table
// reports about them.
type logData struct {
	spec     logSpec
	jobs     []swf.Job // every record of the archive file
	sane     int       // sane jobs (S4, S5: size from field 5, else field 8)
	alloc    int       // sane jobs with an allocated size (field 5 > 0)
	overruns int       // sane jobs with run time > estimate ≥ 0
	// fallbackCancelled counts the sane jobs without an allocated size
	// that were cancelled (status 5).
	fallbackCancelled int
	// zeros counts the zero bytes after the file's last gzip member,
	// ignored (said under the job sets: cli.PaddingNote).
	zeros int64
	// header is the header lines the reader did not take as written
	// (cli.ReadLogHeader), said under the job sets (cli.HeaderNote):
	// the sizes are the thesis's (logSpec.P), but a MaxProcs after the
	// jobs or kept as text says the file is not what it seems.
	header []string
	// notSane is the sane filter's exclusions by reason; refused the
	// sane jobs the simulator refused besides (a later copy of a job
	// number, sanitize.DuplicateID), by reason, which the tables then
	// leave out: said under the job sets (a log of one number repeated
	// printed tables of 0 s waits over one job, without a word).
	notSane, refused map[string]int
}

// noteRefused records the simulator's rejections rej beyond the sane
// filter's.
func (d *logData) noteRefused(rej sanitize.Report) {
	for k, n := range cli.ByReason(rej) {
		if extra := n - d.notSane[k]; extra > 0 {
			if d.refused == nil {
				d.refused = map[string]int{}
			}
			d.refused[k] = extra
		}
	}
}

func readLog(path string, l logSpec) (*logData, error) {
	_, jobs, zeros, header, err := cli.ReadLogHeader(path)
	if err != nil {
		return nil, err
	}
	d := &logData{spec: l, jobs: jobs, zeros: zeros, header: header}
	sane, rep := sanitize.Sane(jobs, l.P)
	if len(sane) == 0 {
		// Every table would be of no job (exit 0, -100% beside the thesis).
		return nil, cli.NoSaneJob(path, len(jobs), cli.ByReason(rep))
	}
	d.sane, d.notSane = len(sane), cli.ByReason(rep)
	for i := range sane {
		if sane[i].AllocProcs > 0 {
			d.alloc++
		} else if sane[i].Status == swf.StatusCancelled {
			d.fallbackCancelled++
		}
		if sane[i].ReqTime >= 0 && sane[i].RunTime > sane[i].ReqTime {
			d.overruns++
		}
	}
	return d, nil
}

// thesisJobSet keeps the jobs with an allocated size (SWF field 5). The
// sane predicate (S5) falls back to the requested size (field 8) when
// field 5 is missing; on SDSC-BLUE that keeps 8,899 cancelled jobs which
// the thesis's sane count (Tab 2.1) evidently did not, and it is the only
// one of the four logs where the two differ.
func thesisJobSet(jobs []swf.Job) []swf.Job {
	var out []swf.Job
	for _, j := range jobs {
		if j.AllocProcs > 0 {
			out = append(out, j)
		}
	}
	return out
}

// writeJobSets prints the job counts of each log beside the thesis's, and
// where the sane predicate's size fallback makes them differ, by how much.
func writeJobSets(w io.Writer, ds []*logData) {
	fmt.Fprintln(w, "| log | archive file | P | records (thesis's cleaned log) | sane jobs (thesis) | ours − thesis | sane with an allocated size (field 5) | − thesis | run time > estimate (thesis, §1.4) |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	var notes []string
	for _, d := range ds {
		l := d.spec
		fmt.Fprintf(w, "| %s | %s | %d | %d (%d) | %d (%d) | %s | %d | %s | %d (%d) |\n", l.Name, l.File, l.P, len(d.jobs), paperCleaned[l.Name],
			d.sane, l.SaneJobs, diff(d.sane, l.SaneJobs), d.alloc, diff(d.alloc, l.SaneJobs), d.overruns, paperOverruns[l.Name])
		if d.alloc != d.sane {
			notes = append(notes, fallbackNote(d))
		}
		if len(d.refused) > 0 {
			n := 0
			for _, k := range d.refused {
				n += k
			}
			notes = append(notes, fmt.Sprintf("On %s the simulator refused %d of the %d sane jobs (%s): every table is of the %d it ran.",
				l.Name, n, d.sane, cli.Reasons(d.refused), d.sane-n))
		}
		if d.zeros > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s.", l.File, cli.PaddingNote(d.zeros)))
		}
		if len(d.header) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s.", l.File, cli.HeaderNote(d.header)))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, strings.Join(notes, "\n\n"))
	}
}

// fallbackNote says how the jobs S5 sizes from field 8 (no allocated
// size) make our sane count differ from the thesis's. The explanation
// that the thesis left them out holds only where counting the jobs with
// an allocated size comes closer to its count; a log shorter than the
// thesis's (a part of it, another log under its name) has fewer jobs,
// which it said as "-220587 jobs more than the thesis".
func fallbackNote(d *logData) string {
	l := d.spec
	more := d.sane - l.SaneJobs
	var than string
	switch {
	case more > 0:
		than = fmt.Sprintf("%d jobs more than the thesis", more)
	case more < 0:
		than = fmt.Sprintf("%d jobs fewer than the thesis", -more)
	default:
		than = "as many jobs as the thesis"
	}
	note := fmt.Sprintf("On %s we simulate %s (%+.1f%%). Our sane set includes %d jobs with no allocated size "+
		"(field 5 = −1; %d of them cancelled, status 5, yet with a run time), which S5 sizes from the requested processors (field 8). ",
		l.Name, than, 100*float64(more)/float64(l.SaneJobs), d.sane-d.alloc, d.fallbackCancelled)
	if abs(d.alloc-l.SaneJobs) < abs(more) {
		return note + fmt.Sprintf("The thesis's count matches the jobs with an allocated size: %d, %s from its %d. So the thesis did not simulate those jobs "+
			"(it sized jobs by field 5 alone, or its older conversion lacked field 8 for them; the thesis does not say).",
			d.alloc, diff(d.alloc, l.SaneJobs), l.SaneJobs)
	}
	return note + fmt.Sprintf("The jobs with an allocated size, %d (%s from the thesis's %d), do not explain the difference: the log read is not the thesis's (%d records).",
		d.alloc, diff(d.alloc, l.SaneJobs), l.SaneJobs, len(d.jobs))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// diff is a − b with its share of b.
func diff(a, b int) string {
	return fmt.Sprintf("%+d (%+.1f%%)", a-b, 100*float64(a-b)/float64(b))
}
