package convert

import (
	"os"
	"strings"
	"testing"
)

// TestTRESItemWithoutCount: an item of a TRES list that is not
// TYPE=COUNT ("mem" cut from "mem=64G", "=4") makes the field unreadable,
// counted and in Errors, and the demand is not kept, in the readers of
// TRES text (sacct's ReqTRES, jobcomp's Tres, scontrol's TRES,
// slurmrestd's tres_req_str). It was dropped without a word, and the
// demand read from the columns beside it.
func TestTRESItemWithoutCount(t *testing.T) {
	head := strings.ReplaceAll(SacctFormat, ",", "|") + "\n"
	for _, tres := range []string{"cpu=2,mem", "cpu=2,=4,node=1", "cpu"} {
		in := head + sacctLine(with(with(good("1"), "ReqTRES", tres), "ReqMem", "4000M"))
		res, err := Sacct(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Report
		if len(res.Jobs) != 1 || rep.Anomalies["unreadable ReqTRES"] != 1 || len(rep.Errors) != 1 ||
			rep.Errors[0].Field != "ReqTRES" || res.Jobs[0].Demand != nil {
			t.Errorf("sacct ReqTRES %q: jobs %+v, anomalies %v, errors %v", tres, res.Jobs, rep.Anomalies, rep.Errors)
		}
		if _, err := Sacct(strings.NewReader(in), Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "not TYPE=COUNT") {
			t.Errorf("sacct ReqTRES %q, strict: %v, want an error saying not TYPE=COUNT", tres, err)
		}
	}
	const jc = "JobId=1 UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=5 " +
		"StartTime=2024-03-01T08:00:10 EndTime=2024-03-01T08:01:10 NodeList=n1 NodeCnt=1 ProcCnt=2 " +
		"Tres=cpu=2,mem SubmitTime=2024-03-01T08:00:00\n"
	res, err := Jobcomp(strings.NewReader(jc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || len(res.Report.Errors) != 1 || res.Report.Errors[0].Field != "Tres" || res.Jobs[0].Demand != nil {
		t.Errorf("jobcomp: jobs %+v, errors %v", res.Jobs, res.Report.Errors)
	}
	// The snapshots: scontrol's TRES, slurmrestd's tres_req_str (of a
	// pending job, 103: a running job's demand is its tres_alloc_str).
	for _, c := range []struct{ path, field, from, to string }{
		{"testdata/snapshot/scontrol-show-job-one.txt", "TRES", "TRES=cpu=16,mem=2000M,", "TRES=cpu=16,mem,"},
		{"testdata/snapshot/slurmrestd-v0.0.41.json", "tres_req_str", `"tres_req_str": "cpu=32,mem=4000M,`,
			`"tres_req_str": "cpu=32,=4,`},
		{"testdata/snapshot/slurmrestd-v0.0.41.json", "tres_alloc_str", `"tres_alloc_str": "cpu=8,mem=1000M,`,
			`"tres_alloc_str": "cpu=8,=4,`},
	} {
		text, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		bad := strings.Replace(string(text), c.from, c.to, 1)
		if bad == string(text) {
			t.Fatalf("%s changed: no %q", c.path, c.from)
		}
		plain, err := QueueSnapshot(strings.NewReader(string(text)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := QueueSnapshot(strings.NewReader(bad), Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep := s.Report
		if rep.Anomalies["unreadable "+c.field] != 1 || len(rep.Errors) != 1 || rep.Errors[0].Field != c.field ||
			rep.Demands != plain.Report.Demands-1 {
			t.Errorf("%s: anomalies %v, errors %v, %d demands (%d unbroken)", c.path, rep.Anomalies, rep.Errors,
				rep.Demands, plain.Report.Demands)
		}
		if _, err := QueueSnapshot(strings.NewReader(bad), Options{Strict: true}); err == nil ||
			!strings.Contains(err.Error(), "not TYPE=COUNT") {
			t.Errorf("%s, strict: %v, want an error saying not TYPE=COUNT", c.path, err)
		}
	}
}

// TestTRESUnitValues: Slurm writes a GRES counted in megabytes with a
// unit, as it writes mem ("gres/gpumem=4G"). gres/gpumem and gres/gpuutil
// (its measures of GPU use) are not a request and are ignored; another
// GRES with a unit is read as mem is, in MiB. Both were "not a number",
// and the whole demand was dropped.
func TestTRESUnitValues(t *testing.T) {
	const tres = "cpu=2,mem=4G,node=1,gres/gpu=1,gres/gpumem=4G,gres/gpuutil=50,gres/scratch=1.5G"
	check := func(name string, res *Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Jobs) != 1 || len(res.Report.Errors) != 0 || res.Jobs[0].Demand == nil {
			t.Fatalf("%s: jobs %+v, errors %v", name, res.Jobs, res.Report.Errors)
		}
		d := res.Jobs[0].Demand
		if d.Memory != 4096 || d.GPUs != 1000 || len(d.Named) != 1 || d.Named["gres/scratch"] != 1536 {
			t.Errorf("%s: demand %+v, want 4096 MiB, 1 GPU and only gres/scratch 1536", name, d)
		}
	}
	head := strings.ReplaceAll(SacctFormat, ",", "|") + "\n"
	in := head + sacctLine(with(good("1"), "ReqTRES", tres))
	res, err := Sacct(strings.NewReader(in), Options{Strict: true})
	check("sacct", res, err)
	jc := "JobId=1 UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=5 " +
		"StartTime=2024-03-01T08:00:10 EndTime=2024-03-01T08:01:10 NodeList=n1 NodeCnt=1 ProcCnt=2 " +
		"Tres=" + tres + " SubmitTime=2024-03-01T08:00:00\n"
	res, err = Jobcomp(strings.NewReader(jc), Options{Strict: true})
	check("jobcomp", res, err)
	for _, bad := range []string{"gres/scratch=1.5X", "gres/scratch=9999999999999T"} {
		in := head + sacctLine(with(good("1"), "ReqTRES", "cpu=2,"+bad))
		if _, err := Sacct(strings.NewReader(in), Options{Strict: true}); err == nil {
			t.Errorf("sacct ReqTRES %q, strict: no error", bad)
		}
	}
}
