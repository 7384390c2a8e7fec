package slurm

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// TestReadNamesConverted converts a jobcomp log with convert's Accounts
// option, writes it as SWF, reads the header back and names every job's
// user, account, partition and QOS as the log did.
func TestReadNamesConverted(t *testing.T) {
	log := strings.Join([]string{
		"JobId=1 UserId=alice(1001) GroupId=staff(100) Name=a JobState=COMPLETED Partition=batch TimeLimit=10 " +
			"StartTime=2024-03-01T08:00:10 EndTime=2024-03-01T08:01:10 NodeList=n1 NodeCnt=1 ProcCnt=2 " +
			"Account=physics QOS=normal SubmitTime=2024-03-01T08:00:00",
		"JobId=2 UserId=bob(1002) GroupId=staff(100) Name=b JobState=COMPLETED Partition=debug TimeLimit=10 " +
			"StartTime=2024-03-01T08:00:20 EndTime=2024-03-01T08:01:10 NodeList=n1 NodeCnt=1 ProcCnt=2 " +
			"Account=chem QOS=high SubmitTime=2024-03-01T08:00:05",
		"JobId=3 UserId=alice(1001) GroupId=staff(100) Name=c JobState=COMPLETED Partition=debug TimeLimit=10 " +
			"StartTime=2024-03-01T08:00:30 EndTime=2024-03-01T08:01:10 NodeList=n1 NodeCnt=1 ProcCnt=2 " +
			"Account=chem QOS=normal SubmitTime=2024-03-01T08:00:07",
	}, "\n")
	res, err := convert.Jobcomp(strings.NewReader(log), convert.Options{Accounts: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := swf.WriteAll(&buf, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(&buf)
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var c Config
	if err := c.ReadNames(*h); err != nil {
		t.Fatal(err)
	}
	want := []struct{ user, account, partition, qos string }{
		{"alice", "physics", "batch", "normal"},
		{"bob", "chem", "debug", "high"},
		{"alice", "chem", "debug", "normal"},
	}
	for k, j := range jobs {
		got := [4]string{c.UserNames[j.User], c.AccountNames[j.Group], c.PartitionNames[j.Queue], c.QOSNames[j.Partition]}
		if w := want[k]; got != [4]string{w.user, w.account, w.partition, w.qos} {
			t.Errorf("job %d named %q, want %+v", j.ID, got, w)
		}
	}
}

func TestReadNames(t *testing.T) {
	h := swf.Header{
		// An archive log's tables: numbers from 0, one unnamed.
		Queue:     []string{"0  interactive", "1  batch", "2"},
		Partition: []string{" 1  pbatch "},
		Other:     []swf.KeyValue{{Key: "User", Value: "7 erin"}, {Key: "Group", Value: "1 staff"}},
	}
	c := Config{AccountNames: map[int64]string{1: "stale"}}
	if err := c.ReadNames(h); err != nil {
		t.Fatal(err)
	}
	if want := map[int64]string{0: "interactive", 1: "batch"}; !maps.Equal(c.PartitionNames, want) {
		t.Errorf("PartitionNames %v, want %v", c.PartitionNames, want)
	}
	if !maps.Equal(c.QOSNames, map[int64]string{1: "pbatch"}) || !maps.Equal(c.UserNames, map[int64]string{7: "erin"}) {
		t.Errorf("QOSNames %v, UserNames %v", c.QOSNames, c.UserNames)
	}
	// Unix groups are not accounts: no Account lines, no account names.
	if c.AccountNames != nil {
		t.Errorf("AccountNames %v from Group lines", c.AccountNames)
	}
	for _, bad := range []swf.Header{
		{Queue: []string{"x batch"}},
		{Other: []swf.KeyValue{{Key: "Account", Value: "1 a"}, {Key: "Account", Value: "1 b"}}},
		{Partition: []string{"-1 p"}},
	} {
		if err := (&Config{}).ReadNames(bad); err == nil {
			t.Errorf("ReadNames(%+v) = nil, want an error", bad)
		}
	}
}
