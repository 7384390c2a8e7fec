package apq

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestMemoRapid compares a System's descriptions (memo.go) with describe's
// walk of the same jobs over random event sequences that TestMemoEqualsDescribe's
// flurries leave out: the clock going back and forth between a few
// instants, jobs started after the instant asked and ended before it is
// asked again, −1 sizes, users and estimates, and terms near and past 2^53
// (sizes and estimates up to 2^62), where the memo must give way to the walk.
func TestMemoRapid(t *testing.T) {
	memoRapidHits = 0
	rapid.Check(t, func(t *rapid.T) {
		sys := new(System)
		var waiting, running []int64
		subs := map[int64]int64{}
		id := int64(0)
		defer func() { memoRapidHits += sys.memo.hits }()
		big := rapid.SampledFrom([]int64{-1, 0, 1, 7, 1 << 26, 1<<53 - 1, 1 << 53, 1 << 62})
		small := rapid.Int64Range(-1, 100)
		val := func(label string) int64 {
			if rapid.IntRange(0, 9).Draw(t, label+"big") == 0 {
				return big.Draw(t, label)
			}
			return small.Draw(t, label)
		}
		for range rapid.IntRange(1, 120).Draw(t, "steps") {
			now := rapid.Int64Range(0, 4).Draw(t, "now") * 10
			switch op := rapid.IntRange(0, 3).Draw(t, "op"); {
			case op == 0 || len(waiting) == 0:
				id++
				j := Job{ID: id, Submit: rapid.Int64Range(0, 45).Draw(t, "submit"), Req: val("req"), ERT: val("ert"),
					User: rapid.Int64Range(-1, 2).Draw(t, "user"), Queue: rapid.Int64Range(0, 1).Draw(t, "queue")}
				if err := sys.Submit(j); err != nil {
					t.Fatal(err)
				}
				subs[id] = j.Submit
				waiting = append(waiting, id)
			case op == 1:
				k := rapid.IntRange(0, len(waiting)-1).Draw(t, "start")
				jid := waiting[k]
				at := subs[jid] + rapid.Int64Range(0, 20).Draw(t, "after")
				if err := sys.Start(jid, at); err != nil {
					t.Fatal(err)
				}
				waiting = append(waiting[:k], waiting[k+1:]...)
				running = append(running, jid)
			case op == 2 && len(running) > 0:
				k := rapid.IntRange(0, len(running)-1).Draw(t, "end")
				if err := sys.End(running[k]); err != nil {
					t.Fatal(err)
				}
				running = append(running[:k], running[k+1:]...)
			}
			for range rapid.IntRange(0, 3).Draw(t, "questions") {
				target := Job{ID: -rapid.Int64Range(0, 1).Draw(t, "tid"), Submit: now, Req: val("treq"), ERT: val("tert"),
					User: rapid.Int64Range(-1, 2).Draw(t, "tuser"), Queue: rapid.Int64Range(0, 1).Draw(t, "tqueue")}
				if target.ID == 0 && len(waiting) > 0 {
					target.ID = waiting[0] // a job of the system
				}
				perQueue := rapid.Bool().Draw(t, "perQueue")
				got := describe(target, now, sys, perQueue)
				want := describe(target, now, snapshotOf(sys), perQueue)
				comparePoints(t, got, want)
			}
		}
	})
	if memoRapidHits == 0 {
		t.Errorf("no description came from the memo: the test compared walks")
	}
	t.Logf("%d descriptions from the memo", memoRapidHits)
}

// memoRapidHits counts the descriptions TestMemoRapid had from the memo.
var memoRapidHits int

func comparePoints(t *rapid.T, got, want Point) {
	for i := range got.F {
		if math.Float64bits(got.F[i]) != math.Float64bits(want.F[i]) {
			t.Fatalf("feature %d = %v, describe's %v", i, got.F[i], want.F[i])
		}
	}
	for i := range got.d {
		g, w := got.d[i], want.d[i]
		if g.n != w.n || g.lo != w.lo || g.hi != w.hi || len(g.bins) != len(w.bins) {
			t.Fatalf("distribution %d = %+v, describe's %+v", i, g, w)
		}
		for k := range g.bins {
			if g.bins[k] != w.bins[k] {
				t.Fatalf("distribution %d = %+v, describe's %+v", i, g, w)
			}
		}
	}
	if got.Req != want.Req || got.Queue != want.Queue {
		t.Fatalf("%d %d, describe's %d %d", got.Req, got.Queue, want.Req, want.Queue)
	}
}
