package convert

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/batchq/batchq/swf"
)

// fuzzConvert checks what must hold for any input: no panic (the fuzzer
// sees it), and when conversion succeeds, jobs numbered 1..n in submit
// order that read back from SWF in strict mode unchanged, every record
// accounted for.
func fuzzConvert(t *testing.T, format string, data []byte) {
	// Odd-length inputs also take the accounts and QOS (Options.Accounts).
	res, err := converters[format](bytes.NewReader(data), Options{Accounts: len(data)%2 == 1})
	if err != nil {
		return
	}
	for k, j := range res.Jobs {
		if j.ID != int64(k+1) || j.Submit < 0 || k > 0 && j.Submit < res.Jobs[k-1].Submit {
			t.Fatalf("job %d: %+v", k+1, j)
		}
		// No absurd value passes (issue 31): sizes and times stay within
		// the plausible bounds, whatever the input.
		if j.AllocProcs > maxProcs || j.ReqProcs > maxProcs || j.Submit > maxTime || j.Wait > maxTime ||
			j.RunTime > maxTime || j.ReqTime > maxTime || j.ReqMemory > maxMemKB || j.UsedMemory > maxMemKB {
			t.Fatalf("job %d out of bounds: %+v", k+1, j)
		}
		if d := j.Demand; d != nil {
			// A demand validates (else the Writer refuses it) and has a
			// node count whenever it asks GPUs.
			if err := d.Validate(); err != nil || d.GPUs > 0 && d.Nodes == 0 {
				t.Fatalf("job %d: demand %+v: %v", k+1, d, err)
			}
		}
	}
	var buf bytes.Buffer
	if err := swf.WriteAll(&buf, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(&buf)
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("output does not read back: %v\n%s", err, buf.Bytes())
	}
	if !sameJobs(jobs, res.Jobs) {
		t.Fatalf("output reads back differently")
	}
	if n := r.Stats().Demands; n != res.Report.Demands {
		t.Fatalf("%d demand lines read back, report says %d", n, res.Report.Demands)
	}
	if h, _ := r.Header(); h.MaxJobs != int64(len(res.Jobs)) || len(r.Stats().Warnings) != 0 {
		t.Fatalf("header %+v, warnings %v", h, r.Stats().Warnings)
	}
	rep := res.Report
	skipped := 0
	for _, n := range rep.Skipped {
		skipped += n
	}
	switch format {
	case "sacct", "jobcomp":
		if rep.Records != rep.Jobs+rep.Steps+rep.Requeued+skipped {
			t.Fatalf("report does not add up: %+v", rep)
		}
	case "sacct-json":
		if rep.Records != rep.Jobs+rep.Requeued+skipped {
			t.Fatalf("report does not add up: %+v", rep)
		}
	}
}

func seed(f *testing.F, paths ...string) {
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzSacct(f *testing.F) {
	seed(f, "testdata/sacct-parsable2.txt", "testdata/sacct-formatted.txt", "testdata/slurm-22.05/run1-sacct-parsable2-broad.txt",
		"testdata/sacct-gpu.txt")
	seed(f, featuresDir+"sacct-newline-name.txt", featuresDir+"sacct-suspended.txt") // (records cut by a newline)
	f.Add([]byte("JobID|State|Submit\n1|COMPLETED|1\n1|REQUEUED|0\n1.batch|X|Y\n"))
	f.Add([]byte("JobID|State|Submit|Start|End|AllocCPUS|Timelimit\n1_[1-3]|PENDING|5|||0|1-\n2+0|TIMEOUT|9|9|8|1|UNLIMITED\n"))
	f.Add([]byte("JobID|State|Submit|Start|End|AllocCPUS|ReqTRES|ReqMem|NNodes|ReqGRES\n" +
		"1|COMPLETED|1|2|3|4|cpu=4,gres/gpu:=3,gres/gpu=99999999999,node=0,license/x=1|5Gn||gpu:k80\n" +
		"2|COMPLETED|1|2|3|3|cpu=3,node=2,mem=1,gres/mps=50|||\n"))
	// (this session's: a '|' in text columns, a job named like a header,
	// times before 1990, steps, arrays, het jobs, days in Elapsed)
	f.Add([]byte("JobID|JobIDRaw|JobName|State|Constraints|Submit|Start|End|Elapsed|Timelimit|AllocCPUS\n" +
		"1|1|a|b|COMPLETED|intel|amd|1970-01-01T01:00:00|3600|1704067209|1-02:03:04|Partition_Limit|0\n" +
		"2|2|x|State|Submit|CANCELLED by 5|x|1704067200|1704067201|Unknown|00:00:01|UNLIMITED|2\n" +
		"2.batch|2.batch|batch|COMPLETED||1704067200|1704067201|1704067202|00:00:01||2\n" +
		"3_[1-5%2]|3|arr|PENDING||1704067200|None|None|00:00:00|1|0\n4_2|9|arr|OUT_OF_ME+||1704067200|1704067201|1704067201|0|1|0\n" +
		"5+0|5|het|NODE_FAIL||1704067200|1704067201|1704067202|00:00:01|1|1\n"))
	f.Add([]byte("JobID|JobName|State|Submit\n1|State|Submit|COMPLETED|1704067200\n2|b|COMPLETED|1704067200\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzConvert(t, "sacct", data) })
}

func FuzzSacctJSON(f *testing.F) {
	seed(f, "testdata/sacct-23.11.json", "testdata/sacct-gpu.json")
	f.Add([]byte(`{"jobs":[{"job_id":1,"time":{"submission":"5","limit":{"set":true,"infinite":true}},"state":["X"]},{"job_id":1}]}`))
	f.Add([]byte(`{"jobs":[{"job_id":{"number":"1e30"},"time":{"submission":-5,"start":1e300}},{"job_id":2,"array":{"job_id":1,"task":"x"}}]}`))
	f.Add([]byte(`{"jobs":[{"job_id":3,"state":{"current":["FAILED"]},"time":{"submission":1704067200,"start":3600,"end":1704067209},` +
		`"tres":{"allocated":[{"type":"cpu","count":0}]}},{"job_id":4,"time":{"submission":1704067200,"start":1704067201,"end":1704067209},` +
		`"tres":{"allocated":[{"type":"cpu","count":99999999}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzConvert(t, "sacct-json", data) })
}

func FuzzJobcomp(f *testing.F) {
	seed(f, "testdata/jobcomp.txt", "testdata/slurm-22.05/run1-jobcomp.txt")
	seed(f, featuresDir+"jobcomp-newline-requeue.txt", featuresDir+"jobcomp-cancelled-pending.txt")
	f.Add([]byte("JobId=1 JobState=COMPLETED SubmitTime=1 StartTime=2 EndTime=1 NodeList=n ProcCnt=-1 Tres=mem=9Q\nJobId=x\n"))
	f.Add([]byte("JobId=2 Name=a JobState=FAILED JobState=COMPLETED SubmitTime=2024-01-01T00:00:00 StartTime=1970-01-01T00:00:01\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzConvert(t, "jobcomp", data) })
}

func FuzzPBS(f *testing.F) {
	seed(f, "testdata/pbs-torque.log", "testdata/pbs-gpu.log")
	f.Add([]byte("01/01/2024 00:00:00;E;1.s;start=5 end=3 exec_host=a/0-9999999999 Resource_List.nodes=3:ppn=x Exit_status=q\n" +
		"01/01/2024 00:00:00;Q;1.s;\n01/01/2024 00:00:01;D;1.s;\n"))
	f.Add([]byte("01/01/2024 00:00:00;E;2.s;ctime=1 start=5 end=9 Resource_List.select=16777216:ncpus=16777216:ngpus=16777216:mem=9pb+" +
		"16777216:ncpus=16777216 Resource_List.place=pack:excl Resource_List.ngpus=7 Resource_List.mem=1tb Exit_status=0\n" +
		"01/01/2024 00:00:00;E;3.s;ctime=1 start=5 end=9 Resource_List.nodes=3:ppn=2:gpus=1+h1:ppn=7 Resource_List.procs=2 Resource_List.nodect=x Exit_status=0\n"))
	f.Add([]byte("01/01/1970 00:00:00;E;4.s;ctime=1711965600 start=0 end=1711965660 Exit_status=0\n" +
		"04/01/2024 10:00:00;E;5.s;ctime=1711965600 qtime=0 etime=0 start=0 end=1711966200 Exit_status=-11 exec_host=n1/0*8+n2/0*8 " +
		"Resource_List.select=2:ncpus=8:ngpus=1 resources_used.walltime=00:10:00\n04/01/2024 10:00:01;D;5.s;\n" +
		"04/01/2024 10:00:02;A;5.s;\n04/01/2024 10:00:03;Q;5.s;queue=q\n04/01/2024 10:00:04;R;5.s;\n" +
		"04/01/2024 10:00:05;E;6.s;end=1711966200 resources_used.walltime=99999:00:00 Exit_status=0\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzConvert(t, "pbs", data) })
}

// FuzzQueueSnapshot checks QueueSnapshot on any input, in both forms: no
// panic; when it succeeds, every record accounted for, the waiting jobs in
// the scheduler's order, no value out of bounds, and an SWF form that
// reads back.
func FuzzQueueSnapshot(f *testing.F) {
	for _, fx := range []string{"slurmrestd-v0.0.37.json", "slurmrestd-v0.0.40.json", "slurmrestd-v0.0.41.json",
		"scontrol-show-job.txt", "scontrol-show-job-o.txt"} {
		seed(f, "testdata/snapshot/"+fx)
	}
	seed(f, "testdata/snapshot/real-22.05/2-scontrol-show-job-d.txt", "testdata/snapshot/real-22.05/2-squeue.json",
		"testdata/snapshot/slurmrestd-gpus-v0.0.42.json")
	seed(f, featuresDir+"scontrol-pending.txt", featuresDir+"scontrol-o-pending.txt", featuresDir+"scontrol-o-freetext.txt")
	f.Add([]byte("No jobs in the system\n"))
	f.Add([]byte("JobId=5 ArrayJobId=5 ArrayTaskId=1-3:2%1 JobName=a b\n   Priority=7 JobState=PENDING SubmitTime=5 NumCPUs=2-4 TimeLimit=1-00:00:00\n"))
	f.Add([]byte(`{"jobs":[{"job_id":1,"job_state":["RUNNING","COMPLETING"],"submit_time":{"set":true,"number":9},"start_time":1e300,` +
		`"time_limit":null,"suspend_time":12,"pre_sus_time":3,"job_resources":{"nodes":{"count":2},"cpus":4}}],"last_update":7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := QueueSnapshot(bytes.NewReader(data), Options{Accounts: len(data)%2 == 1})
		if err != nil {
			return
		}
		rep := s.Report
		skipped := 0
		for _, n := range rep.Skipped {
			skipped += n
		}
		// A record of pending array tasks is several jobs.
		if rep.Jobs != len(s.Running)+len(s.Waiting) || rep.Records-skipped > rep.Jobs || rep.Records-skipped < 0 {
			t.Fatalf("report does not add up: %d running, %d waiting, %+v", len(s.Running), len(s.Waiting), rep)
		}
		for k, q := range append(append([]QueuedJob{}, s.Running...), s.Waiting...) {
			if q.ID == "" || q.Submit < 0 || q.Submit > maxTime || q.Start > maxTime || q.Elapsed < 0 || q.Elapsed > maxTime ||
				q.CPUs > maxProcs || q.Nodes > maxProcs || q.TimeLimit > maxTime {
				t.Fatalf("job %d: %+v", k, q)
			}
		}
		for k := 1; k < len(s.Waiting); k++ {
			if s.Waiting[k].Priority > s.Waiting[k-1].Priority {
				t.Fatalf("waiting jobs out of priority order: %+v", s.Waiting)
			}
		}
		res := s.SWF()
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

// sameJobs compares jobs and their demands by value, nil and empty alike.
func sameJobs(a, b []swf.Job) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
