package convert

import (
	"fmt"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// The files in testdata/slurm-22.05 come from a real Slurm 22.05.8
// single-node cluster (8 CPUs, partitions short with MaxTime 2 min and long
// with MaxTime 10 min) running the workload of run2-workload.txt: a job
// that hits its 1-minute limit, a job exiting 3, a job cancelled while
// running, one cancelled while pending, an array 0-5, jobs that queue. The
// sacct column set is SacctFormat (the -X file has no steps, the "broad"
// one other columns). See testdata/slurm-22.05/README.

// byName indexes the jobs of res by their executable (job) name.
func byName(res *Result) map[string][]swf.Job {
	names := map[int64]string{}
	for _, kv := range res.Header.Other {
		if kv.Key == "Executable" {
			var k int64
			var name string
			fmt.Sscanf(kv.Value, "%d %s", &k, &name)
			names[k] = name
		}
	}
	out := map[string][]swf.Job{}
	for _, j := range res.Jobs {
		out[names[j.Executable]] = append(out[names[j.Executable]], j)
	}
	return out
}

func TestRealSlurm(t *testing.T) {
	dir := "testdata/slurm-22.05/"
	for _, run := range []string{"run1", "run2"} {
		results := map[string]*Result{
			"sacct":      convertFile(t, "sacct", dir+run+"-sacct-parsable2.txt", Options{}),
			"sacct-json": convertFile(t, "sacct-json", dir+run+"-sacct.json.gz", Options{}),
			"jobcomp":    convertFile(t, "jobcomp", dir+run+"-jobcomp.txt", Options{}),
		}
		if run == "run1" {
			results["sacct -X"] = convertFile(t, "sacct", dir+"run1-sacct-parsable2-X.txt", Options{})
			results["sacct broad"] = convertFile(t, "sacct", dir+"run1-sacct-parsable2-broad.txt", Options{})
		}
		for name, res := range results {
			what := run + " " + name
			r := res.Report
			if r.Jobs != 19 || len(r.Skipped) != 0 || len(r.Errors) != 0 || r.States["COMPLETED"] != 15 {
				t.Errorf("%s: report %+v", what, r)
			}
			jobs := byName(res)
			// hits its 1-minute limit: kept, status 0, run time past the limit.
			if j := jobs["timeout"]; len(j) != 1 || j[0].Status != 0 || j[0].ReqTime != 60 || j[0].RunTime < 60 {
				t.Errorf("%s: timeout job %+v", what, j)
			}
			// exits 3: status 0 from the state, whatever the exit code says.
			if j := jobs["failed"]; len(j) != 1 || j[0].Status != 0 {
				t.Errorf("%s: failed job %+v", what, j)
			}
			if j := jobs["cancel-running"]; len(j) != 1 || j[0].Status != 5 || j[0].Wait < 0 || j[0].RunTime <= 0 || j[0].AllocProcs != 1 {
				t.Errorf("%s: cancel-running job %+v", what, j)
			}
			if j := jobs["cancel-pending"]; len(j) != 1 || j[0].Status != 5 || j[0].Wait != -1 || j[0].RunTime != -1 || j[0].AllocProcs != -1 {
				t.Errorf("%s: cancel-pending job %+v", what, j)
			}
			if j := jobs["whole-node"]; len(j) != 1 || j[0].AllocProcs != 8 || j[0].Wait <= 0 {
				t.Errorf("%s: whole-node job %+v", what, j)
			}
			if n := len(jobs["array"]); n != 6 {
				t.Errorf("%s: %d array tasks, want 6", what, n)
			}
			tasks := 0
			for _, id := range res.IDs {
				if strings.HasPrefix(id, "5_") {
					tasks++
				}
			}
			if tasks != 6 {
				t.Errorf("%s: ids %q", what, res.IDs)
			}
			for k, j := range res.Jobs {
				if j.ReqTime <= 0 || j.ReqTime%60 != 0 {
					t.Errorf("%s: job %s requested time %d, want the limit in whole minutes", what, res.IDs[k], j.ReqTime)
				}
			}
		}
		// The JSON reports exit code 0 for the job that exited 3 (Slurm 22.05).
		if n := results["sacct-json"].Report.Anomalies[noteFailedExit0]; n != 1 {
			t.Errorf("%s: %d FAILED jobs with exit code 0 in sacct --json, want 1", run, n)
		}
		// The formats agree on every field they all carry.
		base := results["sacct"]
		for name, res := range results {
			for k, j := range res.Jobs {
				if res.IDs[k] != base.IDs[k] {
					t.Fatalf("%s %s: job %d is %s, in sacct %s", run, name, k+1, res.IDs[k], base.IDs[k])
				}
				g, w := fields(j), fields(base.Jobs[k])
				for i := range g {
					switch i {
					case 5, 6, 7: // average CPU time, used memory, requested processors
						if name == "jobcomp" || name == "sacct -X" || name == "sacct broad" || i == 5 {
							continue // absent, or (CPU time) summed from steps differently
						}
					}
					if g[i] != w[i] {
						t.Errorf("%s %s: job %s field %s = %v, sacct says %v", run, name, res.IDs[k], swf.FieldName(i), g[i], w[i])
					}
				}
			}
		}
	}
}

// TestRealSlurmMidRun converts sacct --json taken while the workload ran
// (run2, 6 s in): the finished job is written, the others skipped with
// their state, the array's pending tasks ("task": "0x3C") as one record.
func TestRealSlurmMidRun(t *testing.T) {
	res := convertFile(t, "sacct-json", "testdata/slurm-22.05/run2-midrun-sacct.json.gz", Options{})
	if len(res.Jobs) != 1 || res.IDs[0] != "3" || res.Jobs[0].Status != 0 {
		t.Errorf("jobs %v %+v", res.IDs, res.Jobs)
	}
	checkCounts(t, "skipped", res.Report.Skipped, map[string]int{"not finished at dump (RUNNING)": 5,
		"not finished at dump (PENDING)": 4, "pending array tasks": 1})
}
