package synth

import "testing"

// Spec §10.3: the reference C's output for typed mode, seed 1 (drand48,
// integer clock).
func TestGoldenCompatTypedSeed1(t *testing.T) {
	g, err := New(Config{Seed: 1, Drand48: true, CompatClock: true})
	if err != nil {
		t.Fatal(err)
	}
	want := [][4]int64{{273, 8, 8, 0}, {1579, 5, 8, 0}, {1601, 7, 4, 0}, {1729, 2, 6, 0}, {1785, 61, 8, 0}, {1809, 13, 4, 0},
		{1840, 12, 4, 0}, {1967, 82, 4, 0}, {1999, 34, 4, 0}, {2034, 59, 1, 0}, {2051, 96, 1, 0}, {2187, 43, 37, 0}}
	var sumSubmit, sumRun, sumNodes, sumWork, batch int64
	for i := 1; i <= 20000; i++ {
		j := g.Next()
		if i <= len(want) {
			w := want[i-1]
			if got := [4]int64{j.Submit, j.RunTime, j.AllocProcs, j.Queue}; got != w {
				t.Fatalf("job %d: got %v, C %v", i, got, w)
			}
		}
		sumSubmit += j.Submit
		sumRun += j.RunTime
		sumNodes += j.AllocProcs
		sumWork += j.RunTime * j.AllocProcs
		batch += j.Queue
		if i == 1000 && (j.Submit != 513702 || j.RunTime != 7 || j.AllocProcs != 1) {
			t.Errorf("job 1000: %d %d %d, C 513702 7 1", j.Submit, j.RunTime, j.AllocProcs)
		}
	}
	got := [5]int64{sumSubmit, sumRun, sumNodes, sumWork, batch}
	if w := [5]int64{105621593089, 29233740, 177946, 478879326, 2614}; got != w {
		t.Errorf("first 20000 jobs Σsubmit Σrun Σnodes Σrun·nodes batch = %v, C %v", got, w)
	}
}

// Spec §10.3: typeless mode, seed 7.
func TestGoldenCompatTypelessSeed7(t *testing.T) {
	g, err := New(Config{Typeless: true, Seed: 7, Drand48: true, CompatClock: true})
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]int64{{739, 37074, 4}, {3269, 81, 8}, {3350, 325, 1}, {5234, 14, 1}, {31331, 192, 8}, {31556, 6, 4}}
	var s [4]int64
	for i := 1; i <= 20000; i++ {
		j := g.Next()
		if i <= len(want) {
			if got := [3]int64{j.Submit, j.RunTime, j.AllocProcs}; got != want[i-1] {
				t.Fatalf("job %d: got %v, C %v", i, got, want[i-1])
			}
		}
		if j.Queue != 0 {
			t.Fatalf("typeless job %d in queue %d", i, j.Queue)
		}
		s[0], s[1], s[2], s[3] = s[0]+j.Submit, s[1]+j.RunTime, s[2]+j.AllocProcs, s[3]+j.RunTime*j.AllocProcs
	}
	if w := [4]int64{200277784762, 85884574, 240502, 1693021215}; s != w {
		t.Errorf("first 20000 jobs sums %v, C %v", s, w)
	}
}

// Spec §10.3 (derived): the floating clock with the same drand48 stream;
// submit times may differ by 1 s where floor flips near an integer.
func TestGoldenFloatClockTypedSeed1(t *testing.T) {
	g, err := New(Config{Seed: 1, Drand48: true})
	if err != nil {
		t.Fatal(err)
	}
	submits := []int64{273, 1580, 1602, 1731, 1787, 1811, 1843, 1970, 2003, 2038, 2056, 2192}
	var s [4]int64
	for i := 1; i <= 20000; i++ {
		j := g.Next()
		if i <= len(submits) && (j.Submit-submits[i-1] > 1 || submits[i-1]-j.Submit > 1) {
			t.Fatalf("job %d submit %d, spec %d", i, j.Submit, submits[i-1])
		}
		if i == 46 && (j.Queue != 1 || j.RunTime != 18918 || j.AllocProcs != 32) {
			t.Errorf("job 46: %+v, spec 42344 18918 32 1", j)
		}
		s[0], s[1], s[2], s[3] = s[0]+j.RunTime, s[1]+j.AllocProcs, s[2]+j.RunTime*j.AllocProcs, s[3]+j.Queue
	}
	if w := [4]int64{25580589, 172353, 397818699, 2209}; s != w {
		t.Errorf("first 20000 jobs Σrun Σnodes Σrun·nodes batch = %v, spec %v", s, w)
	}
}
