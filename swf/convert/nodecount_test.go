package convert

import (
	"strings"
	"testing"
)

// TestNodeCountUnreadable: an unreadable node count (sacct's ReqNodes or
// AllocNodes, jobcomp's NodeCnt) is an unreadable field, counted and in
// Errors (an error when strict), and the demand is not kept, as for an
// unreadable node= of the TRES. It was skipped for the node count without
// a note (sacct read the next column).
func TestNodeCountUnreadable(t *testing.T) {
	head := strings.ReplaceAll(SacctFormat+",ReqNodes,AllocNodes", ",", "|") + "\n"
	line := func(kv map[string]string) string {
		return strings.TrimSuffix(sacctLine(kv), "\n") + "|" + kv["ReqNodes"] + "|" + kv["AllocNodes"] + "\n"
	}
	for _, c := range []struct{ col, req, alloc string }{{"ReqNodes", "two", "2"}, {"AllocNodes", "", "-1"}, {"ReqNodes", "99999999999", ""}} {
		kv := with(with(with(good("1"), "ReqNodes", c.req), "AllocNodes", c.alloc), "ReqMem", "4000M")
		in := head + line(kv)
		res, err := Sacct(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Report
		if len(res.Jobs) != 1 || rep.Anomalies["unreadable "+c.col] != 1 || len(rep.Errors) != 1 || rep.Errors[0].Field != c.col ||
			res.Jobs[0].Demand != nil {
			t.Errorf("sacct %+v: jobs %+v, anomalies %v, errors %v", c, res.Jobs, rep.Anomalies, rep.Errors)
		}
		if _, err := Sacct(strings.NewReader(in), Options{Strict: true}); err == nil || !strings.Contains(err.Error(), c.col) {
			t.Errorf("sacct %+v, strict: %v, want an error naming %s", c, err, c.col)
		}
		// The same line readable keeps its node count.
		ok := head + line(with(with(kv, "ReqNodes", "2"), "AllocNodes", "2"))
		if res, err := Sacct(strings.NewReader(ok), Options{}); err != nil || len(res.Report.Errors) != 0 || res.Jobs[0].Demand == nil || res.Jobs[0].Demand.Nodes != 2 {
			t.Errorf("sacct, readable: %v, %+v", err, res)
		}
	}
	const jc = "JobId=1 UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=5 " +
		"StartTime=2024-03-01T08:00:10 EndTime=2024-03-01T08:01:10 NodeList=n1 NodeCnt=%s ProcCnt=2 " +
		"Tres=cpu=2,mem=4G SubmitTime=2024-03-01T08:00:00\n"
	in := strings.Replace(jc, "%s", "x1", 1)
	res, err := Jobcomp(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep := res.Report; len(res.Jobs) != 1 || rep.Anomalies["unreadable NodeCnt"] != 1 || len(rep.Errors) != 1 || rep.Errors[0].Field != "NodeCnt" || res.Jobs[0].Demand != nil {
		t.Errorf("jobcomp: jobs %+v, anomalies %v, errors %v", res.Jobs, rep.Anomalies, rep.Errors)
	}
	if _, err := Jobcomp(strings.NewReader(in), Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "NodeCnt") {
		t.Errorf("jobcomp, strict: %v, want an error naming NodeCnt", err)
	}
	if res, err := Jobcomp(strings.NewReader(strings.Replace(jc, "%s", "3", 1)), Options{}); err != nil || len(res.Report.Errors) != 0 || res.Jobs[0].Demand == nil || res.Jobs[0].Demand.Nodes != 3 {
		t.Errorf("jobcomp, readable: %v, %+v", err, res)
	}
}
