package convert

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// Real Slurm 22.05 outputs of the job features users use (arrays,
// heterogeneous, requeued, suspended, held jobs, names with newlines...),
// trimmed to the jobs each test needs: testdata/slurm-22.05/features
// (its README says how they were made).
const featuresDir = "testdata/slurm-22.05/features/"

func readFeature(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(featuresDir + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSacctNewlineInName: sacct prints a job name holding a newline
// (sbatch -J $'new\nline') as it is, cutting the job's line in two; the
// two lines are one record. They were two malformed records, the job lost
// and its step counted "of jobs not in the input".
func TestSacctNewlineInName(t *testing.T) {
	in := readFeature(t, "sacct-newline-name.txt")
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if strings.Join(res.IDs, " ") != "15 16 17" || rep.Skipped[skipMalformed] != 0 || rep.Steps != 3 ||
		rep.Records != rep.Jobs+rep.Steps || len(rep.Notes) != 0 || rep.Anomalies[noteJoined] != 1 {
		t.Fatalf("ids %v, report %+v", res.IDs, rep)
	}
	if j := res.Jobs[1]; j.Wait != 154 || j.RunTime != 2 || j.AllocProcs != 1 || j.Status != 1 ||
		j.Executable != 2 || res.Jobs[2].Executable != 3 {
		t.Errorf("job 16: %+v", j)
	}
	// A line cut short that the next does not complete is malformed,
	// once, and the next line read alone (here the job's step, of a job
	// not read); one at the end of the input too.
	i := strings.Index(in, "\nline|")
	j := i + 1 + strings.Index(in[i+1:], "\n")
	res, err = Sacct(strings.NewReader(in[:i]+in[j:]+"18|18|cut\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep = res.Report
	if strings.Join(res.IDs, " ") != "15 17" || rep.Skipped[skipMalformed] != 2 || rep.Steps != 3 ||
		rep.Records != rep.Jobs+rep.Steps+2 || len(rep.Notes) != 1 {
		t.Errorf("cut: ids %v, report %+v", res.IDs, rep)
	}
}

// TestScontrolNewlineInName: scontrol show job prints a job name holding a
// newline as it is, the rest of the name at the start of the next line
// (with -o, the rest of the record after it). That line continues the
// name; it was a malformed record, and so was each line of the record
// after it (26 for one job of the multi-line shapes), the job lost. Jobs
// 15 and 18 hold '|', '=' and spaces in their name, command and paths.
// The same three pending jobs in the three shapes.
func TestScontrolNewlineInName(t *testing.T) {
	for _, f := range []string{"scontrol-pending.txt", "scontrol-d-pending.txt", "scontrol-o-pending.txt"} {
		s, err := QueueSnapshot(strings.NewReader(readFeature(t, f)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Waiting) != 3 || s.Report.Records != 3 || len(s.Report.Skipped) != 0 || s.Report.Anomalies[noteJoined] != 1 {
			t.Fatalf("%s: %d waiting, report %+v", f, len(s.Waiting), s.Report)
		}
		for i, want := range []string{"pipe|name=x y JobState=COMPLETED NumCPUs=64", "new\nline", "spaced cmd"} {
			j := s.Waiting[i]
			if j.Name != want || j.State != "PENDING" || j.CPUs != 1 || j.User != "root" || j.Partition != "short" ||
				j.Submit != 1796207972+int64(i/2) || j.TimeLimit != 60 {
				t.Errorf("%s: %+v", f, j)
			}
		}
	}
}

// TestScontrolOneLineFreeText: in a one-line record (-o) the free texts
// (Command=, WorkDir=, Comment=, StdErr=, StdIn=, StdOut=) are values,
// whatever they hold: job 15's comment "c|d UserId=0(0) GroupId=0(0)
// NumCPUs=99 TresPerNode=gres:gpu:8 JobState=COMPLETED" gave the job,
// which asked for no GPU, 8 (the real TresPerNode= comes after it, if at
// all). Job 13 asked for --gres=gpu:1: its real TresPerNode, after
// Power=, is read.
func TestScontrolOneLineFreeText(t *testing.T) {
	s, err := QueueSnapshot(strings.NewReader(readFeature(t, "scontrol-o-freetext.txt")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Waiting) != 2 {
		t.Fatalf("%d waiting, report %+v", len(s.Waiting), s.Report)
	}
	for i, gpus := range []int64{1000, 0} {
		j := s.Waiting[i]
		if j.Demand == nil || j.Demand.GPUs != gpus || j.CPUs != []int64{2, 1}[i] || j.State != "PENDING" {
			t.Errorf("job %s: %+v, demand %+v", j.ID, j, j.Demand)
		}
	}
}

// TestStartFromElapsedSuspended: job 8 ran 8 s, was suspended 13 s
// (scontrol suspend, resume), and ran on: sacct's Elapsed (8) leaves the
// suspended time out, its Suspended column (00:00:13, time.suspended in
// sacct --json) has it. A start taken from End − Elapsed when Start is
// unknown takes it off too (it did not: start 13 s late, wait 159 and
// run 8 instead of 146 and 21, what the real Start gives). The real
// record, then the same with its start unknown (Unknown; 0 in JSON); with
// its end unknown the run time is Elapsed and Suspended (was 8).
func TestStartFromElapsedSuspended(t *testing.T) {
	text := readFeature(t, "sacct-suspended.txt")
	js := readFeature(t, "sacct-suspended.json")
	for _, c := range []struct {
		name string
		conv func(string) (*Result, error)
		in   string
	}{
		{"sacct", sacctString, text},
		{"sacct unknown start", sacctString, strings.Replace(text, "|1796208118|1796208139|8|", "|Unknown|1796208139|8|", 1)},
		// End unknown: the run time is Elapsed and the suspended time.
		{"sacct no end", sacctString, strings.Replace(text, "|1796208118|1796208139|8|", "|1796208118|Unknown|8|", 1)},
		{"sacct-json", sacctJSONString, js},
		{"sacct-json unknown start", sacctJSONString, strings.Replace(js, `"start": 1796208118,`, `"start": 0,`, 1)},
	} {
		res, err := c.conv(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Jobs) != 1 || res.Jobs[0].Wait != 146 || res.Jobs[0].RunTime != 21 || res.Jobs[0].Status != 1 {
			t.Errorf("%s: %+v, report %+v", c.name, res.Jobs, res.Report)
		}
		if strings.Contains(c.name, "unknown start") != (res.Report.Anomalies[noteStartElapsed] == 1) {
			t.Errorf("%s: anomalies %v", c.name, res.Report.Anomalies)
		}
	}
}

func sacctString(s string) (*Result, error)     { return Sacct(strings.NewReader(s), Options{}) }
func sacctJSONString(s string) (*Result, error) { return SacctJSON(strings.NewReader(s), Options{}) }

// TestJobcompNewlineInName: the jobcomp file writes a job name holding a
// newline as it is, the rest of the record on the next line: the two
// lines are one record (they were a job skipped "no submit time" and a
// malformed line, the job lost). Job 7 was requeued while running: its
// first attempt is written JobState=PENDING with its start and end, an
// earlier attempt; the job is its last attempt, submitted when requeued
// (10:42:02), as sacct has it.
func TestJobcompNewlineInName(t *testing.T) {
	res, err := Jobcomp(strings.NewReader(readFeature(t, "jobcomp-newline-requeue.txt")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if strings.Join(res.IDs, " ") != "16 17 7" || len(rep.Skipped) != 0 || rep.Requeued != 1 || rep.Records != 4 ||
		rep.Anomalies[noteJoined] != 1 {
		t.Fatalf("ids %v, report %+v", res.IDs, rep)
	}
	for i, want := range [][3]int64{{0, 154, 2}, {0, 155, 2}, {150, 121, 25}} {
		if j := res.Jobs[i]; [3]int64{j.Submit, j.Wait, j.RunTime} != want || j.Status != 1 || j.AllocProcs != 1 {
			t.Errorf("job %s: %+v, want submit, wait, run %v", res.IDs[i], j, want)
		}
	}
}

// TestSacctMemGres pins what examples/convert's README says of --mem and
// --gres: job 13 (-c 2 --mem=500M --gres=gpu:1) asks 256000 KB per
// processor and 1 GPU, job 14 (-c 3 --mem-per-cpu=100M --gpus=2) 102400
// KB and 2 GPUs (sacct's ReqTRES: mem=300M, gres/gpu=2).
func TestSacctMemGres(t *testing.T) {
	res, err := sacctString(readFeature(t, "sacct-mem-gres.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 2 {
		t.Fatalf("%+v", res.Report)
	}
	for i, want := range []struct {
		kb   float64
		gpus int64
	}{{256000, 1000}, {102400, 2000}} {
		j := res.Jobs[i]
		if j.ReqMemory != want.kb || j.Demand == nil || j.Demand.GPUs != want.gpus {
			t.Errorf("job %s: %+v, demand %+v", res.IDs[i], j, j.Demand)
		}
	}
}

// TestJobcompHeldCancelled: a job cancelled while held (sbatch -H, then
// scancel) is written ProcCnt=0, its request in Tres (cpu=1): it asked
// for 1 processor and 4000 MB (they were -1). Job 20, cancelled while
// pending but not held, has ProcCnt=8 as before.
func TestJobcompHeldCancelled(t *testing.T) {
	res, err := Jobcomp(strings.NewReader(readFeature(t, "jobcomp-cancelled-pending.txt")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.IDs, " ") != "10 20" {
		t.Fatalf("ids %v, report %+v", res.IDs, res.Report)
	}
	for i, want := range []struct {
		procs int64
		kb    float64
	}{{1, 4096000}, {8, 512000}} {
		j := res.Jobs[i]
		if j.ReqProcs != want.procs || j.ReqMemory != want.kb || j.Status != 5 || j.Wait != -1 || j.AllocProcs != -1 {
			t.Errorf("job %s: %+v", res.IDs[i], j)
		}
	}
}

// TestJoinLinear: a record cut by newlines is joined once, not line by
// line: a cut line followed by 20000 short lines (each the rest of the
// value, as far as the reader can tell, up to maxLine) is read with
// allocations linear in the input, one record: sacct's malformed, the
// jobcomp job skipped "no submit time" (its name swallowed the lines), the
// scontrol job's Comment the lines, noted "record of several lines".
// Joining each line to the last allocated ~4 GB here (and took minutes on
// 100000 lines).
func TestJoinLinear(t *testing.T) {
	rest := strings.Repeat("x", 19) + "\n"
	n := 20000
	for _, c := range []struct {
		name string
		conv func(string) (int, error)
		in   string
	}{
		{"sacct", func(s string) (int, error) {
			res, err := sacctString(s)
			if err != nil {
				return 0, err
			}
			return res.Report.Skipped[skipMalformed], nil
		}, strings.ReplaceAll(SacctFormat, ",", "|") + "\n" + sacctLine(good("1")) + "2|2|cut\n"},
		{"jobcomp", func(s string) (int, error) {
			res, err := Jobcomp(strings.NewReader(s), Options{})
			if err != nil {
				return 0, err
			}
			return res.Report.Skipped[skipNoSubmit], nil
		}, readFeature(t, "jobcomp-cancelled-pending.txt") + "JobId=3 UserId=root(0) GroupId=root(0) Name=cut\n"},
		{"scontrol", func(s string) (int, error) {
			res, err := QueueSnapshot(strings.NewReader(s), Options{})
			if err != nil {
				return 0, err
			}
			return res.Report.Anomalies[noteJoined], nil
		}, strings.SplitN(readFeature(t, "scontrol-pending.txt"), "   StdErr=", 2)[0]},
	} {
		in := c.in + strings.Repeat(rest, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got, err := c.conv(in)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%s: %d MB allocated for %d KB of input", c.name, alloc>>20, len(in)>>10)
		}
		if got != 1 { // (malformed; skipped "no submit time"; noted)
			t.Errorf("%s: %d", c.name, got)
		}
	}
}

// TestSacctParsableNewlineFirst: with --parsable every line ends in '|',
// except a line cut by a newline in a text column. A name that begins
// with the newline (-J $'\nline') cuts the line just after a delimiter,
// "16|16|": that '|' is the name's, not the closing one, and the line is
// held for its rest (it was read as 2 fields, not reaching the name, and
// the job lost, 2 malformed records). The same name in --parsable2.
func TestSacctParsableNewlineFirst(t *testing.T) {
	in := strings.Replace(readFeature(t, "sacct-newline-name.txt"), "16|16|new\n", "16|16|\n", 1)
	parsable := strings.Replace(strings.ReplaceAll(in, "\n", "|\n"), "16|16||\n", "16|16|\n", 1)
	for _, s := range []string{in, parsable} {
		res, err := sacctString(s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(res.IDs, " ") != "15 16 17" || res.Report.Skipped[skipMalformed] != 0 || res.Jobs[1].RunTime != 2 {
			t.Errorf("ids %v, report %+v", res.IDs, res.Report)
		}
	}
}

// TestJobcompJunkNotJoined: only a record's start (JobId=...) lacking
// ExitCode= waits for its rest: 50 lines "junk" are 50 malformed records,
// as in sacct (TestMaxErrors); they were one, each joined to the first.
func TestJobcompJunkNotJoined(t *testing.T) {
	in := readFeature(t, "jobcomp-cancelled-pending.txt") + strings.Repeat("junk\n", 50)
	res, err := Jobcomp(strings.NewReader(in), Options{MaxErrors: 3})
	if err != nil || len(res.Jobs) != 2 || len(res.Report.Errors) != 3 || res.Report.Skipped[skipMalformed] != 50 ||
		res.Report.Records != 52 {
		t.Errorf("%v %+v", err, res.Report)
	}
}
