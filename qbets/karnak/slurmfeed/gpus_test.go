package slurmfeed

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/karnak"
)

// The GPUs of real Slurm 22.05 outputs (scripts/slurm-cluster.sh, its
// node's 4 GPUs): job 1 ran with --gres=gpu:2, job 2 waited for
// --gpus=3, job 3 (--gpus=4) was cancelled while waiting, job 4 asked
// for none. squeue shows them in tres_alloc_str or, waiting,
// tres_req_str; sacct in tres.allocated or, never allocated,
// tres.requested (type gres, name gpu).
func TestParseGPUs22_05(t *testing.T) {
	want := map[string]int64{"1": 2000, "2": 3000, "3": 4000, "4": 0}
	for _, c := range []struct {
		file  string
		parse func([]byte) ([]job, error)
	}{{"squeue-gpu-22.05.json", parseSqueue}, {"sacct-gpu-22.05.json", parseSacct}} {
		jobs, err := c.parse(readTestdata(t, c.file))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, j := range jobs {
			if j.bad != "" {
				t.Errorf("%s: job %s: %s", c.file, j.key, j.bad)
			}
			got[j.key] = j.gpus
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: GPUs (thousandths) %v, want %v", c.file, got, want)
		}
	}
}

func TestGPUsOf(t *testing.T) {
	for tres, want := range map[string]string{
		"":                       "0",
		"cpu=8,mem=4000M,node=1": "0",
		"cpu=1,mem=4000M,node=1,billing=1,gres/gpu=2":  "2000",
		"cpu=1,gres/gpu=2,gres/gpu:a100=2":             "2000", // the total beside a typed count
		"cpu=1,gres/gpu:a100=1,gres/gpu:v100=2":        "3000", // typed counts only
		"cpu=1,gres/gpumem=4G,gres/mps=100,gres/gpu=0": "0",
		"gres/gpu=lots":             `0 "gres/gpu=lots"`,
		"gres/gpu=-1":               `0 "gres/gpu=-1"`,
		"gres/gpu:a100=99999999999": `0 "gres/gpu:a100=99999999999"`,
	} {
		n, bad := gpusOf(tres)
		got := fmt.Sprint(n)
		if bad != "" {
			got += " " + bad
		}
		if got != want {
			t.Errorf("gpusOf(%q) = %s, want %s", tres, got, want)
		}
	}
	// An unreadable count makes the record bad (counted), not a job
	// without GPUs.
	jobs, err := parseSqueue([]byte(`{"jobs":[{"job_id":1,"job_state":"PENDING","submit_time":10,"partition":"short","cpus":1,"tres_req_str":"cpu=1,gres/gpu=x"}]}`))
	if err != nil || len(jobs) != 1 || !strings.Contains(jobs[0].bad, "tres_req_str: GPU count") {
		t.Errorf("squeue with an unreadable GPU count: %+v, %v", jobs, err)
	}
	jobs, err = parseSacct([]byte(`{"jobs":[{"job_id":1,"state":{"current":"COMPLETED"},"time":{"submission":10,"start":11,"end":12},"partition":"short",` +
		`"tres":{"allocated":[{"type":"gres","name":"gpu","count":-3}]}}]}`))
	if err != nil || len(jobs) != 1 || !strings.Contains(jobs[0].bad, "GPU count") {
		t.Errorf("sacct with a negative GPU count: %+v, %v", jobs, err)
	}
}

// The collector sends a job's GPUs with its submit, from squeue (waiting)
// or from sacct (a job that only sacct shows), and the service shows them
// with its waiting jobs.
func TestFeedGPUs(t *testing.T) {
	f := scenario()
	f.jobs[1].gpus = 2 // job 2 waits
	f.jobs = append(f.jobs, &fakeJob{id: 30, state: "COMPLETED", submit: t0 + 1, start: t0 + 2, end: t0 + 8, limit: 2,
		partition: "short", cpus: 1, gpus: 4, ran: true, purged: true})
	c, tp, _ := newTest(t, f, "")
	mustPoll(t, c)
	got := map[int64]int64{}
	for _, e := range tp.events {
		if e.Kind == "submit" {
			got[e.Job] = e.GPUs
		}
	}
	if got[2] != 2000 || got[30] != 4000 || got[1] != 0 || got[4] != 0 {
		t.Errorf("submits' GPUs (thousandths): %v, want 2000 for job 2, 4000 for job 30, none for the others", got)
	}
	srv := httptest.NewServer(tp.svc.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/karnak/system/c1/job/waiting.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ws []karnak.WaitingJob
	if err := json.NewDecoder(resp.Body).Decode(&ws); err != nil {
		t.Fatal(err)
	}
	shown := map[int64]int64{}
	for _, w := range ws {
		shown[w.Job] = w.GPUs
	}
	if g, ok := shown[2]; !ok || g != 2000 || shown[4] != 0 {
		t.Errorf("the service's waiting jobs: %+v, want job 2 with 2000", ws)
	}
}
