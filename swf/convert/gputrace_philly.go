package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
)

// phillyJob is one job of Philly's cluster_job_log (the keys its README
// lists). A null where a string is expected reads as "".
type phillyJob struct {
	Status    string `json:"status"`
	VC        string `json:"vc"`
	JobID     string `json:"jobid"`
	User      string `json:"user"`
	Submitted string `json:"submitted_time"`
	Attempts  []struct {
		Start  string `json:"start_time"`
		End    string `json:"end_time"`
		Detail []struct {
			IP   string   `json:"ip"`
			GPUs []string `json:"gpus"`
		} `json:"detail"`
	} `json:"attempts"`
}

// noteNoGPUs marks a Philly job without attempts: its GPUs are unknown.
const noteNoGPUs = "GPUs unknown (no attempt)"

// phillyStates maps Philly's statuses.
var phillyStates = map[string]swf.Status{"Pass": swf.StatusCompleted, "Failed": swf.StatusFailed, "Killed": swf.StatusCancelled}

// philly streams the JSON list one job at a time (each at most
// maxJSONJob bytes).
func (g *gpuReader) philly(in io.Reader) error {
	b := g.b
	lim := &limitReader{r: in}
	lc := &lineCounter{r: lim}
	dec := json.NewDecoder(lc)
	line := func() int { return lc.nextLine(dec) }
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return &FormatError{Want: "gpu", Saw: "json", Line: b.firstLine, Sample: b.sample}
	}
	for k := 1; dec.More(); k++ {
		lim.n = 0
		num := line()
		var pj phillyJob
		err := dec.Decode(&pj)
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			// Named as sacct --json names it (not Go's "cannot unmarshal
			// number into Go struct field phillyJob.jobid"), with the job:
			// its place in the list, and its jobid when that was read
			// (Decode reads on past a value of the wrong type).
			b.rep.Records++
			if err := b.jsonTypeError(num, te, phillyJobName(k, pj.JobID)); err != nil {
				return err
			}
			continue
		case err != nil:
			// A syntax or read error: the stream cannot be resynchronized.
			return &ParseError{Format: b.format, Line: num, Err: fmt.Errorf("%s: %w", phillyJobName(k, pj.JobID), err)}
		}
		b.rep.Records++
		if err := g.phillyJob(&pj, num); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &ParseError{Format: b.format, Line: line(), Err: err}
	}
	if err := jsonEnd(dec, errors.New("data after the list of jobs")); err != nil {
		return &ParseError{Format: b.format, Line: line(), Err: err}
	}
	return nil
}

// phillyJobName names the k-th job of the list (from 1) for an error, with
// its jobid when known.
func phillyJobName(k int, id string) string {
	if id == "" {
		return fmt.Sprintf("job %d of the list", k)
	}
	return fmt.Sprintf("job %d of the list (jobid %q)", k, clip(id))
}

// phillyJob reads one job: wait from the first attempt's start, run time
// to the last attempt's end, GPUs of the first attempt.
func (g *gpuReader) phillyJob(pj *phillyJob, num int) error {
	b := g.b
	loc := b.opt.location()
	j := &g.cur
	j.reset()
	j.gpus, j.id, j.user, j.queue, j.state = -1, pj.JobID, pj.User, pj.VC, pj.Status
	var err error
	if j.submit, err = parseGPUTime(pj.Submitted, loc); err != nil {
		return b.malformed(num, "submitted_time", pj.Submitted, err)
	}
	if j.submit < 0 {
		b.skip(skipNoSubmit)
		return nil
	}
	started := -1 // the attempt whose start is j.start
	if n := len(pj.Attempts); n > 0 {
		// A job Pass, Failed or Killed without an end_time ended (its
		// status says so) at a time unknown: written, its run time -1
		// ("no end time"). Any other status without one (Running,
		// Queued) was not finished at dump. A Pass job was skipped so.
		_, ended := phillyStates[pj.Status]
		if e := pj.Attempts[n-1].End; (e == "" || e == "None") && !ended {
			b.skip(skipUnfinished + " (no end_time on the last attempt)")
			return nil
		}
		if n > 1 {
			j.note(noteAttempts)
		}
		for i, a := range pj.Attempts {
			gpus := int64(0)
			for _, d := range a.Detail {
				gpus += int64(len(d.GPUs))
			}
			if i == 0 {
				j.gpus, j.nodes = gpus, int64(len(a.Detail))
			} else if gpus != j.gpus {
				j.note(noteAttemptGPUs)
			}
			t, err := parseGPUTime(a.Start, loc)
			if err != nil {
				j.note("unreadable start_time")
				if err := b.fail(num, "attempts.start_time", a.Start, err); err != nil {
					return err
				}
				continue
			}
			switch {
			case t < 0:
				j.note(noteNoAttStart)
			case j.start < 0:
				j.start, started = t, i
			}
		}
		e := pj.Attempts[n-1].End
		if j.end, err = parseGPUTime(e, loc); err != nil {
			j.end = -1
			j.note("unreadable end_time")
			if err := b.fail(num, "attempts.end_time", e, err); err != nil {
				return err
			}
		}
	}
	if len(pj.Attempts) > 0 && loc != time.UTC {
		g.settlePhilly(pj, started, loc)
	}
	st, ok := phillyStates[pj.Status]
	j.status = st
	if !ok {
		j.status = swf.StatusUnknown
		j.state = clip(strings.TrimSpace(pj.Status))
		if j.state == "" {
			j.state = "none"
		}
		j.note(noteUnknownState)
	}
	j.started = j.start >= 0
	if j.gpus < 0 {
		j.note(noteNoGPUs)
	}
	return g.add(j, num)
}

// settlePhilly settles the local times of the job read in g.cur (whose
// start is attempt started's, -1 none) in a repeated hour by the chain
// of its times: submitted, then each attempt's start and end in turn. Its
// submit, first start and last end were settled alone, the attempts
// between them not read: a job whose later attempts place its times in
// the repeated hour was left ambiguous, as read (an hour off). A time of
// an attempt between them that does not read (null, "None", garbled) is
// left out: it settles nothing, as it sets nothing.
func (g *gpuReader) settlePhilly(pj *phillyJob, started int, loc *time.Location) {
	j := &g.cur
	n := len(pj.Attempts)
	times := make([]*int64, 0, 2*n+1)
	stamps := make([]string, 0, 2*n+1)
	mid := make([]int64, 2*n)
	times, stamps = append(times, &j.submit), append(stamps, pj.Submitted)
	for i, a := range pj.Attempts {
		for k, s := range []string{a.Start, a.End} {
			p := &mid[2*i+k]
			switch {
			case k == 0 && i == started:
				p = &j.start
			case k == 1 && i == n-1:
				p = &j.end
			default:
				if v, err := parseGPUTime(s, loc); err == nil {
					*p = v
				} else {
					*p = -1
				}
			}
			times, stamps = append(times, p), append(stamps, s)
		}
	}
	if !settleChain(times, stamps, nil, &j.notes, loc) {
		// Too many times in the repeated hour to try each choice, or
		// attempts out of order whatever the choice: its submit, first
		// start and last end alone, as before.
		start := ""
		if started >= 0 {
			start = pj.Attempts[started].Start
		}
		settleLocal([3]*int64{&j.submit, &j.start, &j.end}, [3]string{pj.Submitted, start, pj.Attempts[n-1].End},
			-1, -1, &j.notes, loc)
	}
}
