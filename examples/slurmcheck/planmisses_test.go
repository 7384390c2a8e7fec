package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// The Slurm policy's rows say how often its named-node plan parted from
// the machine (slurm.Policy.PlanMisses), which were visible to
// sched/slurm's tests only: -json's named_node_plan on those rows (0 and
// 0 on the recorded site, absent on EASY's), and a sentence under the
// table when either is not 0.
func TestPlanMissesSaid(t *testing.T) {
	r := clitest.Exec(run, "", recordPath, "-json")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	var res result
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Figures {
		slurm := strings.HasPrefix(f.Name, "Slurm policy")
		if slurm != (f.Plan != nil) || f.Plan != nil && (f.Plan.Drift != 0 || f.Plan.Refused != 0) {
			t.Errorf("%s: named_node_plan %+v; want 0 and 0 on the Slurm policy's rows, none on the others", f.Name, f.Plan)
		}
	}
	if tail := res.tail(); strings.Contains(tail, "parted from the machine") {
		t.Errorf("a plan that never parted is said to:\n%s", tail)
	}
	res.Figures[0].Plan = &planMisses{Drift: 4, Refused: 1}
	want := res.Figures[0].Name + ": its backfill plan on named nodes parted from the machine: 4 cycles planned on the pool of CPUs"
	if tail := res.tail(); !strings.Contains(tail, want) || !strings.Contains(tail, "1 starts it found room for refused by the machine") {
		t.Errorf("tail lacks %q:\n%s", want, tail)
	}
}
