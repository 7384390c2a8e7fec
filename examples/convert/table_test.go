package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tableCases are the hand-written HPC job tables of swf/convert/testdata
// with the flags that read them.
var tableCases = []struct {
	file string
	args []string
	jobs int
}{
	{"table-supercloud.csv", nil, 5},
	{"table-alcf.csv", []string{"-cores-per-node", "64"}, 3},
	{"table-generic.tsv", []string{"-cores-per-node", "56", "-colmap",
		"id=JobID,submit=Submitted,start=Started,end=Ended,nodes=Nodes,limit=Wall:min,user=User,group=Account,queue=Partition,state=Result"}, 3},
}

// TestTables converts each job table with -from gpu, its flags checked:
// -colmap and -cores-per-node need -from gpu, a malformed -colmap is a
// usage error, a column it names that the header lacks a run error.
func TestTables(t *testing.T) {
	dir := t.TempDir()
	for _, c := range tableCases {
		out := filepath.Join(dir, c.file+".swf")
		args := append([]string{"-from", "gpu", testdata + c.file, "-o", out, "-json"}, c.args...)
		code, stdout, stderr := runCmd(t, "", args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.file, code, stderr)
		}
		var rep struct{ Jobs int }
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Jobs != c.jobs {
			t.Errorf("%s: %v, %d jobs, want %d", c.file, err, rep.Jobs, c.jobs)
		}
		_, jobs := readSWF(t, out)
		if len(jobs) != c.jobs {
			t.Errorf("%s: %d jobs in the SWF", c.file, len(jobs))
		}
	}
	// The README's worked examples.
	code, _, stderr := runCmd(t, "", "-from", "gpu", testdata+"table-alcf.csv", "-cores-per-node", "64", "-o", filepath.Join(dir, "theta.swf"))
	if code != exitOK {
		t.Fatal(stderr)
	}
	checkReadmeBlock(t, "table-alcf", stderr)
	code, _, stderr = runCmd(t, "", append([]string{"-from", "gpu", testdata + "table-generic.tsv", "-o", filepath.Join(dir, "site.swf")},
		tableCases[2].args...)...)
	if code != exitOK {
		t.Fatal(stderr)
	}
	checkReadmeBlock(t, "table-colmap", stderr)
	for _, args := range [][]string{
		{"-from", "sacct", "-cores-per-node", "4", testdata + "table-alcf.csv"},
		{"-from", "gpu", "-colmap", "submit", testdata + "table-alcf.csv"},
		{"-from", "gpu", "-colmap", "submit=a,submit=b", testdata + "table-alcf.csv"},
		{"-from", "gpu", "-colmap", "wait=a,submit=b", testdata + "table-alcf.csv"},
		{"-from", "gpu", "-cores-per-node", "-1", testdata + "table-alcf.csv"},
	} {
		if code, _, stderr := runCmd(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
	code, _, stderr = runCmd(t, "", "-from", "gpu", "-colmap", "submit=NOPE", testdata+"table-alcf.csv", "-o", filepath.Join(dir, "x.swf"))
	if code != exitError || !strings.Contains(stderr, "submit=nope: the header has no such column") {
		t.Errorf("missing column: exit %d, %s", code, stderr)
	}
	code, _, stderr = runCmd(t, "", "-from", "sacct", testdata+"table-supercloud.csv", "-o", filepath.Join(dir, "x.swf"))
	if code != exitError || !strings.HasSuffix(stderr, "; run with -from gpu\n") {
		t.Errorf("-from sacct on a SuperCloud table: exit %d, %s", code, stderr)
	}
}

// TestTablesEndToEnd: each converted table is usable as it is: simulate
// (with -check) and forecast read it and run to the end.
func TestTablesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds simulate and forecast")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bins := map[string]string{}
	for _, cmd := range []string{"simulate", "forecast"} {
		bins[cmd] = filepath.Join(dir, cmd)
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bins[cmd], "../"+cmd).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", cmd, err, out)
		}
	}
	for _, c := range tableCases {
		trace := filepath.Join(dir, c.file+".swf")
		args := append([]string{"-from", "gpu", testdata + c.file, "-o", trace}, c.args...)
		if code, _, stderr := runCmd(t, "", args...); code != exitOK {
			t.Fatalf("%s: %s", c.file, stderr)
		}
		out, err := exec.CommandContext(ctx, bins["simulate"], "-machine", "16384", "-check", "-json", trace).Output()
		if err != nil {
			t.Fatalf("simulate %s: %v\n%s", c.file, err, out)
		}
		var sim struct {
			Read      int    `json:"jobs_read"`
			Simulated int    `json:"jobs_simulated"`
			Rejected  int    `json:"jobs_rejected"`
			Check     string `json:"check"`
		}
		if err := json.Unmarshal(out, &sim); err != nil || sim.Read != c.jobs || sim.Simulated == 0 ||
			sim.Simulated+sim.Rejected != sim.Read || sim.Check != "ok" {
			t.Errorf("simulate %s: %v, %+v", c.file, err, sim)
		}
		t.Logf("simulate %s: %+v", c.file, sim)
		out, err = exec.CommandContext(ctx, bins["forecast"], "-machine", "16384", "-json", trace).Output()
		if err != nil || len(strings.TrimSpace(string(out))) == 0 {
			t.Errorf("forecast %s: %v\n%s", c.file, err, out)
		}
	}
}
