package main

import (
	"slices"
	"strings"
	"testing"
)

// The sweep's summary of per-seed changes, worked by hand: for +1% and
// +3%, the mean is 2, the sample s.d. √2, and t(0.975, 1 d.f.) = 12.706,
// so the half-width is 12.706·√2/√2.
func TestSweepSummary(t *testing.T) {
	xs := []float64{1, 3}
	if got := meanCI(xs); got != "+2.0% ± 12.7" {
		t.Errorf("meanCI = %q", got)
	}
	if got := meanCI([]float64{-4}); got != "-4.0%" {
		t.Errorf("meanCI of one seed = %q", got)
	}
	if worst([]float64{-3, -1, -2}) != -1 || above([]float64{-1, 0, 2, 5}) != 2 {
		t.Error("worst or above")
	}
	if got := perSeed([]float64{-1.6, 2}); got != "-2, +2 %" {
		t.Errorf("perSeed = %q", got)
	}
}

// SEEDS runs only on request, and then every strategy for every seed.
func TestSeedSweep(t *testing.T) {
	all, _ := selectTables("")
	if slices.Contains(all, "SEEDS") {
		t.Errorf("default tables %v include the slow seed sweep", all)
	}
	if testing.Short() {
		t.Skip("real-trace run; skipped in -short mode")
	}
	out := runQuickWith(t, "SEEDS", options{Seed: 1, Seeds: 2, Par: 2})
	for _, want := range []string{"over 2 seeds (1..2)", "| SDSC SP2 | VIII molding |", "| SDSC SP2 | IX delayed, head held alone |", "of 2 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
