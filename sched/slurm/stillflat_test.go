package slurm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestFlatWalkExact: flatWalk's usage after n calculations, and its
// segments' usage at every calculation, are stepping's bit for bit, on
// usages and additions drawn to meet every case of the closed form:
// integers and fractions, sums past 2^53 where additions round, and
// additions of half a unit of the binade (ties to even, whose parity
// alternates from one calculation to the next).
func TestFlatWalkExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ties := 0
	for round := range 3000 {
		x := []float64{0, 1, 1e6 * rng.Float64(), float64(rng.Int64N(1 << 40)), 0x1p53 - float64(rng.Int64N(1<<20)),
			0x1p60 + float64(rng.Int64N(1<<30))*1024, 1e300, 0x1p-1030}[rng.IntN(8)]
		var adds []float64
		for range 1 + rng.IntN(4) {
			c := []float64{float64(1 + rng.Int64N(1000)), 300 * float64(1+rng.Int64N(1<<20)), rng.Float64() * 1e4,
				3 * 0x1p7, 5 * 0x1p6, 0x1p7, 5 * 0x1p7, 1}[rng.IntN(8)]
			adds = append(adds, c)
		}
		n := rng.Int64N(20000)
		var segs []flatSeg
		got := flatWalk(x, adds, n, &segs)
		y := x
		si := 0
		for k := int64(1); k <= n; k++ {
			prev := y
			y = flatStep(y, adds)
			for si < len(segs) && segs[si].end < k {
				si++
			}
			if si == len(segs) || segs[si].k0 > k {
				t.Fatalf("round %d: no segment holds calculation %d", round, k)
			}
			if v := segs[si].at(k); v != y {
				t.Fatalf("round %d (x %v, adds %v): calculation %d of segment %+v: %v, stepping %v", round, x, adds, k, segs[si], v, y)
			}
			_ = prev
		}
		for _, g := range segs {
			_, e := math.Frexp(g.a)
			u := math.Ldexp(1, e-53)
			for _, c := range adds {
				if g.end > g.k0+2 && math.Mod(c, u) == u/2 {
					ties++ // a sum in the segment rounds a tie to even
				}
			}
		}
		if got != y {
			t.Fatalf("round %d (x %v, adds %v, n %d): %v, stepping %v", round, x, adds, n, got, y)
		}
	}
	t.Logf("%d segments met a tie", ties)
	if ties == 0 {
		t.Error("no addition met a tie")
	}
}

// TestStillSpanFlatSearch is TestStillSpanSearchArrivals without decay
// (DecayHalfLife -1), where the looks ahead and the catch-ups read the
// usage in closed form (stillflat.go): each round against the eager
// reference, and against the same lazy run with the closed form off
// (flatOff), whose looks step every calculation: the same priorities
// and the same wake-ups, so every look found the same calculation. 40
// rounds (the first 2 under -short: CI's -race run, the plain run does
// the 40); BATCHQ_STILL_ROUNDS and BATCHQ_STILL_SEED as in
// TestStillSpanSearch.
func TestStillSpanFlatSearch(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 2
	}
	if v, err := strconv.Atoi(os.Getenv("BATCHQ_STILL_ROUNDS")); err == nil && v > 0 {
		n = v
	}
	seed, _ := strconv.Atoi(os.Getenv("BATCHQ_STILL_SEED"))
	rng := rand.New(rand.NewPCG(uint64(seed), 4343))
	var looks int64
	for round := range n {
		site, mach, jobs, cancels := arrivalsRound(rng)
		site.DecayHalfLife = -1
		ninth := rng.IntN(2) == 0
		label := fmt.Sprintf("round %d (%+v, %+v)", round, site, mach)
		eager, _ := prioLog(t, label, site, mach, jobs, cancels, ninth, true)
		var lp *Policy
		lazy, lw := prioLogP(t, label, site, mach, jobs, cancels, ninth, false, func(p *Policy) { lp = p })
		looks += lp.flatLooks
		step, sw := prioLogP(t, label, site, mach, jobs, cancels, ninth, false, func(p *Policy) { p.flatOff = true })
		sameLog(t, label+", eager and closed form", eager, lazy)
		sameLog(t, label+", stepping and closed form", step, lazy)
		if lw != sw {
			t.Fatalf("%s: %d wake-ups in closed form, %d stepping", label, lw, sw)
		}
	}
	t.Logf("%d flat looks", looks)
	if looks == 0 {
		t.Error("no look ahead read the usage in closed form")
	}
}

// TestFlatWalkBinadeEdges is TestFlatWalkExact where the closed form's
// cases crowd: usages at either end of a binade (odd units and even),
// additions of half a unit or less, so that a sum stops moving a
// calculation or two after a tie rounded it up to an even unit
// (0x1p53+2 plus 1: 0x1p53+4, and there it stays, which divided by
// zero), and additions of many units.
func TestFlatWalkBinadeEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for round := range 20000 {
		e := 40 + rng.IntN(40)
		U := math.Ldexp(1, e-52)
		x := []float64{math.Ldexp(1, e) + float64(rng.Int64N(8))*U, math.Ldexp(1, e+1) - float64(1+rng.Int64N(64))*U,
			math.Ldexp(1, e) + float64(rng.Int64N(1<<52))*U, math.Ldexp(1, e+1) - float64(1+rng.Int64N(64))*U/2}[rng.IntN(4)]
		var adds []float64
		for range 1 + rng.IntN(4) {
			c := []float64{U / 2, U / 4 * float64(1+rng.IntN(12)), U * float64(1+rng.IntN(5)) / 2,
				math.Ldexp(1, e-53-rng.IntN(3)), U * float64(1+rng.Int64N(1<<20))}[rng.IntN(5)]
			adds = append(adds, c)
		}
		if round == 0 {
			x, adds = 0x1p53+2, []float64{1}
		}
		n := 1 + rng.Int64N(300)
		var segs []flatSeg
		got := flatWalk(x, adds, n, &segs)
		y, si := x, 0
		for k := int64(1); k <= n; k++ {
			y = flatStep(y, adds)
			for si < len(segs) && segs[si].end < k {
				si++
			}
			if si == len(segs) || segs[si].k0 > k {
				t.Fatalf("round %d (x %v, adds %v): no segment holds calculation %d", round, x, adds, k)
			}
			if v := segs[si].at(k); v != y {
				t.Fatalf("round %d (x %v, adds %v): calculation %d of segment %+v: %v, stepping %v", round, x, adds, k, segs[si], v, y)
			}
		}
		if got != y {
			t.Fatalf("round %d (x %v, adds %v, n %d): %v, stepping %v", round, x, adds, n, got, y)
		}
	}
}

// TestStillSpanFlatEdges is TestStillSpanFlatSearch where the
// certificates (ftCert, csCert) are closest to wrong: usages from
// RawUsage at 2^53 and past it in units of the additions (so that every
// calculation rounds, ties to even among them), many users sharing one
// usage and one share (Fair Tree keys that tie, and stay tied or part),
// CPU counts scaled by up to 2^30 (products of CPUs and periods past
// 2^32). Each run against the eager reference and against stepping (the
// closed form off), the same log and wake-ups. 30 rounds (the first 2
// under -short: CI's -race run, the plain run does the 30);
// BATCHQ_STILL_ROUNDS and BATCHQ_STILL_SEED as in TestStillSpanSearch.
func TestStillSpanFlatEdges(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 2
	}
	if v, err := strconv.Atoi(os.Getenv("BATCHQ_STILL_ROUNDS")); err == nil && v > 0 {
		n = v
	}
	seed, _ := strconv.Atoi(os.Getenv("BATCHQ_STILL_SEED"))
	rng := rand.New(rand.NewPCG(uint64(seed), 5353))
	var looks, evals int64
	for round := range n {
		site, mach, jobs, cancels := arrivalsRound(rng)
		site.DecayHalfLife = -1
		for i := range jobs {
			jobs[i].Submit %= 200000 // the eager reference wakes at every calculation
		}
		F := []int64{1, 1 << 10, 1 << 30}[rng.IntN(3)]
		mach.MachineSize *= F
		for i := range jobs {
			jobs[i].AllocProcs *= F
		}
		unit := float64(F) * float64(site.CalcPeriod)
		base := []float64{0x1p52, 0x1p53, 0x1p54, 0x1p60}[rng.IntN(4)] * unit
		raws := []float64{0, base + unit/2, base + unit, base - unit*float64(1+rng.IntN(3)), base + 3*unit/2}
		shares := []int64{1, 2, -1}
		site.Associations = []Association{{Account: "a", Shares: 1}, {Account: "b", Parent: "a", Shares: 1},
			{Account: "c", Shares: 1}}
		for u := range 5 {
			site.Associations = append(site.Associations, Association{Account: []string{"a", "b", "c"}[u%3],
				User: fmt.Sprint(u), Shares: shares[rng.IntN(2)*rng.IntN(3)], RawUsage: raws[rng.IntN(len(raws))]})
		}
		site.AccountNames = map[int64]string{0: "a", 1: "b", 2: "c"}
		ninth := rng.IntN(2) == 0
		label := fmt.Sprintf("round %d (%+v, %+v)", round, site, mach)
		eager, _ := prioLog(t, label, site, mach, jobs, cancels, ninth, true)
		var lp *Policy
		lazy, lw := prioLogP(t, label, site, mach, jobs, cancels, ninth, false, func(p *Policy) { lp = p })
		looks, evals = looks+lp.flatLooks, evals+lp.flatEvals
		step, sw := prioLogP(t, label, site, mach, jobs, cancels, ninth, false, func(p *Policy) { p.flatOff = true })
		sameLog(t, label+", eager and closed form", eager, lazy)
		sameLog(t, label+", stepping and closed form", step, lazy)
		if lw != sw {
			t.Fatalf("%s: %d wake-ups in closed form, %d stepping", label, lw, sw)
		}
	}
	t.Logf("%d flat looks, %d calculations they computed", looks, evals)
}

// TestStillSpanFlatNearTie: two users of equal shares whose usages differ
// by 2^−7 CPU-seconds at 10^12 and grow by the same amount each
// calculation keep their Fair Tree keys within 2^−44 of each other for
// the whole stretch: no certificate holds, and every calculation of a
// look is computed (flatEvals). A look bisected from the end of each
// segment before each, log2 of its length in certificates per
// calculation: 3,854,319 certificates for 257,263 calculations here
// (2^28 s took 10 s of wall clock against stepping's 0.3 s on the loaded
// review machine); it now gallops from the calculation: 512,509.
func TestStillSpanFlatNearTie(t *testing.T) {
	site := Config{WeightAge: 1000, WeightFairshare: 10000, SchedMinInterval: 2, DecayHalfLife: -1,
		Associations: []Association{{Account: "a"}, {Account: "a", User: "1", RawUsage: 1e12},
			{Account: "a", User: "2", RawUsage: 1e12 + 0x1p-7}, {Account: "a", User: "3"}},
		AccountNames: map[int64]string{1: "a"}}
	p, err := New(site, sched.Config{MachineSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []swf.Job{stillJob(1, 0, 1<<26, 4), stillJob(2, 0, 1<<26, 4), stillJob(3, 1000, 10, 8)}
	for i := range jobs {
		jobs[i].Group = 1
	}
	if _, err := p.Run(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d looks, %d calculations computed, %d certificates", p.flatLooks, p.flatEvals, p.flatCerts)
	if p.flatEvals < 1000 {
		t.Fatalf("%d calculations computed: no near tie", p.flatEvals)
	}
	if p.flatCerts > 3*p.flatEvals+64*p.flatLooks {
		t.Errorf("%d certificates for %d calculations computed in %d looks", p.flatCerts, p.flatEvals, p.flatLooks)
	}
}
