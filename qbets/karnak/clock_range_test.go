package karnak

import (
	"context"
	"math"
	"testing"
)

// A Config.Now outside the events' range (0–2^40 s) is clamped to it: at
// math.MaxInt64 the clock plus MaxSkew wrapped around, and every event was
// refused as far ahead of the clock; below 0, an event at 0 was.
func TestClockClampedToEventRange(t *testing.T) {
	for _, now := range []int64{math.MaxInt64, maxSpan + 1, -1, math.MinInt64} {
		svc, err := New(nil, Config{Now: func() int64 { return now }})
		if err == nil {
			err = svc.Load(context.Background())
		}
		if err != nil {
			t.Fatal(err)
		}
		at := min(max(now, 0), maxSpan) // the clock's value, clamped
		if err := svc.Ingest([]Event{{Kind: KindQueue, System: "s", Time: at, Queue: "q", Cores: 8, WallTime: 3600}}); err != nil {
			t.Errorf("Now %d: an event at %d: %v", now, at, err)
		}
	}
}
