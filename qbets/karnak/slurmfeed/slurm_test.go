package slurmfeed

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// testdata holds real outputs of Slurm 22.05.8 (Debian 12), taken 10 s into
// the workload of scripts/slurm-cluster.sh on a machine whose clock is UTC:
// squeue --json, squeue -h -r --start -o '%i|%A|%T|%S|%V|%P' a moment later,
// sacct --json (with steps), scontrol show partition --oneliner.
func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseSqueue22_05(t *testing.T) {
	jobs, err := parseSqueue(readTestdata(t, "squeue-22.05.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	byKey := map[string]job{}
	for _, j := range jobs {
		if j.bad != "" {
			t.Errorf("job %s: %s", j.key, j.bad)
		}
		got = append(got, fmt.Sprintf("%s %s %d started=%v ended=%v", j.key, j.partition, j.cores, j.started, j.ended))
		byKey[j.key] = j
	}
	want := []string{
		"1 short 1 started=true ended=false", "2 long 3 started=true ended=false",
		"3 short 1 started=true ended=true", "4 short 1 started=true ended=true",
		"5_0 short 1 started=true ended=false",
		"6 long 8 started=false ended=true", // cancelled while waiting: no nodes, 8 CPUs from tres_req_str
		"7 short 6 started=false ended=false", "8 long 2 started=false ended=false", "9 long 8 started=false ended=false",
		"5_1 short 1 started=true ended=false", "5_2 short 1 started=true ended=false", "5_3 short 1 started=true ended=false",
		"5_4 short 1 started=false ended=false", "5_5 short 1 started=false ended=false", // one squeue record "4-5"
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if byKey["5_4"].id != 1<<62|5<<22|4 || byKey["7"].id != 7 || byKey["1"].wall != 60 {
		t.Errorf("ids or limits: 5_4 %d, 7 %d, wall of 1 %d", byKey["5_4"].id, byKey["7"].id, byKey["1"].wall)
	}
	// The expected start of a waiting job is what squeue --start prints.
	for _, line := range strings.Split(strings.TrimSpace(string(readTestdata(t, "squeue-start-22.05.txt"))), "\n") {
		f := strings.Split(line, "|")
		at, err := time.ParseInLocation("2006-01-02T15:04:05", f[3], time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if j, ok := byKey[f[0]]; !ok || j.estimate != at.Unix() {
			t.Errorf("job %s: estimate %d, squeue --start says %d", f[0], j.estimate, at.Unix())
		}
	}
}

func TestParseSacct22_05(t *testing.T) {
	jobs, err := parseSacct(readTestdata(t, "sacct-22.05.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jobs {
		if j.bad != "" {
			t.Errorf("job %s: %s", j.key, j.bad)
		}
		got = append(got, fmt.Sprintf("%s %d %v/%v", j.key, j.cores, j.started, j.ended))
	}
	// Waiting jobs are squeue's; job 3 FAILED (sacct --json says exit 0);
	// task 5_3, started 2 s before, is not in slurmdbd yet (its record is
	// still the array's waiting one): squeue is the fresher source.
	want := "1 1 true/false,2 3 true/false,3 1 true/true,4 1 true/true,6 8 false/true,5_0 1 true/false,5_1 1 true/false,5_2 1 true/false"
	if g := strings.Join(got, ","); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
}

func TestParsePartitions22_05(t *testing.T) {
	parts, err := parsePartitions(readTestdata(t, "scontrol-partition-22.05.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(parts) != "[{short 8 120} {long 8 600}]" {
		t.Errorf("got %v", parts)
	}
}

func TestParseLimit(t *testing.T) {
	for s, want := range map[string]int64{
		"UNLIMITED": unlimitedWall, "00:02:00": 120, "1-00:00:00": 86400, "2-03:04:05": 2*86400 + 3*3600 + 4*60 + 5,
		"30": 1800, "05:30": 330, "": -1, "1:2:3:4": -1, "-5": -1, "abc": -1, "0": -1, "99999999999": -1,
	} {
		got, err := parseLimit(s)
		if want < 0 && err == nil || want >= 0 && (err != nil || got != want) {
			t.Errorf("parseLimit(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
}

func TestExpandTasks(t *testing.T) {
	for s, want := range map[string]string{
		"4-5": "[4 5]", "0-5%2": "[0 1 2 3 4 5]", "1,3,7-9": "[1 3 7 8 9]", "0-8:4": "[0 4 8]", "7": "[7]",
		"": "error", "5-4": "error", "a-b": "error", "0-1:0": "error", "0-99999999999": "error", "-1": "error",
		strings.Repeat("0-60000,", 3): "error",
		// Ranges at the int64 limit looped for ever (a count that wrapped
		// negative, or a task number that wrapped past the range's end).
		"0-9223372036854775807": "error", "9223372036854775807": "[9223372036854775807]",
		"9223372036854775806-9223372036854775807":   "[9223372036854775806 9223372036854775807]",
		"9223372036854775800-9223372036854775807:5": "[9223372036854775800 9223372036854775805]",
	} {
		got, err := expandTasks(s, maxQueueTasks)
		g := fmt.Sprint(got)
		if err != nil {
			g = "error"
		}
		if g != want {
			t.Errorf("expandTasks(%q) = %s, want %s", s, g, want)
		}
	}
}

// TestQueueTasksCapped: each array record expands to at most
// maxArrayTasks tasks, and all of an output's records together to at most
// maxQueueTasks; the records past that are bad, with the reason, not
// dropped and not expanded.
func TestQueueTasksCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"jobs":[`)
	n := maxQueueTasks/(maxArrayTasks) + 3
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"job_id":%d,"job_state":"PENDING","submit_time":10,"time_limit":5,"cpus":1,"array_job_id":%d,"array_task_string":"0-%d"}`, i+1, i+1, maxArrayTasks-1)
	}
	b.WriteString(`]}`)
	jobs, err := parseSqueue([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	good, bad := 0, 0
	for _, j := range jobs {
		switch {
		case j.bad == "":
			good++
		case strings.Contains(j.bad, "array tasks in the queue"):
			bad++
		default:
			t.Fatalf("job %s: %s", j.key, j.bad)
		}
	}
	if good != maxQueueTasks || bad != n-maxQueueTasks/maxArrayTasks {
		t.Errorf("%d tasks taken, %d records refused; want %d and %d", good, bad, maxQueueTasks, n-maxQueueTasks/maxArrayTasks)
	}
	if _, err := expandTasks("0-9", 5); err == nil {
		t.Error("10 tasks with 5 left: no error")
	}
	if got, err := expandTasks("0-4", 5); err != nil || len(got) != 5 {
		t.Errorf("5 tasks with 5 left: %v, %v", got, err)
	}
}

func TestHostileOutputs(t *testing.T) {
	for _, s := range []string{"", "{", "null", `{"jobs":[{"job_id":1,"job_state":"RUNNING","submit_time":-5}]}`,
		`{"errors":[{"error":"boom"}],"jobs":[]}`, `{"jobs":[{"job_id":1,"job_state":"PENDING","submit_time":10,"array_job_id":1}]}`} {
		jobs, err := parseSqueue([]byte(s))
		for _, j := range jobs {
			if j.bad == "" {
				t.Errorf("squeue %q: job %+v taken", s, j)
			}
		}
		_ = err
	}
	_, err := parseSacct([]byte(`{"errors":[{"description":"Unable to query","error_number":7}],"jobs":[]}`))
	if err == nil || !strings.Contains(err.Error(), "Unable to query") {
		t.Errorf("sacct error not reported: %v", err)
	}
	if _, err := parseSacct([]byte(`{"errors":[{"description":"Nothing found","error_number":9003}],"jobs":[]}`)); err != nil {
		t.Errorf("an empty sacct window is an error: %v", err)
	}
	if _, err := parsePartitions([]byte("PartitionName=x TotalCPUs=lots MaxTime=1\n")); err == nil || !strings.Contains(err.Error(), "line 1: TotalCPUs") {
		t.Errorf("bad TotalCPUs: %v", err)
	}
}

// checkJobs is what every parsed job must satisfy, whatever the input.
func checkJobs(t *testing.T, jobs []job) {
	for _, j := range jobs {
		if j.bad != "" {
			continue
		}
		if j.wall < -1 || j.wall > infinite32*60 {
			t.Fatalf("job %+v taken with a time limit out of range", j)
		}
		if j.submit <= 0 || j.started && j.start < j.submit || j.ended && j.end < j.submit || j.started && j.ended && j.end < j.start {
			t.Fatalf("job %+v taken with times out of order", j)
		}
	}
}

func seed(f *testing.F, name string) {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

func FuzzParseSqueue(f *testing.F) {
	seed(f, "squeue-22.05.json")
	seed(f, "squeue-gpu-22.05.json")
	f.Add([]byte(`{"jobs":[{"job_id":5,"array_job_id":5,"array_task_string":"0-3%1","job_state":"PENDING","submit_time":10}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		jobs, err := parseSqueue(b)
		if err == nil {
			checkJobs(t, jobs)
		}
	})
}

func FuzzParseSacct(f *testing.F) {
	seed(f, "sacct-22.05.json")
	seed(f, "sacct-gpu-22.05.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		jobs, err := parseSacct(b)
		if err == nil {
			checkJobs(t, jobs)
		}
	})
}

func FuzzParsePartitions(f *testing.F) {
	seed(f, "scontrol-partition-22.05.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		parts, err := parsePartitions(b)
		for _, p := range parts {
			if err == nil && (p.cores < 1 || p.wall < 1 || p.wall > unlimitedWall) {
				t.Fatalf("partition %+v", p)
			}
		}
	})
}

// A time limit that is no 32-bit count of minutes makes the record bad:
// 2^62 minutes wrapped to a negative number of seconds, fed as is.
func TestLimitOutOfRange(t *testing.T) {
	for _, lim := range []string{"4611686018427387904", "-5", "4294967296"} {
		sq, err := parseSqueue([]byte(`{"jobs":[{"job_id":1,"job_state":"PENDING","submit_time":10,"time_limit":` + lim + `}]}`))
		if err != nil || len(sq) != 1 || !strings.Contains(sq[0].bad, "time limit") {
			t.Errorf("squeue %s: %v %+v", lim, err, sq)
		}
		// A later fault of the same record does not hide the first reason.
		sq, err = parseSqueue([]byte(`{"jobs":[{"job_id":1,"job_state":"WEIRD","submit_time":10,"tres_req_str":"gres/gpu=x","time_limit":` + lim + `}]}`))
		if err != nil || len(sq) != 1 || !strings.Contains(sq[0].bad, "time limit") {
			t.Errorf("squeue %s with a bad state and GPU count: %v %+v", lim, err, sq)
		}
		sa, err := parseSacct([]byte(`{"jobs":[{"job_id":1,"state":{"current":"COMPLETED"},"time":{"submission":10,"start":11,"end":12,"limit":` + lim + `}}]}`))
		if err != nil || len(sa) != 1 || !strings.Contains(sa[0].bad, "time limit") {
			t.Errorf("sacct %s: %v %+v", lim, err, sa)
		}
	}
}
