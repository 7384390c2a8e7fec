package main

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestColumnMapQuoted: -colmap names a column holding a comma, an '=' or
// a quote in double quotes, CSV's way, a unit after them; it split such a
// name at its comma ("\"Wall": want ROLE=COLUMN, or a wrong column).
func TestColumnMapQuoted(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]string
	}{
		{`submit=S,limit=Wall:min`, map[string]string{"submit": "S", "limit": "Wall:min"}},
		{`submit="Submit, UTC",id=Job=ID`, map[string]string{"submit": `"Submit, UTC"`, "id": "Job=ID"}},
		{`limit="Wall, req":min, id="a ""b"", c"`, map[string]string{"limit": `"Wall, req":min`, "id": `"a ""b"", c"`}},
	} {
		got, err := columnMap(c.in)
		if err != nil || !maps.Equal(got, c.want) {
			t.Errorf("%s: %v %q, want %q", c.in, err, got, c.want)
		}
	}
	for _, bad := range []string{`submit="Submit, UTC`, `submit=S,`, `submit,start=S`, `submit=""`, `submit=S,submit="S"`} {
		if m, err := columnMap(bad); err == nil {
			t.Errorf("%s: no error, %q", bad, m)
		}
	}

	// End to end: the header's names with a comma, an '=' and a quote.
	dir := t.TempDir()
	in := filepath.Join(dir, "t.csv")
	table := "\"Job=ID\",\"Submit, UTC\",\"Start, UTC\",End,\"Wall \"\"req\"\", min\",Cores\n" +
		"j1,1700000000,1700000010,1700000100,2,4\n"
	if err := os.WriteFile(in, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "t.swf")
	code, _, stderr := runCmd(t, "", "-from", "gpu", in, "-o", out, "-colmap",
		`id=Job=ID,submit="Submit, UTC",start="start, utc",end=End,limit="Wall ""req"", min":min,procs=Cores`)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, jobs := readSWF(t, out)
	if len(jobs) != 1 || jobs[0].Wait != 10 || jobs[0].RunTime != 90 || jobs[0].ReqTime != 120 || jobs[0].AllocProcs != 4 {
		t.Errorf("%+v", jobs)
	}
	// An unterminated quote is a usage error that says so.
	code, _, stderr = runCmd(t, "", "-from", "gpu", in, "-o", out, "-colmap", `submit="Submit, UTC`)
	if code != exitUsage || !strings.Contains(stderr, "no closing double quote") {
		t.Errorf("unterminated: exit %d, %s", code, stderr)
	}
}

// TestColumnMapMemory: -colmap's reqmem and usedmem reach the SWF's
// fields 10 and 7 (KB per processor) and the demand line.
func TestColumnMapMemory(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.swf")
	table := "Job,Submit,Start,End,Cores,Nodes,ReqMem,MaxRSS\nj1,1700000000,1700000010,1700000100,8,2,4Gn,1024\nj2,1700000000,1700000010,1700000100,8,2,,\n"
	if err := os.WriteFile(in, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "", "-from", "gpu", in, "-o", out, "-colmap",
		"id=Job,submit=Submit,start=Start,end=End,procs=Cores,nodes=Nodes,reqmem=ReqMem,usedmem=MaxRSS:MB")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, jobs := readSWF(t, out)
	if len(jobs) != 2 || jobs[0].ReqMemory != 1<<20 || jobs[0].UsedMemory != 128*1024 || jobs[0].Demand == nil || jobs[0].Demand.Memory != 4096 {
		t.Errorf("%+v", jobs)
	}
	for _, want := range []string{"1  no requested memory", "1  no used memory"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("report lacks %q:\n%s", want, stderr)
		}
	}
}
