package apq

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", name, got, want, tol)
	}
}

// The spec's §2.3 example.
func TestChiSquare(t *testing.T) {
	near(t, "χ²", chiSquare([]float64{.5, .5, 0}, []float64{.25, .25, .5}), 0.666667, 1e-6)
	near(t, "χ² of equal", chiSquare([]float64{.2, .8}, []float64{.2, .8}), 0, 0)
	near(t, "χ² of disjoint", chiSquare([]float64{1, 0}, []float64{0, 1}), 2, 0)
	near(t, "χ² of empty", chiSquare([]float64{0, 0}, []float64{0, 0}), 0, 0)
}

func TestSpearman(t *testing.T) {
	// Ranks of y with a tie: [1, 2, 3.5, 5, 3.5]; ρ = 8/√95.
	near(t, "ρ with tie", spearman([]float64{1, 2, 3, 4, 5}, []float64{5, 6, 7, 8, 7}), 8/math.Sqrt(95), 1e-12)
	near(t, "ρ monotone", spearman([]float64{1, 10, 100}, []float64{3, 2, 1}), -1, 1e-12)
	near(t, "ρ constant", spearman([]float64{4, 4, 4}, []float64{1, 2, 3}), 0, 0)
	near(t, "ρ of one point", spearman([]float64{1}, []float64{2}), 0, 0)
}

func TestSummaryDistance(t *testing.T) {
	var a, b, w, lo, hi [numFeatures]float64
	w[0], w[1], w[2] = 1, 1, 2
	a[0], a[1], a[2] = 4, 100, 10
	b[0], b[1], b[2] = 8, 300, 30
	lo[1], hi[1] = 100, 500
	lo[2], hi[2] = 0, 40
	lo[3], hi[3] = 7, 7 // zero range: term 0 even with a weight
	a[3], b[3] = 7, 7
	// [1·1 + 1·200/400 + 2·20/40] / 4
	near(t, "d", summaryDistance(&a, &b, &w, &lo, &hi), 0.625, 1e-12)
	b[0] = 4
	near(t, "d same size", summaryDistance(&a, &b, &w, &lo, &hi), 0.375, 1e-12)
	// Zero weights count as one each: only features 1 and 2 (index 1, 2)
	// differ, 0.5 + 0.5 over 16.
	var zero [numFeatures]float64
	near(t, "d zero weights", summaryDistance(&a, &b, &zero, &lo, &hi), 1.0/16, 1e-12)
}

func TestDistributionDistance(t *testing.T) {
	chi := [numDists]float64{1, 0, 0.5, 0, 0, 0}
	ones := [numDists]float64{1, 1, 1, 1, 1, 1}
	// (0 + 0.5 + 1 + 0.5) / 8
	near(t, "d", distributionDistance(false, 0.5, &chi, 1, 1, &ones), 0.25, 1e-12)
	// (2·1 + 0 + 1·1 + 1·0.5) / (2+0+6)
	near(t, "d weighted", distributionDistance(true, 0.5, &chi, 2, 0, &ones), 3.5/8, 1e-12)
	var zero [numDists]float64
	near(t, "d zero weights", distributionDistance(true, 0.5, &chi, 0, 0, &zero), 3.0/8, 1e-12)
}

func TestWeights(t *testing.T) {
	p, err := New(Config{History: 10})
	if err != nil {
		t.Fatal(err)
	}
	cols := [][4]float64{
		2: {1, 2, 3, 4}, // rank-identical to the waits: 1
		3: {1, 1, 1, 1}, // constant: 0
		4: {4, 3, 2, 1}, // reversed: |−1|
		5: {1, 2, 1, 2}, // ranks 1.5, 3.5, 1.5, 3.5: 2/√20
	}
	for i, wait := range []float64{10, 20, 30, 40} {
		var pt Point
		for f, c := range cols {
			if len(cols[f]) > 0 {
				pt.F[f] = c[i]
			}
		}
		if err := p.Add(pt, wait); err != nil {
			t.Fatal(err)
		}
	}
	wf, _ := p.Weights()
	near(t, "w[2]", wf[2], 1, 1e-12)
	near(t, "w[3]", wf[3], 0, 0)
	near(t, "w[4]", wf[4], 1, 1e-12)
	near(t, "w[5]", wf[5], 2/math.Sqrt(20), 1e-12)
	near(t, "w[0] (constant request size)", wf[0], 0, 0)
}

func TestRidge(t *testing.T) {
	// y = 2x + 1 at x = 0..3, plus a constant column. The z-scored slope
	// is Σz·(y−ȳ)/(Σz² + λ) = (10/s)/(4+λ) with s² = 1.25, so at x = 4
	// (z = 2.5/s): ȳ + 25/(1.25·(4+λ)) = 4 + 20/(4+λ) → 8 at λ = 1 and
	// the least-squares 9 as λ → 0.
	x := [][]float64{{0, 5}, {1, 5}, {2, 5}, {3, 5}}
	y := []float64{1, 3, 5, 7}
	got, err := ridge(x, y, []float64{4, 5}, 1)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "ridge λ=1", got, 8, 1e-9)
	got, _ = ridge(x, y, []float64{4, 5}, 1e-9)
	near(t, "ridge λ→0", got, 9, 1e-6)
	if _, err := ridge(nil, nil, []float64{1}, 1); err == nil {
		t.Error("ridge on no rows: no error")
	}
	if _, err := ridge([][]float64{{1}}, []float64{1}, []float64{1, 2}, 1); err == nil {
		t.Error("ridge with a short row: no error")
	}
}

func TestSDM(t *testing.T) {
	// Window 0 holds waits 100, 300 (std 100); window 1 holds 50, 50, 60
	// (std 4.71); 0.5 is beyond T_dist. Window 1 wins; its kernel-weighted
	// mean is (50·e^−.0036 + 50·e^−.0049 + 60·e^−.0064)/(Σ) = 53.3285.
	d := []float64{0.01, 0.02, 0.06, 0.07, 0.08, 0.5}
	w := []float64{100, 300, 50, 50, 60, 1000}
	got, ok := sdm(d, w, 0.05, 0.45, 1, 2)
	if !ok {
		t.Fatal("sdm found no window")
	}
	near(t, "sdm", got, 53.3285, 1e-4)
	// Every window has fewer than two jobs: no prediction.
	if _, ok := sdm([]float64{0.01, 0.3, 0.5}, []float64{1, 2, 3}, 0.05, 0.45, 1, 2); ok {
		t.Error("sdm with single-job windows: ok")
	}
	// Equal stds: the nearer window.
	got, _ = sdm([]float64{0.01, 0.02, 0.11, 0.12}, []float64{5, 5, 9, 9}, 0.05, 0.45, 1, 2)
	near(t, "sdm tie", got, 5, 1e-12)
}

func TestKNNAverage(t *testing.T) {
	// k = 2 nearest: d 0 and 1, weights 1 and e^−1.
	got := kNNAverage([]float64{2, 0, 1}, []float64{30, 10, 20}, 2, 1)
	near(t, "kNN", got, (10+20*math.Exp(-1))/(1+math.Exp(-1)), 1e-12)
	near(t, "kNN empty", kNNAverage(nil, nil, 3, 1), 0, 0)
}

func TestDBSCAN(t *testing.T) {
	x := []float64{0, 0.05, 0.1, 0.18, 1}
	y := []float64{0, 0, 0, 0, 1}
	// ε = 0.075, minPts 3: 0.05 is core (0, 0.05, 0.1); 0 and 0.1 are
	// border points; 0.18 is 0.08 from 0.1 (not reached); 1 is far.
	got := dbscan(x, y, 0.075, 3)
	want := []int{0, 0, 0, noise, noise}
	if !slices.Equal(got, want) {
		t.Errorf("labels = %v, want %v", got, want)
	}
	got = dbscan([]float64{0, 0.01, 0.5, 0.51}, []float64{0, 0, 0, 0}, 0.05, 2)
	if want := []int{0, 0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("two clusters: labels = %v, want %v", got, want)
	}
}

func TestNearest(t *testing.T) {
	d := []float64{3, 1, 2, 1, 0, 5}
	if got, want := nearest(d, 3), []int{4, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("nearest = %v, want %v", got, want)
	}
	if got := nearest(d, 10); len(got) != 6 || got[5] != 5 {
		t.Errorf("nearest(all) = %v", got)
	}
}

func TestDescribe(t *testing.T) {
	st := Snapshot{
		Wait: []Job{
			{ID: 1, Submit: 50, Req: 4, ERT: 100, User: 7},
			{ID: 2, Submit: 80, Req: 2, ERT: 300, User: 8},
			{ID: 3, Submit: 100, Req: 9, ERT: 9, User: 7}, // submitted at T: not in Q
		},
		Run: []Job{
			{ID: 4, Submit: 0, Start: 10, Req: 16, ERT: 1000, User: 7},
			{ID: 5, Submit: 0, Start: 90, Req: 8, ERT: -1, User: 9}, // unknown ERT counts 0
		},
	}
	p := describe(Job{ID: 9, Submit: 100, Req: 32, ERT: 60, User: 7}, 100, st, false)
	want := [numFeatures]float64{
		32, 60,
		6, 400, 50 + 20,
		24, 1000, 90 + 10,
		400, 4, 100, 1,
		16000, 16, 1000, 1,
	}
	if p.F != want {
		t.Errorf("features\n got %v\nwant %v", p.F, want)
	}
	// Elapsed run of the running jobs: 90 and 10 s, far apart on log(1+x):
	// with 2 bins each lands in its own end bin.
	if h := p.Hist(5, 2); h[0] != 0.5 || h[1] != 0.5 {
		t.Errorf("elapsed-run histogram = %v, want [0.5 0.5]", h)
	}
	if h := p.Hist(0, 3); h[0]+h[1]+h[2] != 1 {
		t.Errorf("histogram %v does not sum to 1", h)
	}
	empty := describe(Job{ID: 1}, 0, Snapshot{}, false)
	if h := empty.Hist(2, 4); slices.Max(h) != 0 {
		t.Errorf("empty histogram = %v", h)
	}
}

// With perQueue only the target's queue counts: jobs 2 and 5 of
// TestDescribe's state move to queue 2 and drop out of every summary.
func TestDescribePerQueue(t *testing.T) {
	st := Snapshot{
		Wait: []Job{
			{ID: 1, Submit: 50, Req: 4, ERT: 100, User: 7},
			{ID: 2, Submit: 80, Req: 2, ERT: 300, User: 8, Queue: 2},
		},
		Run: []Job{
			{ID: 4, Submit: 0, Start: 10, Req: 16, ERT: 1000, User: 7},
			{ID: 5, Submit: 0, Start: 90, Req: 8, ERT: -1, User: 9, Queue: 2},
		},
	}
	p := describe(Job{ID: 9, Submit: 100, Req: 32, ERT: 60, User: 7}, 100, st, true)
	want := [numFeatures]float64{
		32, 60,
		4, 100, 50,
		16, 1000, 90,
		400, 4, 100, 1,
		16000, 16, 1000, 1,
	}
	if p.F != want {
		t.Errorf("features\n got %v\nwant %v", p.F, want)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		name string
	}{
		{Config{History: 1}, "History"},
		{Config{Bins: -3}, "Bins"},
		{Config{KPct: 150}, "KPct"},
		{Config{OutlierFrac: 2}, "OutlierFrac"},
		{Config{Eps: math.NaN()}, "Eps"},
		{Config{MinPts: -1}, "MinPts"},
		{Config{SDMWindow: -0.1}, "SDMWindow"},
		{Config{RidgeLambda: -1}, "RidgeLambda"},
		{Config{KNN: -2}, "KNN"},
	} {
		err := c.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%+v: error %v does not name %s", c.cfg, err, c.name)
		}
		if _, err := New(c.cfg); err == nil {
			t.Errorf("New(%+v): no error", c.cfg)
		}
	}
	if err := (Config{}).Validate(); err != nil {
		t.Errorf("zero Config: %v", err)
	}
}

func TestPredictorErrors(t *testing.T) {
	p, _ := New(Config{})
	if _, err := p.Predict(Point{}); err != ErrEmpty {
		t.Errorf("empty history: err = %v, want ErrEmpty", err)
	}
	if err := p.Add(Point{}, -1); err == nil {
		t.Error("negative wait accepted")
	}
	if err := p.Add(Point{}, math.NaN()); err == nil {
		t.Error("NaN wait accepted")
	}
}

// A target identical to a tight group of history jobs lands in Case B and
// sdm returns the group's wait, with either representation.
func TestPredictCaseB(t *testing.T) {
	for _, dist := range []bool{false, true} {
		p, err := New(Config{History: 200, Distribution: dist})
		if err != nil {
			t.Fatal(err)
		}
		st := Snapshot{Wait: []Job{{ID: 100, Submit: 0, Req: 4, ERT: 600}}}
		for i := range 200 {
			// Half the history resembles the target and waited 300 s; the
			// rest is a different load that waited much longer.
			j := Job{ID: int64(i + 1000), Submit: 10, Req: 8, ERT: 3600}
			wait := 300.0
			s := st
			if i%2 == 1 {
				j.Req, j.ERT = 64, 86400
				s = Snapshot{Wait: slices.Repeat(st.Wait, 1+i%7)}
				wait = 20000 + float64(i)
			}
			if err := p.Add(describe(j, 10, s, false), wait); err != nil {
				t.Fatal(err)
			}
		}
		pr, err := p.Predict(describe(Job{ID: 1, Submit: 10, Req: 8, ERT: 3600}, 10, st, false))
		if err != nil {
			t.Fatal(err)
		}
		if pr.Case != caseB || pr.Method != methodSDM {
			t.Errorf("distribution %v: case %v method %v, want B and sdm", dist, pr.Case, pr.Method)
		}
		near(t, map[bool]string{false: "summary wait", true: "distribution wait"}[dist], pr.Wait, 300, 1e-9)
	}
}

func TestSystem(t *testing.T) {
	s := new(System)
	if err := s.Submit(Job{ID: 1, Submit: 5}); err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(Job{ID: 1, Submit: 6}); err == nil {
		t.Error("duplicate submit accepted")
	}
	if err := s.Start(1, 4); err == nil {
		t.Error("start before submit accepted")
	}
	if err := s.Start(2, 9); err == nil {
		t.Error("start of an unknown job accepted")
	}
	if err := s.Start(1, 9); err != nil {
		t.Fatal(err)
	}
	if w, r := s.Len(); w != 0 || r != 1 {
		t.Errorf("Len = %d, %d", w, r)
	}
	for j := range s.Running() {
		if j.Start != 9 {
			t.Errorf("running job start = %d", j.Start)
		}
	}
	if err := s.End(1); err != nil {
		t.Fatal(err)
	}
	if err := s.End(1); err == nil {
		t.Error("double end accepted")
	}
}

// Config.LogWait: a history of jobs alike that waited 0, 0, 0 s and 10 h
// is one tight neighbourhood (Case B, sdm over the one window). In
// seconds sdm answers their mean, 2.5 h; with LogWait the exponential of
// the mean of ln(max(wait, 60 s)), 5 min.
func TestLogWait(t *testing.T) {
	for _, c := range []struct {
		log  bool
		want float64
	}{{false, 9000}, {true, math.Exp((3*math.Log(60) + math.Log(36000)) / 4)}} {
		p, err := New(Config{History: 10, LogWait: c.log})
		if err != nil {
			t.Fatal(err)
		}
		pt := describe(Job{ID: 1, Submit: 10, Req: 8, ERT: 3600}, 10, Snapshot{}, false)
		for _, w := range []float64{0, 36000, 0, 0} {
			if err := p.Add(pt, w); err != nil {
				t.Fatal(err)
			}
		}
		pr, err := p.Predict(pt)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Case != caseB || pr.Method != methodSDM {
			t.Errorf("LogWait %v: case %v method %v, want B and sdm", c.log, pr.Case, pr.Method)
		}
		near(t, fmt.Sprintf("LogWait %v", c.log), pr.Wait, c.want, 1e-12)
	}
}

// noiseFraction is the share of dbscan's noise among N_k: three equal
// points form a cluster (minPts 3), three isolated ones are noise, so
// half. (A local count named noise once shadowed the noise label and
// counted the labels equal to the running count: 1/6 here.)
func TestNoiseFraction(t *testing.T) {
	p, err := New(Config{History: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []float64{0, 0, 0, 100, 50, 0} {
		if err := p.Add(Point{}, w); err != nil {
			t.Fatal(err)
		}
	}
	d := []float64{0, 0, 0, 1, 0.5, 1}
	if got := p.noiseFraction([]int{0, 1, 2, 3, 4, 5}, d); got != 0.5 {
		t.Errorf("noise fraction %v, want 0.5", got)
	}
}

// TestLogWaitFinite: with LogWait, ridge's extrapolation for a job far
// outside the history may pass exp's range; the answer stays finite.
func TestLogWaitFinite(t *testing.T) {
	p, err := New(Config{History: 40, LogWait: true, OutlierFrac: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	for i := range int64(40) {
		pt := describe(Job{ID: i + 1, Submit: 10 * i, Req: 1 + i%8, ERT: 600 * (1 + i%5)}, 10*i, Snapshot{}, false)
		if err := p.Add(pt, float64(60*(1+i%8)*(1+i%5))); err != nil {
			t.Fatal(err)
		}
	}
	far := describe(Job{ID: 99, Submit: 400, Req: 1e9, ERT: 3600}, 400, Snapshot{}, false)
	pr, err := p.Predict(far)
	if err != nil {
		t.Fatal(err)
	}
	if math.IsInf(pr.Wait, 0) || math.IsNaN(pr.Wait) {
		t.Errorf("answer %v (%+v)", pr.Wait, pr)
	}
}

// TestLogWaitCapped: with LogWait the answer is at most the longest wait
// in the history window. Ridge fit on the log waits of 40 jobs (60 s to
// 40 min) extrapolates, for a job far outside them, to a wait past exp's
// range; uncapped the answer was math.MaxFloat64 (KTH-SP2's first 3,000
// jobs: an AAE of 206 days). Once the longest wait leaves the window, the
// cap is the longest left.
func TestLogWaitCapped(t *testing.T) {
	p, err := New(Config{History: 40, LogWait: true, OutlierFrac: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	add := func(i int64, wait float64) {
		t.Helper()
		pt := describe(Job{ID: i + 1, Submit: 10 * i, Req: 1 + i%8, ERT: 600 * (1 + i%5)}, 10*i, Snapshot{}, false)
		if err := p.Add(pt, wait); err != nil {
			t.Fatal(err)
		}
	}
	far := describe(Job{ID: 999, Submit: 4000, Req: 1e9, ERT: 3600}, 4000, Snapshot{}, false)
	check := func(longest float64) {
		t.Helper()
		pr, err := p.Predict(far)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Method != methodRidge {
			t.Fatalf("method %v, want ridge (the extrapolation capped)", pr.Method)
		}
		if math.Abs(pr.Wait-longest) > 1e-9*longest {
			t.Errorf("answer %v s, want the window's longest wait %v s", pr.Wait, longest)
		}
	}
	add(0, 36000) // 10 h, the longest until it leaves the window
	rest := 0.0
	for i := range int64(39) {
		w := float64(60 * (1 + i%8) * (1 + i%5))
		rest = max(rest, w)
		add(i+1, w)
	}
	check(36000)
	add(40, 60) // the 10 h job leaves
	check(rest)
}

// A target without a user (SWF's −1) has the user features of a user
// never seen, 0, not those of every user-less job pooled as one user (on
// a trace without users, the whole queue and machine); user 0 is a user
// (checked: fails without the fix in count, features 8.. those of Q, R).
func TestDescribeNoUser(t *testing.T) {
	for _, u := range []int64{-1, 0} {
		st := Snapshot{
			Wait: []Job{{ID: 1, Submit: 50, Req: 4, ERT: 100, User: u}},
			Run:  []Job{{ID: 4, Submit: 0, Start: 10, Req: 16, ERT: 1000, User: u}},
		}
		p := describe(Job{ID: 9, Submit: 100, Req: 32, ERT: 60, User: u}, 100, st, false)
		want := [8]float64{400, 4, 100, 1, 16000, 16, 1000, 1}
		if u < 0 {
			want = [8]float64{}
		}
		if got := [8]float64(p.F[8:16]); got != want {
			t.Errorf("user %d: user features %v, want %v", u, got, want)
		}
	}
}
