package coalloc

import (
	"math"
	"testing"
)

func TestPIndepAndEq61(t *testing.T) {
	for _, c := range []struct {
		pAll  float64
		count int
		want  float64 // thesis Ch. 6 (spec §4), Figure 6.1
	}{
		{0.90, 2, 0.9487}, {0.95, 2, 0.975}, {0.95, 3, 0.983},
	} {
		if got := pIndep(c.pAll, c.count); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("pIndep(%v, %d) = %.4f, thesis %v", c.pAll, c.count, got, c.want)
		}
	}
	// Eq. 6.1: two requests at 0.90 → 1 − 0.1² = 0.99.
	if got := atLeastOne(0.9, 0.9); math.Abs(got-0.99) > 1e-12 {
		t.Errorf("atLeastOne(0.9, 0.9) = %v, thesis 0.99", got)
	}
	// The reverse effect (thesis Ch. 6, spec §4): two reservations at 0.95
	// both succeed with 0.903, three with 0.857.
	if p2, p3 := 0.95*0.95, 0.95*0.95*0.95; math.Abs(p2-0.903) > 6e-4 || math.Abs(p3-0.857) > 6e-4 {
		t.Errorf("joint %v %v", p2, p3)
	}
	if !math.IsNaN(pIndep(0.9, 0)) || atLeastOne() != 0 {
		t.Error("degenerate inputs")
	}
}

// figure61 is a probability table over the five machines of Table 6.1 for
// the two reservations of Figure 6.1. The thesis gives only the outcome
// (Res1 on ucteragrid + ncsateragrid → 0.952; Res2 on three machines →
// 0.953; 5 requests; 0.952 × 0.953 = 0.91), not the table, so these p_{i,r}
// are chosen to be consistent with it: p(uc)=0.80, p(ncsa)=0.76 give
// 1 − 0.20·0.24 = 0.952, and 0.765, 0.60, 0.50 give 1 − 0.235·0.40·0.50 =
// 0.953.
var figure61Names = []string{"datastar", "ucteragrid", "cnsidell", "ncsateragrid", "sdscteragrid"}
var figure61 = table{
	{0.50, 0.80, 0.60, 0.76, 0.70},
	{0.50, 0.90, 0.60, 0.30, 0.765},
}

func TestFigure61Structure(t *testing.T) {
	b, err := boost(figure61, 0.90, Config{})
	if err != nil {
		t.Fatal(err)
	}
	names := func(set []int) (s []string) {
		for _, r := range set {
			s = append(s, figure61Names[r])
		}
		return s
	}
	if !b.OK || len(b.Sets[0]) != 2 || len(b.Sets[1]) != 3 || b.Requests() != 5 {
		t.Fatalf("plan %+v; thesis: 2 + 3 = 5 requests", b)
	}
	if n := names(b.Sets[0]); n[0] != "ucteragrid" || n[1] != "ncsateragrid" {
		t.Errorf("Res1 on %v; thesis: ucteragrid + ncsateragrid", n)
	}
	for i, want := range []float64{0.952, 0.953} {
		if math.Abs(b.PRes[i]-want) > 5e-4 {
			t.Errorf("P_res%d = %.4f, thesis %v", i+1, b.PRes[i], want)
		}
		if b.PRes[i] < b.PIndep {
			t.Errorf("P_res%d = %.4f below P_indep %.4f", i+1, b.PRes[i], b.PIndep)
		}
	}
	if math.Abs(b.PExpected-0.91) > 5e-3 || b.PExpected < 0.90 {
		t.Errorf("P_expected = %.4f, thesis 0.952 × 0.953 = 0.91", b.PExpected)
	}
	// Every machine is used once: drawing is without replacement.
	seen := map[int]bool{}
	for _, s := range b.Sets {
		for _, r := range s {
			if seen[r] {
				t.Errorf("resource %s drawn twice", figure61Names[r])
			}
			seen[r] = true
		}
	}

	// Without sdscteragrid the pool runs out: not possible now.
	four := table{figure61[0][:4], figure61[1][:4]}
	if f, err := boost(four, 0.90, Config{}); err != nil || f.OK {
		t.Errorf("4-machine plan %+v, %v; want not OK", f, err)
	}
	// With reuse, Res2 takes ucteragrid (0.90) too.
	if r, _ := boost(figure61, 0.90, Config{AllowReuse: true}); !r.OK || r.Sets[1][0] != 1 {
		t.Errorf("reuse plan %+v", r)
	}
	// Stopping on the product can only need fewer requests.
	if p, _ := boost(figure61, 0.90, Config{StopOnProduct: true}); !p.OK || p.Requests() > 5 || p.PExpected < 0.90 {
		t.Errorf("product-stop plan %+v", p)
	}
}

func TestBoostErrors(t *testing.T) {
	for _, c := range []struct {
		t    table
		pAll float64
	}{
		{nil, 0.9}, {table{{0.5}, {0.5, 0.4}}, 0.9}, {table{{1.5}}, 0.9}, {table{{0.5}}, 0}, {table{{0.5}}, 1.1},
	} {
		if _, err := boost(c.t, c.pAll, Config{}); err == nil {
			t.Errorf("boost(%v, %v) accepted", c.t, c.pAll)
		}
	}
	if _, err := boost(table{{0.5}}, 0.5, Config{Step: -1}); err == nil {
		t.Error("negative step accepted")
	}
	// Zero-probability resources are never drawn.
	b, _ := boost(table{{0, 0.3}}, 0.9, Config{})
	if b.OK || len(b.Sets[0]) != 1 || b.Sets[0][0] != 1 {
		t.Errorf("plan %+v", b)
	}
}
