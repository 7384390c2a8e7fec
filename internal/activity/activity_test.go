package activity

import (
	"math"
	"math/big"
	"reflect"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

func TestActivityAndTotals(t *testing.T) {
	jobs := []swf.Job{
		{Submit: 100, User: 2, AllocProcs: 4},
		{Submit: 100 + Week, User: 1, AllocProcs: 2},
		{Submit: 150, User: 2, ReqProcs: 8, AllocProcs: -1},
		{Submit: 100 + 3*Week, User: 1, AllocProcs: 1},
	}
	got, err := PerUser(jobs, Week)
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{Week: 0, Start: 100, User: 2, Jobs: 2, Procs: 12},
		{Week: 1, Start: 100 + Week, User: 1, Jobs: 1, Procs: 2},
		{Week: 3, Start: 100 + 3*Week, User: 1, Jobs: 1, Procs: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PerUser = %+v, want %+v", got, want)
	}
	tot, err := Totals(jobs, Week)
	if err != nil {
		t.Fatal(err)
	}
	if len(tot) != 4 || tot[2].Jobs != 0 || tot[0].Procs != 12 || tot[3].User != allUsers {
		t.Errorf("Totals = %+v", tot)
	}
	if _, err := PerUser(jobs, 0); err == nil {
		t.Error("bin 0 accepted")
	}
	if _, err := Totals(jobs, -1); err == nil {
		t.Error("bin -1 accepted")
	}
}

// Per-user rows sum to the totals, bin by bin, for any bin width.
func TestActivitySumsToTotals(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "n")
		jobs := make([]swf.Job, n)
		for i := range jobs {
			jobs[i] = swf.Job{Submit: rapid.Int64Range(0, 10*Week).Draw(t, "s"), User: rapid.Int64Range(1, 5).Draw(t, "u"), AllocProcs: rapid.Int64Range(-1, 64).Draw(t, "p")}
		}
		bin := rapid.Int64Range(3600, 2*Week).Draw(t, "bin") // Totals has one row per bin: keep them few
		per, _ := PerUser(jobs, bin)
		tot, _ := Totals(jobs, bin)
		sumJ := make([]int, len(tot))
		sumP := make([]int64, len(tot))
		for _, a := range per {
			sumJ[a.Week] += a.Jobs
			sumP[a.Week] += a.Procs
		}
		for b := range tot {
			if tot[b].Jobs != sumJ[b] || tot[b].Procs != sumP[b] {
				t.Fatalf("bin %d: totals %+v, per-user sums %d/%d", b, tot[b], sumJ[b], sumP[b])
			}
		}
	})
}

// A corrupt submit time makes Totals an error, not a panic (makeslice: len
// out of range), also when an unknown submit time (−1) is the origin and
// the span overflows int64; a century of hourly bins is still binned.
func TestTotalsCorruptSubmit(t *testing.T) {
	const maxInt64 = 1<<63 - 1
	for _, jobs := range [][]swf.Job{
		{{Submit: 0}, {Submit: maxInt64}},
		{{Submit: -1}, {Submit: maxInt64}},
		{{Submit: 0}, {Submit: (1 << 22) * 3600}},
	} {
		if tot, err := Totals(jobs, 3600); err == nil {
			t.Errorf("submits %d, %d: %d rows, want an error", jobs[0].Submit, jobs[1].Submit, len(tot))
		}
	}
	jobs := []swf.Job{{Submit: 0}, {Submit: 100 * 365 * 86400}}
	if tot, err := Totals(jobs, 3600); err != nil || len(tot) != 100*365*24+1 {
		t.Errorf("a century of hours: %d rows, %v", len(tot), err)
	}
}

// BinOf is floor((t − origin) / bin) for any int64s, checked against
// math/big: t − origin once wrapped past int64 (origin −1, an unknown submit
// time, and a corrupt 2^63 − 1 gave a negative bin).
func TestBinOfExact(t *testing.T) {
	want := func(t, o, bin int64) int {
		q, m := new(big.Int), new(big.Int)
		q.DivMod(new(big.Int).Sub(big.NewInt(t), big.NewInt(o)), big.NewInt(bin), m) // Euclidean: floor for bin > 0
		switch {
		case q.Cmp(big.NewInt(math.MaxInt)) > 0:
			return math.MaxInt
		case q.Cmp(big.NewInt(math.MinInt)) < 0:
			return math.MinInt
		}
		return int(q.Int64())
	}
	for _, c := range [][3]int64{
		{math.MaxInt64, -1, Week}, {math.MaxInt64, -1, 2}, {math.MaxInt64, -1, 1}, {math.MaxInt64, math.MinInt64, 3},
		{math.MinInt64, 1, 1}, {math.MinInt64, 0, 1}, {math.MinInt64, math.MaxInt64, Week}, {-1, 0, Week}, {0, 0, 1},
	} {
		if got, w := BinOf(c[0], c[1], c[2]), want(c[0], c[1], c[2]); got != w {
			t.Errorf("BinOf(%d, %d, %d) = %d, want %d", c[0], c[1], c[2], got, w)
		}
	}
	t.Run("any", func(t *testing.T) {
		rapid.Check(t, func(r *rapid.T) {
			tt, o, bin := rapid.Int64().Draw(r, "t"), rapid.Int64().Draw(r, "origin"), rapid.Int64Range(1, math.MaxInt64).Draw(r, "bin")
			if got, w := BinOf(tt, o, bin), want(tt, o, bin); got != w {
				r.Fatalf("BinOf(%d, %d, %d) = %d, want %d", tt, o, bin, got, w)
			}
		})
	})
}

// PerUser bins a corrupt submit time 2^63 − 1 after an unknown one (−1) in
// the week that holds it (it once wrapped to a negative week), and refuses
// it when the index does not fit an int (bins of 1 s: 2^63 of them).
func TestPerUserCorruptSubmit(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: -1, User: 1}, {ID: 2, Submit: math.MaxInt64, User: 1}}
	rows, err := PerUser(jobs, Week)
	if err != nil {
		t.Fatal(err)
	}
	// The week of 2^63 − 1 from −1: floor(2^63 / Week), which starts at
	// 2^63 − 1 − (2^63 mod Week) (the true values, in big).
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	wantWeek := new(big.Int).Quo(two63, big.NewInt(Week)).Int64()
	wantStart := math.MaxInt64 - new(big.Int).Rem(two63, big.NewInt(Week)).Int64()
	if len(rows) != 2 || rows[0].Week != 0 || int64(rows[1].Week) != wantWeek || rows[1].Start != wantStart {
		t.Errorf("rows %+v, want weeks 0 and %d (start %d)", rows, wantWeek, wantStart)
	}
	if rows, err := PerUser(jobs, 1); err == nil {
		t.Errorf("bins of 1 s: %+v, want an error", rows)
	}
}

// A corrupt size of 2^63 − 1 and a job of 5 in one week summed to
// −2^63 + 4: the week's processes were the smallest of all. The sums
// saturate at 2^63 − 1, per user and in total; the jobs are not changed.
func TestProcsSaturate(t *testing.T) {
	jobs := []swf.Job{
		{ID: 1, Submit: 0, User: 1, AllocProcs: math.MaxInt64},
		{ID: 2, Submit: 10, User: 1, AllocProcs: 5},
		{ID: 3, Submit: 20, User: 2, AllocProcs: 7},
	}
	per, err := PerUser(jobs, Week)
	if err != nil {
		t.Fatal(err)
	}
	tot, err := Totals(jobs, Week)
	if err != nil {
		t.Fatal(err)
	}
	if len(per) != 2 || per[0].Procs != math.MaxInt64 || per[1].Procs != 7 {
		t.Errorf("PerUser %+v; want user 1 at 2^63 − 1, user 2 at 7", per)
	}
	if len(tot) != 1 || tot[0].Procs != math.MaxInt64 || tot[0].Jobs != 3 {
		t.Errorf("Totals %+v; want 3 jobs, 2^63 − 1 processes", tot)
	}
	if jobs[0].AllocProcs != math.MaxInt64 || jobs[1].AllocProcs != 5 {
		t.Errorf("jobs changed: %+v", jobs)
	}
}
