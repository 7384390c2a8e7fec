package convert

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/swf"
)

const heliosHeader = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue"

func gpuFile(t *testing.T, name string, opt Options) *Result {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := GPUTrace(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	checkAccounts(t, name, res.Report, len(res.Jobs))
	return res
}

// checkAccounts checks that every record is a job, skipped, or (PAI) a
// task joined to its job (Steps).
func checkAccounts(t *testing.T, name string, rep Report, jobs int) {
	t.Helper()
	skipped := 0
	for _, n := range rep.Skipped {
		skipped += n
	}
	if rep.Records != rep.Jobs+rep.Steps+skipped || rep.Jobs != jobs {
		t.Errorf("%s: report does not add up: %+v", name, rep)
	}
}

// TestGPUTraceFixtures checks each hand-written table against what its
// rows say: waits and run times from the times, GPUs as processors, the
// demand per node, the statuses of the doc's table.
func TestGPUTraceFixtures(t *testing.T) {
	type want struct {
		id                 string
		wait, run, procs   int64
		status             swf.Status
		nodes, cores, gpus int64
		mem                int64
	}
	for _, c := range []struct {
		file, format string
		records      int
		jobs         []want
		skipped      map[string]int
	}{
		{"gpu-helios.csv", "helios", 8, []want{
			{"3100201", 4, 9000, 8, 1, 1, 48, 8000, 0},
			{"3100202", 700, 200, 16, 0, 2, 48, 8000, 0},
			{"3100203", 0, 1200, 0, 1, 1, 4, 0, 0},         // a CPU job
			{"3100204", 20, 3600, 1, 5, 1, 6, 1000, 0},     // cancelled while running
			{"3100205", -1, -1, -1, 5, 1, 24, 4000, 0},     // cancelled pending: start = end
			{"3100206", 60, 86400, 2, 0, 1, 12, 2000, 0},   // TIMEOUT
			{"3100207", 30, 3600, 1, 0, 1, 3, 1000, 0},     // NODE_FAIL
			{"3100208", 540, 14400, 12, 1, 2, 32, 6000, 0}, // 12 GPUs, 64 CPUs on 2 nodes
		}, nil},
		{"gpu-acme-seren.csv", "acme", 4, []want{
			{"6120001", 200, 21600, 32, 1, 4, 128, 8000, 0},
			{"6120002", 5, 60, 8, 0, 1, 128, 8000, 0},
			{"6120003", 40, 600, 1, 5, 1, 16, 1000, 0},
			{"6120004", 0, 60, 0, 1, 1, 8, 0, 0},
		}, nil},
		{"gpu-acme-kalos.csv", "acme", 4, []want{
			{"dlc5k2m9q1w7e3r4", 12, 21600, 64, 1, 8, 120, 8000, 1000 * 1024},
			{"dlc8h4j6k2l9m1n5", 9, 600, 8, 0, 1, 120, 8000, 500 * 1024},
			{"dlc3p7q2r8s4t6u1", 30, 600, 4, 5, 1, 60, 4000, 250 * 1024},
		}, map[string]int{"not finished at dump (RUNNING)": 1}},
		{"gpu-philly.json", "philly", 5, []want{
			{"application_1506638472019_20001", 40, 7310, 4, 1, 1, 0, 4000, 0}, // two attempts: first start to last end
			{"application_1506638472019_20002", 540, 1800, 16, 0, 2, 0, 8000, 0},
			{"application_1506638472019_20003", -1, -1, -1, 5, -1, -1, -1, -1}, // no attempt: no demand
			{"application_1506638472019_20004", 10, 3600, 1, 5, 1, 0, 1000, 0},
			{"application_1506638472019_20005", 60, -1, 2, 1, 1, 0, 2000, 0}, // Pass without end_time: "no end time"
		}, nil},
	} {
		res := gpuFile(t, c.file, Options{})
		rep := res.Report
		if rep.Format != c.format || rep.Records != c.records || len(res.Jobs) != len(c.jobs) || len(rep.Skipped) != len(c.skipped) {
			t.Errorf("%s: %+v", c.file, rep)
			continue
		}
		for k, n := range c.skipped {
			if rep.Skipped[k] != n {
				t.Errorf("%s: skipped %q %d, want %d", c.file, k, rep.Skipped[k], n)
			}
		}
		for k, w := range c.jobs {
			j := res.Jobs[k]
			alloc := w.procs
			if w.wait < 0 {
				alloc = -1
			}
			req := w.procs
			if w.wait < 0 && w.status == swf.StatusCancelled && w.nodes > 0 {
				req = w.gpus / 1000 * w.nodes
			}
			if res.IDs[k] != w.id || j.Wait != w.wait || j.RunTime != w.run || j.AllocProcs != alloc || j.ReqProcs != req ||
				j.Status != w.status || j.ReqTime != -1 {
				t.Errorf("%s job %d: %+v, want %+v", c.file, k+1, j, w)
			}
			d := j.Demand
			switch {
			case w.nodes < 0:
				if d != nil {
					t.Errorf("%s job %d: demand %+v, want none", c.file, k+1, d)
				}
			case d == nil || d.Nodes != w.nodes || d.Cores != w.cores || d.GPUs != w.gpus || d.Memory != w.mem:
				t.Errorf("%s job %d: demand %+v, want %+v", c.file, k+1, d, w)
			}
		}
	}
}

// TestGPUTraceZones: Helios and Philly times are read in
// Options.Location; Acme's carry their offset, whatever the Location.
func TestGPUTraceZones(t *testing.T) {
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		file  string
		shift int64
	}{{"gpu-helios.csv", -8 * 3600}, {"gpu-philly.json", -8 * 3600}, {"gpu-acme-seren.csv", 0}} {
		utc := gpuFile(t, c.file, Options{})
		local := gpuFile(t, c.file, Options{Location: sh})
		if got := local.Header.UnixStartTime - utc.Header.UnixStartTime; got != c.shift {
			t.Errorf("%s: start moved %d s, want %d", c.file, got, c.shift)
		}
	}
	if got := gpuFile(t, "gpu-acme-seren.csv", Options{}).Header.UnixStartTime; got != 1680400800 { // 2023-04-02 10:00:00+08:00
		t.Errorf("seren's first submit %d", got)
	}
	for in, want := range map[string]int64{
		"2023-04-02 10:00:00+08:00": 1680400800, "2023-04-02 02:00:00Z": 1680400800, "2023-04-02 02:00:00.75": 1680400800,
		"2023-04-02 10:00:00.5+08:00": 1680400800, "None": -1, "": -1,
	} {
		if got, err := parseGPUTime(in, time.UTC); got != want || err != nil {
			t.Errorf("parseGPUTime(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"2023-04-02T10:00:00", "1680400800", "2023-04-02 10:00", "1969-12-31 23:59:59", "2200-01-01 00:00:01"} {
		if _, err := parseGPUTime(in, time.UTC); err == nil {
			t.Errorf("parseGPUTime(%q) reads", in)
		}
	}
}

// TestGPUTraceFormats: each converter names the GPU tables, GPUTrace
// names what it is given instead.
func TestGPUTraceFormats(t *testing.T) {
	helios, _ := os.ReadFile("testdata/gpu-helios.csv")
	philly, _ := os.ReadFile("testdata/gpu-philly.json")
	sacct, _ := os.ReadFile("testdata/sacct-parsable2.txt")
	for _, c := range []struct {
		name      string
		conv      func() error
		want, saw string
	}{
		{"sacct on helios", func() error { _, err := Sacct(bytes.NewReader(helios), Options{}); return err }, "sacct", "helios"},
		{"alibaba on helios", func() error { _, err := Alibaba(bytes.NewReader(helios), Options{}); return err }, "alibaba", "helios"},
		{"nodes on helios", func() error { _, _, err := Nodes(bytes.NewReader(helios), Options{}); return err }, "nodes", "helios"},
		{"alibaba on helios after a blank line", func() error {
			_, err := Alibaba(io.MultiReader(strings.NewReader("\n"), bytes.NewReader(helios)), Options{})
			return err
		}, "alibaba", "helios"},
		{"sacct-json on philly", func() error { _, err := SacctJSON(bytes.NewReader(philly), Options{}); return err }, "sacct-json", "philly"},
		{"gpu on sacct", func() error { _, err := GPUTrace(bytes.NewReader(sacct), Options{}); return err }, "gpu", "sacct"},
		{"gpu on alibaba", func() error {
			_, err := GPUTrace(strings.NewReader(podHeader+"\na,1,1,0,0,,LS,Succeeded,1,2,1\n"), Options{})
			return err
		}, "gpu", "alibaba"},
		{"gpu on other JSON", func() error { _, err := GPUTrace(strings.NewReader(`[{"a":1}]`), Options{}); return err }, "gpu", "json"},
		{"gpu on an object", func() error {
			_, err := GPUTrace(strings.NewReader(`{"submitted_time":"2017-10-10 14:00:00"}`), Options{})
			return err
		}, "gpu", "json"},
		{"gpu on text", func() error { _, err := GPUTrace(strings.NewReader("hello\n"), Options{}); return err }, "gpu", ""},
		{"gpu on malformed rows", func() error {
			_, err := GPUTrace(strings.NewReader(heliosHeader+"\n1,u,v,x,1,1,COMPLETED,2020-07-01 09:00:00,,,,\n"), Options{})
			return err
		}, "gpu", ""},
	} {
		var fe *FormatError
		if err := c.conv(); !errors.As(err, &fe) || fe.Want != c.want || fe.Saw != c.saw {
			t.Errorf("%s: %v (%+v), want a FormatError wanting %q, saw %q", c.name, err, fe, c.want, c.saw)
		} else if c.saw != "" && c.want != "gpu" && !strings.Contains(err.Error(), "convert.GPUTrace") {
			t.Errorf("%s: %v does not name GPUTrace", c.name, err)
		}
	}
}

// TestGPUTraceMalformed: unreadable values are skipped or set to -1 and
// counted; past the plausible is unreadable; Strict stops at the first.
func TestGPUTraceMalformed(t *testing.T) {
	in := heliosHeader + "\n" +
		"1,u,v,1,1,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:05,2020-07-01 09:01:05,60,5\n" +
		"2,u,v,1,1,1,COMPLETED,2201-01-01 00:00:00,2020-07-01 09:00:05,2020-07-01 09:01:05,60,5\n" + // submit past 2200
		"3,u,v,-1,1,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:05,2020-07-01 09:01:05,60,5\n" + // negative GPUs
		"4,u,v,99999999999,1,1,COMPLETED,2020-07-01 09:00:00,,,,\n" + // GPUs past 2^24
		"5,u,v,1,1,1,COMPLETED,,2020-07-01 09:00:05,2020-07-01 09:01:05,60,5\n" + // no submit
		"6,u,v,1,1,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:05,yesterday,75,5\n" + // end unreadable: duration
		"7,u,v,1,1,,RUNNING,2020-07-01 09:00:00,2020-07-01 09:00:05,,,5\n" +
		"8,u,v,1,1,,WEIRD,2020-07-01 09:00:00,2020-07-01 09:00:05,2020-07-01 09:00:04,,5\n" +
		heliosHeader + "\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	checkAccounts(t, "malformed", rep, len(res.Jobs))
	if rep.Skipped[skipMalformed] != 3 || rep.Skipped[skipNoSubmit] != 1 || rep.Skipped["not finished at dump (RUNNING)"] != 1 ||
		rep.Skipped["repeated header line"] != 1 || len(res.Jobs) != 3 {
		t.Fatalf("%+v", rep)
	}
	if rep.Anomalies["unreadable end_time"] != 1 || res.Jobs[1].RunTime != 75 || rep.Anomalies[noteUnknownState] != 1 ||
		rep.Anomalies[noteEndBefore] != 1 || rep.Anomalies[noteNoNodes] != 1 || res.Jobs[2].Status != swf.StatusUnknown {
		t.Errorf("%+v\n%+v", rep, res.Jobs)
	}
	_, err = GPUTrace(strings.NewReader(in), Options{Strict: true})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(pe.Field, "submit_time") {
		t.Errorf("strict: %v", err)
	}
	// A line over 1 MiB is a malformed record, not held whole.
	res, err = GPUTrace(strings.NewReader(heliosHeader+"\n1,u,"+strings.Repeat("v", 2<<20)+",1,1,1,COMPLETED,2020-07-01 09:00:00,,,,\n"+
		"2,u,v,1,1,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:05,2020-07-01 09:01:05,60,5\n"), Options{})
	if err != nil || res.Report.Skipped[skipMalformed] != 1 || len(res.Jobs) != 1 {
		t.Errorf("long line: %v %+v", err, res)
	}
	// Philly: a first job of many attempts is still told from its keys.
	many := `{"start_time":"2017-10-10 14:00:01","end_time":"2017-10-10 14:00:02","detail":[{"ip":"m1","gpus":["gpu0"]}]}`
	many = strings.Repeat(many+",", 1000) + many
	res, err = GPUTrace(strings.NewReader(`[{"status":"Pass","jobid":"a","attempts":[`+many+`],"submitted_time":"2017-10-10 14:00:00"}]`), Options{})
	if err != nil || len(res.Jobs) != 1 || res.Report.Anomalies[noteAttempts] != 1 {
		t.Errorf("many attempts: %v %+v", err, res)
	}
	// Philly: a job of the wrong shape is skipped; a broken list stops.
	res, err = GPUTrace(strings.NewReader(`[{"submitted_time":"2017-10-10 14:00:00","status":"Pass","attempts":"x"},`+
		`{"submitted_time":"2017-10-10 14:00:00","status":"Pass","jobid":"a","attempts":[{"start_time":"2017-10-10 14:00:01","end_time":"2017-10-10 14:00:02","detail":[]}]}]`), Options{})
	if err != nil || res.Report.Skipped[skipMalformed] != 1 || len(res.Jobs) != 1 {
		t.Errorf("philly: %v %+v", err, res)
	}
	if _, err := GPUTrace(strings.NewReader(`[{"submitted_time":"2017-10-10 14:00:00"`), Options{}); !errors.As(err, &pe) {
		t.Errorf("philly cut: %v", err)
	}
}

// FuzzGPUTrace checks GPUTrace on any input: no panic; when it succeeds,
// every record accounted for, jobs in submit order within bounds, valid
// demands, and an SWF form that reads back.
func FuzzGPUTrace(f *testing.F) {
	for _, name := range []string{"gpu-helios.csv", "gpu-acme-seren.csv", "gpu-acme-kalos.csv", "gpu-philly.json"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	pai := slices.Concat(must(os.ReadFile("testdata/gpu-pai-task.csv")), must(os.ReadFile("testdata/gpu-pai-job.csv")))
	f.Add(pai)
	f.Add([]byte("j,i,u,Terminated,1e9,nan\nj,t,16777216,x,-0,1,1e300,NaN,167772160000,V100\nj,t2,99,,5.5,,1,1,150.5,\n,,,,,\n"))
	f.Add([]byte(heliosHeader + "\n1,u,v,1e3,0.5,0,cancelled,2020-07-01 09:00:00+14:00,NaT,None,-1,\n\"x,1\n"))
	f.Add([]byte(`[{"submitted_time":"2017-10-10 14:00:00","attempts":[{"start_time":null,"end_time":"None"}]},{}]`))
	f.Add([]byte(`[{"status":"Pass","submitted_time":"1970-01-01 00:00:00","attempts":[]},{"status":"Pass","submitted_time":"2017-10-10 14:00:00",` +
		`"attempts":[{"start_time":"1989-12-31 23:59:59","end_time":""}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := GPUTrace(bytes.NewReader(data), Options{})
		if err != nil {
			return
		}
		checkAccounts(t, "fuzz", res.Report, len(res.Jobs))
		for k, j := range res.Jobs {
			if j.ID != int64(k+1) || j.Submit < 0 || k > 0 && j.Submit < res.Jobs[k-1].Submit ||
				j.AllocProcs > maxProcs || j.ReqProcs > maxProcs || j.Submit > maxTime || j.Wait > maxTime || j.RunTime > maxTime {
				t.Fatalf("job %d: %+v", k+1, j)
			}
			if d := j.Demand; d != nil && d.Validate() != nil {
				t.Fatalf("job %d: demand %+v", k+1, d)
			}
		}
		var buf bytes.Buffer
		if err := swf.WriteAll(&buf, res.Header, res.Jobs); err != nil {
			t.Fatal(err)
		}
		jobs, err := swf.NewReader(&buf).ReadAll()
		if err != nil || !sameJobs(jobs, res.Jobs) {
			t.Fatalf("SWF form does not read back: %v\n%s", err, buf.Bytes())
		}
	})
}

// TestGPUTracePhillyLines: a Philly job's line is where its object
// starts (CRLF or not), in the IDs of jobs without one and in errors.
func TestGPUTracePhillyLines(t *testing.T) {
	job := `{"status":"Pass","attempts":[{"start_time":"2017-10-10 14:00:01","end_time":"2017-10-10 14:00:02",` + "\n" +
		`"detail":[{"ip":"m1","gpus":["gpu0"]}]}],"submitted_time":"2017-10-10 14:00:0%d"}`
	in := "[\n" + fmt.Sprintf(job, 1) + ",\n\n" + fmt.Sprintf(job, 2) + ", " + fmt.Sprintf(job, 3) + ",\n" + `{"attempts":"x"}` + "\n]\n"
	for _, nl := range []string{"\n", "\r\n"} {
		res, err := GPUTrace(strings.NewReader(strings.ReplaceAll(in, "\n", nl)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.IDs, []string{"line 2", "line 5", "line 6"}) || len(res.Report.Errors) != 1 || res.Report.Errors[0].Line != 8 {
			t.Errorf("%q: IDs %v, errors %v", nl, res.IDs, res.Report.Errors)
		}
	}
	var pe *ParseError
	if _, err := GPUTrace(strings.NewReader("[\n"+fmt.Sprintf(job, 1)+",\n\n{\"status\": x}]"), Options{}); !errors.As(err, &pe) || pe.Line != 5 {
		t.Errorf("syntax error: %v", err)
	}
}

// TestGPUTracePhillyLargeJob: one large job does not make the jobs after
// it cost its size each (their lines were counted in all the bytes the
// decoder held ahead, copied at every job: 3,000 jobs after one of 4 MB
// allocated 24 GB).
func TestGPUTracePhillyLargeJob(t *testing.T) {
	att := `{"start_time":"2017-10-10 14:00:01","end_time":"2017-10-10 14:00:02","detail":[{"ip":"m1","gpus":["gpu0"]}]}`
	small := `{"status":"Pass","jobid":"j","attempts":[` + att + `],"submitted_time":"2017-10-10 14:00:00"}`
	in := `[{"status":"Pass","jobid":"big","attempts":[` + strings.Repeat(att+",\n", 40000) + att + `],"submitted_time":"2017-10-10 14:00:00"}` +
		strings.Repeat(",\n"+small, 3000) + "]"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := GPUTrace(strings.NewReader(in), Options{})
	runtime.ReadMemStats(&after)
	if err != nil || len(res.Jobs) != 3001 {
		t.Fatalf("%v %+v", err, res.Report)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 20*uint64(len(in)) {
		t.Errorf("allocated %d bytes for %d bytes of input", alloc, len(in))
	}
}

// TestGPUTraceKalosMemory: mem_per_pod_GB is GiB per node, converted to
// MiB before rounding; a negative, unit-bearing or huge value is a
// malformed row.
func TestGPUTraceKalosMemory(t *testing.T) {
	in := "job_id,user,node_num,gpu_num,cpu_num,mem_per_pod_GB,type,state,submit_time,start_time,end_time,duration\n"
	for _, m := range []string{"0.5", "1000.0", "0.3", "", "-1", "2G", "1e3", "NaN", "99999999999"} {
		in += "j" + m + ",u,2,16,240," + m + ",SFT,COMPLETED,2023-06-10 02:00:00+00:00,2023-06-10 02:00:12+00:00,2023-06-10 02:10:12+00:00,600\n"
	}
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, j := range res.Jobs {
		got = append(got, j.Demand.Memory)
	}
	if !slices.Equal(got, []int64{512, 1024000, 308, 0}) || res.Report.Skipped[skipMalformed] != 5 {
		t.Errorf("memory %v, report %+v", got, res.Report)
	}
}

// TestGPUTraceOrder: jobs come out in submit order (ties in row order),
// a reused job id is kept and counted, queue and executable are vc and
// type numbered in order of first use, a row without node_num asks one
// node, and Philly's "None" end of a last attempt is a job still running.
func TestGPUTraceOrder(t *testing.T) {
	in := "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n" +
		"a,u1,vcB,1,2,,COMPLETED,2020-07-01 09:05:00,2020-07-01 09:05:01,2020-07-01 09:06:01,60,1\n" +
		"b,u2,vcA,2,4,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:02,2020-07-01 09:01:02,60,2\n" +
		"a,u2,vcA,4,8,1,FAILED,2020-07-01 09:05:00,2020-07-01 09:05:03,2020-07-01 09:06:03,60,3\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var waits, queues, users, nodes []int64
	for _, j := range res.Jobs {
		waits, queues, users, nodes = append(waits, j.Wait), append(queues, j.Queue), append(users, j.User), append(nodes, j.Demand.Nodes)
	}
	if !slices.Equal(res.IDs, []string{"b", "a", "a"}) || !slices.Equal(waits, []int64{2, 1, 3}) || !slices.Equal(queues, []int64{1, 2, 1}) ||
		!slices.Equal(users, []int64{1, 2, 1}) || !slices.Equal(nodes, []int64{1, 1, 1}) ||
		res.Report.Anomalies[noteIDReused] != 1 || res.Report.Anomalies[noteNoNodes] != 1 {
		t.Errorf("IDs %v waits %v queues %v users %v nodes %v, report %+v", res.IDs, waits, queues, users, nodes, res.Report)
	}
	acme := "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n" +
		"1,u,1,1,1,SFT,COMPLETED,2023-04-02 10:00:00+08:00,2023-04-02 10:00:00+08:00,2023-04-02 10:01:00+08:00,60,0,60\n" +
		"2,u,1,1,1,Eval,COMPLETED,2023-04-02 10:00:01+08:00,2023-04-02 10:00:01+08:00,2023-04-02 10:01:00+08:00,59,0,59\n" +
		"3,u,1,1,1,SFT,COMPLETED,2023-04-02 10:00:02+08:00,2023-04-02 10:00:02+08:00,2023-04-02 10:01:00+08:00,58,0,58\n"
	if res, err = GPUTrace(strings.NewReader(acme), Options{}); err != nil {
		t.Fatal(err)
	}
	var exes []int64
	for _, j := range res.Jobs {
		exes = append(exes, j.Executable)
	}
	if !slices.Equal(exes, []int64{1, 2, 1}) || res.Jobs[0].Queue != -1 {
		t.Errorf("executables %v, queue %d", exes, res.Jobs[0].Queue)
	}
	// (Running: a Pass job without an end_time ended, TestPhillyEndedWithoutEndTime)
	philly := `[{"status":"Running","jobid":"x","submitted_time":"2017-10-10 14:00:00","attempts":[` +
		`{"start_time":"2017-10-10 14:00:01","end_time":"2017-10-10 14:00:02","detail":[]},{"start_time":"2017-10-10 14:00:03","end_time":"None","detail":[]}]}]`
	if res, err = GPUTrace(strings.NewReader(philly), Options{}); err != nil || len(res.Jobs) != 0 ||
		res.Report.Skipped[skipUnfinished+" (no end_time on the last attempt)"] != 1 {
		t.Errorf("philly None: %v %+v", err, res)
	}
	philly = `[{"status":"Pass","jobid":"x","submitted_time":"2017-10-10 14:00:00","attempts":[` +
		`{"start_time":null,"end_time":"2017-10-10 14:00:02","detail":[]},{"start_time":"2017-10-10 14:00:03","end_time":"2017-10-10 14:00:09","detail":[]}]}]`
	if res, err = GPUTrace(strings.NewReader(philly), Options{}); err != nil || len(res.Jobs) != 1 || res.Jobs[0].Wait != 3 ||
		res.Jobs[0].RunTime != 6 || res.Report.Anomalies[noteNoAttStart] != 1 {
		t.Errorf("philly first attempt without start: %v %+v", err, res)
	}
}

// TestGPUTraceWidth: a row of another field count than the header's is
// read, noted and reported among the errors, and Strict refuses it, as
// the Alibaba readers do (the three share csvRow).
func TestGPUTraceWidth(t *testing.T) {
	in := heliosHeader + "\n" +
		"1,u,v,1,1,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:05,2020-07-01 09:01:05,60,5,extra\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil || len(res.Jobs) != 1 || len(res.Report.Errors) != 1 {
		t.Fatalf("lenient: %v, %+v", err, res)
	}
	_, err = GPUTrace(strings.NewReader(in), Options{Strict: true})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(pe.Err.Error(), "13 fields, the header has 12") {
		t.Errorf("strict: %v", err)
	}
}
