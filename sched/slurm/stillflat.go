package slurm

import (
	"cmp"
	"math"
	"slices"
)

// A still stretch without decay (DecayHalfLife -1: a site's
// PriorityDecayHalfLife=0). Usage then never folds, so the tree's state
// never repeats: fsChange and csChange looked ahead one calculation at a
// time, as far as the stretch had gone, and a catch-up stepped every
// calculation (2^34 s of still stretch cost 1.6 s under Fair Tree, 3.4 s
// under classic; 2^40 s minutes). While no job starts or ends, every
// calculation is the same map of the usage: each running job adds
// P·CPUs (Δ = P, d^Δ = 1) to its association and each kept one above it,
// in the running jobs' order, and nothing decays (flatOK).
//
// The float sums have a closed form per binade. An association's usage
// x in [2^e, 2^(e+1)) is n·U (U = 2^(e−52)), and x + c rounds to
// (n + round(c/U))·U unless c/U is a half-integer, when the tie goes to
// the even n: so while a calculation's sums stay in the binade, a
// calculation adds g(n mod 2)·U, and from the second calculation in the
// binade on the parity is fixed or alternates: x(k0+2j) = x(k0) + j·E
// and x(k0+1+2j) = x(k0+1) + j·E, E measured by stepping two
// calculations (TestFlatWalkExact). flatWalk cuts an association's
// calculations into such segments (a few a binade, a few dozen binades
// a stretch): a catch-up leaps by it (leap), and a look ahead reads any
// calculation's usage from its segments in a binary search.
//
// A look then needs no stepping where a segment proves that nothing
// changes. On each class of calculations (k even, k odd) of a range
// within one segment of every association, a ratio of two usages is a
// Möbius function of k, so monotone: the exact value at every
// calculation lies between the values at the class's first and last,
// and float rounding (division, addition and multiplication by a
// positive constant are monotone, correctly rounded) keeps the computed
// ones there too. Fair Tree (ftCert): two adjacent siblings keep their
// order while the ratio of their keys stays above 1 + 2^−44 (computed;
// exact above 1 + 2^−51: the rounded keys then differ), and a tie while
// the two products are exactly equal at both ends of each class; a key
// that does not move against one that does is monotone. Classic
// (csCert): each waiting job's priority bounded from the bounds of
// every usage_norm it reads, through effective usage (widened by
// 2^−49 for its rounding), Pow (widened by 2^−46 for its error; the
// margins' arithmetic is at csEfctv and csFactor) and the sum, age
// included; the priority holds if
// prioCap gives it at both bounds. A bound that moves no value needs
// no widening: the calculations compute the same floats. Where no
// segment proves it (a segment's first calculation, a near tie), the
// look computes that calculation's ranks or priorities exactly, from
// the usage flatRun.at reads; the first that differs is the answer, so it
// is the stepping look's, bit for bit (TestStillSpanSearch*, which
// compare every look's state before and after), and a still stretch of
// 2^40 s costs a few hundred segments a look rather than 3.7·10^9
// calculations (TestStillSpanNoDecay).

// flatOK reports that every calculation from nextCalc on, until a job
// starts or ends, is the same map of the usage: no decay, whole periods
// (Δ = P), every running job started by the last calculation, and no
// ended job's usage waiting.
func (p *Policy) flatOK() bool {
	if p.flatOff || p.decayF != 1 || len(p.pendingUse) > 0 || p.tree.scale != 1 || p.nextCalc-p.lastRan != p.calcPeriod {
		return false
	}
	for _, r := range p.running {
		if r.start > p.lastRan {
			return false
		}
	}
	return true
}

// flatRun is the map of one calculation (flatOK): the associations the
// running jobs add to, each with its usage at the base and the
// additions of a calculation in order.
type flatRun struct {
	slot []int32 // association → its index in idx, -1 if none
	idx  []int
	x0   []float64
	adds [][]float64
	// A look's: each association's segments (flatWalk), the
	// calculations that begin one, the pairs of siblings (Fair Tree),
	// a certificate's points and its memo of effective usage (classic).
	segs   [][]flatSeg
	breaks []int64
	pairs  []flatPair
	pts    [4]int64
	memo   []ival
	stamp  []int64
	gen    int64
}

// build makes the map from the running jobs, as addWhole adds them.
func (f *flatRun) build(p *Policy) {
	t := p.tree
	if len(f.slot) < len(t.a) {
		f.slot = make([]int32, len(t.a))
		for i := range f.slot {
			f.slot[i] = -1
		}
	}
	for _, i := range f.idx { // the last map's
		f.slot[i] = -1
	}
	f.idx, f.x0 = f.idx[:0], f.x0[:0]
	for k := range f.adds {
		f.adds[k] = f.adds[k][:0]
	}
	whole := float64(p.calcPeriod) * math.Pow(p.decayF, float64(p.calcPeriod)) // calcUsage's
	for _, r := range p.running {
		u := whole * float64(r.planCPUs())
		if u <= 0 {
			continue
		}
		u /= t.scale
		for i := r.assoc; i > t.top; i = int(t.a[i].hop) {
			s := f.slot[i]
			if s < 0 {
				s = int32(len(f.idx))
				f.slot[i] = s
				f.idx, f.x0 = append(f.idx, i), append(f.x0, t.a[i].usage)
				if len(f.adds) <= int(s) {
					f.adds = append(f.adds, nil)
				}
			}
			f.adds[s] = append(f.adds[s], u)
		}
	}
}

func flatStep(x float64, adds []float64) float64 {
	for _, c := range adds {
		x += c
	}
	return x
}

// flatSeg is a segment of an association's calculations from k0 to
// end: x(k0+2j) = a + j·e, x(k0+1+2j) = b + j·e.
type flatSeg struct {
	k0, end int64
	a, b, e float64
}

func (s *flatSeg) at(k int64) float64 {
	j := (k - s.k0) / 2
	if (k-s.k0)%2 == 0 {
		return s.a + float64(j)*s.e
	}
	return s.b + float64(j)*s.e
}

// flatWalk is the usage n calculations after x (calculation 0), each
// adding adds in turn, bit for bit as stepping them; with segs, it
// appends the segments of calculations 1 to n, the last to the end of
// time once the usage no longer moves.
func flatWalk(x float64, adds []float64, n int64, segs *[]flatSeg) float64 {
	add := func(s flatSeg) {
		if segs != nil {
			*segs = append(*segs, s)
		}
	}
	for k := int64(0); k < n; {
		x1 := flatStep(x, adds)
		if x1 == x { // the same map from the same usage, for ever
			add(flatSeg{k0: k + 1, end: math.MaxInt64, a: x, b: x})
			return x
		}
		k++
		add(flatSeg{k0: k, end: k, a: x1})
		x = x1
		_, exp := math.Frexp(x1)
		hi := math.Ldexp(1, exp) // x1 in [hi/2, hi)
		if n-k < 3 || x1 < 0x1p-1000 || math.IsInf(hi, 0) {
			continue
		}
		// From x1, in its binade, the parity of x/U (U = hi·2^−53)
		// after a calculation is fixed or alternates: the pairs of
		// calculations from k+1 add the same e units each, until a sum
		// leaves the binade. (x4 − x2 and hi − x2 are exact: multiples
		// of U below hi.)
		x2 := flatStep(x1, adds)
		x3 := flatStep(x2, adds)
		x4 := flatStep(x3, adds)
		if x4 >= hi || x4 == x2 {
			// x4 == x2: x2 no longer moves (a tie rounded x1 up to an
			// even unit and the sums of half a unit stay there); the
			// next steps find that, and e = 0 would divide by zero.
			continue
		}
		U := hi * 0x1p-53
		e := int64((x4 - x2) / U)
		room := int64((hi - x2) / U)
		j := min((room-1)/e, (n-k-1)/2) // x2 + j·e·U < hi
		end := k + 1 + 2*j
		if x3+float64(j)*(x4-x2) < hi && end+1 <= n {
			end++ // the odd class's next is in too
		}
		g := flatSeg{k0: k + 1, end: end, a: x2, b: x3, e: x4 - x2}
		add(g)
		x, k = g.at(end), end
	}
	return x
}

// leap passes over, in a catch-up to now under flatOK, every
// calculation due but the last, leaving the usage bit for bit as
// stepping them would (cycle's bookkeeping). The running jobs' moved
// marks are those the last calculation set (the same jobs add to the
// same associations).
func (p *Policy) leap(now int64) {
	k := (now - p.nextCalc) / p.calcPeriod
	if k <= 0 {
		return
	}
	f := &p.flat
	f.build(p)
	for s, i := range f.idx {
		p.tree.a[i].usage = flatWalk(f.x0[s], f.adds[s], k, nil)
	}
	p.nextCalc += k * p.calcPeriod
	p.lastRan = p.nextCalc - p.calcPeriod
	p.skips += k
	p.leaps += k
	if p.cfg.ClassicFairshare {
		p.tree.gen += k
	}
}

// flatLook is fsChange's and csChange's look ahead under flatOK, over
// the calculations from nextCalc before end (calculation k, from 1, at
// nextCalc + (k−1)·P): the first at which a user's rank (Fair Tree: the
// ranks now are sv.rank0) or a waiting job's priority (classic) differs
// from now, and true; end and false if none does (or Run's context is
// done: the calculation it stopped at). The caller saved the tree and
// puts it back.
func (p *Policy) flatLook(end int64) (int64, bool) {
	f, t, P := &p.flat, p.tree, p.calcPeriod
	p.flatLooks++
	f.build(p)
	at := func(k int64) int64 { return p.nextCalc + (k-1)*P }
	K := (end - p.nextCalc + P - 1) / P
	for len(f.segs) < len(f.idx) {
		f.segs = append(f.segs, nil)
	}
	f.breaks = f.breaks[:0]
	for s := range f.idx {
		segs := f.segs[s][:0]
		flatWalk(f.x0[s], f.adds[s], K, &segs)
		f.segs[s] = segs
		for _, g := range segs {
			f.breaks = append(f.breaks, g.k0)
		}
	}
	slices.Sort(f.breaks)
	f.breaks = slices.Compact(f.breaks)
	classic := p.cfg.ClassicFairshare
	if !classic {
		f.pairs = f.pairs[:0]
		for _, pi := range t.act {
			kids := t.a[pi].children
			for n := 1; n < len(kids); n++ {
				i, j := kids[n-1], kids[n]
				f.pairs = append(f.pairs, flatPair{i, j, t.ft[i].levelFS == t.ft[j].levelFS})
			}
		}
	}
	if len(f.memo) < len(t.a) {
		f.memo, f.stamp = make([]ival, len(t.a)), make([]int64, len(t.a))
	}
	cert := func(ka, kb int64) bool {
		p.flatCerts++
		f.pts = [4]int64{ka - 1, ka, kb - 1, kb}
		if classic {
			return p.csCert(at(ka), at(kb))
		}
		return p.ftCert(ka, kb)
	}
	same := func(k int64) bool { // calculation k computed, as stepping it would
		p.calcs++ // as a step (the caller puts it back)
		p.flatEvals++
		if classic {
			f.setUsage(t, k-1)
			t.classicAccounts()
			f.setUsage(t, k)
			w := p.weights()
			for _, r := range p.queue {
				if !(r.out && (r.running || r.gone)) && w.full(p, r, at(k)) != r.prio {
					return false
				}
			}
			return true
		}
		f.setUsage(t, k)
		for _, i := range f.idx {
			t.touch(i)
		}
		t.allStale = true
		t.ranks()
		for m, i := range t.act {
			if t.ft[i].rank != p.fsSave.rank0[m] {
				return false
			}
		}
		return true
	}
	bi := 0
	for cur, n := int64(1), 0; cur <= K; n++ {
		if p.lookCut(n) {
			return at(cur), false
		}
		for bi < len(f.breaks) && f.breaks[bi] < cur {
			bi++
		}
		kb := K // the range [cur, kb], in one segment of every association from cur−1
		if bi < len(f.breaks) {
			kb = min(kb, f.breaks[bi]-1)
		}
		if cur >= 2 && kb > cur {
			if cert(cur, kb) {
				cur = kb + 1
				continue
			}
			lo, hi := cur, kb // [cur, lo] holds (lo = cur: none shown), hi not
			// Galloping from cur, then bisecting: in a near tie, which may
			// last the whole look, the first certificate fails, where a
			// bisection from kb made log2(kb−cur) at every calculation
			// computed (a look then cost 30 times stepping).
			for m := cur + 1; m < hi; m = cur + 2*(m-cur) {
				if !cert(cur, m) {
					hi = m
					break
				}
				lo = m
			}
			for hi-lo > 1 {
				if m := lo + (hi-lo)/2; cert(cur, m) {
					lo = m
				} else {
					hi = m
				}
			}
			if lo > cur {
				cur = lo + 1
			}
		}
		if !same(cur) {
			return at(cur), true
		}
		cur++
	}
	return end, false
}

// flatPair is two adjacent siblings of Fair Tree's order at a look's
// start, and whether their keys tie.
type flatPair struct {
	i, j int
	tied bool
}

// ival is an interval of floats.
type ival struct{ lo, hi float64 }

func (v ival) point() bool { return v.lo == v.hi }

// at is association i's usage at calculation k of a look.
func (f *flatRun) at(t *tree, i int, k int64) float64 {
	s := f.slot[i]
	if s < 0 {
		return t.a[i].usage // no job adds to it
	}
	if k == 0 {
		return f.x0[s]
	}
	segs := f.segs[s]
	n, _ := slices.BinarySearchFunc(segs, k, func(g flatSeg, k int64) int { return cmp.Compare(g.end, k) })
	return segs[n].at(k)
}

// setUsage sets the usage of every association a job adds to to its
// usage at calculation k.
func (f *flatRun) setUsage(t *tree, k int64) {
	for _, i := range f.idx {
		t.a[i].usage = f.at(t, i, k)
	}
}

// ftCert reports that no adjacent siblings' order or tie moves at any
// calculation of [ka, kb] (ka ≥ 2, [ka−1, kb] in one segment of every
// association): so no rank moves (see flatLook's comment above).
func (p *Policy) ftCert(ka, kb int64) bool {
	f, t := &p.flat, p.tree
	key := func(i int, k int64) float64 { // reorder's
		a := &t.a[i]
		switch {
		case a.useParent:
			return math.Inf(1)
		case a.normShares == 0:
			return 0
		}
		return a.normShares / f.at(t, i, k)
	}
	moves := func(i int) bool {
		a := &t.a[i]
		return f.slot[i] >= 0 && !a.useParent && a.normShares != 0
	}
	holds := func(tied bool, vi, vj float64) bool {
		if tied {
			return vi == vj
		}
		return vi > vj
	}
	for _, pr := range f.pairs {
		i, j := pr.i, pr.j
		mi, mj := moves(i), moves(j)
		switch {
		case !mi && !mj:
		case !mi || !mj:
			// One key is fixed, the other never rises: the outcome at
			// both ends is the outcome between.
			if !holds(pr.tied, key(i, ka), key(j, ka)) || !holds(pr.tied, key(i, kb), key(j, kb)) {
				return false
			}
		default:
			si, sj := t.a[i].normShares, t.a[j].normShares
			if key(i, kb) < 0x1p-1000 || key(j, kb) < 0x1p-1000 {
				return false // the rounding bound below is for normal keys
			}
			for _, k := range f.pts {
				xi, xj := f.at(t, i, k), f.at(t, j, k)
				if pr.tied {
					// Equal products at both ends of a class: the ratio of
					// the keys is 1 all through it, the keys equal.
					p1, p2 := si*xj, sj*xi
					if p1 != p2 || math.FMA(si, xj, -p1) != math.FMA(sj, xi, -p2) {
						return false
					}
				} else if (si*xj)/(sj*xi) < 1+0x1p-44 {
					// The computed ratio is three roundings (2^−53 each)
					// from the exact: at least 1+2^−44 computed is above
					// 1+2^−45 exact at the ends, so between (monotone),
					// and keys each within 2^−53 of theirs stay apart.
					return false
				}
			}
		}
	}
	return true
}

// csCert reports that no waiting job's priority moves at any
// calculation from time ta to tb, the calculations ka to kb of a look
// (ka ≥ 2, [ka−1, kb] in one segment of every association): each
// priority bounded as flatLook's comment above says.
func (p *Policy) csCert(ta, tb int64) bool {
	f, t := &p.flat, p.tree
	f.gen++
	w := p.weights()
	for _, r := range p.queue {
		if r.out && (r.running || r.gone) {
			continue
		}
		fs := p.csFactor(r.assoc)
		fs.lo, fs.hi = fs.lo*w.fs, fs.hi*w.fs
		var assocF float64
		if w.assoc > 0 {
			assocF = float64(t.a[r.assoc].prio) / float64(t.maxPrio) * w.assoc
		}
		var age0, age1 float64
		if w.age > 0 { // full's
			age0, age1 = w.age, w.age
			if diff := max(ta-r.submit, 0); diff < w.maxAge {
				age0 = float64(diff) / w.maxAgeF * w.age
			}
			if diff := max(tb-r.submit, 0); diff < w.maxAge {
				age1 = float64(diff) / w.maxAgeF * w.age
			}
		}
		if prioCap(age0+assocF+fs.lo+r.jsW+r.partW+r.qosW) != r.prio ||
			prioCap(age1+assocF+fs.hi+r.jsW+r.partW+r.qosW) != r.prio {
			return false
		}
	}
	return true
}

// csFactor bounds classicFactor(i) over a certificate's calculations.
func (p *Policy) csFactor(i int) ival {
	t := p.tree
	if t.a[i].useParent {
		i = t.a[i].parent
		if i == 0 {
			u := p.csNorm(0)
			return ival{math.Pow(2, -u.hi), math.Pow(2, -u.lo)} // a point: X/X
		}
	}
	e := p.csEfctv(i)
	s := t.classicShares(i)
	if s <= 0 {
		return ival{}
	}
	if e.point() {
		v := math.Pow(2, -(e.lo / s))
		return ival{v, v}
	}
	// Go's Pow(2, y) is Exp(f·Log(2)) (|f| ≤ ½) times a power of two,
	// inverted for y < 0: four roundings of at most an ulp, within
	// 2^−50 of 2^y. A Pow between the ends' ys is within (1±2^−50)² of
	// theirs: 2^−46 leaves 16 times that. (A subnormal result rounds
	// coarser, but a term below 2^−1022 moves no sum that reaches 1.)
	return ival{math.Pow(2, -(e.hi/s)) * (1 - 0x1p-46), math.Pow(2, -(e.lo/s)) * (1 + 0x1p-46)}
}

// csEfctv bounds association i's effective usage (setEfctvOf).
func (p *Policy) csEfctv(i int) ival {
	f, t := &p.flat, p.tree
	if f.stamp[i] == f.gen {
		return f.memo[i]
	}
	a := &t.a[i]
	u := p.csNorm(i)
	v := u
	if a.parent != 0 {
		pe := p.csEfctv(a.parent)
		sh := float64(a.shares) / float64(a.level)
		v = ival{u.lo + (pe.lo-u.lo)*sh, u.hi + (pe.hi-u.hi)*sh}
		if !u.point() || !pe.point() {
			// UE is a convex combination (shares ≤ level) of values in
			// [0, 1], exactly monotone in both; its subtraction, product
			// and sum round by 2^−54 each: a computed UE between is
			// within 2·3·2^−54 of the ends' computed ones, which 2^−49
			// covers five times.
			v.lo, v.hi = v.lo-0x1p-49, v.hi+0x1p-49
		}
	}
	f.memo[i], f.stamp[i] = v, f.gen
	return v
}

// csNorm bounds association i's usage_norm at the certificate's points
// (usageNorm): on each class of calculations a Möbius function of k.
func (p *Policy) csNorm(i int) ival {
	f, t := &p.flat, p.tree
	j := i
	if i != 0 && !t.kept(i) {
		j = int(t.a[i].hop)
	}
	v := ival{math.Inf(1), math.Inf(-1)}
	for _, k := range f.pts {
		var u float64
		if r := f.at(t, 0, k); r != 0 {
			u = min(f.at(t, j, k)/r, 1)
		}
		v.lo, v.hi = min(v.lo, u), max(v.hi, u)
	}
	return v
}
