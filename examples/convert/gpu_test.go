package main

import (
	"context"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestGPU converts the hand-written Helios and Philly tables of
// swf/convert/testdata as the README's worked example does, checks the
// README's blocks against what the command prints today, and that the
// other converters send these tables to -from gpu.
func TestGPU(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "helios.swf")
	code, stdout, stderr := runCmd(t, "", "-from", "gpu", testdata+"gpu-helios.csv", "-tz", "Asia/Shanghai", "-o", out, "-ids", filepath.Join(dir, "ids.txt"))
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkReadmeBlock(t, "helios", stderr)
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(text), "\n") {
		if l != "" && !strings.HasPrefix(l, "; ") || strings.HasPrefix(l, "; Queue:") || strings.HasPrefix(l, "; UnixStartTime:") {
			lines = append(lines, l)
		}
	}
	checkReadmeBlock(t, "helios-swf", strings.Join(lines, "\n")+"\n")
	code, _, stderr = runCmd(t, "", "-from", "gpu", testdata+"gpu-philly.json", "-tz", "America/Los_Angeles", "-o", filepath.Join(dir, "philly.swf"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkReadmeBlock(t, "philly", stderr)
	for _, c := range []struct{ from, in string }{
		{"sacct", "gpu-acme-kalos.csv"}, {"alibaba", "gpu-helios.csv"}, {"sacct-json", "gpu-philly.json"},
	} {
		code, _, stderr := runCmd(t, "", "-from", c.from, testdata+c.in, "-o", filepath.Join(dir, "x.swf"))
		if code != exitError || !strings.HasSuffix(stderr, "; run with -from gpu\n") {
			t.Errorf("-from %s %s: exit %d, %q", c.from, c.in, code, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "", "-from", "gpu", "-accounts", testdata+"gpu-helios.csv", "-o", out); code != exitUsage {
		t.Errorf("-accounts with -from gpu: exit %d, %q", code, stderr)
	}
}

// TestGPUPAI converts the hand-written PAI tables as the README's worked
// example does, checks its blocks, and simulates the trace on one pool of
// GPUs and on nodes of 8 GPUs: every job with a start and an end is
// simulated, the others rejected for the reason the README gives.
func TestGPUPAI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "pai.swf")
	code, stdout, stderr := runCmd(t, "", "-from", "gpu", testdata+"gpu-pai-job.csv", testdata+"gpu-pai-task.csv", "-o", out, "-ids", filepath.Join(dir, "ids.txt"))
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkReadmeBlock(t, "pai", stderr)
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(text), "\n") {
		if l != "" && !strings.HasPrefix(l, "; ") || strings.HasPrefix(l, "; User:") || strings.HasPrefix(l, "; UnixStartTime:") ||
			strings.HasPrefix(l, "; TimeZoneString:") {
			lines = append(lines, l)
		}
	}
	checkReadmeBlock(t, "pai-swf", strings.Join(lines, "\n")+"\n")
	jobs, err := swf.NewReader(strings.NewReader(string(text))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []sched.Config{
		{MachineSize: 64},
		{Nodes: []swf.Node{{Name: "g8", Count: 8, Cores: 96, Memory: 512 << 10, GPUs: 8}}, KeepShares: true},
	} {
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Check(); err != nil {
			t.Error(err)
		}
		got := map[sanitize.Reason]int{}
		for _, e := range res.Rejected.Excluded {
			got[e.Reason]++
		}
		// Job 4 never started, job 7 has no task (no run time); on one
		// pool job 5, a CPU job, has no size.
		want := map[sanitize.Reason]int{sanitize.NoRunTime: 2}
		if cfg.Nodes == nil {
			want[sanitize.NoSize] = 1
		}
		if !maps.Equal(got, want) || len(res.Records)+len(res.Rejected.Excluded) != len(jobs) {
			t.Errorf("nodes %v: %d simulated, rejected %v; want rejected %v", cfg.Nodes != nil, len(res.Records), got, want)
		}
	}
	// -json: the report's keys as for the other traces, the tasks joined
	// under steps.
	code, stdout, stderr = runCmd(t, "", "-from", "gpu", testdata+"gpu-pai-task.csv", testdata+"gpu-pai-job.csv", "-o", out, "-json")
	var rep map[string]any
	if code != exitOK || json.Unmarshal([]byte(stdout), &rep) != nil || rep["format"] != "pai" || rep["records"] != 19.0 ||
		rep["jobs"] != 7.0 || rep["steps"] != 9.0 || rep["demands"] != 6.0 {
		t.Errorf("-json: exit %d, %s %s", code, stdout, stderr)
	}
	// One table alone: an error that says to give both.
	code, _, stderr = runCmd(t, "", "-from", "gpu", testdata+"gpu-pai-job.csv", "-o", out)
	if code != exitError || !strings.Contains(stderr, "no row of pai_task_table") {
		t.Errorf("the job table alone: exit %d, %q", code, stderr)
	}
	// Another -from: the tables are named, and -from gpu said.
	code, _, stderr = runCmd(t, "", "-from", "alibaba", testdata+"gpu-pai-task.csv", "-o", out)
	if code != exitError || !strings.HasSuffix(stderr, "; run with -from gpu\n") {
		t.Errorf("-from alibaba on the task table: exit %d, %q", code, stderr)
	}
}

// TestGPUOnNodes simulates the converted hand-written tables on machines
// of nodes as the README tells (Philly: as many cores as GPUs per server)
// and checks the schedule: every job with a run time and GPUs is
// simulated, none rejected but the ones the README names.
func TestGPUOnNodes(t *testing.T) {
	for _, c := range []struct {
		in, tz string
		nodes  swf.Node
		reject map[sanitize.Reason]int
	}{
		// Philly: job 3 has no attempt, job 5 (Pass) no end_time: no
		// run time.
		{"gpu-philly.json", "America/Los_Angeles", swf.Node{Name: "m8", Count: 4, Cores: 8, GPUs: 8}, map[sanitize.Reason]int{sanitize.NoRunTime: 2}},
		// Helios: job 3 is a CPU job (0 processors), sized from its
		// demand; job 5 was cancelled pending.
		{"gpu-helios.csv", "Asia/Shanghai", swf.Node{Name: "g8", Count: 4, Cores: 64, Memory: 1 << 19, GPUs: 8},
			map[sanitize.Reason]int{sanitize.NoRunTime: 1}},
	} {
		out := filepath.Join(t.TempDir(), "x.swf")
		if code, _, stderr := runCmd(t, "", "-from", "gpu", testdata+c.in, "-tz", c.tz, "-o", out); code != exitOK {
			t.Fatal(stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := swf.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		cfg := sched.Config{Nodes: []swf.Node{c.nodes}, KeepShares: true}
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Check(); err != nil {
			t.Errorf("%s: %v", c.in, err)
		}
		got := map[sanitize.Reason]int{}
		for _, e := range res.Rejected.Excluded {
			got[e.Reason]++
		}
		if !maps.Equal(got, c.reject) || len(res.Records)+len(res.Rejected.Excluded) != len(jobs) {
			t.Errorf("%s: %d simulated, rejected %v; want rejected %v", c.in, len(res.Records), got, c.reject)
		}
		// Every job sized from its demand's cores (Philly's ask none:
		// its processors, GPUs, as cores), so the utilization is the
		// share of cores held, as the held line says over that window.
		resized := 0
		for i := range res.Records {
			r := &res.Records[i]
			d, want := r.Job.Demand, r.Job.Size()
			if d.Cores > 0 {
				want = d.Nodes * d.Cores
			}
			if r.Size != want {
				t.Errorf("%s: job %d: size %d, want %d", c.in, r.Job.ID, r.Size, want)
			}
			if r.Size != r.Job.Size() {
				resized++
			}
		}
		if n := res.Changed()["size_from_demand"]; n != resized {
			t.Errorf("%s: size_from_demand %d, want %d (the jobs sized from their demand)", c.in, n, resized)
		}
		sum := &res.Summary
		cores, _, _ := res.Use(sum.WindowStart, sum.WindowEnd)
		if sum.Utilization <= 0 || math.Abs(sum.Utilization-cores) > 1e-12 {
			t.Errorf("%s: utilization %v, cores held %v over [%d, %d]", c.in, sum.Utilization, cores, sum.WindowStart, sum.WindowEnd)
		}
	}
}

// TestGPUDefaultZone: without -tz, -from gpu reads a trace's zoneless
// times in UTC, not in this machine's zone (TZ), which has nothing to do
// with a published trace; -tz still rules.
func TestGPUDefaultZone(t *testing.T) {
	t.Setenv("TZ", "America/New_York")
	for _, c := range []struct {
		args  []string
		start string
	}{
		{nil, "; UnixStartTime: 1593594000"},                              // 2020-07-01 09:00:00 UTC
		{[]string{"-tz", "Local"}, "; UnixStartTime: 1593608400"},         // New York, EDT
		{[]string{"-tz", "Asia/Shanghai"}, "; UnixStartTime: 1593565200"}, // the README's
	} {
		out := filepath.Join(t.TempDir(), "x.swf")
		args := append([]string{"-from", "gpu", testdata + "gpu-helios.csv", "-o", out}, c.args...)
		if code, _, stderr := runCmd(t, "", args...); code != exitOK {
			t.Fatal(stderr)
		}
		text, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), c.start+"\n") {
			t.Errorf("%v: no %q in\n%s", c.args, c.start, text)
		}
	}
}
