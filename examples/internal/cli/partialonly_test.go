package cli

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// The jobs of partial lines only are those whose number no other line
// has, before or after them, in rising runs, gaps or out of order.
func TestPartialOnly(t *testing.T) {
	var p PartialOnly
	line := func(id int64, st swf.Status) {
		j := swf.NewJob()
		j.ID, j.Status = id, st
		p.Add(&j)
	}
	line(5, 2) // before its summary line (below)
	for id := int64(1); id <= 3; id++ {
		line(id, 1)
	}
	line(2, 3)  // after its summary line
	line(4, 2)  // partial only, in the gap before 7
	line(4, 4)  // (one job, two lines)
	line(7, 0)  // a second run
	line(5, 5)  // out of order: 5's summary line
	line(9, 3)  // partial only, past every number
	line(0, 2)  // no number: no job of its own
	line(-1, 3) // (SWF's -1)
	line(8, 1)
	line(6, 2) // partial only, between runs 1-3, 7-8 and the 5 out of order
	if got := p.Jobs(); got != 3 {
		t.Errorf("Jobs() = %d, want 3 (4, 6, 9)", got)
	}
	var none PartialOnly
	if none.Jobs() != 0 {
		t.Error("an empty log has partial-only jobs")
	}
}

// Jobs agrees with a count over every number, whatever the order of the
// lines: rising, in gaps, shuffled, repeated (more lines than foldMin, so
// that the loose numbers are folded several times).
func TestPartialOnlyAnyOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3000).Draw(t, "lines")
		top := rapid.Int64Range(1, 900).Draw(t, "top")
		lines := rapid.SliceOfN(rapid.Int64Range(-1, top), n, n).Draw(t, "ids")
		partial := rapid.SliceOfN(rapid.IntRange(0, 9), len(lines), len(lines)).Draw(t, "partial")
		var p PartialOnly
		part, other := map[int64]bool{}, map[int64]bool{}
		for i, id := range lines {
			j := swf.NewJob()
			j.ID, j.Status = id, 1
			if partial[i] == 0 {
				j.Status = 2
				part[id] = id >= 1
			} else {
				other[id] = true
			}
			p.Add(&j)
		}
		want := 0
		for id, ok := range part {
			if ok && !other[id] {
				want++
			}
		}
		if got := p.Jobs(); got != want {
			t.Fatalf("Jobs() = %d, want %d", got, want)
		}
	})
}

// What PartialOnly holds is the runs its numbers make, not a number a
// line: a log of 400,000 lines whose numbers come shuffled in windows of
// 64 (a log sorted by submit time, numbered by another order) ends as one
// run.
func TestPartialOnlyShuffledBounded(t *testing.T) {
	const lines = 400_000
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]int64, lines)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	for w := 0; w < lines; w += 64 {
		win := ids[w:min(w+64, lines)]
		rng.Shuffle(len(win), func(a, b int) { win[a], win[b] = win[b], win[a] })
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	p := new(PartialOnly)
	j := swf.NewJob()
	j.Status = 1
	for _, id := range ids {
		j.ID = id
		p.Add(&j)
	}
	held := int64(heap()) - int64(before)
	runtime.KeepAlive(ids)
	t.Logf("%d lines shuffled in windows of 64: %d bytes held", lines, held)
	// A number a line would be 8 bytes at least (3.2 MB); the runs are
	// one, the loose numbers fewer than foldMin.
	if held > 64<<10 {
		t.Errorf("%d bytes held after %d lines, want a few runs' worth (under 64 KiB)", held, lines)
	}
	if n := p.Jobs(); n != 0 {
		t.Errorf("Jobs() = %d, want 0", n)
	}
	runtime.KeepAlive(p)
}
