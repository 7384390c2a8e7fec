package apq

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// logFloor is the wait below which Config.LogWait counts a wait as 60 s:
// 0 s has no logarithm, and below a minute a difference of waits is not
// one a user sees.
const logFloor = 60

// initialSlots is the history ring's first capacity; it doubles up to
// Config.History as jobs are added.
const initialSlots = 1024

// maxReplaced is the most changed slots updateWeights re-places one by
// one (O(n) each) before it sorts each column again (O(n log n)).
const maxReplaced = 64

// ErrEmpty is returned by Predict before any job has entered the history.
var ErrEmpty = errors.New("apq: history is empty")

// The models a prediction comes from (Prediction.Method) and the
// neighbourhood patterns of §II-C1 (Prediction.Case).
const (
	methodSDM   = "SDM"   // Standard Deviation Minimizer (Case B)
	methodRidge = "ridge" // ridge regression (Cases A and C)
	methodKNN   = "k-NN"  // k-NN weighted average (ridge went negative)

	caseA = "A" // most history jobs are far from the target
	caseB = "B" // a dense cluster of near jobs: dbscan finds few outliers
	caseC = "C" // near jobs whose waits disagree
)

// Prediction is one APQ point prediction of a queue wait.
type Prediction struct {
	Wait float64 // seconds, ≥ 0 unless ridge and k-NN both are negative (never: waits are ≥ 0)
	// Method is the model that made it: "SDM" (the Standard Deviation
	// Minimizer), "ridge" (ridge regression) or "k-NN" (the weighted
	// average that replaces a negative ridge prediction).
	Method string
	// Case is the neighbourhood pattern of §II-C1: "A" (the history jobs
	// are far from the target), "B" (a dense cluster of near jobs) or "C"
	// (near jobs whose waits disagree).
	Case string
	// SDMFallback is true in Case B when sdm found no admissible window and
	// ridge was used instead (spec §2.6 step 6).
	SDMFallback bool
}

// entry is one history job: its Point at submission (its actual wait is
// in Predictor.waits, by slot).
type entry struct {
	pt     Point
	coarse []float64        // numDists·Bins normalized histograms under the current edges
	ver    [numDists]uint32 // edge version coarse[i] was computed for (0 = never)
}

// Predictor is the APQ wait predictor (§II) over a FIFO history of the
// last H started jobs. Add a job when it starts (its wait becomes known);
// Predict a target from its Point at submission.
//
// A Predictor is not safe for concurrent use: Predict refreshes cached
// weights and histogram edges (and Describe writes the memo of the
// System it describes from).
type Predictor struct {
	cfg   Config
	slots []entry // ring of up to cfg.History entries (grown by Add), physical order
	next  int     // slot the next Add writes
	added int64

	dirty     bool // history changed since the last refresh of the caches below
	sinceW    int  // additions since the weights were computed
	haveW     bool
	wF        [numFeatures]float64
	wD        [numDists]float64
	fmin      [numFeatures]float64 // over the history window
	fmax      [numFeatures]float64
	maxWait   float64 // the longest wait in the window (its log with LogWait)
	edges     [numDists]edges
	edgeVer   [numDists]uint32
	waits     []float64 // by slot
	rows      [][]float64
	rankOrder []rankPair
	dS, dD    []float64 // distances by slot, reused
	chi       [][numDists]float64
	trainRows [][]float64
	trainY    []float64
	rankW     []float64
	rankX     []float64
	col       []float64
	// sorted keeps each feature column (and the waits, last) in order
	// between weight refreshes; changed lists the slots Add rewrote since
	// (resort: too many to re-place one by one).
	sorted  [numFeatures + 1]sortedCol
	changed []int
	resort  bool
}

// New returns an empty Predictor for cfg.
func New(cfg Config) (*Predictor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	// The ring grows with the jobs added, up to History: made at its full
	// capacity, History 2^24 took 7.2 GB (432 bytes a slot) before any job.
	return &Predictor{cfg: cfg, slots: make([]entry, 0, min(cfg.History, initialSlots)), edgeVer: [numDists]uint32{1, 1, 1, 1, 1, 1}}, nil
}

// Config returns the configuration with defaults filled in.
func (p *Predictor) Config() Config { return p.cfg }

// Len returns the number of history jobs.
func (p *Predictor) Len() int { return len(p.slots) }

// Added returns the number of jobs ever added.
func (p *Predictor) Added() int64 { return p.added }

// Describe computes a target's Point with the Predictor's PerQueue setting.
// It reads the Predictor's configuration only, but from a *System it
// writes the System's memo (memo.go): two goroutines describing from one
// System race, even though each only asks, as a System is not safe for
// concurrent use.
func (p *Predictor) Describe(target Job, now int64, st State) Point {
	return describe(target, now, st, p.cfg.PerQueue)
}

// Add puts a started job in the history: pt is its Point at submission and
// wait its actual queue wait in seconds (≥ 0). When the history is full
// the oldest job leaves.
func (p *Predictor) Add(pt Point, wait float64) error {
	if !(wait >= 0) || math.IsInf(wait, 0) {
		return fmt.Errorf("apq: Add: wait = %v, want a finite value ≥ 0", wait)
	}
	// A NaN feature has no rank: the weights' kept column orders
	// (sortedCol) and a fresh sort would place it differently.
	for i, v := range pt.F {
		if math.IsNaN(v) {
			return fmt.Errorf("apq: Add: feature %d is NaN", i)
		}
	}
	if p.cfg.LogWait {
		wait = math.Log(max(wait, logFloor))
	}
	e := entry{pt: pt}
	if len(p.slots) < p.cfg.History {
		if len(p.slots) == cap(p.slots) {
			// Grown (to at most History) by hand: rows point into the
			// slots, and must follow them to the new array.
			p.slots = slices.Grow(p.slots, min(len(p.slots), p.cfg.History-len(p.slots)))
			for s := range p.rows {
				p.rows[s] = p.slots[s].pt.F[:]
			}
		}
		p.slots = append(p.slots, e)
		p.waits = append(p.waits, wait)
		p.rows = append(p.rows, nil)
	} else {
		e.coarse = p.slots[p.next].coarse // reuse the buffer
		p.slots[p.next] = e
		p.waits[p.next] = wait
	}
	p.rows[p.next] = p.slots[p.next].pt.F[:]
	if len(p.changed) < maxReplaced {
		p.changed = append(p.changed, p.next)
	} else {
		p.resort = true
	}
	p.next = (p.next + 1) % p.cfg.History
	p.added++
	p.sinceW++
	p.dirty = true
	return nil
}

// Weights returns the current Spearman weights of the 16 features and the
// six distributions (§2.4), refreshing them if due.
func (p *Predictor) Weights() (features [numFeatures]float64, dists [numDists]float64) {
	p.refresh()
	return p.wF, p.wD
}

// refresh brings the window ranges, histogram edges and weights up to date.
func (p *Predictor) refresh() {
	if len(p.slots) == 0 {
		return
	}
	if p.dirty {
		p.updateRanges()
		if p.cfg.Distribution {
			p.updateEdges()
		}
		p.dirty = false
	}
	if !p.haveW || p.sinceW >= p.cfg.WeightRefresh {
		p.updateWeights()
		p.haveW, p.sinceW = true, 0
	}
}

func (p *Predictor) updateRanges() {
	p.maxWait = slices.Max(p.waits)
	for i := range numFeatures {
		p.fmin[i], p.fmax[i] = math.Inf(1), math.Inf(-1)
	}
	for s := range p.slots {
		for i, v := range p.slots[s].pt.F {
			p.fmin[i] = min(p.fmin[i], v)
			p.fmax[i] = max(p.fmax[i], v)
		}
	}
}

// updateEdges recomputes the shared bin edges of each distribution over
// the window and re-bins the history jobs whose edges changed.
func (p *Predictor) updateEdges() {
	b := p.cfg.Bins
	for i := range numDists {
		var e edges
		for s := range p.slots {
			h := &p.slots[s].pt.d[i]
			if h.n == 0 {
				continue
			}
			if !e.ok {
				e = edges{lo: h.lo, hi: h.hi, ok: true}
			} else {
				e.lo, e.hi = min(e.lo, h.lo), max(e.hi, h.hi)
			}
		}
		if e != p.edges[i] {
			p.edges[i] = e
			p.edgeVer[i]++
		}
	}
	for s := range p.slots {
		en := &p.slots[s]
		if en.coarse == nil {
			en.coarse = make([]float64, numDists*b)
		}
		for i := range numDists {
			if en.ver[i] != p.edgeVer[i] {
				en.pt.d[i].rebin(en.coarse[i*b:(i+1)*b], p.edges[i])
				en.ver[i] = p.edgeVer[i]
			}
		}
	}
}

// updateWeights computes |ρ_Spearman| of each feature, and of the L² norm
// of each histogram, against the waits over the history (§2.4). A zero
// weight sum gives every weight 1.
func (p *Predictor) updateWeights() {
	n := len(p.slots)
	slices.Sort(p.changed)
	p.changed = slices.Compact(p.changed)
	p.sorted[numFeatures].update(p.waits, p.changed, p.resort)
	p.rankW = p.sorted[numFeatures].ranks(p.waits, p.rankW)
	p.col = append(p.col[:0], make([]float64, n)...)
	var sum float64
	for i := range numFeatures {
		for s := range p.slots {
			p.col[s] = p.slots[s].pt.F[i]
		}
		p.sorted[i].update(p.col, p.changed, p.resort)
		p.rankX = p.sorted[i].ranks(p.col, p.rankX)
		p.wF[i] = math.Abs(pearson(p.rankX, p.rankW))
		sum += p.wF[i]
	}
	if sum == 0 {
		for i := range p.wF {
			p.wF[i] = 1
		}
	}
	p.changed, p.resort = p.changed[:0], false
	p.wD = [numDists]float64{}
	if !p.cfg.Distribution {
		return
	}
	b := p.cfg.Bins
	for i := range numDists {
		for s := range p.slots {
			p.col[s] = l2(p.slots[s].coarse[i*b : (i+1)*b])
		}
		p.rankX = ranks(p.col, p.rankX, p.rankOrder)
		p.wD[i] = math.Abs(pearson(p.rankX, p.rankW))
	}
	// A zero sum for Eq. 2 is handled where the weights are used, so that
	// the summary weights stay as they are.
}
