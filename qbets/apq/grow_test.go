package apq

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
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
