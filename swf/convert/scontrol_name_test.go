package convert

import (
	"os"
	"strings"
	"testing"
)

// A scontrol job name holding "KEY=value" tokens ("x JobState=COMPLETED
// NumCPUs=99 ...") is the name, not the job's fields: the first value of
// a key was kept, and the name's came before the real ones, so that a
// running job was read finished (and left out), with 99 CPUs and the
// name's start. A Comment line holding TresPerNode= (before the real one)
// is a comment too. Both shapes of the real Slurm 22.05 output: records
// of lines (-d, JobName last on the first line, Nodes= ... repeated per
// node group) and one line (-o, JobName followed by UserId=).
func TestScontrolNameHoldsKeys(t *testing.T) {
	const name = "x  JobState=COMPLETED NumCPUs=99 StartTime=2020-01-01T00:00:00 UserId=evil(9) Partition=p"
	first := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rec, _, _ := strings.Cut(string(data), "\nJobId=2 ")
		return strings.Replace(strings.TrimRight(rec, " \n")+"\n", "JobName=wide", "JobName="+name, 1)
	}
	lines := first("testdata/snapshot/real-22.05/2-scontrol-show-job-d.txt")
	lines = strings.Replace(lines, "   WorkDir=", "   Comment=y TresPerNode=gres:gpu:8 JobState=FAILED\n   WorkDir=", 1)
	for _, in := range []string{lines, first("testdata/snapshot/real-22.05/1-scontrol-show-job-o.txt")} {
		s, err := QueueSnapshot(strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Running) != 1 {
			t.Fatalf("%d running, %d waiting, report %+v\n%s", len(s.Running), len(s.Waiting), s.Report, in)
		}
		j := s.Running[0]
		if j.Name != name || j.State != "RUNNING" || j.CPUs != 6 || j.User != "root" || j.Partition != "long" ||
			j.Start != 1795885227 || j.Demand != nil && j.Demand.GPUs != 0 {
			t.Errorf("%+v (demand %+v)", j, j.Demand)
		}
	}
}

// With -o, a heterogeneous job's HetJobIdSet= comes between JobName= and
// UserId= (Slurm prints it on its own line without -o): it is not part of
// the name (it was, "hj HetJobIdSet=1-2", once the name ran to UserId=).
func TestScontrolOneLineHetJobIdSet(t *testing.T) {
	data, err := os.ReadFile("testdata/snapshot/real-22.05/1-scontrol-show-job-o.txt")
	if err != nil {
		t.Fatal(err)
	}
	rec, _, _ := strings.Cut(string(data), "\n")
	rec = strings.Replace(rec, "JobName=wide UserId=", "JobName=h j HetJobIdSet=1-2 UserId=", 1) + "\n"
	s, err := QueueSnapshot(strings.NewReader(rec), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Running) != 1 || s.Running[0].Name != "h j" || s.Running[0].User != "root" {
		t.Fatalf("%+v\n%+v", s.Running, s.Report)
	}
}
