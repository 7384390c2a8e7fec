package qbets

import "testing"

// Spec §2.1 test vectors (1-based ascending index; 0 = no bound).
func TestUpperIndexVectors(t *testing.T) {
	cases := []struct {
		q    float64
		want map[int]int
	}{
		{0.95, map[int]int{58: 0, 59: 59, 92: 92, 93: 92, 100: 99, 150: 148, 200: 196, 500: 484, 1000: 962, 2000: 1917, 5000: 4776}},
		{0.50, map[int]int{5: 5, 10: 9, 20: 15, 59: 37, 100: 59, 1000: 527}},
		{0.75, map[int]int{20: 19, 59: 51, 100: 83, 1000: 773}},
		{0.99, map[int]int{298: 0, 300: 300, 500: 499, 1000: 996}},
	}
	for _, tc := range cases {
		for n, want := range tc.want {
			got, ok := upperIndex(n, tc.q, 0.95)
			if !ok {
				got = 0
			}
			if got != want {
				t.Errorf("upperIndex(%d, %.2f, .95) = %d, spec %d", n, tc.q, got, want)
			}
		}
	}
}

func TestLowerIndexVectors(t *testing.T) {
	for n, want := range map[int]int{5: 1, 10: 2, 20: 6, 100: 42, 1000: 474} {
		if got, _ := lowerIndex(n, 0.5, 0.95); got != want {
			t.Errorf("lowerIndex(%d, .5, .95) = %d, spec %d", n, got, want)
		}
	}
}

// The top-k count (n − i_up) steps up at these n (spec §2.1).
func TestTopKSteps(t *testing.T) {
	steps := []int{59, 93, 124, 153, 181, 208, 234, 260, 286, 311, 336, 361, 386}
	for k, n := range steps {
		i, _ := upperIndex(n, 0.95, 0.95)
		j, _ := upperIndex(n-1, 0.95, 0.95)
		if n-i != k || (k > 0 && n-1-j != k-1) {
			t.Errorf("n=%d: top-k %d (n-1: %d), spec step to %d", n, n-i, n-1-j, k)
		}
	}
}

func TestMinHistoryTable(t *testing.T) {
	qs := []float64{0.5, 0.75, 0.9, 0.95, 0.99}
	cs := []float64{0.9, 0.95, 0.99}
	upper := [][]int{{4, 5, 7}, {9, 11, 17}, {22, 29, 44}, {45, 59, 90}, {230, 299, 459}}
	lower := [][]int{{4, 5, 7}, {2, 3, 4}, {1, 2, 2}, {1, 1, 2}, {1, 1, 1}}
	for a, q := range qs {
		for b, c := range cs {
			if got := minHistoryOf(q, c); got != upper[a][b] {
				t.Errorf("minHistoryOf(%v,%v)=%d spec %d", q, c, got, upper[a][b])
			}
			if got := minHistoryLower(q, c); got != lower[a][b] {
				t.Errorf("minHistoryLower(%v,%v)=%d spec %d", q, c, got, lower[a][b])
			}
			n := upper[a][b]
			if _, ok := upperIndex(n, q, c); !ok {
				t.Errorf("upperIndex(%d,%v,%v) none at min history", n, q, c)
			}
			if _, ok := upperIndex(n-1, q, c); ok {
				t.Errorf("upperIndex(%d,%v,%v) exists below min history", n-1, q, c)
			}
			if _, ok := lowerIndex(lower[a][b], q, c); !ok {
				t.Errorf("lowerIndex(%d,%v,%v) none at min history", lower[a][b], q, c)
			}
		}
	}
}

func TestUpperIndexMillions(t *testing.T) {
	i, ok := upperIndex(2_000_000, 0.95, 0.95)
	// nq + 1.645·sqrt(nq(1−q)) ≈ 1900000 + 507 — the exact index lies within a few of it.
	if !ok || i < 1900490 || i > 1900530 {
		t.Fatalf("upperIndex(2e6) = %d, %v", i, ok)
	}
}

// A two-sided 0.90 interval is the pair of one-sided 0.95 bounds, so the
// §2.1 q = 0.5 vectors pin it: n=100 → [x(42), x(59)], n=1000 → [x(474), x(527)].
func TestTwoSidedIndex(t *testing.T) {
	for n, want := range map[int][2]int{100: {42, 59}, 1000: {474, 527}, 10: {2, 9}, 20: {6, 15}} {
		lo, hi, ok := twoSidedIndex(n, 0.5, 0.90)
		if !ok || lo != want[0] || hi != want[1] {
			t.Errorf("twoSidedIndex(%d, .5, .90) = %d, %d, %v; spec [%d, %d]", n, lo, hi, ok, want[0], want[1])
		}
	}
	// q = C = 0.95 two-sided: each side at 0.975, so the upper side needs
	// ⌈ln .025 / ln .95⌉ = 72 observations, the lower side 2.
	if got := minHistoryTwoSided(0.95, 0.95); got != 72 {
		t.Errorf("minHistoryTwoSided(.95, .95) = %d, want 72", got)
	}
	if _, _, ok := twoSidedIndex(71, 0.95, 0.95); ok {
		t.Error("two-sided interval exists at n = 71")
	}
	if lo, hi, ok := twoSidedIndex(72, 0.95, 0.95); !ok || hi != 72 || lo < 1 {
		t.Errorf("twoSidedIndex(72, .95, .95) = %d, %d, %v", lo, hi, ok)
	}
}

// Exactness for huge n: the chosen index satisfies the defining inequality
// and its predecessor does not (checked with the same exact CDF), for upper
// and lower bounds at n up to 5 million.
func TestIndexDefinitionLargeN(t *testing.T) {
	for _, n := range []int{100_000, 1_000_000, 5_000_000} {
		for _, q := range []float64{0.5, 0.95, 0.99} {
			i, ok := upperIndex(n, q, 0.95)
			if !ok || binomCDF(i-1, n, q) < 0.95-tol || binomCDF(i-2, n, q) >= 0.95-tol {
				t.Errorf("upperIndex(%d, %v) = %d not minimal", n, q, i)
			}
			j, ok := lowerIndex(n, q, 0.95)
			if !ok || 1-binomCDF(j-1, n, q) < 0.95-tol || 1-binomCDF(j, n, q) >= 0.95-tol {
				t.Errorf("lowerIndex(%d, %v) = %d not maximal", n, q, j)
			}
		}
	}
}

// Brevik et al. 2006 note §2.4 vectors (computed with scipy there): 1-based
// order statistic for (q, C, n).
func TestUpperIndexBrevikVectors(t *testing.T) {
	cases := []struct {
		q, c    float64
		n, want int
	}{
		{0.95, 0.95, 60, 60}, {0.95, 0.95, 77, 77}, {0.95, 0.95, 10000, 9537},
		{0.95, 0.99, 93, 93}, {0.95, 0.99, 1000, 966},
	}
	for _, tc := range cases {
		if got, ok := upperIndex(tc.n, tc.q, tc.c); !ok || got != tc.want {
			t.Errorf("upperIndex(%d, %v, %v) = %d, note %d", tc.n, tc.q, tc.c, got, tc.want)
		}
	}
}
