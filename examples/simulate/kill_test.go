package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// TestKillAccounted runs -kill, alone and with each -compat, on every
// shared log and accounts for every line: read = simulated + rejected +
// skipped, the rejections sum over their reasons, every simulated job
// completed or was cancelled, and a job was killed exactly when its
// user's estimate (never one S6 filled in) is below its logged run time,
// having then run its estimate. A peer mode kills none: both peers cut a
// run to its estimate when they build the job (sched.Peer). -short skips
// the logs of more than 100,000 jobs.
func TestKillAccounted(t *testing.T) {
	for _, tr := range tracetest.All {
		t.Run(tr.Name, func(t *testing.T) {
			if testing.Short() && tr.Jobs > 100000 {
				t.Skip("-short: more than 100,000 jobs")
			}
			p := tracetest.Path(t, tr.Name)
			_, lines, err := swf.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			logged := make(map[int64]swf.Job, len(lines))
			for _, j := range lines {
				logged[j.ID] = j
			}
			for _, compat := range []string{"none", "pyss", "predictsim"} {
				out := filepath.Join(t.TempDir(), "jobs.csv")
				m := runJSON(t, p, "-kill", "-compat", compat, "-jobs-out", out)
				num := func(k string) int { return int(m[k].(float64)) }
				skipped := int(m["reader"].(map[string]any)["skipped"].(float64))
				if num("jobs_read") != len(lines) || num("jobs_read") != num("jobs_simulated")+num("jobs_rejected")+skipped {
					t.Errorf("%s: read %d (%d lines) != simulated %d + rejected %d + skipped %d", compat,
						num("jobs_read"), len(lines), num("jobs_simulated"), num("jobs_rejected"), skipped)
				}
				byReason := 0
				for _, n := range m["rejected"].(map[string]any) {
					byReason += int(n.(float64))
				}
				if byReason != num("jobs_rejected") {
					t.Errorf("%s: %d rejected, %d by reason", compat, num("jobs_rejected"), byReason)
				}
				if num("jobs_completed")+num("cancelled") != num("jobs_simulated") {
					t.Errorf("%s: completed %d + cancelled %d != simulated %d", compat, num("jobs_completed"), num("cancelled"), num("jobs_simulated"))
				}
				f, err := os.Open(out)
				if err != nil {
					t.Fatal(err)
				}
				rows, err := csv.NewReader(f).ReadAll()
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				col := func(name string) int { return slices.Index(rows[0], name) }
				id, run, est, killedC, filled, cancelled := col("id"), col("run"), col("estimate"), col("killed"), col("estimate_filled"), col("cancelled")
				if len(rows)-1 != num("jobs_simulated") {
					t.Errorf("%s: %d rows, %d simulated", compat, len(rows)-1, num("jobs_simulated"))
				}
				killed, wrong := 0, 0
				for _, r := range rows[1:] {
					n, _ := strconv.ParseInt(r[id], 10, 64)
					l := logged[n]
					overran := l.ReqTime > 0 && l.RunTime > l.ReqTime && r[cancelled] == "false"
					if r[killedC] == "true" {
						killed++
						if !overran || r[filled] == "true" || r[run] != r[est] || strconv.FormatInt(l.ReqTime, 10) != r[est] {
							wrong++
						}
					} else if overran && compat == "none" {
						wrong++
					}
				}
				if killed != num("killed") || wrong > 0 || compat != "none" && killed > 0 {
					t.Errorf("%s: %d rows killed, the report %d; %d killed without overrunning a user estimate or not killed although they did",
						compat, killed, num("killed"), wrong)
				}
			}
		})
	}
}
