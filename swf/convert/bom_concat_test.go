package convert

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestByteOrderMarkEachFileConcatenated: files that each begin with a
// byte-order mark, concatenated (cat a b, io.MultiReader), convert as
// they do without the marks. The second mark began a line: sacct's second
// header lacked JobID (the conversion failed), the second file's first
// PBS or jobcomp record was malformed (a table, Helios's, read it already).
func TestByteOrderMarkEachFileConcatenated(t *testing.T) {
	const bom = "\ufeff"
	for _, c := range []struct {
		name string
		conv func(io.Reader) (*Result, error)
		a, b string
	}{
		{"sacct", func(r io.Reader) (*Result, error) { return Sacct(r, Options{}) },
			"JobID|State|Submit|Start|End|AllocCPUS\n1|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|4\n",
			"JobID|State|Submit|Start|End|AllocCPUS\n2|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|4\n"},
		{"pbs", func(r io.Reader) (*Result, error) { return PBS(r, Options{}) },
			"04/01/2024 10:00:05;E;1.srv;user=u ctime=1711965600 start=1711965605 end=1711965665 exec_host=n1/0 Exit_status=0\n",
			"04/01/2024 10:00:05;E;2.srv;user=u ctime=1711965600 start=1711965605 end=1711965665 exec_host=n1/0 Exit_status=0\n"},
		{"jobcomp", func(r io.Reader) (*Result, error) { return Jobcomp(r, Options{}) },
			"JobId=1 UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=10 StartTime=2024-01-01T00:01:00 EndTime=2024-01-01T00:02:00 NodeList=n1 NodeCnt=1 ProcCnt=2 SubmitTime=2024-01-01T00:00:00 DerivedExitCode=0:0 ExitCode=0:0\n",
			"JobId=2 UserId=u(1) GroupId=g(1) Name=x JobState=COMPLETED Partition=p TimeLimit=10 StartTime=2024-01-01T00:01:00 EndTime=2024-01-01T00:02:00 NodeList=n1 NodeCnt=1 ProcCnt=2 SubmitTime=2024-01-01T00:00:00 DerivedExitCode=0:0 ExitCode=0:0\n"},
		{"helios", func(r io.Reader) (*Result, error) { return GPUTrace(r, Options{}) },
			"job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration\n1,u,v,8,48,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:04,2020-07-01 11:30:04,9000\n",
			"job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration\n2,u,v,8,48,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:04,2020-07-01 11:30:04,9000\n"},
	} {
		plain, err := c.conv(strings.NewReader(c.a + c.b))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		marked, err := c.conv(io.MultiReader(strings.NewReader(bom+c.a), strings.NewReader(bom+c.b)))
		if err != nil {
			t.Errorf("%s with a mark in each file: %v", c.name, err)
			continue
		}
		if len(plain.Jobs) != 2 || !reflect.DeepEqual(marked.Jobs, plain.Jobs) || !reflect.DeepEqual(marked.Report.Skipped, plain.Report.Skipped) {
			t.Errorf("%s with a mark in each file: %d jobs, skipped %v, errors %v; want %d, %v", c.name,
				len(marked.Jobs), marked.Report.Skipped, marked.Report.Errors, len(plain.Jobs), plain.Report.Skipped)
		}
	}
}
