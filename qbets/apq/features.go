package apq

// numFeatures and numDists are the sizes of Table II (feature summaries)
// and Table I (distributions).
const (
	numFeatures = 16
	numDists    = 6
)

// Point is a job's description at its submission time: the job itself and
// the system state it met, as the 16 feature summaries and the six
// distributions. A history job keeps the Point of its own submission.
type Point struct {
	Req, Queue int64
	F          [numFeatures]float64
	d          [numDists]fineHist
}

// describe computes the Point of target submitted at now in state st
// (Tables I and II). Waiting jobs count when submitted strictly before now,
// running jobs when started at or before now (spec §1); the target itself
// is skipped by ID. With perQueue only the target's queue counts. A
// System's state is described from its memo when it holds one (memo.go).
func describe(target Job, now int64, st State, perQueue bool) Point {
	sys, _ := st.(*System)
	if sys != nil {
		if p, ok := sys.describeMemo(target, now, perQueue); ok {
			return p
		}
		w, r := sys.Len()
		sys.memo.work += w + r
	}
	p := Point{Req: target.Req, Queue: target.Queue}
	f := &p.F
	f[0], f[1] = float64(target.Req), target.ert()
	var idx [numDists][]uint16
	for j := range st.Waiting() {
		if j.ID == target.ID || j.Submit >= now || (perQueue && j.Queue != target.Queue) {
			continue
		}
		count(f, &idx, waitingGroup, j, target.User, float64(now-j.Submit))
	}
	for j := range st.Running() {
		if j.ID == target.ID || j.Start > now || (perQueue && j.Queue != target.Queue) {
			continue
		}
		count(f, &idx, runningGroup, j, target.User, float64(now-j.Start))
	}
	for i := range idx {
		p.d[i] = newFineHist(idx[i])
	}
	return p
}

// The two groups of Tables I–II: the waiting jobs (Q) and the running
// jobs (R). Group g's three summaries are features 2+3g.., the target
// user's four are 8+4g.., and its three distributions are 3g.. .
const (
	waitingGroup = 0
	runningGroup = 1
)

// count adds job j of group g, with elapsed time el (since submission for
// a waiting job, since start for a running one), to the summaries f and
// the distributions' fine indices idx; user is the target's user. A
// target without a user (SWF's −1) has no jobs of its own, as a user
// never seen: the user-less jobs of a trace are not one user's (on a
// trace without users they were the whole queue and machine).
func count(f *[numFeatures]float64, idx *[numDists][]uint16, g int, j Job, user int64, el float64) {
	req, ert := float64(j.Req), j.ert()
	s, u, d := 2+3*g, 8+4*g, 3*g
	f[s] += req
	f[s+1] += ert
	f[s+2] += el
	if j.User == user && user >= 0 {
		f[u] += req * ert
		f[u+1] += req
		f[u+2] += ert
		f[u+3]++
	}
	idx[d] = append(idx[d], fineIndex(req))
	idx[d+1] = append(idx[d+1], fineIndex(ert))
	idx[d+2] = append(idx[d+2], fineIndex(el))
}

// Hist returns distribution i (0..5) of p as a normalized histogram of
// bins equal-width bins on log(1+x) between the smallest and largest value
// of that distribution in p itself. (Inside a Predictor the edges are
// shared by the whole history instead.)
func (p *Point) Hist(i, bins int) []float64 {
	h := &p.d[i]
	dst := make([]float64, bins)
	h.rebin(dst, edges{lo: h.lo, hi: h.hi, ok: h.n > 0})
	return dst
}
