package convert

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/swf"
)

// snapshotFixtures are one queue (testdata/snapshot/README) in every
// version and form: each must read to the same snapshot.
var snapshotFixtures = []struct{ path, format string }{
	{"testdata/snapshot/slurmrestd-v0.0.37.json", "slurmrestd"},
	{"testdata/snapshot/slurmrestd-v0.0.38.json", "slurmrestd"},
	{"testdata/snapshot/slurmrestd-v0.0.39.json", "slurmrestd"},
	{"testdata/snapshot/slurmrestd-v0.0.40.json", "slurmrestd"},
	{"testdata/snapshot/slurmrestd-v0.0.41.json", "slurmrestd"},
	{"testdata/snapshot/scontrol-show-job.txt", "scontrol"},
	{"testdata/snapshot/scontrol-show-job-o.txt", "scontrol"},
}

func readSnapshot(t *testing.T, path string, opt Options) *Snapshot {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := QueueSnapshot(bytes.NewReader(data), opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// The expected queue, written from the fixtures' story (not from the
// code): at 08:10:00 UTC, 2024-03-01.
const snapTime = 1709280600

// Every job of the fixtures is in QOS normal and asks 1000M per node (TRES mem 1000M per
// node, MinMemoryNode=1000M, memory_per_node 1000).
func mem1000(nodes, cores int64) *swf.Demand {
	return &swf.Demand{Nodes: nodes, Cores: cores, Memory: 1000}
}

var wantRunning = []QueuedJob{
	{ID: "101", Submit: 1709280000, Start: 1709280060, Elapsed: 540, TimeLimit: 3600, CPUs: 8, Nodes: 1, Priority: 1000,
		State: "RUNNING", Name: "relax", User: "alice", Account: "physics", Partition: "short", QOS: "normal", Demand: mem1000(1, 8)},
	{ID: "102", Submit: 1709280100, Start: 1709280300, Elapsed: 300, TimeLimit: 7200, CPUs: 16, Nodes: 2, Priority: 1200,
		State: "RUNNING", Name: "md run", User: "bob", Account: "chem", Partition: "long", QOS: "normal", Demand: mem1000(2, 8)},
	{ID: "105_1", Submit: 1709280150, Start: 1709280500, Elapsed: 100, TimeLimit: 600, CPUs: 1, Nodes: 1, Priority: 900,
		State: "RUNNING", Name: "sweep", User: "bob", Account: "chem", Partition: "short", QOS: "normal", Demand: mem1000(1, 1)},
}

var wantWaiting = func() []QueuedJob {
	w := []QueuedJob{
		{ID: "103", Submit: 1709280200, Start: 1709287260, TimeLimit: 1800, CPUs: 32, Nodes: 4, Priority: 1500,
			State: "PENDING", Reason: "Resources", Name: "big", User: "carol", Account: "astro", Partition: "long", QOS: "normal", Demand: mem1000(4, 8)},
		{ID: "104", Submit: 1709280400, Start: -1, TimeLimit: -1, CPUs: 4, Nodes: 1, Priority: 1500,
			State: "PENDING", Reason: "Priority", Name: "scan", User: "alice", Account: "physics", Partition: "short", QOS: "normal", Demand: mem1000(1, 4)},
	}
	for _, id := range []string{"105_2", "105_3", "105_4"} {
		w = append(w, QueuedJob{ID: id, Submit: 1709280150, Start: -1, TimeLimit: 600, CPUs: 1, Nodes: 1, Priority: 900,
			State: "PENDING", Reason: "Priority", Name: "sweep", User: "bob", Account: "chem", Partition: "short", QOS: "normal", Demand: mem1000(1, 1)})
	}
	return append(w, QueuedJob{ID: "108", Submit: 1709280450, Start: -1, TimeLimit: -1, CPUs: 2, Nodes: 1, Priority: 0,
		State: "PENDING", Reason: "JobHeldUser", Name: "held", User: "dave", Account: "bio", Partition: "short", QOS: "normal", Demand: mem1000(1, 2)})
}()

func TestSnapshotFixtures(t *testing.T) {
	for _, fx := range snapshotFixtures {
		s := readSnapshot(t, fx.path, Options{})
		r := s.Report
		if r.Format != fx.format || s.Time != snapTime {
			t.Errorf("%s: format %q, time %d (notes %q)", fx.path, r.Format, s.Time, r.Notes)
		}
		if !reflect.DeepEqual(s.Running, wantRunning) {
			t.Errorf("%s: running\n got %+v\nwant %+v", fx.path, s.Running, wantRunning)
		}
		if !reflect.DeepEqual(s.Waiting, wantWaiting) {
			t.Errorf("%s: waiting\n got %+v\nwant %+v", fx.path, s.Waiting, wantWaiting)
		}
		// 8 records: 7 of 9 jobs (the array's pending tasks one record), 1 finished.
		if r.Records != 8 || r.Jobs != 9 || r.Skipped[skipFinished+" (COMPLETED)"] != 1 || len(r.Skipped) != 1 ||
			r.States["RUNNING"] != 3 || r.States["PENDING"] != 4 ||
			r.Anomalies[noteUnlimited] != 1 || r.Anomalies[notePartLimit] != 1 || len(r.Anomalies) != 2 || len(r.Errors) != 0 {
			t.Errorf("%s: report %+v", fx.path, r)
		}
		if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "lower bound") {
			t.Errorf("%s: notes %q", fx.path, r.Notes)
		}
	}
}

func TestSnapshotOptions(t *testing.T) {
	// Options.Now sets the time and the elapsed times; PartitionLimits
	// fills Partition_Limit.
	now := time.Unix(snapTime+60, 0)
	for _, fx := range snapshotFixtures {
		s := readSnapshot(t, fx.path, Options{Now: now, PartitionLimits: map[string]int64{"short": 900}})
		if s.Time != snapTime+60 || s.Running[0].Elapsed != 600 || s.Waiting[5].TimeLimit != 900 ||
			s.Report.Anomalies[notePartLimitUsed] != 1 || len(s.Report.Notes) != 0 {
			t.Errorf("%s: time %d, %+v, %+v", fx.path, s.Time, s.Running[0], s.Report)
		}
	}
	// One record, gzip.
	data, _ := os.ReadFile("testdata/snapshot/scontrol-show-job-one.txt")
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	s, err := QueueSnapshot(&z, Options{})
	if err != nil || len(s.Running) != 1 || !reflect.DeepEqual(s.Running[0], wantRunning[1]) || s.Time != snapTime {
		t.Errorf("%v %+v", err, s)
	}
	// An empty queue.
	s, err = QueueSnapshot(strings.NewReader("No jobs in the system\n"), Options{})
	if err != nil || len(s.Running)+len(s.Waiting) != 0 || s.Report.Format != "scontrol" {
		t.Errorf("%v %+v", err, s)
	}
	s, err = QueueSnapshot(strings.NewReader(`{"jobs": [], "last_update": {"set": true, "infinite": false, "number": 1709280600}}`), Options{})
	if err != nil || len(s.Running)+len(s.Waiting) != 0 || s.Report.Format != "slurmrestd" || s.Time != snapTime {
		t.Errorf("%v %+v", err, s)
	}
}

func TestSnapshotSWF(t *testing.T) {
	s := readSnapshot(t, "testdata/snapshot/slurmrestd-v0.0.40.json", Options{HideNames: true})
	res := s.SWF()
	var buf bytes.Buffer
	if err := swfWrite(&buf, res); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// Jobs in submit order: 101 (0), 102 (100), 105_1 and 105_2-4 (150), 103 (200), 104 (400), 108 (450).
	want := []string{"101", "102", "105_1", "105_2", "105_3", "105_4", "103", "104", "108"}
	if !slices.Equal(res.IDs, want) {
		t.Errorf("ids %q, want %q", res.IDs, want)
	}
	for _, line := range []string{
		"; SnapshotTime: 1709280600\n",
		"1 0 60 -1 8 -1 -1 8 3600 -1 -1 1 -1 1 1 -1 -1 -1\n",     // running: wait, no run time
		"7 200 -1 -1 -1 -1 -1 32 1800 -1 -1 3 -1 4 2 -1 -1 -1\n", // waiting
	} {
		if !strings.Contains(out, line) {
			t.Errorf("SWF lacks %q:\n%s", line, out)
		}
	}
}

func TestSnapshotFormatErrors(t *testing.T) {
	// Each accounting log given to QueueSnapshot, and each snapshot given
	// to each accounting converter: a FormatError naming what it saw.
	for _, fx := range fixtures {
		data, _ := os.ReadFile(fx.path)
		_, err := QueueSnapshot(bytes.NewReader(data), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Saw != fx.format || fe.Want != "slurmrestd or scontrol" {
			t.Errorf("%s: %v", fx.path, err)
		}
	}
	reals := []struct{ path, format string }{
		{"testdata/snapshot/real-22.05/1-squeue.json", "slurmrestd"},
		{"testdata/snapshot/real-22.05/2-scontrol-show-job-d.txt", "scontrol"},
	}
	for _, fx := range append(reals, snapshotFixtures...) {
		data, _ := os.ReadFile(fx.path)
		for name, conv := range converters {
			_, err := conv(bytes.NewReader(data), Options{})
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Saw != fx.format || fe.Want != name {
				t.Errorf("%s as %s: %v", fx.path, name, err)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, "live queue snapshot") || !strings.Contains(msg, "reads as format "+fx.format) {
				t.Errorf("%s as %s: message %q", fx.path, name, msg)
			}
		}
	}
	for _, in := range []string{"", "hello\n", "{\"x\": 1}", strings.Repeat("z", 100)} {
		_, err := QueueSnapshot(strings.NewReader(in), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// slurmrestd's jobs found past the first 64 KiB (a long meta) are still
// told from sacct's.
func TestSlurmrestdPastSniff(t *testing.T) {
	data, _ := os.ReadFile("testdata/snapshot/slurmrestd-v0.0.37.json")
	pad := `{"meta": {"pad": "` + strings.Repeat("x", sniffBytes) + `"},` + string(bytes.TrimPrefix(bytes.TrimSpace(data), []byte("{")))
	_, err := SacctJSON(strings.NewReader(pad), Options{})
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Saw != "slurmrestd" {
		t.Errorf("%v", err)
	}
}

func TestSnapshotBounds(t *testing.T) {
	in := `{"jobs": [{"job_id": 1, "job_state": "RUNNING", "submit_time": 253402300799, "start_time": 1709280000, "cpus": 1000000000},
{"job_id": 2, "job_state": ["PENDING"], "submit_time": {"set": true, "number": 1709280000}, "cpus": 1e300,
 "array_job_id": 2, "array_task_string": "0-4000000"},
{"job_id": 3, "job_state": "PENDING", "submit_time": 1709280000, "array_job_id": 3, "array_task_string": "9-1"},
{"job_id": 4, "job_state": "BOGUS", "submit_time": 1709280000}]}`
	s, err := QueueSnapshot(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Report
	if len(s.Running)+len(s.Waiting) != 0 || r.Skipped[skipNoSubmit] != 1 || r.Skipped[skipArrayHuge] != 1 ||
		r.Skipped[skipMalformed] != 1 || r.Skipped[skipUnknownState+" (BOGUS)"] != 1 || len(r.Errors) != 4 {
		t.Errorf("%+v", r)
	}
}

func swfWrite(w *bytes.Buffer, res *Result) error { return swf.WriteAll(w, res.Header, res.Jobs) }

// squeueWitness reads squeue's default table: the ids of the running (R)
// and waiting (PD) jobs, array ranges "4_[2-3]" expanded.
func squeueWitness(t *testing.T, path string) (running, waiting []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) < 5 {
			continue
		}
		ids := []string{f[0]}
		if a, r, ok := strings.Cut(f[0], "_["); ok {
			lo, hi, _ := strings.Cut(strings.TrimSuffix(r, "]"), "-")
			ids = nil
			for k := lo[0]; k <= hi[0]; k++ {
				ids = append(ids, a+"_"+string(k))
			}
		}
		switch f[4] {
		case "R":
			running = append(running, ids...)
		case "PD":
			waiting = append(waiting, ids...)
		}
	}
	slices.Sort(running)
	slices.Sort(waiting)
	return running, waiting
}

func ids(jobs []QueuedJob) []string {
	var out []string
	for _, j := range jobs {
		out = append(out, j.ID)
	}
	slices.Sort(out)
	return out
}

// TestRealSnapshots reads real outputs of Slurm 22.05 (testdata/snapshot/
// real-22.05/README): every form of one snapshot gives the same jobs, the
// ones squeue showed running and waiting, at the time of the capture.
func TestRealSnapshots(t *testing.T) {
	dir := "testdata/snapshot/real-22.05/"
	for _, c := range []struct {
		n     string
		forms []string
		time  int64
	}{
		{"1", []string{"1-scontrol-show-job.txt", "1-scontrol-show-job-o.txt", "1-squeue.json"}, 1795885240},
		{"2", []string{"2-scontrol-show-job-d.txt", "2-scontrol-show-job-o.txt", "2-squeue.json"}, 1795885355},
	} {
		running, waiting := squeueWitness(t, dir+c.n+"-squeue.txt")
		var first *Snapshot
		for _, form := range c.forms {
			s := readSnapshot(t, dir+form, Options{})
			if got := ids(s.Running); !slices.Equal(got, running) {
				t.Errorf("%s: running %q, squeue shows %q", form, got, running)
			}
			if got := ids(s.Waiting); !slices.Equal(got, waiting) {
				t.Errorf("%s: waiting %q, squeue shows %q", form, got, waiting)
			}
			if s.Time > c.time || strings.HasPrefix(form, c.n+"-scontrol") && s.Time != c.time {
				t.Errorf("%s: time %d, captured at %d", form, s.Time, c.time)
			}
			if len(s.Report.Errors) != 0 || s.Report.Anomalies[noteUnlimited] != 1 || len(s.Report.Anomalies) != 1 {
				t.Errorf("%s: %+v", form, s.Report)
			}
			if first == nil {
				first = s
				continue
			}
			// Slurm 22.05's scontrol prints a running job's TRES as
			// allocated, without the memory this cluster does not
			// track; squeue --json gives the request (mem=4000M): the
			// running jobs' demands differ, as the inputs do.
			if !reflect.DeepEqual(noDemands(s.Running), noDemands(first.Running)) || !reflect.DeepEqual(s.Waiting, first.Waiting) {
				t.Errorf("%s differs from %s:\n%+v\n%+v\n%+v\n%+v", form, c.forms[0], s.Running, first.Running, s.Waiting, first.Waiting)
			}
		}
		if c.n == "2" && first.Report.Skipped[skipFinished+" (COMPLETED)"] != 1 {
			t.Errorf("snapshot 2: the ended job not counted: %+v", first.Report)
		}
	}
}

func TestSnapshotJobs(t *testing.T) {
	s := readSnapshot(t, "testdata/snapshot/scontrol-show-job.txt", Options{})
	users := map[string]int64{"alice": 7, "bob": 8, "carol": 9, "dave": 10}
	running, waiting := s.Jobs(func(u string) int64 { return users[u] }, nil)
	if len(running) != 3 || len(waiting) != 6 {
		t.Fatalf("%d running, %d waiting", len(running), len(waiting))
	}
	// 102: submitted 08:01:40, started 08:05:00, 16 CPUs, 2 h.
	if r := running[1]; r.ID != 2 || r.Submit != 1709280100 || r.Wait != 200 || r.Start() != 1709280300 ||
		r.AllocProcs != 16 || r.ReqProcs != 16 || r.ReqTime != 7200 || r.User != 8 || r.Queue != -1 || r.RunTime != -1 {
		t.Errorf("running %+v", r)
	}
	// The held job last, waiting.
	if w := waiting[5]; w.ID != 9 || w.Wait != -1 || w.AllocProcs != -1 || w.ReqProcs != 2 || w.User != 10 || w.ReqTime != -1 {
		t.Errorf("waiting %+v", w)
	}
}

// noDemands returns a copy of jobs without their demands.
func noDemands(jobs []QueuedJob) []QueuedJob {
	out := slices.Clone(jobs)
	for i := range out {
		out[i].Demand = nil
	}
	return out
}

// The jobs pending array records expand to are bounded in all, not only a
// record's: a few hundred KB of records "1-65536" made billions of jobs.
// A record past the bound is skipped whole and counted; a later one that
// fits is still expanded.
func TestSnapshotArrayTotal(t *testing.T) {
	defer func(n int) { maxSnapshotTasks = n }(maxSnapshotTasks)
	maxSnapshotTasks = 100
	var b strings.Builder
	b.WriteString(`{"jobs": [`)
	for i, tasks := range []string{"0-39", "0-39", "0-39", "0-19"} {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"job_id": %d, "job_state": "PENDING", "submit_time": 1709280000, "array_job_id": %d, "array_task_string": %q}`, i+1, i+1, tasks)
	}
	b.WriteString("]}")
	s, err := QueueSnapshot(strings.NewReader(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Waiting) != 100 || s.Report.Skipped[skipArrayTotal] != 1 || s.Report.Jobs != 100 {
		t.Errorf("%d waiting, report %+v; want 100 and 1 record skipped %q", len(s.Waiting), s.Report, skipArrayTotal)
	}
}
