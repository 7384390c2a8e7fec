package slurmfeed

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// rewriter runs the fake's commands and rewrites what squeue and sacct
// print (on is read under the fake's lock: flip it with f.set).
type rewriter struct {
	f  *fakeSlurm
	on *bool
	fn func(name string, out []byte) []byte
}

func (r rewriter) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	out, err := r.f.Run(ctx, name, args...)
	r.f.mu.Lock()
	on := *r.on
	r.f.mu.Unlock()
	if err != nil || !on {
		return out, err
	}
	return r.fn(name, out), nil
}

var jobIDField = regexp.MustCompile(`"job_id":(\d+)`)

// TestUnreadableIDsDoNotEndJobs: when squeue's and sacct's job ids cannot
// be read (a Slurm whose job_id the feed does not know), no job the
// service holds is ended as vanished, however long it lasts: the jobs
// are still in the queue, under keys the feed cannot tell apart.
func TestUnreadableIDsDoNotEndJobs(t *testing.T) {
	f := scenario()
	var on bool
	clk := &clock{t: t0 + 30}
	tp := newTap(t, clk.unix)
	run := rewriter{f, &on, func(name string, out []byte) []byte {
		if name != "squeue" && name != "sacct" {
			return out
		}
		return jobIDField.ReplaceAll(out, []byte(`"job_id":"id-$1"`))
	}}
	c, err := New(Config{System: "c1", Service: tp, Runner: run, Now: clk.now, Since: time.Hour, Keep: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	mustPoll(t, c)
	f.set(func() { on = true })
	n := len(tp.events)
	for range 30 { // 30 minutes, three times Keep
		clk.advance(60)
		mustPoll(t, c)
	}
	var ends []karnak.Event
	for _, e := range tp.events[n:] {
		if e.Kind == "end" {
			ends = append(ends, e)
		}
	}
	if len(ends) > 0 {
		t.Errorf("jobs still queued, their ids unreadable, were ended:\n%s(skipped %v)", eventList(ends), c.Report().Skipped)
	}
}

// TestUnidentifiedRecordsCountedEach: records whose job id cannot be read
// are counted one each, however many share the same unreadable id, and
// once over many polls, even when their place in the output moves.
func TestUnidentifiedRecordsCountedEach(t *testing.T) {
	f := scenario()
	var on bool
	run := rewriter{f, &on, func(name string, out []byte) []byte {
		if name != "squeue" {
			return out
		}
		s := string(out)
		// Jobs 30 and 31: job_id 0 (readable, not a job id); jobs 32
		// and 33: no job_id and an unreadable priority.
		s = strings.ReplaceAll(s, `"job_id":30,`, `"job_id":0,`)
		s = strings.ReplaceAll(s, `"job_id":31,`, `"job_id":0,`)
		for _, id := range []string{"32", "33"} {
			s = strings.ReplaceAll(s, `"job_id":`+id+`,`, `"x":0,`)
			s = strings.ReplaceAll(s, `"priority":`+id+`,`, `"priority":"Unknown",`)
		}
		return []byte(s)
	}}
	on = true
	for _, id := range []int64{30, 31, 32, 33} {
		f.jobs = append(f.jobs, &fakeJob{id: id, state: "PENDING", submit: t0 + 5, start: t0 + 100, limit: 2, partition: "short", cpus: 1, priority: id})
	}
	clk := &clock{t: t0 + 30}
	tp := newTap(t, clk.unix)
	c, err := New(Config{System: "c1", Service: tp, Runner: run, Now: clk.now, Since: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		mustPoll(t, c)
		clk.advance(10)
		if i == 1 { // job 1 leaves the queue: the records after it move up
			f.set(func() { f.jobs[0].purged = true })
		}
	}
	want := map[string]int64{
		`squeue: job_id: "0" is not a job id`:               2,
		`squeue: priority: "Unknown" is not a whole number`: 2,
	}
	if got := c.Report().Skipped; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("4 records without a job id counted as\n%v, want\n%v", got, want)
	}
}

// TestSkipReasonIsTheLatest: a job skipped for its record is counted
// under the reason of the latest poll that read it: one that becomes
// readable is fed and no longer counted as skipped, one whose reason
// changes is counted once, under the new one. The first reason stuck:
// the job was never fed, its count never moved.
func TestSkipReasonIsTheLatest(t *testing.T) {
	f := scenario()
	f.jobs = append(f.jobs,
		&fakeJob{id: 20, state: "PENDING", submit: t0 + 5, start: t0 + 100, limit: 2, partition: "short", cpus: 1},
		&fakeJob{id: 21, state: "PENDING", submit: t0 + 5, start: t0 + 100, limit: 2, partition: "gpu", cpus: 1},
		&fakeJob{id: 22, state: "PENDING", submit: t0 + 5, start: t0 + 100, limit: 2, partition: "short", cpus: 1},
	)
	on := true
	run := rewriter{f, &on, func(name string, out []byte) []byte {
		if name != "squeue" {
			return out
		}
		s := strings.Replace(string(out), `"job_id":20,`, `"job_id":20,"priority":"Unknown",`, 1)
		s = strings.Replace(s, `"job_id":21,`, `"job_id":21,"cpus":"many",`, 1)
		return []byte(s)
	}}
	clk := &clock{t: t0 + 30}
	tp := newTap(t, clk.unix)
	c, err := New(Config{System: "c1", Service: tp, Runner: run, Now: clk.now, Since: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	// Job 22 stays unreadable throughout (its state).
	f.set(func() { f.jobs[len(f.jobs)-1].state = "WEIRD" })
	check := func(when string, want map[string]int64, fed20 int) {
		t.Helper()
		if got := c.Report().Skipped; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: skipped %v, want %v", when, got, want)
		}
		n := 0
		for _, e := range tp.events {
			if e.Job == 20 && e.Kind == "submit" {
				n++
			}
		}
		if n != fed20 {
			t.Errorf("%s: job 20 submitted %d times, want %d", when, n, fed20)
		}
	}
	mustPoll(t, c)
	check("unreadable", map[string]int64{`squeue: priority: "Unknown" is not a whole number`: 1, `squeue: cpus: "many" is not a whole number`: 1,
		`squeue: unknown job state "WEIRD"`: 1}, 0)
	f.set(func() { on = false })
	for range 3 {
		clk.advance(10)
		mustPoll(t, c)
	}
	check("readable", map[string]int64{"partition not in scontrol's list (or without CPUs)": 1, `squeue: unknown job state "WEIRD"`: 1}, 1)
}

// TestDegeneratePoll: a poll in which every job record of squeue (or
// sacct) is bad feeds nothing of it: it is counted and said
// (Report.Degenerate, LastDegenerate, the log), each such poll; a poll
// with one good record is not. Only the skipped counts said so.
func TestDegeneratePoll(t *testing.T) {
	f := scenario()
	on := false
	run := rewriter{f, &on, func(name string, out []byte) []byte {
		if name != "squeue" {
			return out
		}
		return jobIDField.ReplaceAll(out, []byte(`"job_id":$1,"priority":"Unknown"`))
	}}
	clk := &clock{t: t0 + 30}
	tp := newTap(t, clk.unix)
	var logs []string
	logf := func(format string, a ...any) { logs = append(logs, fmt.Sprintf(format, a...)) }
	c, err := New(Config{System: "c1", Service: tp, Runner: run, Now: clk.now, Since: time.Hour, Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	mustPoll(t, c)
	if r := c.Report(); r.Degenerate != 0 || r.LastDegenerate != "" {
		t.Errorf("a poll of good records: degenerate %d %q", r.Degenerate, r.LastDegenerate)
	}
	f.set(func() { on = true })
	for range 2 {
		clk.advance(10)
		mustPoll(t, c)
	}
	const want = `squeue --json: all 4 job records bad (the first: squeue: priority: "Unknown" is not a whole number)`
	if r := c.Report(); r.Degenerate != 2 || r.LastDegenerate != want {
		t.Errorf("degenerate %d %q, want 2 %q", r.Degenerate, r.LastDegenerate, want)
	}
	if n := strings.Count(strings.Join(logs, "\n"), "slurmfeed: degenerate poll: "+want); n != 2 {
		t.Errorf("%d degenerate polls logged, want 2:\n%s", n, strings.Join(logs, "\n"))
	}
	// One record good again: not degenerate.
	run.fn = func(name string, out []byte) []byte {
		if name != "squeue" {
			return out
		}
		return []byte(strings.Replace(string(out), `"job_id":1,`, `"job_id":1,"priority":"Unknown",`, 1))
	}
	c.cfg.Runner = run
	clk.advance(10)
	mustPoll(t, c)
	if r := c.Report(); r.Degenerate != 2 {
		t.Errorf("a poll with one bad record of four counted as degenerate (%d)", r.Degenerate)
	}
}

// TestSkipCountOtherReasons: a job skipped under "other reasons" (the
// report holding maxReasons reasons already) stays counted there once
// while its reason changes, leaves it when a poll can read it (fed
// once), and the reasons counted before are untouched throughout.
func TestSkipCountOtherReasons(t *testing.T) {
	f := scenario()
	f.jobs = append(f.jobs, &fakeJob{id: 20, state: "PENDING", submit: t0 + 5, start: t0 + 100, limit: 2, partition: "short", cpus: 1})
	on := true
	field := `"priority":"Unknown",`
	run := rewriter{f, &on, func(name string, out []byte) []byte {
		if name != "squeue" {
			return out
		}
		return []byte(strings.Replace(string(out), `"job_id":20,`, `"job_id":20,`+field, 1))
	}}
	clk := &clock{t: t0 + 30}
	tp := newTap(t, clk.unix)
	c, err := New(Config{System: "c1", Service: tp, Runner: run, Now: clk.now, Since: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]int64{}
	for i := range maxReasons {
		full[fmt.Sprint("reason ", i)] = 5
	}
	c.st.Report.Skipped = maps.Clone(full)
	check := func(when string, other int64, submits int) {
		t.Helper()
		want := maps.Clone(full)
		if other > 0 {
			want["other reasons"] = other
		}
		if got := c.Report().Skipped; !maps.Equal(got, want) {
			t.Errorf("%s: skipped %v, want the %d reasons and %d other", when, got, maxReasons, other)
		}
		n := 0
		for _, e := range tp.events {
			if e.Job == 20 && e.Kind == "submit" {
				n++
			}
		}
		if n != submits {
			t.Errorf("%s: job 20 submitted %d times, want %d", when, n, submits)
		}
	}
	mustPoll(t, c)
	check("unreadable", 1, 0)
	f.set(func() { field = `"cpus":"many",` })
	clk.advance(10)
	mustPoll(t, c)
	check("unreadable otherwise", 1, 0)
	f.set(func() { on = false })
	clk.advance(10)
	mustPoll(t, c)
	check("readable", 0, 1)
}
