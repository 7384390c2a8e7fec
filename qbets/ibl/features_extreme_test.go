package ibl

import (
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// nearCap counts TestSystemFeaturesExtremes's queries whose Work is within
// a factor 2 below the cap, where a float64 sum would first round.
var nearCap int

// TestSystemFeaturesExtremes is TestSystemFeaturesInOrder at the edges of
// what Submit and Start accept: times up to 2^63 − 1, jobs started
// before the latest event, no limit (-1, 0, −2^63), 2^40 cores asking
// 2^40 s, works of 2^52 whose sums land on either side of the 2^53 cap,
// and queries at −2^63, −1, 0 and 2^63 − 1. The features must be the
// reference's (float64 sums over the jobs) bit for bit.
func TestSystemFeaturesExtremes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s System
		var ref refSystem
		clock := rapid.SampledFrom([]int64{0, 1 << 40, math.MaxInt64 - 1<<41, math.MaxInt64 - 1000}).Draw(t, "clock")
		sizes := []int64{0, 1, 3, 1<<26 - 1, 1 << 26, 1<<26 + 1, 1<<27 - 1, 1 << 40}
		for range rapid.IntRange(1, 200).Draw(t, "steps") {
			id := rapid.Int64Range(1, 30).Draw(t, "id")
			if clock < math.MaxInt64-100 {
				clock += rapid.Int64Range(0, 30).Draw(t, "dt")
			}
			var err, rerr error
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				j := Job{ID: id, User: rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "user"),
					Cores: rapid.SampledFrom(sizes).Draw(t, "cores"), Submit: max(clock-rapid.Int64Range(0, 20).Draw(t, "back"), 0),
					ReqTime: rapid.SampledFrom(append([]int64{-1, math.MinInt64, 7, 100}, sizes...)).Draw(t, "req")}
				err, rerr = s.Submit(j), ref.Submit(j)
			case 1:
				at := max(clock-rapid.Int64Range(0, 40).Draw(t, "start back"), 0)
				err, rerr = s.Start(id, at), ref.Start(id, at)
			case 2:
				err, rerr = s.End(id), ref.End(id)
			}
			if (err == nil) != (rerr == nil) {
				t.Fatalf("job %d: error %v, reference %v", id, err, rerr)
			}
			for _, at := range []int64{clock + rapid.Int64Range(-50, 60).Draw(t, "at"), math.MaxInt64, math.MinInt64, -1, 0} {
				j := Job{Queue: "q", Cores: 3, ReqTime: 60}
				a, b := s.NotQueued(j, at), ref.NotQueued(j, at)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("NotQueued at %d: %v, reference %v", at, a, b)
				}
				if w := b[4].F; w >= 1<<52 && w < maxMagnitude {
					nearCap++
				}
				for id := range int64(32) {
					a, aok := s.Queued(id, at)
					b, bok := ref.Queued(id, at)
					if aok != bok || !reflect.DeepEqual(a, b) {
						t.Fatalf("Queued(%d) at %d: %v %v, reference %v %v", id, at, a, aok, b, bok)
					}
				}
			}
		}
	})
	if nearCap == 0 {
		t.Fatal("no Work just below the cap: the test is vacuous")
	}
	t.Logf("%d queries' Work within a factor 2 below the cap", nearCap)
}
