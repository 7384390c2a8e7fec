package molding

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/batchq/batchq/estmodel/rangeset"
)

// Job molding (Hariharan et al. §IV-A; spec apq-rangeset-molding §4): for
// each request size the user has used before, predict the response time as
// a range set (the runtime range set at that size shifted by the predicted
// wait), score every range set with the gain f(t) = 1 − t over the
// normalised response time, and submit with the best-scoring size.

// score is Eq. 5 over rs normalised by maxResp, divided by the total
// coverage: Σ[(u−l) − (u²−l²)/2] / Σ(u−l) = 1 − the coverage-weighted mean
// of the normalised midpoints; probabilities are not used (H18). When the
// coverage is 0 (all ranges are points) the limit, 1 − the mean normalised
// point, is returned. With probWeighted (NOT in the paper) it is
// Σ p_i · (mean gain over range i) instead, which lets the range
// probabilities count. An empty set or a non-positive maxResp is an error.
func score(rs rangeset.Set, maxResp float64, probWeighted bool) (float64, error) {
	if len(rs) == 0 {
		return 0, errors.New("molding: score of an empty range set")
	}
	if !(maxResp > 0) || math.IsInf(maxResp, 0) {
		return 0, fmt.Errorf("molding: score maxResp = %v, need > 0", maxResp)
	}
	if !probWeighted {
		var raw, cov, pts float64
		for _, r := range rs {
			l, u := r.Lo/maxResp, r.Hi/maxResp
			raw += (u - l) - (u*u-l*l)/2
			cov += u - l
			pts += l
		}
		if cov == 0 {
			return 1 - pts/float64(len(rs)), nil
		}
		return raw / cov, nil
	}
	var s float64
	for _, r := range rs {
		s += r.P * (1 - r.Mid()/maxResp)
	}
	return s, nil
}

// Candidate is one request size with its predicted wait (s) and
// runtime range set.
type Candidate struct {
	Size int64
	Wait float64
	Exec rangeset.Set
}

// Response is the candidate's response-time range set (§3.8).
func (c Candidate) Response() rangeset.Set { return c.Exec.Shift(c.Wait) }

// ChooseSize scores every candidate's response range set, normalised by
// the largest upper bound over all of them (so scores are comparable), and
// returns the index of the best and every score. A score is Eq. 5 divided
// by the response set's total coverage, 1 − the coverage-weighted mean of
// the normalised midpoints, as the paper writes it: the ranges'
// probabilities are not used (H18). Ties go to the original size, then to
// the smaller size (spec §4 step 5).
func ChooseSize(cands []Candidate, original int64) (best int, scores []float64, err error) {
	return chooseSize(cands, original, false)
}

// chooseSize is ChooseSize, with Config.ProbWeighted's score if asked.
func chooseSize(cands []Candidate, original int64, probWeighted bool) (best int, scores []float64, err error) {
	if len(cands) == 0 {
		return -1, nil, errors.New("molding: ChooseSize without candidates")
	}
	if original <= 0 {
		return -1, nil, fmt.Errorf("molding: ChooseSize: original size %d, need > 0", original)
	}
	maxResp := 0.0
	for i, c := range cands {
		if len(c.Exec) == 0 {
			return -1, nil, fmt.Errorf("molding: candidate %d (size %d) has no range", i, c.Size)
		}
		if !(c.Wait >= 0) || math.IsInf(c.Wait, 1) {
			return -1, nil, fmt.Errorf("molding: candidate %d (size %d) wait %v, need a finite value ≥ 0", i, c.Size, c.Wait)
		}
		if c.Size <= 0 {
			return -1, nil, fmt.Errorf("molding: candidate %d has size %d, need > 0", i, c.Size)
		}
		maxResp = max(maxResp, c.Exec[len(c.Exec)-1].Hi+c.Wait)
	}
	if maxResp == 0 {
		maxResp = 1 // every response is 0: all score 1, ties decide
	}
	scores = make([]float64, len(cands))
	best = -1
	for i, c := range cands {
		if scores[i], err = score(c.Response(), maxResp, probWeighted); err != nil {
			return -1, nil, err
		}
		if best < 0 || better(scores[i], c.Size, scores[best], cands[best].Size, original) {
			best = i
		}
	}
	return best, scores, nil
}

// better orders (score, size) pairs: higher score, then the original size,
// then the smaller size.
func better(s float64, size int64, bs float64, bsize int64, original int64) bool {
	if s != bs {
		return s > bs
	}
	if (size == original) != (bsize == original) {
		return size == original
	}
	return cmp.Less(size, bsize)
}

// moldedEstimate is the user estimate (ERT) a job molded from origSize to
// size gets (§VI-C, spec §4.1): shrinking asks for longer — the smallest of
// maxPrevious (the largest ERT the user gave at that size) and maxLimit
// (the machine's runtime limit) that exceeds the original ERT, else the
// original (H23); growing or keeping the size keeps the original ERT.
//
// A job without an estimate (origERT ≤ 0, e.g. every job of SDSC Paragon)
// keeps none: §VI-C presumes the user gave one. Inventing one for molded
// jobs only would also change every other job's simulated estimate, since
// sched fills missing estimates with the largest estimate seen (sched's
// H6): the unmolded jobs of such a log would lose the exact estimates they
// get from their run times. molder.Decide still limits such a job's molded runtime
// by this rule read with run times (molder.impliedEstimate).
func moldedEstimate(origSize, size, origERT, maxPrevious, maxLimit int64) int64 {
	if size >= origSize || origERT <= 0 {
		return origERT
	}
	e := int64(-1)
	for _, v := range []int64{maxPrevious, maxLimit} {
		if v > origERT && (e < 0 || v < e) {
			e = v
		}
	}
	if e < 0 {
		return origERT
	}
	return e
}

// moldedRuntime is the actual runtime of a molded job: a roulette-wheel
// draw over the user's previous runtimes at the new size, one slot per
// job (so uniform over jobs), clamped to the job's ERT since EASY kills a
// job at its estimate (spec §4.1). ok is false without previous runtimes.
func moldedRuntime(rng *rand.Rand, previous []int64, ert int64) (r int64, ok bool) {
	if len(previous) == 0 {
		return 0, false
	}
	r = previous[rng.IntN(len(previous))]
	if ert > 0 {
		r = min(r, ert)
	}
	return max(r, 0), true
}
