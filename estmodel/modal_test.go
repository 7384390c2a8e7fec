package estmodel

import (
	"cmp"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// Check values of spec §7.2 (reference-implementation rule; sane N of Tab 5.1).
var kChecks = []struct {
	log  string
	n, k int
	a    float64
}{
	{"CTC", 77222, 349, 1.355},
	{"SDSC", 54053, 274, 1.411},
	{"SDSC-106", 53673, 272, 1.413},
	{"KTH", 28490, 167, 1.554},
	{"KTH4H", 23070, 144, 1.606},
	{"BLUE", 223407, 532, 1.276},
}

func TestNumEstimatesLinear(t *testing.T) {
	for _, c := range kChecks {
		if got := numEstimatesLinear(c.n, false); got != c.k {
			t.Errorf("%s: K(%d) = %d, thesis/spec %d", c.log, c.n, got, c.k)
		}
		if got := timeCurveA(c.k, refParams()); math.Abs(got-c.a) > 0.0005 {
			t.Errorf("%s: a(K=%d) = %.4f, spec %.3f", c.log, c.k, got, c.a)
		}
	}
	// The breakpoints of Tab 5.3, and the S23 clamp.
	for i, n := range kLinearN {
		if got := numEstimatesLinear(n, false); got != kLinearK[i] {
			t.Errorf("K(%d) = %d, Tab 5.3 %d", n, got, kLinearK[i])
		}
	}
	if got := numEstimatesLinear(1_000_000, false); got != 565 {
		t.Errorf("clamped K(1e6) = %d, want 565", got)
	}
	if got := numEstimatesLinear(330_000, true); got != 565+100 {
		t.Errorf("extrapolated K(330,000) = %d, want 665", got)
	}
}

func TestNumEstimatesPower(t *testing.T) {
	// K = 1.1·N^0.5 (thesis Fig 5.4): 1.1·√77222 = 305.7.
	if got := numEstimatesPower(77222, thesisParams().KPowerAlpha, thesisParams().KPowerBeta); got != 306 {
		t.Errorf("power K(77,222) = %d, want 306", got)
	}
}

func hm(h, m int64) int64 { return h*hour + m*minute }

func TestHeadTimes(t *testing.T) {
	joint := []int64{hm(0, 5), hm(0, 10), hm(0, 15), hm(0, 20), hm(0, 30), hm(1, 0), hm(2, 0), hm(3, 0), hm(4, 0),
		hm(5, 0), hm(6, 0), hm(8, 0), hm(10, 0), hm(12, 0)}
	cases := []struct {
		eMax   int64
		others []int64
	}{ // spec §7.4 check vectors (E_max, then the others ascending)
		{hm(18, 0), append(slices.Clone(joint), hm(13, 0), hm(14, 0), hm(15, 0), hm(16, 0), hm(17, 0))},
		{hm(4, 0), []int64{hm(0, 5), hm(0, 10), hm(0, 15), hm(0, 20), hm(0, 30), hm(0, 40), hm(1, 0), hm(1, 20),
			hm(1, 40), hm(2, 0), hm(2, 20), hm(2, 40), hm(2, 50), hm(3, 0), hm(3, 10), hm(3, 20), hm(3, 30), hm(3, 40), hm(3, 50)}},
		{hm(2, 0), []int64{hm(0, 5), hm(0, 10), hm(0, 15), hm(0, 20), hm(0, 30), hm(0, 40), hm(0, 50), hm(1, 0),
			hm(1, 5), hm(1, 10), hm(1, 15), hm(1, 20), hm(1, 25), hm(1, 30), hm(1, 35), hm(1, 40), hm(1, 45), hm(1, 50), hm(1, 55)}},
		{hm(36, 0), append(slices.Clone(joint), hm(18, 0), hm(20, 0), hm(25, 0), hm(30, 0), hm(35, 0))},
		{hm(60, 0), append(slices.Clone(joint), hm(18, 0), hm(20, 0), hm(30, 0), hm(40, 0), hm(50, 0))},
	}
	for _, c := range cases {
		got := headTimes(c.eMax)
		want := append([]int64{c.eMax}, c.others...)
		if !slices.Equal(got, want) {
			t.Errorf("headTimes(%dh):\n got %v\nwant %v", c.eMax/hour, got, want)
		}
	}
	if n := len(headTimes(hour)); n != 12 { // S25
		t.Errorf("E_max = 1h gives %d head times, spec 12", n)
	}
}

func TestHeadSizes(t *testing.T) {
	thesis := []float64{22.70, 10.262, 8.648, 7.299, 6.172, 5.231, 4.445, 3.789, 3.240, 2.782, 2.400, 2.080,
		1.813, 1.590, 1.404, 1.249, 1.119, 1.010, 0.920, 0.844}
	got := headSizes(20, thesisParams())
	for j := range thesis {
		tol := 0.0015
		if j == 0 {
			tol = 0.01
		}
		if math.Abs(got[j]-thesis[j]) > tol {
			t.Errorf("thesis p_%d = %.4f, spec %.3f", j+1, got[j], thesis[j])
		}
	}
	ref := headSizes(20, refParams())
	for _, c := range []struct {
		j    int
		want float64
		tol  float64
	}{{1, 21.73, 0.01}, {2, 10.313, 0.0015}, {20, 0.866, 0.0015}} {
		if math.Abs(ref[c.j-1]-c.want) > c.tol {
			t.Errorf("reference p_%d = %.4f, spec %.3f", c.j, ref[c.j-1], c.want)
		}
	}
	if s := sum(got); math.Abs(s-89) > 1e-9 {
		t.Errorf("head mass %.6f, want 89", s)
	}
	tail := tailSizes(21, 300, 11, refParams())
	if s := sum(tail); math.Abs(s-11) > 1e-9 || !slices.IsSortedFunc(tail, func(a, b float64) int { return -cmp.Compare(a, b) }) {
		t.Errorf("tail sums to %.6f (want 11) or is not decreasing", s)
	}
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// Tab 5.5: popularity rank of each real top-20 time in SDSC-106, CTC and
// KTH4H; Tab 5.6 must be the same data in time-rank order (BLUE's column
// involves the 01:59 merge and its 21st mode, so it is checked only as a
// permutation).
func TestLogRanksMatchTable55(t *testing.T) {
	cols := []struct {
		col  int
		eMax int64
		rank map[int64]int
	}{
		{0, hm(18, 0), map[int64]int{hm(0, 5): 1, hm(0, 10): 4, hm(0, 12): 17, hm(0, 15): 13, hm(0, 20): 7, hm(0, 30): 8,
			hm(0, 45): 18, hm(1, 0): 2, hm(2, 0): 6, hm(2, 30): 16, hm(3, 0): 10, hm(4, 0): 5, hm(5, 0): 15, hm(6, 0): 14,
			hm(7, 0): 19, hm(8, 0): 11, hm(10, 0): 12, hm(12, 0): 9, hm(15, 0): 20, hm(18, 0): 3}},
		{1, hm(18, 0), map[int64]int{hm(0, 5): 3, hm(0, 10): 4, hm(0, 15): 2, hm(0, 20): 12, hm(0, 30): 9, hm(1, 0): 8,
			hm(1, 30): 18, hm(2, 0): 6, hm(3, 0): 7, hm(4, 0): 11, hm(4, 50): 20, hm(5, 0): 16, hm(6, 0): 5,
			hm(8, 0): 14, hm(10, 0): 13, hm(12, 0): 10, hm(15, 0): 15, hm(16, 0): 17, hm(17, 0): 19, hm(18, 0): 1}},
		{2, hm(4, 0), map[int64]int{hm(0, 1): 4, hm(0, 2): 10, hm(0, 3): 14, hm(0, 4): 20, hm(0, 5): 2, hm(0, 10): 3,
			hm(0, 15): 7, hm(0, 20): 12, hm(0, 30): 6, hm(0, 40): 19, hm(1, 0): 5, hm(1, 30): 18, hm(1, 40): 16,
			hm(2, 0): 9, hm(2, 10): 17, hm(2, 30): 15, hm(3, 0): 13, hm(3, 20): 8, hm(3, 50): 11, hm(4, 0): 1}},
	}
	for _, c := range cols {
		times := make([]int64, 0, 20)
		for tm := range c.rank {
			if tm != c.eMax {
				times = append(times, tm)
			}
		}
		slices.Sort(times)
		times = append([]int64{c.eMax}, times...)
		for ttr, tm := range times {
			if logRanks[ttr][c.col] != c.rank[tm] {
				t.Errorf("Tab 5.6 column %d ttr %d = %d, Tab 5.5 says %d", c.col, ttr, logRanks[ttr][c.col], c.rank[tm])
			}
		}
	}
	for col := range 4 {
		seen := map[int]bool{}
		for ttr := range logRanks {
			seen[logRanks[ttr][col]] = true
		}
		for r := 1; r <= 20; r++ {
			if !seen[r] {
				t.Errorf("Tab 5.6 column %d lacks rank %d", col, r)
			}
		}
	}
}

func TestPoolMapIsPermutation(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 1))
		for _, h := range []int{20, 12, 5} {
			res := poolMap(h, nil, rng)
			if res.Rank[0] != 1 {
				t.Fatalf("E_max got rank %d", res.Rank[0])
			}
			got := slices.Sorted(slices.Values(res.Rank))
			for i, r := range got {
				if r != i+1 {
					t.Fatalf("h=%d seed %d: ranks %v are not a permutation", h, seed, res.Rank)
				}
			}
			if h == 20 && res.Fallbacks != 0 {
				t.Errorf("full head needed %d fallbacks", res.Fallbacks)
			}
		}
		fixed := map[int]int{0: 4, 6: 1}
		res := poolMap(20, fixed, rng)
		if res.Rank[0] != 4 || res.Rank[6] != 1 {
			t.Errorf("fixed ranks not honoured: %v", res.Rank)
		}
	}
}

// The bound rule: at every time rank, a free rank whose bound has passed (no
// real log put it later) is taken before any pool draw, smallest first.
func TestPoolMapBoundRule(t *testing.T) {
	bound := rankBounds()
	for seed := range uint64(500) {
		res := poolMap(20, nil, rand.New(rand.NewPCG(seed, 2)))
		taken := map[int]bool{}
		for ttr, r := range res.Rank {
			due := 0
			for q := 1; q <= 20 && ttr > 0; q++ {
				if !taken[q] && bound[q] <= ttr {
					due = q
					break
				}
			}
			if due != 0 && r != due {
				t.Fatalf("seed %d ttr %d: picked %d while rank %d was due", seed, ttr, r, due)
			}
			taken[r] = true
		}
	}
}

func TestCounts(t *testing.T) {
	pct := []float64{50, 30, 19.9, 0.05, 0.05}
	for _, n := range []int{1, 3, 7, 100, 1001} {
		jobs, err := counts(pct, nil, n)
		if err != nil || sumI(jobs) != n {
			t.Errorf("N=%d: %v, sum %d", n, jobs, sumI(jobs))
		}
	}
	jobs, err := counts([]float64{10, 80, 10}, []int{-1, 5, -1}, 10)
	if err != nil || jobs[1] != 5 || sumI(jobs) != 10 {
		t.Errorf("fixed bin: %v %v", jobs, err)
	}
	if _, err := counts([]float64{10, 90}, []int{-1, 11}, 10); err == nil {
		t.Error("fixed jobs above N accepted")
	}
}

func sumI(x []int) int {
	s := 0
	for _, v := range x {
		s += v
	}
	return s
}

func TestGenerateDefaults(t *testing.T) {
	cfg := ModalConfig{N: 77222, EMax: 18 * hour}
	d, err := Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if d.K != 349 {
		t.Errorf("K = %d, want 349", d.K)
	}
	checkDistribution(t, d, cfg)
	if got := len(d.Bins); got < 340 || got > 349 {
		t.Errorf("%d distinct estimates, want about K = 349", got)
	}
	top := d.Bins[len(d.Bins)-1]
	if top.Time != cfg.EMax || math.Abs(top.Percent-21.73) > 0.01 {
		t.Errorf("E_max bin %+v, want 18h at p_1 = 21.73%%", top)
	}
	if !slices.Equal(d.HeadTimes, headTimes(cfg.EMax)) {
		t.Errorf("head %v", d.HeadTimes)
	}
	again, _ := Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if !reflect.DeepEqual(d, again) {
		t.Error("same seed, different distribution")
	}
	other, _ := Generate(cfg, rand.New(rand.NewPCG(3, 2)))
	if reflect.DeepEqual(d.Bins, other.Bins) {
		t.Error("different seeds, same distribution")
	}

	cfg.ThesisParams = true
	d, err = Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if top := d.Bins[len(d.Bins)-1]; math.Abs(top.Percent-22.70) > 0.01 {
		t.Errorf("thesis parameters: p_1 = %.3f, want 22.70", top.Percent)
	}
	cfg.ThesisTail = true
	d, err = Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	checkDistribution(t, d, cfg)
}

// checkDistribution asserts the invariants of every generated distribution.
func checkDistribution(t *testing.T, d *Distribution, cfg ModalConfig) {
	t.Helper()
	pct, jobs := 0.0, 0
	for i, b := range d.Bins {
		pct += b.Percent
		jobs += b.Jobs
		if b.Jobs <= 0 || b.Time <= 0 || b.Time > cfg.EMax {
			t.Fatalf("bad bin %+v", b)
		}
		if i > 0 && b.Time <= d.Bins[i-1].Time {
			t.Fatalf("bins not strictly ascending at %d", i)
		}
	}
	if d.EmptyBins == 0 && math.Abs(pct-100) > 1e-6 {
		t.Errorf("percentages sum to %.6f", pct)
	}
	if jobs != cfg.N {
		t.Errorf("counts sum to %d, want N = %d", jobs, cfg.N)
	}
}

// The validation settings of §7.10: BLUE with an effective maximum of 2h, and
// the E_max shares of CTC, SDSC-106 and KTH4H.
func TestGenerateUserBins(t *testing.T) {
	cases := []struct {
		name string
		cfg  ModalConfig
	}{
		{"CTC", ModalConfig{N: 77222, EMax: 18 * hour, Bins: []UserBin{{Time: 18 * hour, Percent: 23.8}}}},
		{"SDSC-106", ModalConfig{N: 53673, EMax: 18 * hour, Bins: []UserBin{{Time: 18 * hour, Percent: 9.8}}}},
		{"KTH4H", ModalConfig{N: 23070, EMax: 4 * hour, Bins: []UserBin{{Time: 4 * hour, Percent: 12.5}, {Time: 5 * minute, Percent: 25}}}},
		{"BLUE", ModalConfig{N: 223407, EMax: 36 * hour, Bins: []UserBin{{Time: 36 * hour, Percent: 1}, {Time: 2 * hour, Percent: 27},
			{Time: 15 * minute, Percent: 16}, {Time: 30 * minute, Percent: 18}}}},
		{"odd times", ModalConfig{N: 5000, EMax: 18 * hour, Bins: []UserBin{{Time: 7*hour + 7, Jobs: 400}, {Time: 17, Percent: 3}}}},
		{"over H", ModalConfig{N: 1000, EMax: 2 * hour, Bins: []UserBin{{Time: 2 * hour, Percent: 50}, {Time: 60, Percent: 45}}}},
	}
	for _, c := range cases {
		d, err := Generate(c.cfg, rand.New(rand.NewPCG(7, 7)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkDistribution(t, d, c.cfg)
		for _, u := range c.cfg.Bins {
			want := u.Jobs
			if want == 0 {
				want = int(math.Round(u.Percent * float64(c.cfg.N) / 100))
			}
			i := slices.IndexFunc(d.Bins, func(b Bin) bool { return b.Time == u.Time })
			if i < 0 || d.Bins[i].Jobs != want || !d.Bins[i].User {
				t.Errorf("%s: user bin %+v: index %d, want %d jobs", c.name, u, i, want)
			}
		}
	}
}

func TestGenerateSmall(t *testing.T) {
	for _, n := range []int{1, 2, 5, 19, 20, 50, 200} {
		cfg := ModalConfig{N: n, EMax: hour}
		d, err := Generate(cfg, rand.New(rand.NewPCG(uint64(n), 0)))
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		checkDistribution(t, d, cfg)
	}
}

// Under ThesisTail, an E_max that is not a whole minute keeps every bin in
// (0, E_max]: the values just below it rounded to the minute went past it
// (E_max 3,652 s, K 1,087: a tail bin at 3,660 s; found by
// TestGenerateRangeProperty, seed 9055992062658955525). Each E_max of two
// minutes past the hour, with K small and large.
func TestGenerateThesisTailWithinEMax(t *testing.T) {
	for emax := int64(hour); emax < hour+2*minute; emax++ {
		for _, k := range []int{2, 20, 100, 1087} {
			cfg := ModalConfig{N: k, K: k, EMax: emax, ThesisTail: true}
			d, err := Generate(cfg, rand.New(rand.NewPCG(0, 1)))
			if err != nil {
				t.Fatalf("E_max %d, K %d: %v", emax, k, err)
			}
			checkDistribution(t, d, cfg)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []ModalConfig{
		{},
		{N: 10, EMax: 600},
		{N: 10, EMax: hour, K: -1},
		{N: 10, EMax: hour, Bins: []UserBin{{Time: 2 * hour, Percent: 1}}},
		{N: 10, EMax: hour, Bins: []UserBin{{Time: 60}}},
		{N: 10, EMax: hour, Bins: []UserBin{{Time: 60, Jobs: 1, Percent: 1}}},
		{N: 10, EMax: hour, Bins: []UserBin{{Time: 60, Jobs: 11}}},
		{N: 10, EMax: hour, Bins: []UserBin{{Time: 60, Jobs: 1}, {Time: 60, Jobs: 1}}},
	}
	for i, c := range bad {
		if c.Validate() == nil {
			t.Errorf("config %d %+v accepted", i, c)
		}
		if _, err := Generate(c, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("config %d generated", i)
		}
	}
}
