package forecast

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// fuzzEdges are the values a fuzzed field byte below len(fuzzEdges) names:
// the sizes, times and estimates a hostile snapshot holds.
var fuzzEdges = []int64{-1, 0, 1, 2, 7, 60, 100, 3600, 1 << 20, 1 << 31, 1 << 40, 1<<40 + 1, 1 << 50, 1 << 62, math.MaxInt64, math.MinInt64}

// fuzzReader decodes a fuzzed snapshot: a field is one byte, an edge
// value (fuzzEdges), 255 and the next 8 bytes (any int64), or a small
// value (the byte − 40).
type fuzzReader []byte

func (r *fuzzReader) byte() byte {
	if len(*r) == 0 {
		return 0
	}
	b := (*r)[0]
	*r = (*r)[1:]
	return b
}

func (r *fuzzReader) int() int64 {
	b := r.byte()
	switch {
	case int(b) < len(fuzzEdges):
		return fuzzEdges[b]
	case b == 255 && len(*r) >= 8:
		v := int64(binary.LittleEndian.Uint64(*r))
		*r = (*r)[8:]
		return v
	}
	return int64(b) - 40
}

// FuzzForecast: a Forecaster over hostile snapshots (negative or huge
// elapsed times, sizes above the machine or ≤ 0, a machine of 0, extreme
// estimates and predictions, duplicated IDs, GPU demands on nodes, a
// cancelled context). It never panics or hangs; it answers a bad snapshot
// with errSnapshot and a cancelled context with its error, and otherwise
// one start per asked job, each ≥ Now or −1, −1 only for a job that could
// not run alone on the empty simulated machine; the same answer twice (the
// Forecaster reuses its buffers).
func FuzzForecast(f *testing.F) {
	// mode: bits 0–1 the policy (EASY, conservative, EASY on gpuNodes,
	// the same counting memory), bit 2 Estimates, bit 3 a cancelled
	// context. Each job: a kind byte (kind%3: running, waiting, ended and
	// told to Terminated; kind&4: a Demand follows) and its fields.
	// (Field codes: 40 + v is a small v; 1 is 0, 7 is 3600, 10 is 2^40,
	// 12 is 2^50, 14 is 2^63 − 1.) The hand-checked snapshot of
	// TestForecastByHand; running jobs holding 2^40 and 2^50 processors;
	// two GPU jobs on gpuNodes; an ended job of 2^63 − 1 s beside a running
	// one of 2^63 − 1 processors and no estimate at Now = 2^40; a
	// cancelled context.
	gpu := []byte{41, 41, 255, 0xe8, 3, 0, 0, 0, 0, 0, 0, 40} // 1 node, 1 core, 1 GPU, no memory
	f.Add(byte(0), int64(40), int64(10), []byte{0, 41, 40, 40, 50, 140, 41, 1, 42, 50, 0, 45, 90, 41, 1, 43, 60, 0, 50, 70, 41, 1, 44, 70, 0, 45, 60, 41})
	f.Add(byte(4), int64(100), int64(1<<40), []byte{0, 41, 1, 1, 10, 7, 41, 0, 42, 1, 1, 12, 7, 41, 1, 43, 140, 0, 41, 47, 41})
	f.Add(byte(6), int64(10), int64(0), slices.Concat([]byte{12, 41, 40, 40, 41, 140, 41}, gpu, []byte{4, 42, 45, 0, 41, 90, 41}, gpu))
	f.Add(byte(1), int64(1<<40), int64(64), []byte{2, 41, 1, 1, 41, 14, 41, 0, 42, 1, 1, 14, 0, 41, 1, 43, 1, 0, 104, 0, 42})
	f.Add(byte(8), int64(5), int64(8), []byte{1, 41, 40, 40, 41, 41, 41})
	f.Fuzz(func(t *testing.T, mode byte, now, machine int64, data []byte) {
		cfg := Config{Estimates: mode&4 != 0}
		switch mode & 3 {
		case 1:
			cons, _ := sched.LookupPreset("conservative")
			cfg.Policy = cons.New(1)
		case 2, 3:
			cfg.Policy = sched.Config{Nodes: gpuNodes, CountMemory: mode&3 == 3}
		}
		fc, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := &Snapshot{Now: now, MachineSize: machine}
		r := fuzzReader(data)
		for id := int64(1); len(r) > 0 && id <= 64; id++ {
			kind := r.byte()
			j := swf.NewJob()
			j.ID = r.int() // (duplicates and negatives: the simulation renumbers)
			j.Submit, j.Wait, j.AllocProcs, j.ReqTime, j.User = r.int(), r.int(), r.int(), r.int(), r.int()
			j.ReqProcs = j.AllocProcs
			if kind&4 != 0 {
				j.Demand = &swf.Demand{Nodes: r.int(), Cores: r.int(), GPUs: r.int(), Memory: r.int()}
			}
			switch kind % 3 {
			case 0:
				s.Running = append(s.Running, j)
			case 1:
				s.Waiting = append(s.Waiting, j)
			default:
				j.RunTime = j.ReqTime
				fc.Terminated(&j, now)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if mode&8 != 0 {
			cancel()
		}
		check := func(what string, starts []int64, err error, asked []swf.Job) {
			t.Helper()
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				t.Fatalf("%s: no answer in 20 s (a hang?)", what)
			case mode&8 != 0:
				if !errors.Is(err, context.Canceled) && !errors.Is(err, errSnapshot) {
					t.Fatalf("%s, cancelled context: starts %v, error %v", what, starts, err)
				}
				return
			case err != nil:
				if !errors.Is(err, errSnapshot) {
					t.Fatalf("%s: error %v, not a bad snapshot", what, err)
				}
				return
			}
			if len(starts) != len(asked) {
				t.Fatalf("%s: %d starts for %d jobs", what, len(starts), len(asked))
			}
			size := fc.lastMachine
			for i, at := range starts {
				if at >= s.Now {
					continue
				}
				if at != -1 {
					t.Fatalf("%s: job %d starts at %d, before now %d", what, i, at, s.Now)
				}
				// −1 says it cannot run: alone on the empty machine it
				// cannot either.
				alone := &Snapshot{Now: s.Now, MachineSize: size, Waiting: asked[i : i+1]}
				if fc.cores > 0 {
					alone.MachineSize = 0
				}
				got, err := fc.Forecast(context.Background(), alone)
				if err != nil || got[0] != -1 {
					t.Fatalf("%s: job %d (%+v) cannot run (−1), but alone on the machine of %d it starts at %v (%v)", what, i, asked[i], size, got, err)
				}
			}
		}
		starts, err := fc.Forecast(ctx, s)
		check("forecast", starts, err, s.Waiting)
		if err == nil {
			again, err := fc.Forecast(ctx, s)
			if err != nil || !slices.Equal(again, starts) {
				t.Fatalf("forecast again: %v (%v), first %v", again, err, starts)
			}
		}
		what := swf.NewJob()
		what.AllocProcs, what.ReqProcs, what.ReqTime = max(machine/2, 1), max(machine/2, 1), 3600
		at, err := fc.WhatIf(ctx, s, what)
		check("what-if", []int64{at}, err, []swf.Job{what})
	})
}

// A machine above the 2^40 processors sched simulates (FuzzForecast's
// seed 1736cbb308c177dc) failed with sched's own error, no bad snapshot;
// NewOnline took it, and its replay failed at the first simulated
// question. Both are bad snapshots; 2^40 itself runs.
func TestMachineAboveMax(t *testing.T) {
	f, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{maxMachine + 1, math.MaxInt64} {
		if got, err := f.Forecast(context.Background(), &Snapshot{Now: 100, MachineSize: size}); !errors.Is(err, errSnapshot) {
			t.Errorf("machine of %d: %v, %v; want a bad snapshot", size, got, err)
		}
		if _, err := NewOnline(Config{}, size); !errors.Is(err, errSnapshot) {
			t.Errorf("NewOnline(%d): %v; want a bad snapshot", size, err)
		}
	}
	if _, err := f.Forecast(context.Background(), &Snapshot{Now: 100, MachineSize: maxMachine}); err != nil {
		t.Errorf("machine of 2^40: %v", err)
	}
	if _, err := NewOnline(Config{}, maxMachine); err != nil {
		t.Errorf("NewOnline(2^40): %v", err)
	}
}
