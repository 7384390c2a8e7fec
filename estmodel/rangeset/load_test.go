package rangeset

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// A 10-processor machine: job A uses 4 processors on [0, 100), job B 6 on
// [50, 150). Usage on [0, 150) = 400 + 600 = 1000 → load 1000/1500.
func TestLoadProfileHand(t *testing.T) {
	lp, err := NewLoadProfile(10, []Execution{{Start: 50, End: 150, Procs: 6}, {Start: 0, End: 100, Procs: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if u := lp.Usage(0, 150); u != 1000 {
		t.Errorf("Usage = %v, want 1000", u)
	}
	if l := lp.Load(0, 150); math.Abs(l-2.0/3) > 1e-12 {
		t.Errorf("Load = %v", l)
	}
	// A's own load excludes itself: B covers [50,100) of A's run with 6
	// of 10 processors → 6·50 / (100·10) = 0.3.
	if l := lp.JobLoad(Execution{Start: 0, End: 100, Procs: 4}); math.Abs(l-0.3) > 1e-12 {
		t.Errorf("JobLoad(A) = %v, want 0.3", l)
	}
	if b := lp.Busy(75); b != 10 {
		t.Errorf("Busy(75) = %d", b)
	}
	// Predicted load at 150 with a 100 s window of 50 s slots: slots
	// [50,100) load 1.0 and [100,150) load 0.6 → mean 0.8.
	if l := lp.PredictedLoad(150, LoadWindow{Window: 100, Slot: 50}); math.Abs(l-0.8) > 1e-12 {
		t.Errorf("PredictedLoad = %v, want 0.8", l)
	}
	// Slots before the log's first event are left out: at 50 with a
	// 1000 s window only [0,50) counts (load 0.4).
	if l := lp.PredictedLoad(50, LoadWindow{Window: 1000, Slot: 50}); math.Abs(l-0.4) > 1e-12 {
		t.Errorf("PredictedLoad at 50 = %v, want 0.4", l)
	}
	if _, err := NewLoadProfile(0, nil); err == nil {
		t.Error("P = 0 accepted")
	}
	if err := lp.Add(10, 1); err == nil {
		t.Error("Add in the past accepted")
	}
}

// Online and batch profiles agree.
func TestLoadProfileOnline(t *testing.T) {
	ex := []Execution{{0, 100, 4}, {50, 150, 6}, {120, 130, 2}}
	batch, _ := NewLoadProfile(10, ex)
	on, _ := NewLoadProfile(10, nil)
	for _, e := range [][2]int64{{0, 4}, {50, 6}, {100, -4}, {120, 2}, {130, -2}, {150, -6}} {
		if err := on.Add(e[0], e[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, iv := range [][2]int64{{0, 150}, {10, 125}, {120, 200}} {
		if a, b := batch.Usage(iv[0], iv[1]), on.Usage(iv[0], iv[1]); a != b {
			t.Errorf("Usage%v: batch %v online %v", iv, a, b)
		}
	}
	on.Trim(125)
	if a, b := batch.Usage(125, 200), on.Usage(125, 200); a != b {
		t.Errorf("after Trim: batch %v online %v", a, b)
	}
}

// One key, runtimes rising with load in four bins plus an outlier bin: the
// chain drops the outlier (a 3× jump) and the line goes through the rest.
func TestBuildLoadFuncsHand(t *testing.T) {
	k := Key{User: 1, Size: 8}
	var ss []LoadSample
	add := func(load, rt float64, n int) {
		for range n {
			ss = append(ss, LoadSample{Key: k, Runtime: rt, Load: load})
		}
	}
	add(0.12, 100, 3)
	add(0.32, 120, 3)
	add(0.52, 400, 3) // outlier: +233%
	add(0.72, 140, 3)
	add(0.92, 160, 3)
	fs, err := BuildLoadFuncs(ss, LoadFuncConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 {
		t.Fatalf("got %d functions, want 1", len(fs))
	}
	// Points (0.12,100) (0.32,120) (0.72,140) (0.92,160): slope by least
	// squares = Σ(dx·dy)/Σdx² with mean load 0.52, mean runtime 130.
	dx := []float64{-0.4, -0.2, 0.2, 0.4}
	dy := []float64{-30, -10, 10, 30}
	var sxy, sxx float64
	for i := range dx {
		sxy += dx[i] * dy[i]
		sxx += dx[i] * dx[i]
	}
	a := sxy / sxx
	if math.Abs(fs[0].A-a) > 1e-9 || math.Abs(fs[0].B-(130-a*0.52)) > 1e-9 {
		t.Errorf("got %+v, want A=%v B=%v", fs[0], a, 130-a*0.52)
	}
	// A key below l = 10 jobs or spread m = 0.5 gives nothing.
	if fs, _ := BuildLoadFuncs(ss[:9], LoadFuncConfig{}); len(fs) != 0 {
		t.Errorf("9 jobs gave %d functions", len(fs))
	}
	if _, err := BuildLoadFuncs(ss, LoadFuncConfig{MinSpread: 2}); err == nil {
		t.Error("MinSpread 2 accepted")
	}
}

// 1-D DBSCAN: with ε = 1 and minPts = 2, {1, 1.5, 2} is one cluster, 10 is
// noise, {20, 20.5} another cluster.
func TestDBSCAN1D(t *testing.T) {
	lab := dbscan1D([]float64{1, 1.5, 2, 10, 20, 20.5}, 1, 2)
	want := []int{0, 0, 0, -1, 1, 1}
	for i := range want {
		if lab[i] != want[i] {
			t.Fatalf("labels %v, want %v", lab, want)
		}
	}
}

// Near the end of time the window still reaches back: a profile busy on
// [−2^40, 2^40) and a window of 2^63 − 1 s before t = 2^63 − 1 − 2^39
// covers [−2^39, t), 1.5·2^40 s of it busy. t − first wrapped in int64 and
// the prediction was the instantaneous load at t, 0.
func TestPredictedLoadNoWrap(t *testing.T) {
	lp, err := NewLoadProfile(4, []Execution{{Start: -maxTime, End: maxTime, Procs: 4}})
	if err != nil {
		t.Fatal(err)
	}
	at := int64(math.MaxInt64 - maxTime/2)
	want := 1.5 * maxTime / math.MaxInt64
	if l := lp.PredictedLoad(at, LoadWindow{Window: math.MaxInt64, Slot: 1}); math.Abs(l-want) > 1e-9*want {
		t.Errorf("PredictedLoad(2^63 − 1 − 2^39) = %v, want %v", l, want)
	}
}

// Where t − first fits in int64, PredictedLoad is the int64 formula it
// had (README numbers of apq's Tables VI and VII read it).
func TestPredictedLoadAsBefore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var ex []Execution
		for range rapid.IntRange(0, 8).Draw(t, "n") {
			s := rapid.Int64Range(-5000, 5000).Draw(t, "start")
			ex = append(ex, Execution{Start: s, End: s + rapid.Int64Range(0, 3000).Draw(t, "run"), Procs: rapid.Int64Range(1, 4).Draw(t, "procs")})
		}
		lp, err := NewLoadProfile(8, ex)
		if err != nil {
			t.Fatal(err)
		}
		at := rapid.Int64Range(-8000, 8000).Draw(t, "t")
		w := LoadWindow{Window: rapid.Int64Range(0, 6000).Draw(t, "window")}
		w.Slot = rapid.Int64Range(0, max(w.Window, 1)).Draw(t, "slot")
		d := w.withDefaults()
		first := at
		if len(lp.times) > 0 {
			first = lp.times[0]
		}
		n := d.Window / d.Slot
		if at-first < n*d.Slot {
			n = max(at-first, 0) / d.Slot
		}
		want := float64(lp.Busy(at)) / float64(lp.p)
		if n > 0 {
			want = lp.Load(at-n*d.Slot, at)
		}
		if got := lp.PredictedLoad(at, w); got != want {
			t.Fatalf("PredictedLoad(%d, %+v) = %v, want %v", at, w, got, want)
		}
	})
}
