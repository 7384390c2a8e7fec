package synth

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/batchq/batchq/swf"
)

// Settings outside what the model can draw are errors, never a default
// (NaN used to read as "not set"), a hang, or sizes of −2^63
// (Machine = MaxInt64 gave them).
func TestConfigRejectsHostile(t *testing.T) {
	nanP := batch()
	nanP.PA = math.NaN()
	infU := batch()
	infU.ULow, infU.UMed, infU.UHi = math.Inf(1), math.Inf(1), math.Inf(1)
	hugeShape := batch()
	hugeShape.A1 = 1e12
	noMass := batch()
	noMass.A2, noMass.B2 = 500, 0.9 // mean 450 ≫ 12: never below the limit
	noDay := batch()
	noDay.ANum, noDay.BNum = 1e6, 1e-6 // the daily gamma entirely beyond the day
	for name, c := range map[string]Config{
		"MaxInt64 machine":   {Machine: math.MaxInt64},
		"2^40 machine":       {Machine: 1 << 40},
		"NaN TargetLoad":     {TargetLoad: math.NaN()},
		"Inf TargetLoad":     {TargetLoad: math.Inf(1)},
		"NaN shape scale":    {ArrivalShapeScale: math.NaN()},
		"Inf shape scale":    {ArrivalShapeScale: math.Inf(1)},
		"huge shape scale":   {ArrivalShapeScale: 1e9},
		"NaN PA":             {Batch: &nanP},
		"infinite sizes":     {Batch: &infU},
		"huge gamma shape":   {Batch: &hugeShape},
		"no run-time mass":   {Batch: &noMass},
		"no daily-cycle day": {Batch: &noDay},
	} {
		done := make(chan error, 1)
		go func() { _, err := New(c); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: accepted", name)
			} else if strings.Contains(err.Error(), "NaN, NaN") {
				t.Errorf("%s: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: New did not return in 10 s", name)
		}
	}
}

// The largest machine accepted, and user size ranges far beyond it,
// give sizes in [1, Machine]; a TargetLoad on it finishes.
func TestSizesWithinMachine(t *testing.T) {
	wide := batch()
	wide.UMed, wide.UHi = 40, 62
	for _, c := range []Config{{Machine: maxMachine}, {Machine: 300, Batch: &wide}, {Machine: 1000, Batch: &wide, TargetLoad: 0.5}} {
		g, err := New(c)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		for range 3000 {
			j := g.Next()
			if j.AllocProcs < 1 || j.AllocProcs > c.Machine || j.Submit < 0 || j.RunTime < 0 {
				t.Fatalf("Machine %d: job %+v", c.Machine, j)
			}
		}
	}
}

// stuck is a broken random source that repeats one value.
type stuck uint64

func (s stuck) Uint64() uint64 { return uint64(s) }

// A Source that repeats one value makes every rejection draw fail; the
// generator still returns (at the model's limits) instead of hanging.
func TestStuckSourceFinishes(t *testing.T) {
	if testing.Short() {
		t.Skip("about 7 s of rejection loops at their limit; run without -short")
	}
	for _, v := range []uint64{0, math.MaxUint64, 1 << 63} {
		var src rand.Source = stuck(v)
		done := make(chan struct{})
		go func() {
			defer close(done)
			g, err := New(Config{Source: src})
			if err != nil {
				t.Error(err)
				return
			}
			for range 2 {
				if j := g.Next(); j.RunTime < 0 || j.AllocProcs < 1 {
					t.Errorf("source %#x: job %+v", v, j)
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("source %#x: no job in 60 s", v)
		}
	}
}

// Jobs refuses a count it cannot hold (MaxInt panicked in makeslice),
// and a nil-pointer Source or Estimator is a configuration error.
func TestJobsAndPluginBounds(t *testing.T) {
	g, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, -1, math.MaxInt} {
		if _, err := g.Jobs(n); err == nil {
			t.Errorf("Jobs(%d): no error", n)
		}
	}
	var pcg *rand.PCG
	if _, err := New(Config{Source: pcg}); err == nil {
		t.Error("a nil *rand.PCG Source accepted")
	}
	var est *nilEstimator
	if _, err := New(Config{Estimator: est}); err == nil {
		t.Error("a nil-pointer Estimator accepted")
	}
}

type nilEstimator struct{}

func (*nilEstimator) Apply([]swf.Job, *rand.Rand) error { return nil }

// WriteSWF without an estimator streams: the bytes are those of Jobs then
// swf.WriteAll, in memory that does not grow with n (it held every job
// first: -jobs 100000000 took ~15 GB before the first line).
func TestWriteSWFStreams(t *testing.T) {
	const n = 100000
	mk := func() *Generator {
		g, err := New(Config{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	var got, want bytes.Buffer
	if err := mk().WriteSWF(&got, n); err != nil {
		t.Fatal(err)
	}
	g := mk()
	jobs, err := g.Jobs(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := swf.WriteAll(&want, g.Header(n), jobs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("WriteSWF's bytes differ from Jobs then swf.WriteAll's")
	}
	g = mk()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := g.WriteSWF(io.Discard, n); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if d, all := after.TotalAlloc-before.TotalAlloc, uint64(n)*uint64(unsafe.Sizeof(swf.Job{})); d > all/4 {
		t.Errorf("WriteSWF of %d jobs allocated %d bytes, the jobs held at once are %d", n, d, all)
	}
}
