package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
)

// The Slurm policy's named-node plan parting from the machine
// (slurm.Policy.PlanMisses: cycles planned on the pool, starts the
// machine refused) is a warning, in the text and in -json's warnings and
// warning_data, which a user needs to trust the schedule; none while
// both are 0 (TestSlurmNamedNodes' run has none). They were visible to
// sched/slurm's tests only.
func TestSlurmPlanMissesWarned(t *testing.T) {
	info := &runInfo{trace: &trace{}, res: &sched.Result{}, policy: slurmPreset, slurmDrift: 3, slurmRefused: 2}
	var found bool
	for _, w := range warnings(info) {
		if w.kind != "slurm_plan_misses" {
			continue
		}
		found = true
		d, _ := w.data.(map[string]int)
		if d["drift_cycles"] != 3 || d["refused_starts"] != 2 || !strings.Contains(w.text, "3 cycles planned on the pool") || !strings.Contains(w.text, "2 starts it found room for refused") {
			t.Errorf("warning %q, data %v", w.text, w.data)
		}
	}
	if !found {
		t.Errorf("no slurm_plan_misses warning: %v", warnings(info))
	}
	info.slurmDrift, info.slurmRefused = 0, 0
	for _, w := range warnings(info) {
		if w.kind == "slurm_plan_misses" {
			t.Errorf("a warning with both 0: %q", w.text)
		}
	}
}
