package sched

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// Check on hand-made schedules of one pool of 10 processors: at one
// instant the jobs that end give their processors back before the jobs
// that start take them, whatever the records' order, so a job may start
// on what a job ending at that instant frees; a second more is an
// over-allocation, and so is a set of starts at one instant that
// together overfill the machine, in any record order. A job that started
// and has no end holds its processors from its start on, and a cancelled
// job cannot end before it started nor after its run time was up. A job
// of a negative size, or of more processors than the machine has, is
// refused by itself (two of 2^62 summed past 2^63 to a count that fit).
func TestCheckHandSchedules(t *testing.T) {
	type run [4]int64 // start, end (-1: none), processors, 1 if cancelled
	for _, c := range []struct {
		name string
		runs []run
		want string // "" valid, else a part of the error
	}{
		{"starts on what an end at its instant frees", []run{{0, 10, 6}, {10, 20, 6}}, ""},
		{"the same, the starting job's record first", []run{{10, 20, 6}, {0, 10, 6}}, ""},
		{"several ends and starts at one instant", []run{{0, 10, 4}, {0, 10, 6}, {10, 20, 5}, {10, 30, 5}}, ""},
		{"a second of overlap", []run{{0, 11, 6}, {10, 20, 6}}, "at 10, 12 processors in use"},
		{"the same, the starting job's record first", []run{{10, 20, 6}, {0, 11, 6}}, "at 10, 12 processors in use"},
		{"starts together overfill", []run{{0, 10, 6}, {10, 20, 6}, {10, 20, 3}, {10, 20, 2}}, "at 10, 11 processors in use"},
		{"the whole instant is reported", []run{{10, 20, 6}, {10, 20, 6}, {10, 20, 3}}, "at 10, 15 processors in use"},
		{"starts together overfill, record order reversed", []run{{10, 20, 2}, {10, 20, 3}, {10, 20, 6}, {0, 10, 6}}, "at 10, 11 processors in use"},
		{"a job of run time 0 on a full machine holds nothing", []run{{0, 10, 10}, {5, 5, 10}}, ""},
		{"a job of run time 0 larger than the machine", []run{{5, 5, 11}}, "job 1 of 11 processors"},
		{"a job with no end holds on", []run{{0, -1, 6}, {100, 120, 6}}, "at 100, 12 processors in use"},
		{"a job with no end, alone", []run{{0, -1, 6}, {100, 120, 4}}, ""},
		{"a cancelled job ended before it started", []run{{20, 5, 6, 1}, {10, 30, 6}}, "ended at 5, before its start at 20"},
		{"a cancelled job ended early", []run{{0, 5, 6, 1}, {5, 30, 6}}, ""},
		{"a cancelled job ended at its run time", []run{{0, 20, 6, 1}, {20, 30, 6}}, ""},
		{"a cancelled job ended after its run time", []run{{0, 25, 6, 1}, {25, 30, 6}}, "cancelled after 25 s, past its run time 20"},
		{"two jobs of 2^62 processors at once", []run{{0, 10, 1 << 62}, {0, 10, 1 << 62}}, "job 1 of 4611686018427387904 processors on a machine of 10"},
		{"a job of -4 processors beside one of 12", []run{{0, 10, -4}, {0, 10, 12}}, "job 1 of -4 processors on a machine of 10"},
	} {
		r := &Result{machineSize: 10}
		for i, x := range c.runs {
			start, end, size, cancelled := x[0], x[1], x[2], x[3] == 1
			j := swf.NewJob()
			j.ID, j.AllocProcs, j.ReqProcs = int64(i+1), size, size
			j.RunTime = end - start
			if end < 0 || cancelled {
				j.RunTime = 20
			}
			r.Records = append(r.Records, Record{Job: &j, Size: size, Start: start, End: end, RunTime: j.RunTime,
				Cancelled: cancelled, FirstReservation: -1})
		}
		err := r.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: a valid schedule reported: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// On a machine of nodes, a job asking for a whole node starts on the node
// a job ending at its instant frees, and Check takes it; moved a second
// earlier, it overlaps the first, and Check says so.
func TestCheckNodeFreedAtStart(t *testing.T) {
	job := func(id, submit, cores int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = id, submit, 10, 10, cores
		j.Demand = &swf.Demand{Nodes: 1, Exclusive: true}
		return j
	}
	cfg := Config{Nodes: []swf.Node{{Count: 1, Cores: 4}}, KeepShares: true}
	res, err := Run(context.Background(), cfg, []swf.Job{job(1, 0, 2), job(2, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Records[1]; r.Start != 10 {
		t.Fatalf("job 2 started at %d, want 10 (when job 1 frees the node)", r.Start)
	}
	if err := res.Check(); err != nil {
		t.Fatalf("a whole node taken as its last job ends: %v", err)
	}
	res.Records[1].Start, res.Records[1].End = 9, 19
	if err := res.Check(); err == nil || !strings.Contains(err.Error(), "at 9, ") {
		t.Errorf("a whole node taken a second before its last job ends: %v", err)
	}
}

// Check of a Result it cannot verify is an error matching
// errors.ErrUnsupported, not a pass and not a violation: a run with
// SummaryOnly keeps no records (Check passed it, having seen no job), and
// a machine of nodes run without KeepShares keeps no shares. The same run
// with its records passes.
func TestCheckUnverifiable(t *testing.T) {
	var jobs []swf.Job
	for i := range int64(20) {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = i+1, i*3, 10+i, 40, 1+i%4
		jobs = append(jobs, j)
	}
	for _, c := range []struct {
		name  string
		cfg   Config
		check bool // the run is checkable: Check passes
	}{
		{"one pool", Config{MachineSize: 4}, true},
		{"SummaryOnly", Config{MachineSize: 4, SummaryOnly: true}, false},
		{"nodes with their shares", Config{Nodes: []swf.Node{{Count: 2, Cores: 2}}, KeepShares: true}, true},
		{"nodes without their shares", Config{Nodes: []swf.Node{{Count: 2, Cores: 2}}}, false},
	} {
		res, err := Run(context.Background(), c.cfg, jobs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Summary.Jobs != len(jobs) {
			t.Fatalf("%s: %d jobs completed, want %d", c.name, res.Summary.Jobs, len(jobs))
		}
		err = res.Check()
		switch {
		case c.check && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.check && !errors.Is(err, errors.ErrUnsupported):
			t.Errorf("%s: Check gave %v, want an error matching errors.ErrUnsupported", c.name, err)
		}
	}
}
