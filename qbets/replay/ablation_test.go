package replay

import (
	"fmt"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
)

// The clustering ablation behind qbets's default (qbets/doc.go and
// examples/qbets/README.md print this table): full QBETS under each
// clustering mode on the acceptance set. It asserts why the default is the
// fixed processor ranges: they keep BM correct everywhere, the thesis's
// two-level clustering does not, and they give tighter bounds than one
// queue-level history on CTC and SDSC-SP2.
func TestClusterModeAblation(t *testing.T) {
	if testing.Short() {
		t.Skip("117 whole-log and queue replays (~12 s)")
	}
	sets := acceptanceSet(t)
	modes := []struct {
		name string
		cfg  qbets.Config
	}{
		{"fixed-procs", qbets.Config{}},
		{"none", qbets.Config{Cluster: qbets.ClusterNone}},
		{"nodes", qbets.Config{Cluster: qbets.ClusterNodes}},
		{"nodes≤5", qbets.Config{Cluster: qbets.ClusterNodes, MaxClusters: 5}},
		{"reqtime≤5", qbets.Config{Cluster: qbets.ClusterReqTime, MaxClusters: 5}},
		{"two-level", qbets.Config{Cluster: qbets.ClusterTwoLevel}},
		// examples/qbets/README.md's "More settings" table.
		{"two-level≤3", qbets.Config{Cluster: qbets.ClusterTwoLevel, MaxClusters: 3}},
		{"two-level≤5", qbets.Config{Cluster: qbets.ClusterTwoLevel, MaxClusters: 5}},
		{"two-level, count at release", qbets.Config{Cluster: qbets.ClusterTwoLevel, CountAtRelease: true}},
		{"reqtime", qbets.Config{Cluster: qbets.ClusterReqTime}},
		// The one-feature-at-a-time table ("none" is trimming + availability).
		{"trimming only", qbets.Config{Cluster: qbets.ClusterNone, NoAvailability: true}},
		{"trimming + two-level", qbets.Config{Cluster: qbets.ClusterTwoLevel, NoAvailability: true}},
		{"trimming + nodes", qbets.Config{Cluster: qbets.ClusterNodes, NoAvailability: true}},
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
		fixed, none, two := res[i][0], res[i][1], res[i][5]
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
