package convert

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/batchq/batchq/swf"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// paiFiles is the hand-written job and task tables, in the order given.
func paiFiles(t *testing.T, names ...string) string {
	t.Helper()
	var b strings.Builder
	for _, n := range names {
		data, err := os.ReadFile("testdata/" + n)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

func paiConvert(t *testing.T, in string, opt Options) *Result {
	t.Helper()
	res, err := GPUTrace(strings.NewReader(in), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Format != "pai" {
		t.Fatalf("format %q, want pai", res.Report.Format)
	}
	checkAccounts(t, "pai", res.Report, len(res.Jobs))
	return res
}

// TestPAIFixtures converts the hand-written tables (rows typed after the
// trace's README and .header files) and checks each job against what its
// rows say, the tables given in either order.
func TestPAIFixtures(t *testing.T) {
	type want struct {
		id                     string
		submit, wait, run      int64
		procs                  int64
		status                 swf.Status
		user                   int64
		nodes, cores, mem, gpu int64 // demand; nodes 0: none
	}
	wants := []want{
		// 1 task: wait to its start_time, run to the job's end_time.
		{"a1b2c3d4e5f6a7b8c9d00001", 0, 20, 517, 1, 1, 1, 1, 6, 30000, 1000},
		// The README's example: ps (1 × 600% CPU, 0% GPU) and worker
		// (2 × 400%, 50%): 1 GPU; the earliest task start is the worker's.
		{"a1b2c3d4e5f6a7b8c9d00002", 121, 60, 3600, 1, 1, 2, 3, 6, 16384, 500},
		// A quarter of a GPU: 1 processor, the share in the demand.
		{"a1b2c3d4e5f6a7b8c9d00003", 1121, 300, 100, 1, 0, 1, 1, 4, 10240, 250},
		// Failed, its task never started.
		{"a1b2c3d4e5f6a7b8c9d00004", 2121, -1, -1, 1, 0, 3, 1, 8, 20480, 1000},
		// plan_gpu empty: a CPU job.
		{"a1b2c3d4e5f6a7b8c9d00007", 5121, 5, 600, 0, 1, 1, 1, 12, 51200, 0},
		// 8 instances of 8 GPUs.
		{"a1b2c3d4e5f6a7b8c9d00008", 6121, 900, 7200, 64, 1, 2, 8, 48, 409600, 8000},
		// No task: GPUs and start unknown.
		{"a1b2c3d4e5f6a7b8c9d00009", 7121, -1, -1, -1, 1, 3, 0, 0, 0, 0},
	}
	var first []swf.Job
	for _, order := range [][]string{{"gpu-pai-job.csv", "gpu-pai-task.csv"}, {"gpu-pai-task.csv", "gpu-pai-job.csv"}} {
		res := paiConvert(t, paiFiles(t, order...), Options{})
		rep := res.Report
		if rep.Records != 19 || rep.Steps != 9 || !maps.Equal(rep.Skipped, map[string]int{
			skipUnfinished + " (Running)": 1, skipUnfinished + " (Waiting)": 1, skipPAIOrphanTask: 1}) {
			t.Errorf("%v: report %+v", order, rep)
		}
		if len(res.Jobs) != len(wants) {
			t.Fatalf("%v: %d jobs, want %d", order, len(res.Jobs), len(wants))
		}
		for k, w := range wants {
			j := res.Jobs[k]
			got := want{res.IDs[k], j.Submit, j.Wait, j.RunTime, j.ReqProcs, j.Status, j.User, 0, 0, 0, 0}
			if d := j.Demand; d != nil {
				got.nodes, got.cores, got.mem, got.gpu = d.Nodes, d.Cores, d.Memory, d.GPUs
			}
			if got != w {
				t.Errorf("%v: job %d: got %+v\nwant %+v", order, k+1, got, w)
			}
			if w.wait >= 0 && j.AllocProcs != j.ReqProcs || w.wait < 0 && j.AllocProcs != -1 {
				t.Errorf("%v: job %d: allocated %d", order, k+1, j.AllocProcs)
			}
		}
		for _, n := range []string{noteCPUJob, notePAIShare, notePAIShapes, noteNeverStarted, notePAINoTask, notePAINoPlanGPU} {
			if rep.Anomalies[n] != 1 {
				t.Errorf("%v: anomalies %v, want 1 of %q", order, rep.Anomalies, n)
			}
		}
		if h := res.Header; h.UnixStartTime != 4550879 || h.TimeZoneString != "Asia/Shanghai" || h.TimeZone != 8*3600 {
			t.Errorf("%v: header start %d zone %q %d", order, h.UnixStartTime, h.TimeZoneString, h.TimeZone)
		}
		if first == nil {
			first = res.Jobs
		} else if !sameJobs(first, res.Jobs) {
			t.Errorf("the tables in the other order give other jobs")
		}
	}
}

// TestPAIRules: each odd value is counted with its reason, never taken as
// it is; a row that is no row of the two tables is skipped or refused.
func TestPAIRules(t *testing.T) {
	const job = "j1,i1,u1,Terminated,1000.0,2000.0\n"
	const task = "j1,w,1.0,Terminated,1100.0,2000.0,100.0,1.0,100.0,V100\n"
	type want struct {
		wait, run, procs int64
		skipped, note    string // a reason counted once ("" none)
	}
	for _, c := range []struct {
		name, in string
		w        want
	}{
		{"plain", job + task, want{100, 900, 1, "", ""}},
		{"header lines", strings.Join(paiJobColumns, ",") + "\n" + job + strings.Join(paiTaskColumns, ",") + "\n" + task,
			want{100, 900, 1, skipPAIHeader, ""}},
		{"CRLF and blanks", strings.ReplaceAll(job+"\n"+task, "\n", "\r\n"), want{100, 900, 1, "", ""}},
		{"fractional time", "j1,i1,u1,Terminated,1000.4,2000.0\n" + task, want{100, 900, 1, "", noteRounded}},
		{"start 0 is none", job + "j1,w,1.0,Terminated,0.0,2000.0,100.0,1.0,100.0,V100\n", want{-1, -1, 1, "", noteNeverStarted}},
		{"start nan", job + "j1,w,1.0,Terminated,nan,2000.0,100.0,1.0,100.0,V100\n", want{-1, -1, 1, "", noteNeverStarted}},
		{"negative start", job + "j1,w,1.0,Terminated,-5.0,2000.0,100.0,1.0,100.0,V100\n", want{-1, -1, 1, "", "unreadable task start_time"}},
		{"start before submit", job + "j1,w,1.0,Terminated,900.0,2000.0,100.0,1.0,100.0,V100\n", want{-1, 1100, 1, "", noteStartBefore}},
		{"end before start", "j1,i1,u1,Terminated,1000.0,1050.0\n" + task, want{100, -1, 1, "", noteEndBefore}},
		{"no end", "j1,i1,u1,Terminated,1000.0,\n" + task, want{100, -1, 1, "", noteNoEnd}},
		{"end inf", "j1,i1,u1,Terminated,1000.0,inf\n" + task, want{100, -1, 1, "", "unreadable end_time"}},
		{"end past 2200", "j1,i1,u1,Terminated,1000.0,1e11\n" + task, want{100, -1, 1, "", "unreadable end_time"}},
		{"no submit", "j1,i1,u1,Terminated,,2000.0\n" + task, want{-9, 0, 0, skipNoSubmit, ""}},
		{"submit 0", "j1,i1,u1,Terminated,0,2000.0\n" + task, want{-9, 0, 0, skipNoSubmit, ""}},
		{"negative submit", "j1,i1,u1,Terminated,-1000.0,2000.0\n" + task, want{-9, 0, 0, skipMalformed, ""}},
		{"submit NaN spelled otherwise", "j1,i1,u1,Terminated,NAN,2000.0\n" + task, want{-9, 0, 0, skipMalformed, ""}},
		// (after a row of a known status: a first line needs one)
		{"unknown status", task + "j1,i1,u1,Killed,1000.0,2000.0\n", want{100, 900, 1, "", noteUnknownState}},
		{"status case", "j1,i1,u1,terminated,1000.0,2000.0\n" + task, want{100, 900, 1, "", ""}},
		{"Waiting", "j1,i1,u1,Waiting,1000.0,\n" + task, want{-9, 0, 0, skipUnfinished + " (Waiting)", ""}},
		{"job again", job + job + task, want{100, 900, 1, skipPAIJobAgain, ""}},
		{"task again", job + task + task, want{100, 900, 1, skipPAITaskAgain, ""}},
		{"orphan task", job + task + "j2,w,1.0,Terminated,1.0,2.0,1,1,1,\n", want{100, 900, 1, skipPAIOrphanTask, ""}},
		{"share", job + "j1,w,3.0,Terminated,1100.0,2000.0,100.0,1.0,50.0,T4\n", want{100, 900, 2, "", notePAIShare}},
		{"share over one GPU", job + "j1,w,1.0,Terminated,1100.0,2000.0,100.0,1.0,150.0,T4\n", want{100, 900, 2, "", notePAIShareNode}},
		{"plan_gpu fraction of a thousandth", job + "j1,w,1.0,Terminated,1100.0,2000.0,100.0,1.0,33.33,T4\n", want{100, 900, 1, "", noteRounded}},
		{"inst_num 0", job + "j1,w,0.0,Terminated,1100.0,2000.0,100.0,1.0,100.0,T4\n", want{100, 900, 0, "", notePAINoInst}},
		{"inst_num fraction", job + "j1,w,1.5,Terminated,1100.0,2000.0,100.0,1.0,100.0,T4\n", want{100, 900, 2, "", noteRounded}},
		{"inst_num empty", job + "j1,w,,Terminated,1100.0,2000.0,100.0,1.0,100.0,T4\n", want{-1, -1, -1, skipMalformed, notePAIBadTask}},
		{"inst_num negative", job + task + "j1,ps,-1.0,Terminated,1100.0,2000.0,100.0,1.0,0.0,\n", want{100, 900, 1, skipMalformed, notePAIBadTask}},
		{"plan_gpu NaN", job + "j1,w,1.0,Terminated,1100.0,2000.0,100.0,1.0,NaN,T4\n", want{100, 900, 0, "", notePAINoPlanGPU}},
		{"plan_gpu inf", job + "j1,w,1.0,Terminated,1100.0,2000.0,100.0,1.0,inf,T4\n", want{-1, -1, -1, skipMalformed, notePAIBadTask}},
		{"plan_gpu huge", job + "j1,w,1.0,Terminated,1100.0,2000.0,100.0,1.0,1e30,T4\n", want{-1, -1, -1, skipMalformed, notePAIBadTask}},
		{"plan_cpu half a core", job + "j1,w,1.0,Terminated,1100.0,2000.0,50.0,1.0,100.0,T4\n", want{100, 900, 1, "", notePAICores}},
		{"plan_cpu empty", job + "j1,w,1.0,Terminated,1100.0,2000.0,,1.0,100.0,T4\n", want{100, 900, 1, "", notePAINoPlanCPU}},
		{"plan_mem empty", job + "j1,w,1.0,Terminated,1100.0,2000.0,100.0,,100.0,T4\n", want{100, 900, 1, "", notePAINoPlanMem}},
		{"GPUs past 2^24", job + strings.Repeat("j1,w,16777216,Terminated,1100.0,2000.0,100.0,1.0,800.0,T4\n", 1) +
			"j1,w2,16777216,Terminated,1100.0,2000.0,100.0,1.0,800.0,T4\n", want{100, 900, -1, "", notePAITooMany}},
		{"row of 7 fields", job + task + "a,b,c,d,e,f,g\n", want{100, 900, 1, skipMalformed, ""}},
		{"no job_name", job + task + ",i1,u1,Terminated,1000.0,2000.0\n", want{100, 900, 1, skipMalformed, ""}},
		{"quote", job + task + "\"j3,i1,u1,Terminated,1000.0,2000.0\n", want{100, 900, 1, skipMalformed, ""}},
	} {
		res, err := GPUTrace(strings.NewReader(c.in), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		rep := res.Report
		checkAccounts(t, c.name, rep, len(res.Jobs))
		if c.w.skipped != "" && (rep.Skipped[c.w.skipped] < 1 || len(rep.Skipped) != 1) || c.w.skipped == "" && len(rep.Skipped) > 0 {
			t.Errorf("%s: skipped %v, want %q only", c.name, rep.Skipped, c.w.skipped)
		}
		if c.w.note != "" && rep.Anomalies[c.w.note] != 1 {
			t.Errorf("%s: anomalies %v, want 1 %q", c.name, rep.Anomalies, c.w.note)
		}
		if c.w.wait == -9 { // (the job skipped)
			if len(res.Jobs) != 0 {
				t.Errorf("%s: %d jobs, want none", c.name, len(res.Jobs))
			}
			continue
		}
		if len(res.Jobs) != 1 {
			t.Errorf("%s: %d jobs, want 1", c.name, len(res.Jobs))
			continue
		}
		j := res.Jobs[0]
		if j.Wait != c.w.wait || j.RunTime != c.w.run || j.ReqProcs != c.w.procs {
			t.Errorf("%s: wait %d run %d procs %d, want %d %d %d", c.name, j.Wait, j.RunTime, j.ReqProcs, c.w.wait, c.w.run, c.w.procs)
		}
		if d := j.Demand; d != nil && d.Validate() != nil {
			t.Errorf("%s: demand %+v: %v", c.name, d, d.Validate())
		}
	}
}

// TestPAIInputs: a user who gives one of the two tables, another table of
// the trace, a table joined from them, or the archive as distributed gets
// an error that says what to give; -strict stops at the first odd row.
func TestPAIInputs(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"job table alone", paiFiles(t, "gpu-pai-job.csv"), "no row of pai_task_table"},
		{"task table alone", paiFiles(t, "gpu-pai-task.csv"), "no row of pai_job_table"},
		{"instance table", "j1,w,i0,wk0,id0,Terminated,1.0,2.0,m1\n", "Alibaba PAI 2020 trace other than pai_job_table and pai_task_table"},
		{"instance header", strings.Join(paiOtherTables["pai_instance_table"], ",") + "\n", "other than pai_job_table"},
		{"instance rows after", paiFiles(t, "gpu-pai-job.csv", "gpu-pai-task.csv") + "j1,w,i0,wk0,id0,Terminated,1.0,2.0,m1\n", "a line of pai_instance_table"},
		{"joined", "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type,inst_id,user,status_j,start_time_j,end_time_j\n",
			"a table joined from the Alibaba PAI 2020 trace's"},
		{"machine spec", "machine,gpu_type,cap_cpu,cap_mem,cap_gpu\nm1,T4,96,512,2\n", "other than pai_job_table"},
	} {
		_, err := GPUTrace(strings.NewReader(c.in), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	// The tables as distributed, .tar.gz: extract them first (it was
	// "binary data").
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	job := paiFiles(t, "gpu-pai-job.csv")
	tw.WriteHeader(&tar.Header{Name: "pai_job_table.csv", Mode: 0o644, Size: int64(len(job))})
	tw.Write([]byte(job))
	tw.Close()
	zw.Close()
	if _, err := GPUTrace(&tgz, Options{}); !isSaw(err, "tar") || !strings.Contains(err.Error(), "tar -xzf") {
		t.Errorf("a .tar.gz: %v", err)
	}
	// -strict: the first malformed row is the error.
	in := paiFiles(t, "gpu-pai-job.csv", "gpu-pai-task.csv") + "j1,w,-1,Terminated,1,2,1,1,1,\n"
	var pe *ParseError
	if _, err := GPUTrace(strings.NewReader(in), Options{Strict: true}); !errors.As(err, &pe) || pe.Field != "inst_num" || pe.Line != 20 {
		t.Errorf("strict: %v", err)
	}
	// Many tasks of one job (a set of their names past manyTasks): each
	// name once, a repeated one skipped.
	var many strings.Builder
	many.WriteString("j1,i1,u1,Terminated,1000.0,2000.0\n")
	for i := range 3 * manyTasks {
		fmt.Fprintf(&many, "j1,t%d,1.0,Terminated,1100.0,2000.0,100.0,1.0,100.0,V100\n", i)
	}
	many.WriteString("j1,t3,1.0,Terminated,1100.0,2000.0,100.0,1.0,100.0,V100\nj1,t40,1.0,Terminated,1100.0,2000.0,100.0,1.0,100.0,V100\n")
	if res, err := GPUTrace(strings.NewReader(many.String()), Options{}); err != nil || res.Jobs[0].ReqProcs != 3*manyTasks ||
		res.Report.Skipped[skipPAITaskAgain] != 2 || res.Report.Steps != 3*manyTasks {
		t.Errorf("many tasks: %v %+v", err, res.Report)
	}
	// The other converters name the tables.
	if _, err := Alibaba(strings.NewReader(in), Options{}); !isSaw(err, "pai") {
		t.Errorf("Alibaba on the PAI tables: %v", err)
	}
}

func isSaw(err error, saw string) bool {
	var fe *FormatError
	return errors.As(err, &fe) && fe.Saw == saw
}

// TestPAINotOtherFormats: no first line of the other formats GPUTrace
// reads, nor of a six-field CSV with a header, sniffs as PAI's.
func TestPAINotOtherFormats(t *testing.T) {
	for _, line := range []string{
		heliosHeader,
		"a,b,c,d,e,f",
		"1,2,3,Done,5,6",
		"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec",
		"job_name,inst_id,user,status,start_time", // 5 of the 6 columns
	} {
		if k := sniffPAI(line); k != "" {
			t.Errorf("sniffPAI(%q) = %q", line, k)
		}
	}
	for _, line := range []string{strings.Join(paiJobColumns, ","), strings.Join(paiTaskColumns, ","),
		"j,i,u,Terminated,1,2", "j,t,1,Waiting,,,1,1,1,"} {
		if k := sniffPAI(line); k != "pai" {
			t.Errorf("sniffPAI(%q) = %q, want pai", line, k)
		}
	}
	if !slices.Equal(paiJobColumns, []string{"job_name", "inst_id", "user", "status", "start_time", "end_time"}) {
		t.Error("the job table's columns changed")
	}
}

// TestPAIKeepsNoLine: a job row kept until the join holds no string cut
// from its line (a user's 12 bytes kept the whole line, about 130 bytes: on
// a synthetic table of 1 M jobs the peak RSS was 1.24 GB, 1.01 GB interned).
func TestPAIKeepsNoLine(t *testing.T) {
	b := newBuilder("pai", &Options{})
	p := &paiReader{g: &gpuReader{b: b}, byName: map[string]*paiEntry{}}
	line := strings.Repeat(" ", 10) + "j1,i1,u1,Killed,1000.0,2000.0"
	f, _, err := splitCSV(strings.TrimSpace(line), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.job(f, 1); err != nil || len(p.jobs) != 1 {
		t.Fatalf("%v, %d jobs", err, len(p.jobs))
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(line)))
	for _, s := range []string{p.jobs[0].name, p.jobs[0].user, p.jobs[0].state} {
		if at := uintptr(unsafe.Pointer(unsafe.StringData(s))); at >= start && at < start+uintptr(len(line)) {
			t.Errorf("%q is cut from the line", s)
		}
	}
}

// TestPAITimeNoAlloc: the trace's whole numbers ("4550879.0", "1.0") are
// read without an allocation (strconv.ParseInt's error on the fraction
// was one per time and inst_num: 16% of the instructions of a 20 k-job
// conversion), and what is not digits and ".0" reads as before.
func TestPAITimeNoAlloc(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { paiTime("4550879.0") }); n != 0 {
		t.Errorf("paiTime allocates %v times", n)
	}
	for in, want := range map[string]string{"4550879.0": "4550879", "1.0": "1", ".0": ".0", "1e3.0": "1e3.0", "-5.0": "-5.0", "1.00": "1.00", "12": "12"} {
		if got := trimPointZero(in); got != want {
			t.Errorf("trimPointZero(%q) = %q, want %q", in, got, want)
		}
	}
}
