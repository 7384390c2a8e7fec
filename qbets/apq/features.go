package apq

// NumFeatures and NumDists are the sizes of Table II (feature summaries)
// and Table I (distributions).
const (
	NumFeatures = 16
	NumDists    = 6
)

// FeatureNames names the 16 feature summaries of Table II, in order
// (index 0 is the paper's feature 1).
var FeatureNames = [NumFeatures]string{
	"req size", "ERT",
	"Σ req waiting", "Σ ERT waiting", "Σ elapsed wait",
	"Σ req running", "Σ ERT running", "Σ elapsed run",
	"user Σ req·ERT waiting", "user Σ req waiting", "user Σ ERT waiting", "user # waiting",
	"user Σ req·ERT running", "user Σ req running", "user Σ ERT running", "user # running",
}

// DistNames names the six distributions of Table I, in order.
var DistNames = [NumDists]string{
	"req waiting", "ERT waiting", "elapsed wait", "req running", "ERT running", "elapsed run",
}

// Point is a job's description at its submission time: the job itself and
// the system state it met, as the 16 feature summaries and the six
// distributions. A history job keeps the Point of its own submission.
type Point struct {
	Req, Queue int64
	F          [NumFeatures]float64
	d          [NumDists]fineHist
}

// Describe computes the Point of target submitted at now in state st
// (Tables I and II). Waiting jobs count when submitted strictly before now,
// running jobs when started at or before now (spec §1); the target itself
// is skipped by ID. With perQueue only the target's queue counts.
func Describe(target Job, now int64, st State, perQueue bool) Point {
	p := Point{Req: target.Req, Queue: target.Queue}
	f := &p.F
	f[0], f[1] = float64(target.Req), target.ert()
	var idx [NumDists][]uint16
	for j := range st.Waiting() {
		if j.ID == target.ID || j.Submit >= now || (perQueue && j.Queue != target.Queue) {
			continue
		}
		req, ert, el := float64(j.Req), j.ert(), float64(now-j.Submit)
		f[2] += req
		f[3] += ert
		f[4] += el
		if j.User == target.User {
			f[8] += req * ert
			f[9] += req
			f[10] += ert
			f[11]++
		}
		idx[0] = append(idx[0], fineIndex(req))
		idx[1] = append(idx[1], fineIndex(ert))
		idx[2] = append(idx[2], fineIndex(el))
	}
	for j := range st.Running() {
		if j.ID == target.ID || j.Start > now || (perQueue && j.Queue != target.Queue) {
			continue
		}
		req, ert, el := float64(j.Req), j.ert(), float64(now-j.Start)
		f[5] += req
		f[6] += ert
		f[7] += el
		if j.User == target.User {
			f[12] += req * ert
			f[13] += req
			f[14] += ert
			f[15]++
		}
		idx[3] = append(idx[3], fineIndex(req))
		idx[4] = append(idx[4], fineIndex(ert))
		idx[5] = append(idx[5], fineIndex(el))
	}
	for i := range idx {
		p.d[i] = newFineHist(idx[i])
	}
	return p
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
