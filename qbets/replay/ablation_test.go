package replay

import (
	"fmt"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
)

// The reason for qbets's default clustering, asserted on full QBETS over
// the acceptance set: the fixed processor ranges keep BM correct
// everywhere, the thesis's two-level clustering does not, and the fixed
// ranges give tighter bounds than one queue-level history on CTC and
// SDSC-SP2. examples/qbets generates the README's ablation tables (every
// clustering mode and feature switch) from the same replays.
func TestClusterModeAblation(t *testing.T) {
	if testing.Short() {
		t.Skip("27 whole-log and queue replays")
	}
	sets := acceptanceSet(t)
	modes := []struct {
		name string
		cfg  qbets.Config
	}{
		{"fixed-procs", qbets.Config{}},
		{"none", qbets.Config{Cluster: qbets.ClusterNone}},
		{"two-level", qbets.Config{Cluster: qbets.ClusterTwoLevel}},
	}
	res := make([][]Result, len(sets))
	for i, s := range sets {
		line := fmt.Sprintf("%-30s", s.name)
		for _, m := range modes {
			r, err := Replay(s.jobs, Config{Predictor: m.cfg})
			if err != nil {
				t.Fatal(err)
			}
			res[i] = append(res[i], r)
			line += fmt.Sprintf(" %s %.3f (RMS %.0f s, %d clusters)", m.name, r.Correctness(), r.RMS(), len(r.Clusters))
		}
		t.Log(line)
	}
	twoLevelFails := 0
	for i, s := range sets {
		fixed, none, two := res[i][0], res[i][1], res[i][2]
		if fixed.Correctness() < 0.95 {
			t.Errorf("%s: fixed processor ranges %.3f < 0.95", s.name, fixed.Correctness())
		}
		if two.Correctness() < 0.95 {
			twoLevelFails++
		}
		if slices.Contains([]string{tracetest.CTC, tracetest.SDSCSP2}, s.name) && fixed.RMS() >= none.RMS() {
			t.Errorf("%s: fixed ranges RMS %.0f s not below one history's %.0f s", s.name, fixed.RMS(), none.RMS())
		}
	}
	if twoLevelFails == 0 {
		t.Error("two-level clustering is correct on every set: the reason for the fixed-range default is gone (revisit qbets's default)")
	}
}
