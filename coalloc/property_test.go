package coalloc

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestBoostProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		count := rapid.IntRange(1, 5).Draw(t, "count")
		nres := rapid.IntRange(1, 8).Draw(t, "nres")
		tab := make(table, count)
		for i := range tab {
			tab[i] = rapid.SliceOfN(rapid.Float64Range(0, 1), nres, nres).Draw(t, "row")
		}
		pAll := rapid.Float64Range(0.01, 1).Draw(t, "pAll")
		cfg := Config{AllowReuse: rapid.Bool().Draw(t, "reuse"), StopOnProduct: rapid.Bool().Draw(t, "product")}
		b, err := boost(tab, pAll, cfg)
		if err != nil {
			t.Fatal(err)
		}
		used := map[int]bool{}
		expected := 1.0
		for i, set := range b.Sets {
			var ps []float64
			mine := map[int]bool{}
			for _, r := range set {
				if tab[i][r] == 0 || mine[r] || (!cfg.AllowReuse && used[r]) {
					t.Fatalf("reservation %d drew resource %d badly: %+v", i, r, b)
				}
				mine[r], used[r] = true, true
				ps = append(ps, tab[i][r])
			}
			if math.Abs(b.PRes[i]-atLeastOne(ps...)) > 1e-12 {
				t.Fatalf("P_res%d = %v, Eq. 6.1 gives %v", i, b.PRes[i], atLeastOne(ps...))
			}
			// A reservation stops drawing once it reaches P_indep: all
			// but its last draw left it below target.
			if n := len(set); n > 1 && atLeastOne(ps[:n-1]...) >= b.PIndep {
				t.Fatalf("reservation %d kept drawing after reaching P_indep: %+v", i, b)
			}
			expected *= b.PRes[i]
		}
		if math.Abs(b.PExpected-expected) > 1e-12 {
			t.Fatalf("P_expected %v, product %v", b.PExpected, expected)
		}
		if b.OK && b.PExpected < pAll-1e-9 {
			t.Fatalf("OK plan below P_all: %+v", b)
		}
		if b.OK && !cfg.StopOnProduct {
			for i, p := range b.PRes {
				if p < b.PIndep {
					t.Fatalf("OK plan with P_res%d = %v < P_indep %v", i, p, b.PIndep)
				}
			}
		}
		// A failed plan has a reservation below target that could draw
		// nothing more.
		if !b.OK && !cfg.StopOnProduct && !cfg.AllowReuse {
			stuck := false
			for i, p := range b.PRes {
				if p >= b.PIndep {
					continue
				}
				free := false
				for r := range nres {
					free = free || (!used[r] && tab[i][r] > 0)
				}
				stuck = stuck || !free
			}
			if !stuck {
				t.Fatalf("failed plan with resources left: %+v", b)
			}
		}
	})
}
