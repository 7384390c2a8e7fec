package apq

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"pgregory.net/rapid"
)

// New allocates for the jobs added, not for the History it may hold:
// History 2^20 took 450 MB (432 bytes a slot) before any job, 2^24 7.2 GB.
func TestNewAllocatesLittle(t *testing.T) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	p, err := New(Config{History: 1 << 20})
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 1<<20 {
		t.Errorf("New(History 2^20) allocated %d bytes, want under 1 MiB", got)
	}
	runtime.KeepAlive(p)
}

// A ring grown as jobs are added (through 1024 and 2048 slots, then
// wrapping at History) predicts as one made at its full size.
func TestGrownRingPredictsAlike(t *testing.T) {
	const history = 2500
	grown, err := New(Config{History: history})
	if err != nil {
		t.Fatal(err)
	}
	full, _ := New(Config{History: history})
	full.slots = make([]entry, 0, history)
	rng := rand.New(rand.NewPCG(3, 4))
	point := func() Point {
		var pt Point
		for i := range pt.F {
			pt.F[i] = math.Floor(rng.Float64() * 8)
		}
		return pt
	}
	for n := range 3000 {
		pt, w := point(), math.Floor(rng.Float64()*5000)
		if err := grown.Add(pt, w); err != nil {
			t.Fatal(err)
		}
		if err := full.Add(pt, w); err != nil {
			t.Fatal(err)
		}
		if n%500 == 499 {
			q := point()
			a, errA := grown.Predict(q)
			b, errB := full.Predict(q)
			if errA != nil || a != b || errB != nil {
				t.Fatalf("after %d jobs: grown ring %+v (%v), full ring %+v (%v)", n+1, a, errA, b, errB)
			}
		}
	}
	if cap(grown.slots) < history || grown.Len() != history {
		t.Errorf("grown ring: %d slots of room %d, want %d", grown.Len(), cap(grown.slots), history)
	}
}

// sdm keeps the windows that hold a job, not every window under the
// distance threshold: w = 10^-7 at thr = 1 (Validate allows 10^-9) made
// three arrays of 10^7 entries, 240 MB, at every prediction. The choice
// is the same: the window of 0.2 (three equal waits) over that of 0.1.
func TestSDMFineWindows(t *testing.T) {
	d := []float64{0.1, 0.1, 0.2, 0.2, 0.2, 2}
	wait := []float64{5, 7, 1, 1, 1, 9}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	got, ok := sdm(d, wait, 1e-7, 1, 1, 2)
	runtime.ReadMemStats(&m1)
	if !ok || got != 1 {
		t.Errorf("sdm = %v, %v; want 1, true", got, ok)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<20 {
		t.Errorf("sdm allocated %d bytes for %d jobs", a, len(d))
	}
	// Coarse and fine windows choose alike where they split the jobs alike.
	for _, w := range []float64{0.05, 1e-4} {
		if got, ok := sdm(d, wait, w, 1, 1, 2); !ok || got != 1 {
			t.Errorf("w = %v: sdm = %v, %v; want 1, true", w, got, ok)
		}
	}
}

// sdm chooses as the windows all made (the code before the fix) over
// random histories, windows fine or coarse.
func TestSDMMatchesAllWindows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "n")
		d := make([]float64, n)
		wait := make([]float64, n)
		for i := range d {
			d[i] = rapid.Float64Range(0, 1.2).Draw(t, "d")
			wait[i] = math.Floor(rapid.Float64Range(0, 100).Draw(t, "wait"))
		}
		w := rapid.SampledFrom([]float64{1e-4, 0.003, 0.05, 0.3, 1}).Draw(t, "w")
		thr := rapid.Float64Range(0.01, 1).Draw(t, "thr")
		minJobs := rapid.IntRange(1, 4).Draw(t, "minJobs")
		got, ok := sdm(d, wait, w, thr, 1, minJobs)
		want, wok := sdmReference(d, wait, w, thr, 1, minJobs)
		if got != want || ok != wok {
			t.Fatalf("sdm = %v, %v; all windows %v, %v", got, ok, want, wok)
		}
	})
}

// sdmReference is sdm as it was, every window made.
func sdmReference(d, wait []float64, w, thr, b float64, minJobs int) (pred float64, ok bool) {
	nw := int(math.Ceil(thr / w))
	if nw <= 0 {
		return 0, false
	}
	cnt := make([]int, nw)
	sum := make([]float64, nw)
	win := func(x float64) int {
		if !(x < thr) || x < 0 {
			return -1
		}
		return min(int(x/w), nw-1)
	}
	for i, x := range d {
		if m := win(x); m >= 0 {
			cnt[m]++
			sum[m] += wait[i]
		}
	}
	ss := make([]float64, nw)
	for i, x := range d {
		if m := win(x); m >= 0 {
			e := wait[i] - sum[m]/float64(cnt[m])
			ss[m] += e * e
		}
	}
	best, bestStd := -1, math.Inf(1)
	for m := range nw {
		if cnt[m] < max(minJobs, 2) {
			continue
		}
		if s := math.Sqrt(ss[m] / float64(cnt[m])); s < bestStd {
			best, bestStd = m, s
		}
	}
	if best < 0 {
		return 0, false
	}
	var sw, swy, plain float64
	for i, x := range d {
		if win(x) == best {
			k := kernel(x, b)
			sw += k
			swy += k * wait[i]
			plain += wait[i]
		}
	}
	if sw == 0 {
		return plain / float64(cnt[best]), true
	}
	return swy / sw, true
}
