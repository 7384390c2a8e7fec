package qbets

import "math"

// ForecastWaited answers the conditional question for a job that has
// waited `waited` seconds and not started (a queued job), from the
// history Forecast would use: the waits of that history at least
// `waited` long are a sample of the wait given that the job has waited
// so long, and the Binomial Method applied to that tail subsample bounds
// the q-quantile of the wait given the wait so far. The Forecast's Upper
// and Lower are that bound minus `waited`: the rest of the wait, with
// History the size of the tail. When the tail of the job's cluster is
// too short for a bound, the queue-level tail answers (Fallback). With
// waited = 0 it is Forecast.
//
// prob is then P(start within `within` more | not started after
// `waited`) as §2.7 inverts the bound: the largest q' in {0.01, …, 0.99}
// whose level-C conditional bound is at most waited + within (0 when
// none is), at the pair's confidence; probOK is false when no wait of
// the history is that long (nothing to answer from). r.At is now, for
// availability inference.
//
// Asking Forecast with the total wait instead (is waited + t within
// the bound?) answers another question: a job that has waited longer
// than most is "certain" to start at once by it.
func (p *Predictor) ForecastWaited(r Request, waited, within int64) (f Forecast, prob float64, probOK bool) {
	if waited < 0 || within < 0 {
		return Forecast{Cluster: -1, Reason: BadRequest}, 0, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.level(r.Quantile, r.Confidence)
	if l == nil || r.Nodes < 0 || r.Walltime < 0 {
		return Forecast{Cluster: -1, Reason: BadRequest}, 0, false
	}
	h, f := p.pick(l, r.Nodes, r.Walltime, r.At, true)
	if h == nil {
		return f, 0, false
	}
	q, c := l.Quantile, l.Confidence
	below := h.countLE(waited - 1) // waits shorter than waited: not the tail
	m := h.len() - below
	i, ok := upperIndex(m, q, c)
	if !ok && h != l.queue && !f.Down.FromDownHistory && l.queue != nil {
		h, f.Fallback = l.queue, true
		below = h.countLE(waited - 1)
		m = h.len() - below
		i, ok = upperIndex(m, q, c)
	}
	f.History = m
	if !ok {
		f.Reason = NoHistory
	} else {
		f.OK = true
		f.Upper = h.kth(below+i) - waited
		if j, ok := lowerIndex(m, q, c); ok {
			f.Lower, f.LowerOK = h.kth(below+j)-waited, true
		}
	}
	if within == 0 || m == 0 {
		return f, 0, m > 0
	}
	end := waited + within
	if end < waited { // overflow: every wait is within
		end = math.MaxInt64
	}
	in := h.countLE(end) - below // tail waits within `within` more
	idx := func(k int) int {
		i, ok := upperIndex(m, float64(k)/100, c)
		if !ok {
			return m + 1
		}
		return i
	}
	lo, hi := 0, 99 // idx is nondecreasing in k: the largest k with idx(k) ≤ in
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if idx(mid) <= in {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return f, float64(lo) / 100, true
}
