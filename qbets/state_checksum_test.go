package qbets

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"
)

// Random corruptions of 1–4 bytes anywhere in a saved state are refused:
// the state carries a CRC-32C of its payload, so a corrupted state that
// still parses is caught (before the checksum, 68–76% restored without
// error).
func TestStateCorruptionDetected(t *testing.T) {
	for _, cfg := range []Config{{}, {Cluster: ClusterTwoLevel, ReclusterEvery: 200}} {
		a, _ := New(cfg)
		for _, e := range synthFeed(600, 11) {
			apply(t, a, e)
		}
		state, _ := a.MarshalBinary()
		r := rand.New(rand.NewPCG(31, 4))
		const trials = 2000
		restored := 0
		for range trials {
			data := bytes.Clone(state)
			for range 1 + r.IntN(4) {
				data[r.IntN(len(data))] ^= byte(1 + r.IntN(255))
			}
			if bytes.Equal(data, state) {
				continue // two flips undid each other
			}
			c, _ := New(cfg)
			if c.UnmarshalBinary(data) == nil {
				restored++
			}
		}
		if restored > 0 {
			t.Errorf("%+v: %d of %d corrupted states restored without error", cfg, restored, trials)
		}
	}
}

// States saved by the first format (qbets-state-1, no checksum; the files
// in testdata were written by that code from the feed below) still
// restore, and answer as a Predictor fed the same events.
func TestStateV1Restores(t *testing.T) {
	for name, cfg := range map[string]Config{
		"testdata/state-v1-default.bin":  {},
		"testdata/state-v1-twolevel.bin": {Cluster: ClusterTwoLevel, ReclusterEvery: 200},
	} {
		old, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := New(cfg)
		for _, e := range synthFeed(600, 11) {
			apply(t, a, e)
		}
		b, _ := New(cfg)
		if err := b.UnmarshalBinary(old); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if a.Stats() != b.Stats() {
			t.Fatalf("%s: stats %+v, restored %+v", name, a.Stats(), b.Stats())
		}
		for i := range 200 {
			r := Request{Nodes: 1 << (i % 9), Walltime: int64(600 * (1 + i%24))}
			if fa, fb := a.Forecast(r), b.Forecast(r); fa != fb {
				t.Fatalf("%s: %+v vs restored %+v", name, fa, fb)
			}
		}
		// Saved again, it is in the current format and restores.
		again, _ := b.MarshalBinary()
		if bytes.Equal(again, old) {
			t.Fatalf("%s: saved again in the old format", name)
		}
		c, _ := New(cfg)
		if err := c.UnmarshalBinary(again); err != nil {
			t.Fatalf("%s: re-saved: %v", name, err)
		}
	}
}
