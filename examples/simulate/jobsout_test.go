package main

import (
	"encoding/csv"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestJobsOutNodes: on a machine of nodes, -jobs-out carries each job's
// demand and the nodes it got, and -out keeps the demands as `;=` lines
// that swf reads back. By hand on machineCSV/podsCSV under first fit:
// p1 holds the GPU node (node 0): its 4 cores, 500 MiB, both GPUs; p2
// follows it there with one GPU; p3 (arriving at 30, node 0 full) goes to
// the first CPU node, node 1.
func TestJobsOutNodes(t *testing.T) {
	dir := t.TempDir()
	nodes := writeTrace(t, dir, "machine.csv", machineCSV)
	pods := writeTrace(t, dir, "pods.csv", podsCSV)
	jobsOut, out := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "sched.swf")
	// No -check: -jobs-out alone must keep the shares.
	if code, _, errs := runCmd(t, pods, "-nodes", nodes, "-jobs-out", jobsOut, "-out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(string(mustRead(t, jobsOut)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	want := []map[string]string{
		{"demand_nodes": "1", "demand_cores": "4", "demand_memory": "500", "demand_gpus": "2000", "gpu_models": "", "exclusive": "false", "nodes": "0", "held": "4/500/2000"},
		{"demand_nodes": "1", "demand_cores": "4", "demand_memory": "500", "demand_gpus": "1000", "gpu_models": "A100", "nodes": "0", "held": "4/500/1000"},
		{"demand_nodes": "1", "demand_cores": "2", "demand_memory": "100", "demand_gpus": "0", "nodes": "1", "held": "2/100/0"},
	}
	if len(rows) != len(want)+1 {
		t.Fatalf("%d rows, want a header and %d", len(rows), len(want))
	}
	for i, w := range want {
		for k, v := range w {
			c, ok := col[k]
			if !ok {
				t.Fatalf("no column %q in %v", k, rows[0])
			}
			if rows[i+1][c] != v {
				t.Errorf("row %d (%s) %s = %q, want %q", i+1, rows[i+1][0], k, rows[i+1][c], v)
			}
		}
	}

	// -out: every simulated pod with its demand, read back by swf.
	_, jobs, err := swf.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("-out: %d jobs, want 3", len(jobs))
	}
	for i, j := range jobs {
		d := j.Demand
		if d == nil || d.Nodes != 1 || d.Cores != []int64{4, 4, 2}[i] || d.GPUs != []int64{2000, 1000, 0}[i] {
			t.Errorf("-out job %d: demand %+v", j.ID, d)
		}
	}
	if d := jobs[1].Demand; d == nil || len(d.GPUModels) != 1 || d.GPUModels[0] != "A100" {
		t.Errorf("-out job 2: models %+v", d)
	}
	// An 18-field reader that skips ';' lines sees every job line.
	n := 0
	for _, l := range strings.Split(string(mustRead(t, out)), "\n") {
		if l != "" && !strings.HasPrefix(l, ";") {
			if len(strings.Fields(l)) != 18 {
				t.Errorf("-out line of %d fields: %q", len(strings.Fields(l)), l)
			}
			n++
		}
	}
	if n != 3 {
		t.Errorf("-out: %d job lines, want 3", n)
	}

	// An SWF job without a demand spread over two nodes (first fit: 3
	// cores of the first, 3 of the second); no demand columns.
	spread := writeTrace(t, dir, "spread.swf", "; MaxProcs: 8\n1 0 0 10 6 -1 -1 6 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
	two := writeTrace(t, dir, "two.csv", "kind,count,cores\na,1,3\nb,1,5\n")
	sp := filepath.Join(dir, "spread.csv")
	if code, _, errs := runCmd(t, spread, "-nodes", two, "-jobs-out", sp); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err = csv.NewReader(strings.NewReader(string(mustRead(t, sp)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[1]; r[col["nodes"]] != "0 1" || r[col["held"]] != "3/0/0 3/0/0" || r[col["demand_cores"]] != "" {
		t.Errorf("spread job: nodes %q, held %q, demand_cores %q; want \"0 1\", \"3/0/0 3/0/0\", \"\"", r[col["nodes"]], r[col["held"]], r[col["demand_cores"]])
	}

	// One pool: the demand and node columns are empty.
	p := writeTrace(t, dir, "small.swf", small)
	pool := filepath.Join(dir, "pool.csv")
	if code, _, errs := runCmd(t, p, "-jobs-out", pool); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err = csv.NewReader(strings.NewReader(string(mustRead(t, pool)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		if r[col["demand_cores"]] != "" || r[col["nodes"]] != "" || r[col["held"]] != "" {
			t.Errorf("pool row %v: demand or nodes set", r)
		}
	}
}

// TestJobsOutPeerSubmit: a peer mode moves a line submitted at −1 or 0
// that it simulates as a 1-second job to 1 (sched.Peer), and -jobs-out's
// submit is that time, so that start − submit is the wait, as in the
// peers' own output (pyss and predictsim print 1 for such a job; the
// log's −1 was printed before). Job 3, a valid line at 0, stays at 0.
func TestJobsOutPeerSubmit(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 4\n"+
		"1 -1 -1 300 2 -1 -1 2 600 -1 1 1 -1 -1 -1 -1 -1 -1\n"+
		"2 0 -1 -1 2 -1 -1 2 600 -1 1 1 -1 -1 -1 -1 -1 -1\n"+
		"3 0 -1 50 4 -1 -1 4 600 -1 1 1 -1 -1 -1 -1 -1 -1\n")
	for _, peer := range []string{"pyss", "predictsim"} {
		jobsOut := filepath.Join(dir, peer+".csv")
		if code, _, errs := runCmd(t, trace, "-compat", peer, "-jobs-out", jobsOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", peer, code, errs)
		}
		rows, err := csv.NewReader(strings.NewReader(string(mustRead(t, jobsOut)))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		// id, submit, wait, start: job 3 (4 processors) runs [0, 50),
		// then 1 and 2, moved to 1, wait until 50.
		want := [][]string{{"1", "1", "49", "50"}, {"2", "1", "49", "50"}, {"3", "0", "0", "0"}}
		if len(rows) != len(want)+1 {
			t.Fatalf("%s: %d rows, want a header and %d jobs: %q", peer, len(rows), len(want), rows)
		}
		for i, w := range want {
			if got := rows[i+1][:4]; !slices.Equal(got, w) {
				t.Errorf("%s: row %d id, submit, wait, start = %v, want %v", peer, i+1, got, w)
			}
		}
	}
}
