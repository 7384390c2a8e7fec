package convert

import (
	"errors"
	"strings"
	"testing"
)

// Pod lists concatenated, each with its header: one with the same columns
// in another order applies from there on; one with other columns (the
// multigpu20 list has no times) is an error. Read as rows, the second
// header was a malformed record and the rows behind it were read by the
// first header's columns: every multigpu20 pod "no submit time", the
// reordered list's pods malformed or wrong.
func TestAlibabaOtherHeader(t *testing.T) {
	const first = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n" +
		"p1,4000,8192,1,1000,,LS,Succeeded,10,100,20\n" +
		"p2,2000,4096,0,0,,BE,Failed,30,90,40\n"
	const swapped = "scheduled_time,deletion_time,creation_time,pod_phase,qos,gpu_spec,gpu_milli,num_gpu,memory_mib,cpu_milli,name\n" +
		"60,200,50,Succeeded,LS,,500,1,1024,8000,p3\n"
	res, err := Alibaba(strings.NewReader(first+swapped), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.Jobs != 3 || rep.Records != 4 || rep.Skipped["another header line"] != 1 || rep.Skipped[skipMalformed] != 0 {
		t.Fatalf("%d records, %d jobs, skipped %v; want 4 records, 3 jobs, the header skipped", rep.Records, rep.Jobs, rep.Skipped)
	}
	if j := res.Jobs[2]; res.IDs[2] != "p3" || j.Submit != 50 || j.Wait != 10 || j.RunTime != 140 {
		t.Errorf("the third pod: %s %+v; want p3 submitted at 50 (the trace's clock), wait 10, run 140", res.IDs[2], j)
	}
	const noTimes = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np4,1000,1024,0,0\n"
	_, err = Alibaba(strings.NewReader(first+noTimes), Options{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 {
		t.Errorf("a list without times after one with: %v; want an error at line 4", err)
	}
}

// A pod row holding a column's name as a value (a pod named "cpu_milli")
// is a row, not a header: it stopped the conversion ("another header line
// with other columns").
func TestAlibabaRowLikeHeader(t *testing.T) {
	const list = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n" +
		"p1,4000,8192,1,1000,,LS,Succeeded,10,100,20\n" +
		"cpu_milli,2000,4096,0,0,,BE,Failed,30,90,40\n" +
		"p3,2000,4096,0,0,,BE,Failed,50,90,60\n"
	res, err := Alibaba(strings.NewReader(list), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep := res.Report; rep.Jobs != 3 || len(rep.Skipped) != 0 || res.IDs[1] != "cpu_milli" {
		t.Errorf("%d jobs %v, skipped %v; want 3, the pod named cpu_milli among them", rep.Jobs, res.IDs, rep.Skipped)
	}
}
