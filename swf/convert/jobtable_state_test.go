package convert

import (
	"maps"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestJobTableMappedStates: a mapped table's state column is read as
// Slurm's words (any case, "CANCELLED by 123"), exit codes "N:M" as
// Slurm's exit:signal, and numbers as Slurm's enum job_states only when
// the map says state=COLUMN:slurmdb; anything else is kept as the job's
// state and counted with its reason. A number was read as Slurm's enum
// whatever the site's codes were (3 became COMPLETED), silently.
func TestJobTableMappedStates(t *testing.T) {
	rows := []struct {
		state  string
		status swf.Status
		key    string // Report.States
	}{
		{"COMPLETED", swf.StatusCompleted, "COMPLETED"},
		{"failed", swf.StatusFailed, "FAILED"},
		{"CANCELLED by 123", swf.StatusCancelled, "CANCELLED"},
		{"TIMEOUT", swf.StatusFailed, "TIMEOUT"},
		{"OUT_OF_MEMORY", swf.StatusFailed, "OUT_OF_MEMORY"},
		{"NODE_FAIL", swf.StatusFailed, "NODE_FAIL"},
		{"PREEMPTED", swf.StatusFailed, "PREEMPTED"},
		{"0:0", swf.StatusCompleted, "exit 0"},
		{"1:0", swf.StatusFailed, "exit other"},
		{"0:9", swf.StatusFailed, "exit other"},
		{"3", swf.StatusUnknown, "3"},
		{"CD", swf.StatusUnknown, "CD"},
		{"0:x", swf.StatusUnknown, "0:X"},
		{"", swf.StatusUnknown, "none"},
	}
	var in strings.Builder
	in.WriteString("Job,Submit,Start,End,Cores,Result\n")
	for i, r := range rows {
		in.WriteString(strings.Join([]string{string(rune('a' + i)), "1700000000", "1700000010", "1700000100", "4", `"` + r.state + `"`}, ",") + "\n")
	}
	m := map[string]string{"id": "Job", "submit": "Submit", "start": "Start", "end": "End", "procs": "Cores", "state": "Result"}
	res, err := GPUTrace(strings.NewReader(in.String()), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "states", res.Report, len(res.Jobs))
	states := map[string]int{}
	for i, r := range rows {
		states[r.key]++
		if res.Jobs[i].Status != r.status {
			t.Errorf("state %q: status %d, want %d", r.state, res.Jobs[i].Status, r.status)
		}
	}
	if !maps.Equal(res.Report.States, states) {
		t.Errorf("states %v, want %v", res.Report.States, states)
	}
	if a := res.Report.Anomalies; a[noteStateNumber] != 1 || a[noteUnknownState] != 3 {
		t.Errorf("anomalies %v, want 1 %q and 3 unknown", a, noteStateNumber)
	}

	// state=COLUMN:slurmdb: Slurm's database's numbers, as SuperCloud's.
	m["state"] = "Result:slurmdb"
	res, err = GPUTrace(strings.NewReader(in.String()), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.States["COMPLETED"] != 2 || res.Report.Anomalies[noteStateNumber] != 0 {
		t.Errorf(":slurmdb: %v %v", res.Report.States, res.Report.Anomalies)
	}
	// A suffix of another role is refused.
	for _, bad := range []map[string]string{{"submit": "S", "state": "R:min"}, {"submit": "S", "limit": "L:slurmdb"}, {"submit": "S:h"}} {
		if err := (&Options{ColumnMap: bad}).Validate(); err == nil || !strings.Contains(err.Error(), "is not a suffix of") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}
