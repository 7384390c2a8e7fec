package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// TestParseTRES pins AllocTRES's reading: the memory in MB from sacct's
// units, the GPUs from gres/gpu, the other TRES passed over; a malformed
// amount is an error, not a zero (an empty "mem=" indexed its last byte).
func TestParseTRES(t *testing.T) {
	for _, c := range []struct {
		in        string
		mem, gpus int64
		err       string
	}{
		{"billing=2,cpu=2,gres/gpu=1,mem=3000M,node=1", 3000, 1, ""},
		{"cpu=1,mem=2.5G,node=1", 2560, 0, ""},
		{"cpu=1,mem=512K", 1, 0, ""},
		{"", 0, 0, ""},
		{"cpu=1,mem=,node=1", 0, 0, "want a size"},
		{"mem=12X", 0, 0, "want a size"},
		{"mem=-3M", 0, 0, "not a size"},
		{"mem=1e30T", 0, 0, "not a size"},
		{"mem=NaNM", 0, 0, "not a size"},
		{"gres/gpu=-1", 0, 0, "not a count"},
		{"gres/gpu=x", 0, 0, "not a count"},
		{"cpu", 0, 0, "not KEY=VALUE"},
	} {
		mem, gpus, err := parseTRES(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v; want one with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || mem != c.mem || gpus != c.gpus {
			t.Errorf("%q: %d MB, %d GPUs, %v; want %d, %d", c.in, mem, gpus, err, c.mem, c.gpus)
		}
	}
}

// TestGresRecordingRefused: a recording of the site of memory and GPUs
// whose sacct shows other memory or GPUs than the workload asked, whose
// workload asks a negative amount or more than a node holds, or whose
// nodes differ, is refused with the reason, not simulated with a demand
// Slurm did not see.
func TestGresRecordingRefused(t *testing.T) {
	b, err := os.ReadFile(gresPaths[0])
	if err != nil {
		t.Fatal(err)
	}
	job := func(r map[string]any, k int) map[string]any { return r["workload"].([]any)[k].(map[string]any) }
	for _, c := range []struct {
		edit func(r map[string]any)
		want string
	}{
		{func(r map[string]any) {
			r["sacct"] = sacctField(r["sacct"].(string), 1, 14, "billing=1,cpu=1,mem=1M,node=1")
		}, "sacct's AllocTRES shows 1 MB"},
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 1, 14, "mem=") }, "field 15 (AllocTRES)"},
		{func(r map[string]any) { job(r, 0)["mem_mb"] = -1 }, "want none or more"},
		{func(r map[string]any) {
			r["slurm_conf"] = strings.Replace(r["slurm_conf"].(string), "RealMemory=4000", "RealMemory=100", -1)
		}, "above a node's 100 MB"},
		{func(r map[string]any) {
			r["slurm_conf"] = strings.Replace(r["slurm_conf"].(string), "Gres=gpu:4", "Gres=gpu:2", 1)
		}, "differ"},
		{func(r map[string]any) {
			r["slurm_conf"] = strings.Replace(r["slurm_conf"].(string), "Gres=gpu:4", "Gres=gpu:x", -1)
		}, "want gpu:N"},
	} {
		var r map[string]any
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		c.edit(r)
		e, _ := json.Marshal(r)
		rec, err := decodeRecording(e, "x.json")
		if err == nil {
			_, err = compare(rec)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want one with %q", err, c.want)
		}
	}
}

// TestRecordFile: BATCHQ_UPDATE_README=1 rewrites the default site's
// first recording with a run of that site only; a run of another site
// (gres) is refused before Slurm starts, where it was written over
// testdata/live.json. BATCHQ_SLURMCHECK_RECORD names any file.
func TestRecordFile(t *testing.T) {
	gres := siteNamed(t, "gres")
	for _, c := range []struct {
		ls             *liveSite
		record, update string
		want, err      string
	}{
		{&liveSites[0], "", "1", recordPath, ""},
		{gres, "", "1", "", "BATCHQ_SLURMCHECK_RECORD"},
		{gres, "x.json", "1", "x.json", ""},
		{gres, "", "", "", ""},
	} {
		t.Setenv("BATCHQ_SLURMCHECK_RECORD", c.record)
		t.Setenv(readme.UpdateEnv, c.update)
		got, err := recordFile(c.ls)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("site %s, RECORD=%q, update %q: %q, %v; want %q, an error with %q", c.ls.Name, c.record, c.update, got, err, c.want, c.err)
		}
	}
}
