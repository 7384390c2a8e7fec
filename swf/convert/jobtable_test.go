package convert

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// genericMap reads testdata/table-generic.tsv, a sacct-derived table of
// a site's own column names (tab separated, ids quoted, one with a
// comma), its limits in minutes or HH:MM:SS.
var genericMap = map[string]string{"id": "JobID", "submit": "submitted", "start": "Started", "end": "Ended",
	"nodes": "Nodes", "limit": "Wall:min", "user": "User", "group": "Account", "queue": "Partition", "state": "Result"}

// convertTable runs GPUTrace on a testdata file and checks the Report
// adds up (requeued attempts included).
func convertTable(t *testing.T, name string, opt Options) *Result {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := GPUTrace(f, opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkTableAccounts(t, name, res.Report, len(res.Jobs))
	return res
}

func checkTableAccounts(t *testing.T, name string, rep Report, jobs int) {
	t.Helper()
	skipped := 0
	for _, n := range rep.Skipped {
		skipped += n
	}
	if rep.Records != rep.Jobs+rep.Steps+rep.Requeued+skipped || rep.Jobs != jobs {
		t.Errorf("%s: report does not add up: %+v", name, rep)
	}
}

// TestJobTables checks each hand-written table, in the column layout of
// its schema, against what its rows say.
func TestJobTables(t *testing.T) {
	type job struct {
		id                          string
		submit, wait, run, procs    int64
		req, limit                  int64
		status                      swf.Status
		nodes, cores, memMiB, gpusK int64 // the demand (0: none)
	}
	for _, c := range []struct {
		file, format string
		opt          Options
		jobs         []job
		anomalies    map[string]int
		skipped      map[string]int
	}{
		{"table-supercloud.csv", "supercloud", Options{}, []job{
			// Epoch seconds; timelimit in minutes; GPUs from TRES 1002,
			// memory from TRES 2 (MB) over nodes_alloc.
			{"101", 0, 60, 3600, 40, 40, 720 * 60, 1, 1, 40, 384000, 2000},
			// state 5 FAILED; 2 nodes of 48 cores, 96000 MB each.
			{"102", 100, 100, 100, 96, 96, 3600, 0, 2, 48, 96000, 0},
			// CANCELLED pending (time_start 0); INFINITE limit; TRES
			// 1001 (gpu:tesla), its node from TRES 4.
			{"103", 200, -1, -1, -1, 20, -1, 5, 1, 20, 0, 1000},
			// TIMEOUT (6).
			{"104", 300, 100, 1800, 48, 48, 1800, 0, 1, 48, 96000, 0},
			// A state word; NO_VAL: the partition's limit.
			{"106", 500, 10, 60, 8, 8, -1, 1, 1, 8, 0, 0},
		}, map[string]int{noteUnlimited: 1, notePartLimit: 1, noteTimeout: 1, noteNoReqMem: 2},
			map[string]int{skipUnfinished + " (PENDING)": 1}},
		{"table-alcf.csv", "alcf", Options{}, []job{
			// Timestamps; WALLTIME_SECONDS; EXIT_STATUS 0.
			{"1", 0, 600, 3600, 8192, 8192, 7200, 1, 128, 64, 0, 0},
			// A fraction of a second dropped (noted); no CORES_USED and no
			// Options.CoresPerNode: processors unknown, not guessed.
			{"2", 300, 60, 600, -1, -1, 3600, 0, 8, 0, 0, 0},
			// "0.0" exit status; RUNTIME_SECONDS agrees with the times.
			{"3", 1200, 600, 90, 1024, 1024, 1800, 1, 16, 64, 0, 0},
		}, map[string]int{noteProcsNodesOnly: 1, noteNoAlloc: 1, noteTimeFraction: 1}, map[string]int{}},
		{"table-alcf.csv", "alcf", Options{CoresPerNode: 64}, []job{
			{"1", 0, 600, 3600, 8192, 8192, 7200, 1, 128, 64, 0, 0},
			{"2", 300, 60, 600, 512, 512, 3600, 0, 8, 64, 0, 0},
			{"3", 1200, 600, 90, 1024, 1024, 1800, 1, 16, 64, 0, 0},
		}, map[string]int{noteProcsFromNodes: 1, noteTimeFraction: 1}, map[string]int{}},
		{"table-generic.tsv", "table", Options{CoresPerNode: 56, ColumnMap: genericMap}, []job{
			// RFC 3339 with Z; "02:00:00" as a duration.
			{"f1", 0, 300, 3600, 112, 112, 7200, 1, 2, 56, 0, 0},
			// Epoch seconds; 30 minutes.
			{"f2", 600, 300, 300, 56, 56, 1800, 0, 1, 56, 0, 0},
			// "YYYY-MM-DD HH:MM:SS"; cancelled pending.
			{"f3, late", 1200, -1, -1, -1, 224, 3600, 5, 4, 56, 0, 0},
		}, map[string]int{noteProcsFromNodes: 3, noteTimeout: 1}, map[string]int{}},
	} {
		name := c.file + "/" + c.format
		res := convertTable(t, c.file, c.opt)
		if res.Report.Format != c.format {
			t.Errorf("%s: format %q", name, res.Report.Format)
		}
		if !maps.Equal(res.Report.Anomalies, c.anomalies) || !maps.Equal(res.Report.Skipped, c.skipped) {
			t.Errorf("%s: anomalies %v skipped %v, want %v %v", name, res.Report.Anomalies, res.Report.Skipped, c.anomalies, c.skipped)
		}
		if len(res.Jobs) != len(c.jobs) {
			t.Fatalf("%s: %d jobs, want %d", name, len(res.Jobs), len(c.jobs))
		}
		for k, w := range c.jobs {
			j := res.Jobs[k]
			var got job
			got.id, got.submit, got.wait, got.run, got.procs = res.IDs[k], j.Submit, j.Wait, j.RunTime, j.AllocProcs
			got.req, got.limit, got.status = j.ReqProcs, j.ReqTime, j.Status
			if d := j.Demand; d != nil {
				got.nodes, got.cores, got.memMiB, got.gpusK = d.Nodes, d.Cores, d.Memory, d.GPUs
			}
			if got != w {
				t.Errorf("%s: job %d:\n got %+v\nwant %+v", name, k+1, got, w)
			}
		}
	}
}

// TestJobTableTimes: each time is read as epoch seconds or a timestamp,
// counted in a Report note; a time before 1990 or after 2200, a count
// past 2^24 and a limit past 2^40 s are unreadable, never wrapped.
func TestJobTableTimes(t *testing.T) {
	in := "id_job,time_submit,time_start,time_end,cpus_alloc,nodes_alloc,timelimit,state\n" +
		"1,1700000000,1700000010.5,2023-11-14 22:13:40,4,1,10,3\n" +
		"2,99999999999,1700000010,1700000020,4,1,10,3\n" +
		"3,1700000000,12,1700000020,99999999999999999999,1,10,3\n" +
		"4,1700000000,1700000010,1700000020,4,1,9223372036854775807,3\n" +
		"5,1700000000,1700000010,1700000020,4,1,1e300,3\n" +
		"6,1700000000,1700000010,1700000020,4,1,1210000000,3\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "times", res.Report, len(res.Jobs))
	want := map[string]int{"unreadable start": 1, "unreadable procs": 1, "unreadable limit": 3, noteNeverStarted: 1, noteProcsNodesOnly: 1,
		noteTimeFraction: 1} // (1700000010.5)
	if !maps.Equal(res.Report.Anomalies, want) || res.Report.Skipped[skipMalformed] != 1 {
		t.Errorf("anomalies %v skipped %v, want %v and 1 malformed", res.Report.Anomalies, res.Report.Skipped, want)
	}
	if note := res.Report.Notes[len(res.Report.Notes)-1]; !strings.Contains(note, "times: 13 read as epoch seconds, 1 as timestamps") {
		t.Errorf("note %q", note)
	}
	if j := res.Jobs[0]; j.Wait != 10 || j.RunTime != 10 {
		t.Errorf("job 1: %+v", j)
	}
	for _, j := range res.Jobs {
		if j.ReqTime > maxTime || j.AllocProcs > maxProcs || j.Submit > maxTime {
			t.Errorf("a value past the plausible kept: %+v", j)
		}
	}
}

// TestJobTableRefusals: a ColumnMap naming a column the header lacks, or
// a role it does not know, is an error; an input of another kind is a
// *FormatError, a ColumnMap or not.
func TestJobTableRefusals(t *testing.T) {
	_, err := GPUTrace(strings.NewReader("a,b\n1,2\n"), Options{ColumnMap: map[string]string{"submit": "c"}})
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "submit=c") {
		t.Errorf("missing column: %v", err)
	}
	for _, m := range []map[string]string{{"start": "a"}, {"submit": "a", "wait": "b"}, {"submit": "a", "procs": "b:min"}, {"submit": " "}} {
		if _, err := GPUTrace(strings.NewReader("a,b\n1,2\n"), Options{ColumnMap: m}); err == nil || !strings.Contains(err.Error(), "ColumnMap") {
			t.Errorf("%v: %v", m, err)
		}
	}
	if err := (&Options{CoresPerNode: -1}).Validate(); err == nil {
		t.Error("CoresPerNode -1 valid")
	}
	for _, in := range []string{`{"jobs":[{"job_state":"RUNNING"}]}`, string(must(os.ReadFile("testdata/sacct-parsable2.txt"))), "\x89PNG\r\n\x1a\n"} {
		for _, opt := range []Options{{}, {ColumnMap: map[string]string{"submit": "x"}}} {
			_, err := GPUTrace(strings.NewReader(in), opt)
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Saw == "" {
				t.Errorf("%.20q %v: %v", in, opt.ColumnMap, err)
			}
		}
	}
	// The schemas' own formats are refused by the other converters.
	for _, file := range []string{"table-supercloud.csv", "table-alcf.csv"} {
		data, _ := os.ReadFile("testdata/" + file)
		_, err := Sacct(bytes.NewReader(data), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || readsWith[fe.Saw] != "GPUTrace" {
			t.Errorf("Sacct(%s): %v", file, err)
		}
	}
}

// TestJobTableRecordsAgain: a row listed twice (overlapping dumps) is
// skipped, an id reused by another job kept and noted.
func TestJobTableRecordsAgain(t *testing.T) {
	row := "7,1700000000,1700000010,1700000020,4,1,10,3\n"
	in := "id_job,time_submit,time_start,time_end,cpus_alloc,nodes_alloc,timelimit,state\n" + row + row +
		"7,1700000100,1700000110,1700000120,4,1,10,3\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "again", res.Report, len(res.Jobs))
	if len(res.Jobs) != 2 || res.Report.Skipped[skipDuplicate] != 1 || res.Report.Anomalies[noteIDReused] != 1 {
		t.Errorf("%d jobs, %+v", len(res.Jobs), res.Report)
	}
}

func FuzzJobTable(f *testing.F) {
	for _, name := range []string{"table-supercloud.csv", "table-alcf.csv", "table-generic.tsv"} {
		f.Add(must(os.ReadFile("testdata/"+name)), name == "table-generic.tsv")
	}
	f.Add([]byte("id_job,time_submit,tres_req,nodes_alloc\n1,1700000000,\"1=9,2=99999999999999,4=16777216,1002=9999999999\",16777216\n"), false)
	f.Add([]byte("QUEUED_TIMESTAMP,START_TIMESTAMP,NODES_USED,EXIT_STATUS\n2023-01-01T00:00:00+14:00,2023-01-01 00:00:00.,1e9,-1\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, mapped bool) {
		opt := Options{CoresPerNode: 1 << 24}
		if mapped {
			opt.ColumnMap = genericMap
		}
		res, err := GPUTrace(bytes.NewReader(data), opt)
		if err != nil {
			return
		}
		checkTableAccounts(t, "fuzz", res.Report, len(res.Jobs))
		for k, j := range res.Jobs {
			if j.ID != int64(k+1) || j.Submit < 0 || k > 0 && j.Submit < res.Jobs[k-1].Submit ||
				j.AllocProcs > maxProcs || j.ReqProcs > maxProcs || j.Submit > maxTime || j.Wait > maxTime ||
				j.RunTime > maxTime || j.ReqTime > maxTime {
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

// TestSeparatorQuotedTabs: a comma file whose header has a quoted column
// name holding tabs is still a comma file (sepOf counted those tabs:
// Helios's table with such a column was "not a GPU cluster trace").
func TestSeparatorQuotedTabs(t *testing.T) {
	data := string(must(os.ReadFile("testdata/gpu-helios.csv")))
	want, err := GPUTrace(strings.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	header, rows, _ := strings.Cut(data, "\n")
	var b strings.Builder
	b.WriteString(header + `,"note` + strings.Repeat("\t", 20) + `"` + "\n")
	for row := range strings.Lines(rows) {
		b.WriteString(strings.TrimRight(row, "\n") + ",x\n")
	}
	got, err := GPUTrace(strings.NewReader(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !sameJobs(got.Jobs, want.Jobs) {
		t.Errorf("jobs differ with a quoted header column of tabs")
	}
	if sepOf("a\tb\t\"c,d,e\"") != '\t' {
		t.Error("a TSV header with a quoted comma column read as CSV")
	}
}

// TestJobTableOtherHeader: tables concatenated (several inputs) each
// with its header. A header of the same table in another column order
// applies from there on (it was a malformed record, and the rows behind
// it read by the first header's positions: cpus_req and cpus_alloc
// swapped, silently); a comma table then a tab one, alike; another
// table's header, or one without a mapped column, is an error.
func TestJobTableOtherHeader(t *testing.T) {
	in := "id_job,state,cpus_req,cpus_alloc,time_submit,time_start,time_end\n" +
		"1,3,8,4,1700000000,1700000010,1700000100\n" +
		"id_job,state,cpus_alloc,cpus_req,time_submit,time_start,time_end\n" +
		"2,3,4,8,1700000000,1700000010,1700000100\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "permuted", res.Report, len(res.Jobs))
	if len(res.Jobs) != 2 || res.Report.Skipped["another header line"] != 1 {
		t.Fatalf("%d jobs, %+v", len(res.Jobs), res.Report)
	}
	for _, j := range res.Jobs {
		if j.AllocProcs != 4 || j.ReqProcs != 8 {
			t.Errorf("job %d: allocated %d requested %d, want 4 and 8", j.ID, j.AllocProcs, j.ReqProcs)
		}
	}

	tsv := string(must(os.ReadFile("testdata/table-generic.tsv")))
	csv := strings.ReplaceAll(strings.ReplaceAll(tsv, ",", ";"), "\t", ",")
	res, err = GPUTrace(strings.NewReader(csv+tsv), Options{ColumnMap: genericMap})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "csv+tsv", res.Report, len(res.Jobs))
	// (f1 and f2 read alike from both: listed again; f3's id has a ';'.)
	if len(res.Jobs) != 4 || res.Report.Skipped["another header line"] != 1 || res.Report.Skipped[skipDuplicate] != 2 {
		t.Errorf("csv then tsv: %d jobs, %+v", len(res.Jobs), res.Report)
	}

	// A mapped submit column whose name begins with "_" (hasFold missed
	// it: '_'|0x20 is not '_').
	in = "_Submit,n\n1700000000,1\nn,_Submit\n2,1700000100\n"
	res, err = GPUTrace(strings.NewReader(in), Options{ColumnMap: map[string]string{"submit": "_Submit", "reqprocs": "n"}})
	if err != nil || len(res.Jobs) != 2 || res.Jobs[1].Submit != 100 || res.Jobs[1].ReqProcs != 2 {
		t.Errorf("_Submit: %v %+v", err, res)
	}

	sc := string(must(os.ReadFile("testdata/table-supercloud.csv")))
	alcf := string(must(os.ReadFile("testdata/table-alcf.csv")))
	helios := string(must(os.ReadFile("testdata/gpu-helios.csv")))
	for _, c := range []struct {
		name, in string
		opt      Options
	}{
		{"alcf among supercloud", sc + alcf, Options{}},
		{"helios among alcf", alcf + helios, Options{}},
		{"supercloud among a mapped table", tsv + sc, Options{ColumnMap: genericMap}},
		{"a header without a mapped column", tsv + strings.Replace(tsv, "Nodes", "NNodes", 1), Options{ColumnMap: genericMap}},
	} {
		_, err := GPUTrace(strings.NewReader(c.in), c.opt)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 3 {
			t.Errorf("%s: %v, want a *ParseError at the second header", c.name, err)
		}
	}
}

// TestTSVRepeatedHeader: a tab-separated table concatenated with its
// header is "repeated header line", as its comma form is (the readers'
// check of a header among the rows split it at commas: "another header
// line" and a note).
func TestTSVRepeatedHeader(t *testing.T) {
	tab := func(s string) string { return strings.ReplaceAll(s, ",", "\t") }
	helios := tab(string(must(os.ReadFile("testdata/gpu-helios.csv"))))
	pods := tab("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n" +
		"p1,1000,1024,1,1000,,LS,Succeeded,10,100,20\n")
	for _, c := range []struct {
		name string
		conv func(io.Reader, Options) (*Result, error)
		in   string
	}{{"helios", GPUTrace, helios + helios}, {"alibaba", Alibaba, pods + pods}} {
		res, err := c.conv(strings.NewReader(c.in), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Report.Skipped["repeated header line"] != 1 || res.Report.Skipped["another header line"] != 0 {
			t.Errorf("%s: skipped %v, want one repeated header line", c.name, res.Report.Skipped)
		}
	}
}

// TestJobTableStateNumbers: a state number past Slurm's enum is an
// unknown state reported by its number (it was "STATE", the number cut
// off as a reason after a space).
func TestJobTableStateNumbers(t *testing.T) {
	in := "id_job,time_submit,time_start,time_end,cpus_alloc,state\n" +
		"1,1700000000,1700000010,1700000020,4,12\n" +
		"2,1700000000,1700000010,1700000020,4,4294967295\n" +
		"3,1700000000,1700000010,1700000020,4,259\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "states", res.Report, len(res.Jobs))
	want := map[string]int{"12": 1, "4294967295": 1, "COMPLETED": 1}
	if !maps.Equal(res.Report.States, want) || res.Report.Anomalies[noteUnknownState] != 2 {
		t.Errorf("states %v anomalies %v, want %v and 2 unknown", res.Report.States, res.Report.Anomalies, want)
	}
}

// TestJobTableTRESBounds: a TRES count of nodes or GPUs past 2^24 is an
// unreadable tres_req (no demand, counted); it was kept as 2^24 nodes or
// GPUs, silently.
func TestJobTableTRESBounds(t *testing.T) {
	in := "id_job,time_submit,time_start,time_end,cpus_alloc,state,tres_req\n" +
		"1,1700000000,1700000010,1700000020,4,3,\"1=4,4=99999999\"\n" +
		"2,1700000000,1700000010,1700000020,4,3,\"1=4,4=1,1001=99999999\"\n" +
		"3,1700000000,1700000010,1700000020,4,3,\"1=4,4=1,1002=2\"\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "tres", res.Report, len(res.Jobs))
	if len(res.Jobs) != 3 || res.Jobs[0].Demand != nil || res.Jobs[1].Demand != nil || res.Jobs[2].Demand == nil ||
		res.Report.Anomalies["unreadable tres_req"] != 2 || res.Report.Anomalies[noteDemandBad] != 2 {
		t.Errorf("%+v", res.Report)
	}
}
