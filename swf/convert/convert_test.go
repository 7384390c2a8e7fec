package convert

import (
	"bytes"
	"compress/gzip"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

type converter func(io.Reader, Options) (*Result, error)

var converters = map[string]converter{"sacct": Sacct, "sacct-json": SacctJSON, "jobcomp": Jobcomp, "pbs": PBS}

// fixtures are the hand-written logs in testdata and their formats.
var fixtures = []struct{ path, format string }{
	{"testdata/sacct-parsable2.txt", "sacct"},
	{"testdata/sacct-formatted.txt", "sacct"},
	{"testdata/sacct-22.05.json", "sacct-json"},
	{"testdata/sacct-23.11.json", "sacct-json"},
	{"testdata/jobcomp.txt", "jobcomp"},
	{"testdata/pbs-torque.log", "pbs"},
	{"testdata/sacct-gpu.txt", "sacct"},
	{"testdata/sacct-gpu.json", "sacct-json"},
	{"testdata/pbs-gpu.log", "pbs"},
}

func convertFile(t *testing.T, format, path string, opt Options) *Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := converters[format](f, opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return res
}

// parseJobs reads SWF job lines (the expectations) with package swf.
func parseJobs(t *testing.T, lines []string) []swf.Job {
	t.Helper()
	jobs, err := swf.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// checkJobs compares every field of every job, naming the job by its
// scheduler id and the field by its SWF name.
func checkJobs(t *testing.T, res *Result, ids []string, want []swf.Job) {
	t.Helper()
	if !slices.Equal(res.IDs, ids) {
		t.Errorf("ids\n got %q\nwant %q", res.IDs, ids)
	}
	if len(res.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(want))
	}
	for k := range want {
		g, w := fields(res.Jobs[k]), fields(want[k])
		for i := range g {
			if g[i] != w[i] {
				t.Errorf("job %d (%s), field %d (%s) = %v, want %v", k+1, res.IDs[k], i+1, swf.FieldName(i), g[i], w[i])
			}
		}
	}
}

func fields(j swf.Job) [swf.NumFields]float64 {
	return [swf.NumFields]float64{float64(j.ID), float64(j.Submit), float64(j.Wait), float64(j.RunTime),
		float64(j.AllocProcs), j.AvgCPUTime, j.UsedMemory, float64(j.ReqProcs), float64(j.ReqTime), j.ReqMemory,
		float64(j.Status), float64(j.User), float64(j.Group), float64(j.Executable), float64(j.Queue),
		float64(j.Partition), float64(j.PrecedingJob), float64(j.ThinkTime)}
}

func checkCounts(t *testing.T, what string, got, want map[string]int) {
	t.Helper()
	if !maps.Equal(got, want) {
		t.Errorf("%s\n got %v\nwant %v", what, got, want)
	}
}

// The hand-written Slurm workload (testdata/sacct-parsable2.txt, the same
// jobs in sacct-22.05.json and jobcomp.txt), 2024-03-01 from 08:00:00 UTC.
// Fields: job, submit, wait, run, allocated, avg CPU, used memory KB/proc,
// requested procs, requested time, requested memory KB/proc, status,
// user, group, executable, queue, partition, preceding, think.
var slurmIDs = []string{"1001", "1002", "1003", "1004", "1005", "1006", "1010_1", "1010_2", "1020",
	"1040", "1041", "1042", "1050+0", "1050+1", "1060"}

var slurmJobs = []string{
	// 1001: TotalCPU 30:00 / 4 CPUs; batch step AveRSS 1024000K × 1 task / 4 CPUs;
	// ReqTRES mem 8000M / 4; limit 60 min.
	"1 0 120 600 4 450 256000 4 3600 2048000 1 1 1 1 1 -1 -1 -1",
	// 1002 TIMEOUT: 03:59:12 / 8; batch AveRSS 3072000K / 4 step CPUs; 16000M / 8.
	"2 300 30 1801 8 1794 768000 8 1800 2048000 0 2 2 2 1 -1 -1 -1",
	// 1003 FAILED 3:0: ReqMem 2000M (no ReqTRES) for 1 CPU.
	"3 600 5 2 1 0.05 2048 1 600 2048000 0 3 1 3 2 -1 -1 -1",
	// 1004 NODE_FAIL: TotalCPU 0 (unknown); ReqMem 4000Mc is per CPU.
	"4 1200 60 2340 16 -1 -1 16 7200 4096000 0 1 1 4 1 -1 -1 -1",
	// 1005 CANCELLED by 1000 while pending (Start None, no CPUs).
	"5 1800 -1 -1 -1 -1 -1 2 3600 2048000 5 1 1 1 1 -1 -1 -1",
	// 1006 CANCELLED by 1001 after 5 minutes: 04:59.500 / 2; 4G / 2.
	"6 1860 10 300 2 149.75 51200 2 3600 2097152 5 2 2 2 1 -1 -1 -1",
	// Array 1010, tasks 1 and 2 (raw ids 1011, 1012); 1010_[3-5] still pending.
	"7 2400 2 60 1 59.99 10240 1 300 1024000 1 4 3 5 2 -1 -1 -1",
	"8 2400 63 60 1 59.98 11264 1 300 1024000 1 4 3 5 2 -1 -1 -1",
	// 1020 requeued: the second attempt, submitted again at 08:55:05.
	"9 3305 55 600 4 585 179200 4 1200 2048000 1 5 2 6 1 -1 -1 -1",
	// 1040 UNLIMITED, 1041 Partition_Limit: no requested time.
	"10 3720 1 3600 1 10 51200 1 -1 512000 1 5 2 7 3 -1 -1 -1",
	"11 3780 0 30 2 27.5 15360 2 -1 1048576 1 3 1 8 2 -1 -1 -1",
	// 1042 OUT_OF_MEMORY: AveRSS 16777216K / 4.
	"12 3840 60 600 4 525 4194304 4 14400 4194304 0 4 3 9 1 -1 -1 -1",
	// Heterogeneous job 1050: two components, two partitions.
	"13 4200 120 600 8 562.5 -1 8 1800 1048576 1 1 1 10 1 -1 -1 -1",
	"14 4200 120 600 2 570 -1 2 1800 524288 1 1 1 10 2 -1 -1 -1",
	// 1060, named "a|b": the delimiter inside JobName.
	"15 4800 1 10 1 9 -1 1 60 102400 1 2 2 11 2 -1 -1 -1",
}

var slurmStatesWant = map[string]int{"CANCELLED": 2, "COMPLETED": 9, "FAILED": 1, "NODE_FAIL": 1, "OUT_OF_MEMORY": 1, "TIMEOUT": 1}

func TestSacct(t *testing.T) {
	res := convertFile(t, "sacct", "testdata/sacct-parsable2.txt", Options{})
	checkJobs(t, res, slurmIDs, parseJobs(t, slurmJobs))
	r := res.Report
	if r.Records != 34 || r.Jobs != 15 || r.Steps != 15 || r.Requeued != 1 || len(r.Errors) != 0 {
		t.Errorf("records %d jobs %d steps %d requeued %d errors %v, want 34 15 15 1 none", r.Records, r.Jobs, r.Steps, r.Requeued, r.Errors)
	}
	checkCounts(t, "states", r.States, slurmStatesWant)
	checkCounts(t, "skipped", r.Skipped, map[string]int{
		"not finished at dump (PENDING)": 1, "not finished at dump (RUNNING)": 1, "pending array tasks": 1})
	checkCounts(t, "anomalies", r.Anomalies, map[string]int{
		"cancelled while running": 1, "heterogeneous job component": 2, "killed at its time limit": 1,
		"time limit Partition_Limit, partition limit unknown": 1, "time limit UNLIMITED": 1,
		"demand: from AllocTRES (no ReqTRES)": 2})
	if !slices.Equal(r.Notes, []string{"1 steps of jobs not in the input ignored"}) {
		t.Errorf("notes %q", r.Notes)
	}
	h := res.Header
	if h.UnixStartTime != 1709280000 || h.TimeZoneString != "UTC" || h.MaxJobs != 15 || h.MaxQueues != 3 ||
		!slices.Equal(h.Queue, []string{"1 batch", "2 debug", "3 long"}) {
		t.Errorf("header %+v", h)
	}
	kv := func(k, v string) swf.KeyValue { return swf.KeyValue{Key: k, Value: v} }
	want := []swf.KeyValue{kv("User", "1 alice"), kv("User", "2 bob"), kv("User", "3 carol"), kv("User", "4 dave"),
		kv("User", "5 erin"), kv("Group", "1 physics"), kv("Group", "2 chem"), kv("Group", "3 bio"),
		kv("Executable", "1 relax"), kv("Executable", "2 md run")}
	if !slices.Equal(h.Other[:len(want)], want) || h.Other[len(h.Other)-1] != kv("Executable", "11 a|b") {
		t.Errorf("name mapping %v", h.Other)
	}
}

func TestSacctJSON22(t *testing.T) {
	res := convertFile(t, "sacct-json", "testdata/sacct-22.05.json", Options{})
	checkJobs(t, res, slurmIDs, parseJobs(t, slurmJobs))
	r := res.Report
	// Steps live inside their job here: no record of their own, and the
	// orphan step of the text fixture is not in this file.
	if r.Records != 19 || r.Jobs != 15 || r.Steps != 14 || r.Requeued != 1 {
		t.Errorf("records %d jobs %d steps %d requeued %d, want 19 15 14 1", r.Records, r.Jobs, r.Steps, r.Requeued)
	}
	checkCounts(t, "states", r.States, slurmStatesWant)
	checkCounts(t, "anomalies", r.Anomalies, map[string]int{
		"cancelled while running": 1, "heterogeneous job component": 2, "killed at its time limit": 1,
		"time limit null (UNLIMITED or Partition_Limit)": 2, "FAILED with exit code 0": 1})
}

func TestJobcomp(t *testing.T) {
	res := convertFile(t, "jobcomp", "testdata/jobcomp.txt", Options{})
	// The jobcomp file has no request, CPU time or memory use: the same jobs
	// with those fields -1, but for job 5, never started, whose ProcCnt is
	// its request.
	want := parseJobs(t, slurmJobs)
	for k := range want {
		if k != 4 {
			want[k].ReqProcs = -1
		}
		want[k].AvgCPUTime, want[k].UsedMemory = -1, -1
	}
	checkJobs(t, res, slurmIDs, want)
	r := res.Report
	if r.Records != 16 || r.Jobs != 15 || r.Requeued != 1 || len(r.Skipped) != 0 {
		t.Errorf("records %d jobs %d requeued %d skipped %v, want 16 15 1 none", r.Records, r.Jobs, r.Requeued, r.Skipped)
	}
	checkCounts(t, "states", r.States, slurmStatesWant)
}

func TestSacctFormatted(t *testing.T) {
	// Another column order, --parsable's trailing '|', epoch times
	// (SLURM_TIME_FORMAT=%s), Elapsed and Timelimit as clocks, no AveRSS,
	// NTasks or ReqTRES.
	res := convertFile(t, "sacct", "testdata/sacct-formatted.txt", Options{})
	checkJobs(t, res, []string{"2001", "2002", "2003", "2004", "2006", "2008", "2010", "2007"}, parseJobs(t, []string{
		// 1-01:00:00 run; 2-00:00:00 limit; TotalCPU 10-00:00:00 / 64; batch step MaxRSS 2G / 32
		// step CPUs beats step 0's 1.50G / 64; ReqMem 4000Mc per CPU.
		"1 0 60 90000 64 13500 65536 64 172800 4096000 1 1 1 1 1 -1 -1 -1",
		// End Unknown: run time from Elapsed 05:00; TotalCPU 03:20.500 / 4; ReqMem 16Gn × 1 node / 4.
		"2 100 100 300 4 50.125 -1 4 1800 4194304 0 2 1 2 2 -1 -1 -1",
		// Timelimit INVALID; ReqMem 500M for the job, 2 CPUs.
		"3 300 10 10 2 -1 -1 2 -1 256000 1 1 1 2 2 -1 -1 -1",
		// CANCELLED before the start (Start Unknown).
		"4 400 -1 -1 -1 -1 -1 2 600 256000 5 2 1 2 2 -1 -1 -1",
		// DEADLINE before the start.
		"5 600 -1 -1 -1 -1 -1 1 600 512000 0 3 2 3 2 -1 -1 -1",
		// A state this package does not know: status -1.
		"6 800 10 10 1 -1 -1 1 300 102400 -1 1 1 2 2 -1 -1 -1",
		// Start unreadable: End 1709280990 less Elapsed 00:01:30.
		"7 900 0 90 1 -1 -1 1 300 102400 1 1 1 2 2 -1 -1 -1",
		// 2007: PREEMPTED, then its second attempt; 07:50:00 / 8; 1G / 8.
		"8 1000 100 3600 8 3525 -1 8 3600 131072 1 3 2 4 1 -1 -1 -1",
	}))
	r := res.Report
	if r.Records != 13 || r.Jobs != 8 || r.Steps != 2 || r.Requeued != 1 || len(r.Errors) != 2 {
		t.Errorf("records %d jobs %d steps %d requeued %d errors %v", r.Records, r.Jobs, r.Steps, r.Requeued, r.Errors)
	}
	checkCounts(t, "skipped", r.Skipped, map[string]int{"malformed record": 1, "not finished at dump (SUSPENDED)": 1})
	checkCounts(t, "anomalies", r.Anomalies, map[string]int{"time limit INVALID": 1, "ended without starting": 1,
		"unknown state": 1, "unreadable Start": 1, noteStartElapsed: 1, noteRunElapsed: 1})
	for i, want := range []string{
		`convert: sacct line 13: 6 fields, the header has 18`,
		`convert: sacct line 14, field Start: "2024-13-45T00:00:00": not a time (YYYY-MM-DDTHH:MM:SS with an optional offset, epoch seconds, Unknown or None)`,
	} {
		if i < len(r.Errors) && r.Errors[i].Error() != want {
			t.Errorf("error %d: %v, want %s", i, r.Errors[i], want)
		}
	}
}

func TestSacctJSON23(t *testing.T) {
	// Slurm 23.11 shapes: {"set", "infinite", "number"} numbers, state lists.
	res := convertFile(t, "sacct-json", "testdata/sacct-23.11.json", Options{})
	checkJobs(t, res, []string{"3001", "3002", "3000_7", "3020"}, parseJobs(t, []string{
		// 30.5 s CPU / 2; step average RSS 100 MiB × 1 task / 2 CPUs; requested mem 1000 MB / 2.
		"1 0 10 60 2 15.25 51200 2 300 512000 1 1 1 1 1 -1 -1 -1",
		// infinite limit (UNLIMITED); cancelled after the start.
		"2 50 50 30 1 -1 -1 1 -1 -1 5 1 1 2 1 -1 -1 -1",
		// Array task 7 of 3000 (raw id 3010); limit not set (Partition_Limit); 8192 MB / 4.
		"3 60 140 5 4 -1 -1 4 -1 2097152 0 2 1 3 2 -1 -1 -1",
		// Plain numbers, a quoted elapsed, state as a bare string.
		"4 299 1 125 1 -1 -1 1 120 -1 0 1 1 4 1 -1 -1 -1",
	}))
	checkCounts(t, "skipped", res.Report.Skipped, map[string]int{"pending array tasks": 1})
	checkCounts(t, "anomalies", res.Report.Anomalies, map[string]int{"time limit UNLIMITED": 1, "cancelled while running": 1,
		"time limit Partition_Limit, partition limit unknown": 1, "killed at its time limit": 1})
}

func TestPBS(t *testing.T) {
	res := convertFile(t, "pbs", "testdata/pbs-torque.log", Options{})
	checkJobs(t, res, []string{"101.head", "102.head", "103.head", "104.head", "105.head", "106.head",
		"107[1].head", "107[2].head", "110.head", "111.pbspro", "112.pbspro"}, parseJobs(t, []string{
		// nodes=2:ppn=8 and exec_host n01/0-7+n02/0-7: 16 processors, never 2;
		// cput 02:30:00 / 16; mem 8388608kb / 16.
		"1 0 5 600 16 562.5 524288 16 3600 -1 1 1 1 1 1 -1 -1 -1",
		// Deleted while queued: only Q and D records.
		"2 60 -1 -1 -1 -1 -1 -1 -1 -1 5 -1 -1 -1 2 -1 -1 -1",
		// Deleted while running (D, then E with Exit_status 271).
		"3 120 10 601 4 585 262144 4 7200 -1 5 2 2 2 1 -1 -1 -1",
		// Exit_status -11: killed at its walltime; pmem 2gb per process.
		"4 170 10 303 2 300 262144 2 300 2097152 0 3 1 3 2 -1 -1 -1",
		// Exit_status 1; nodes n05:ppn=2+n06:ppn=2; no walltime; mem 4gb / 4.
		"5 240 30 10 4 5 10240 4 -1 1048576 0 1 1 4 1 -1 -1 -1",
		// Rerun: the last start (08:26) counts.
		"6 1140 420 600 4 600 524288 4 1800 -1 1 4 3 5 1 -1 -1 -1",
		// Array subjobs; the parent 107[] is not a job.
		"7 1800 5 60 1 59 10240 1 600 -1 1 5 2 6 2 -1 -1 -1",
		"8 1800 66 60 1 59 10240 1 600 -1 1 5 2 6 2 -1 -1 -1",
		// Aborted (A) before the start.
		"9 2400 -1 -1 -1 -1 -1 -1 -1 -1 5 -1 -1 -1 1 -1 -1 -1",
		// PBS Pro: Resource_List.ncpus 16, exec_host c1/0*8+c2/0*8; select mem 2 × 16gb / 16.
		"10 2700 60 3600 16 3562.5 655360 16 7200 2097152 1 6 4 7 3 -1 -1 -1",
		// PBS Pro select 3:ncpus=4, no exec_host: resources_used.ncpus.
		"11 3000 30 300 12 300 -1 12 1200 -1 1 6 4 8 3 -1 -1 -1",
	}))
	r := res.Report
	if r.Requeued != 1 || r.Records != 37 {
		t.Errorf("requeued %d records %d, want 1 37", r.Requeued, r.Records)
	}
	checkCounts(t, "skipped", r.Skipped, map[string]int{"not finished at dump (running)": 1, "not finished at dump (queued)": 1,
		"array parent record": 1, "rerun record (counted at the next start)": 1, "record type L (not a job event)": 1, "malformed record": 1})
	checkCounts(t, "states", r.States, map[string]int{"E": 8, "D": 2, "A": 1})
	if !slices.Equal(res.Header.Queue, []string{"1 batch", "2 debug", "3 workq"}) {
		t.Errorf("queues %q", res.Header.Queue)
	}
}

// TestRoundTrip writes every conversion as SWF (plain and gzip) and reads
// it back with swf.Open in strict mode: same header, same jobs, in order.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, fx := range fixtures {
		res := convertFile(t, fx.format, fx.path, Options{Computer: "test machine", MaxProcs: 64})
		for _, name := range []string{"out.swf", "out.swf.gz"} {
			path := filepath.Join(dir, name)
			var buf bytes.Buffer
			if err := swf.WriteAll(&buf, res.Header, res.Jobs); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			if strings.HasSuffix(name, ".gz") {
				var z bytes.Buffer
				zw := gzip.NewWriter(&z)
				zw.Write(data)
				zw.Close()
				data = z.Bytes()
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := swf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			h, err := f.Header()
			if err != nil {
				t.Fatalf("%s: %v", fx.path, err)
			}
			jobs, err := f.ReadAll()
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", fx.path, err)
			}
			st := f.Stats()
			if !sameJobs(jobs, res.Jobs) || st.OutOfOrder != 0 || len(st.Warnings) != 0 || st.OtherStatus != 0 {
				t.Errorf("%s %s: read back %d jobs (want %d), stats %+v", fx.path, name, len(jobs), len(res.Jobs), st)
			}
			if h.UnixStartTime != res.Header.UnixStartTime || h.MaxProcs != 64 || h.Computer != "test machine" ||
				!slices.Equal(h.Queue, res.Header.Queue) || !slices.Equal(h.Other, res.Header.Other) ||
				!slices.Equal(h.Note, res.Header.Note) || h.TimeZoneString != res.Header.TimeZoneString {
				t.Errorf("%s: header read back differs:\n%+v\n%+v", fx.path, h, res.Header)
			}
			for k, j := range jobs {
				if j.ID != int64(k+1) || k > 0 && j.Submit < jobs[k-1].Submit {
					t.Errorf("%s: job %d numbered %d, submit %d", fx.path, k+1, j.ID, j.Submit)
				}
			}
		}
	}
}

// TestInvariant: every input record is a job, a step, an earlier attempt,
// or skipped with a reason.
func TestInvariant(t *testing.T) {
	for _, fx := range fixtures {
		if fx.format == "pbs" {
			continue // a PBS job spans several records
		}
		r := convertFile(t, fx.format, fx.path, Options{}).Report
		skipped := 0
		for _, n := range r.Skipped {
			skipped += n
		}
		steps := r.Steps
		if fx.format == "sacct-json" {
			steps = 0 // inside their job's record
		}
		if r.Records != r.Jobs+steps+r.Requeued+skipped {
			t.Errorf("%s: records %d != jobs %d + steps %d + requeued %d + skipped %d", fx.path, r.Records, r.Jobs, steps, r.Requeued, skipped)
		}
	}
}

func TestGzipInput(t *testing.T) {
	for _, fx := range fixtures {
		data, err := os.ReadFile(fx.path)
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(data)
		zw.Close()
		plain, err := converters[fx.format](bytes.NewReader(data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		zipped, err := converters[fx.format](bytes.NewReader(z.Bytes()), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !sameJobs(plain.Jobs, zipped.Jobs) || !slices.Equal(plain.IDs, zipped.IDs) {
			t.Errorf("%s: gzip input converts differently", fx.path)
		}
		// A truncated gzip stream is an error that says so.
		_, err = converters[fx.format](bytes.NewReader(z.Bytes()[:z.Len()/2]), Options{})
		if err == nil || !strings.Contains(err.Error(), "gzip") {
			t.Errorf("%s: truncated gzip: %v", fx.path, err)
		}
	}
}
