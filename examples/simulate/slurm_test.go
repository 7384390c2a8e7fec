package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// slurmTrace is a converted log (convert -accounts) on 4 processors:
// bob (user 2) takes the machine for an hour, then submits again; alice
// (user 1) submits after him. Both are in account physics, partition
// batch, QOS normal.
const slurmTrace = `; Version: 2.2
; MaxProcs: 4
; UnixStartTime: 1700000000
; MaxQueues: 1
; Queue: 1 batch
; MaxPartitions: 1
; Partitions: Slurm QOS
; Partition: 1 normal
; User: 1 alice
; User: 2 bob
; Account: 1 physics
1   0 0 3600 4 -1 -1 4 3600 -1 1 2 1 -1 1 1 -1 -1
2  60 0  600 4 -1 -1 4  600 -1 1 2 1 -1 1 1 -1 -1
3 120 0  600 4 -1 -1 4  600 -1 1 1 1 -1 1 1 -1 -1
`

const slurmConf = `ClusterName=test
PriorityType=priority/multifactor
PriorityWeightFairshare=10000
PriorityWeightAge=1000
PriorityCalcPeriod=1
PartitionName=batch Nodes=ALL Default=YES MaxTime=UNLIMITED
`

const slurmShares = `Account|Par Name|User|Share
root|||1
physics|root||1
physics||alice|1
physics||bob|1
`

// TestSlurmConf: -slurm-conf runs the Slurm policy. Fair share puts
// alice's job before bob's second one, which FCFS order (EASY) would
// start first; what slurm.conf has that the model leaves out is on
// stderr and in -json.
func TestSlurmConf(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "acct.swf", slurmTrace)
	conf := writeTrace(t, dir, "slurm.conf", slurmConf)
	shares := writeTrace(t, dir, "assoc.txt", slurmShares)
	starts := func(args ...string) map[int64]int64 {
		t.Helper()
		out := filepath.Join(dir, "sched.swf")
		code, _, errs := runCmd(t, append([]string{trace, "-out", out}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		if len(args) > 0 && !strings.Contains(errs, "simulate: slurm.conf: ignored: ClusterName (line 1)") {
			t.Errorf("stderr lacks the ignored key: %q", errs)
		}
		_, jobs, err := swf.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		m := map[int64]int64{}
		for _, j := range jobs {
			m[j.ID] = j.Submit + j.Wait
		}
		return m
	}
	if s := starts(); s[2] != 3600 || s[3] != 4200 {
		t.Errorf("EASY: job 2 starts at %d, job 3 at %d; want 3600 and 4200 (submission order)", s[2], s[3])
	}
	// Under Slurm job 1 starts at 3 (slurmctld's background loop runs the
	// main scheduler batch_sched_delay, 3 s, after its start at 0), and
	// so its end, 3 s later too.
	if s := starts("-slurm-conf", conf, "-shares", shares); s[3] != 3603 || s[2] != 4203 {
		t.Errorf("slurm: job 3 starts at %d, job 2 at %d; want 3603 and 4203 (alice has used nothing)", s[3], s[2])
	}
	m := runJSON(t, trace, "-slurm-conf", conf, "-shares", shares)
	if m["policy"] != "slurm" || m["jobs_simulated"] != 3.0 {
		t.Errorf("-json: policy %v, jobs_simulated %v", m["policy"], m["jobs_simulated"])
	}
	var notes []string
	for _, s := range m["slurm_conf"].([]any) {
		notes = append(notes, s.(string))
	}
	if !slices.Contains(notes, "ignored: ClusterName (line 1)") {
		t.Errorf("-json slurm_conf %q", notes)
	}
	// A trace converted without -accounts: said so.
	plain := writeTrace(t, dir, "plain.swf", strings.ReplaceAll(slurmTrace, "; Account: 1 physics\n", ""))
	if _, _, errs := runCmd(t, plain, "-slurm-conf", conf, "-shares", shares); !strings.Contains(errs, "the trace names no accounts") {
		t.Errorf("no note on a trace without accounts: %q", errs)
	}
}

func TestSlurmConfErrors(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "acct.swf", slurmTrace)
	conf := writeTrace(t, dir, "slurm.conf", slurmConf)
	bad := writeTrace(t, dir, "bad.conf", "PriorityWeightAge=1\nPartitionName=x MaxTime=soon\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{trace, "-slurm-conf", conf, "-policy", "easy"}, 2, "-policy and -slurm-conf"},
		{[]string{trace, "-slurm-conf", conf, "-kill"}, 2, "-kill and -slurm-conf"},
		{[]string{trace, "-shares", conf}, 2, "give -slurm-conf"},
		{[]string{trace, "-slurm-conf", filepath.Join(dir, "none.conf")}, 1, "none.conf"},
		{[]string{trace, "-slurm-conf", bad}, 1, "line 2: PartitionName=x MaxTime"},
		{[]string{trace, "-slurm-conf", conf, "-shares", bad}, 1, "-shares"},
	} {
		code, _, errs := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d with %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestSlurmConfCancelled: a job whose time limit is above its partition's
// MaxTime is one no partition can run; the policy cancels it, and the
// reports count it with its reason, on stderr and in -json.
func TestSlurmConfCancelled(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "acct.swf", slurmTrace)
	conf := writeTrace(t, dir, "slurm.conf", strings.Replace(slurmConf, "MaxTime=UNLIMITED", "MaxTime=30", 1))
	const line = "simulate: slurm: 1 job(s) cancelled at submission: time limit above the partition's MaxTime"
	if code, _, errs := runCmd(t, trace, "-slurm-conf", conf); code != 0 || !strings.Contains(errs, line) {
		t.Errorf("exit %d, stderr %q; want it to contain %q", code, errs, line)
	}
	m := runJSON(t, trace, "-slurm-conf", conf)
	c, _ := m["slurm_cancelled"].(map[string]any)
	if c["time limit above the partition's MaxTime"] != 1.0 {
		t.Errorf("-json slurm_cancelled %v, want the one job over MaxTime", m["slurm_cancelled"])
	}
}

// TestSlurmNamedNodes: -named-nodes plans backfill on named nodes
// (slurm.Config.NamedNodes), sched/slurm's TestNodePlanKeepsReservedNode
// as a trace with demand lines: three nodes of 4 cores; job 1 fills a
// node to 1000, job 2 holds 3 cores of another to 500, job 3 2 of the
// third to 2000; job 4 (4 cores, at 10) fits on no node until 500, and
// the backfill cycle reserves job 2's node from then; job 5 (1 core,
// 600 s, at 11) goes on job 3's node, off the reserved one, so job 4
// starts at 503 (the main scheduler's pace). Planned by CPUs, job 5
// takes job 2's node (cons_tres's fullest) and job 4 waits for it: 630.
func TestSlurmNamedNodes(t *testing.T) {
	dir := t.TempDir()
	nodes := writeTrace(t, dir, "machine.csv", "kind,count,cores,memory,gpus,gpu_model\nn,3,4,1000,0,\n")
	var b strings.Builder
	b.WriteString("; MaxProcs: 12\n")
	for i, j := range [][3]int64{{0, 1000, 4}, {0, 500, 3}, {0, 2000, 2}, {10, 100, 4}, {11, 600, 1}} {
		fmt.Fprintf(&b, ";= nodes=1 cores=%d\n", j[2])
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 1 -1 -1 -1\n", i+1, j[0], j[1], j[2], j[2], j[1])
	}
	trace := writeTrace(t, dir, "demands.swf", b.String())
	conf := writeTrace(t, dir, "slurm.conf", "PriorityType=priority/multifactor\nSchedulerType=sched/backfill\n")
	start := func(args ...string) int64 {
		t.Helper()
		out := filepath.Join(dir, "sched.swf")
		code, _, errs := runCmd(t, append([]string{trace, "-nodes", nodes, "-slurm-conf", conf, "-check", "-out", out}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		_, jobs, err := swf.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return jobs[3].Submit + jobs[3].Wait
	}
	if s := start("-named-nodes"); s != 503 {
		t.Errorf("-named-nodes: job 4 starts at %d, want 503", s)
	}
	if s := start(); s != 630 {
		t.Errorf("planned by CPUs: job 4 starts at %d, want 630 (after job 5)", s)
	}
	// the reports say how backfill planned: the header has no UnixStartTime
	code, out, errs := runCmd(t, trace, "-nodes", nodes, "-slurm-conf", conf, "-named-nodes", "-json")
	note := "note: backfill plans on named nodes (-named-nodes), its grids on time 0: the header's UnixStartTime 0 is not a Unix time in (0, 2^40]"
	if code != 0 || !strings.Contains(errs, "simulate: slurm.conf: "+note) || !strings.Contains(out, `"`+note+`"`) {
		t.Errorf("-named-nodes -json: exit %d, stderr %q, stdout %q: want the note %q in both", code, errs, out, note)
	}
	header := writeTrace(t, dir, "unix.swf", "; UnixStartTime: 1700000000\n"+b.String())
	_, out, errs = runCmd(t, header, "-nodes", nodes, "-slurm-conf", conf, "-named-nodes")
	if !strings.Contains(errs, "its grids on the header's UnixStartTime 1700000000") || !strings.Contains(out, "backfill planned on named nodes (-named-nodes)") {
		t.Errorf("-named-nodes with a UnixStartTime: stderr %q, report %q", errs, out)
	}
	code, _, errs = runCmd(t, trace, "-nodes", nodes, "-named-nodes")
	if code != 2 || !strings.Contains(errs, "give -slurm-conf FILE and -nodes FILE") {
		t.Errorf("-named-nodes without -slurm-conf: exit %d, %q", code, errs)
	}
}

// TestSlurmKilledLine: under -slurm-conf the policy kills a job at the
// first 30 s limit check at or after its time limit (plus OverTimeLimit)
// whether or not -kill is given; the
// text's "killed" line said "(ended at their estimate, -kill)", naming a
// flag the run did not have. It names what killed them.
func TestSlurmKilledLine(t *testing.T) {
	// Job 2 runs 900 s with a limit of 600 s: killed at the check after.
	trace, line := slurmTextLine(t, strings.Replace(slurmTrace, "2  60 0  600 4", "2  60 0  900 4", 1), "killed")
	const want = "(ended at the first 30 s limit check at or after their time limit plus OverTimeLimit by the Slurm policy, -slurm-conf)"
	if !strings.HasSuffix(line, want) || !strings.HasPrefix(line, "killed 1 ") {
		t.Errorf("killed line %q, want 1 %s", line, want)
	}
	// Without -slurm-conf, -kill is what kills.
	if _, out, _ := runCmd(t, trace, "-kill"); !strings.Contains(out, "(ended at their estimate, -kill)") {
		t.Errorf("-kill: the killed line lost its flag: %q", out)
	}
}

// TestSlurmNoEstimateLine: under -slurm-conf the policy gives a log line
// without a time limit (field 9) its partition's DefaultTime, and kills
// the job there; the simulator so never saw a missing estimate, and the
// text's "no estimate" line said 0 jobs, "-kill never ends them". It
// counts the log's lines without a limit and says what limit they got.
func TestSlurmNoEstimateLine(t *testing.T) {
	// Job 2 has no limit: batch's DefaultTime (1 hour here).
	trace, line := slurmTextLine(t, strings.Replace(slurmTrace, "4  600 -1 1 2 1", "4   -1 -1 1 2 1", 1), "no estimate")
	if !strings.HasPrefix(line, "no estimate 1 lines of the log ") || strings.Contains(line, "-kill") {
		t.Errorf("no estimate line %q, want 1 line of the log, and no -kill", line)
	}
	// Without -slurm-conf the simulator's count, and -kill.
	if _, out, _ := runCmd(t, trace, "-kill"); !strings.Contains(out, "(field 9 missing; -kill never ends them)") {
		t.Errorf("-kill: the no estimate line changed: %q", out)
	}
}

// slurmTextLine runs the command on log text under slurmConf and returns
// the log's file and the text report's line name, its fields joined by
// one space.
func slurmTextLine(t *testing.T, log, name string) (trace, line string) {
	t.Helper()
	dir := t.TempDir()
	trace = writeTrace(t, dir, "acct.swf", log)
	conf := writeTrace(t, dir, "slurm.conf", slurmConf)
	code, out, errs := runCmd(t, trace, "-slurm-conf", conf)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for l := range strings.Lines(out) {
		if strings.HasPrefix(l, name+" ") {
			line = strings.Join(strings.Fields(l), " ")
		}
	}
	return trace, line
}

// An archive Slurm log (LLNL-Atlas, CEA-Curie) names its partitions in
// field 16, its queue -1: the Slurm policy reads field 16 as each job's
// QOS and runs every job in the default partition. The report says so,
// with the jobs by field-16 partition, in the text and in -json
// (partitions.read_as "slurm_qos"); it said nothing of them.
func TestSlurmConfField16Said(t *testing.T) {
	dir := t.TempDir()
	const log = `; MaxProcs: 4
; MaxPartitions: 2
; Partition: 1 pbatch
; Partition: 2 pdebug
1   0 0 600 4 -1 -1 4 600 -1 1 1 1 -1 -1 1 -1 -1
2  60 0 600 2 -1 -1 2 600 -1 1 1 1 -1 -1 2 -1 -1
3 120 0 600 2 -1 -1 2 600 -1 1 1 1 -1 -1 1 -1 -1
`
	trace := writeTrace(t, dir, "atlas.swf", log)
	conf := writeTrace(t, dir, "slurm.conf", slurmConf)
	code, out, errs := runCmd(t, trace, "-slurm-conf", conf)
	const want = "the jobs name 2 partitions in SWF field 16 (jobs: 2 in partition 1 pbatch, 1 in partition 2 pdebug), " +
		"which the Slurm policy reads as their QOS; it takes a job's partition from field 15 (the queue), which is -1 on 3 of the log's lines"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d (%s); text lacks %q:\n%s", code, errs, want, out)
	}
	m := runJSON(t, trace, "-slurm-conf", conf)
	p, _ := m["partitions"].(map[string]any)
	if p == nil || p["read_as"] != "slurm_qos" || len(p["by_partition"].([]any)) != 2 || p["one_pool_processors"] != nil {
		t.Errorf("-json partitions = %v", p)
	}
	// Without -slurm-conf the same log is the archive's one pool.
	if code, out, _ := runCmd(t, trace); code != 0 || !strings.Contains(out, "simulated as one pool of 4 processors") {
		t.Errorf("exit %d; without -slurm-conf:\n%s", code, out)
	}
}
