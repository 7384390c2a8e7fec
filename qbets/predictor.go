package qbets

import (
	"errors"
	"fmt"
	"sync"
)

// Config selects the quantile, the confidence and the features. The zero
// value is full QBETS (§2.6): q = C = 0.95, change-point trimming, jobs
// clustered by the fixed processor ranges {1–4, 5–16, 17–64, 65+}, and
// availability inference. Cluster: ClusterTwoLevel selects the thesis's
// model-based clustering, re-fitted every 1000 arrivals; the package doc
// says why it is not the default.
type Config struct {
	Quantile   float64 // q; 0 means 0.95
	Confidence float64 // C; 0 means 0.95
	NoTrim     bool    // disable change-point trimming (§2.3)

	// Cluster is the explanatory key of model-based clustering (§2.4);
	// ClusterNone keeps one history for the queue.
	Cluster ClusterMode
	// MaxClusters caps the number of clusters per level (the BIC search
	// range is [1, min(MaxClusters, ⌊n/n_min⌋)]); 0 means 10 (A8).
	MaxClusters int
	// FixedUppers are the node-count breakpoints of ClusterFixedProcs:
	// cluster j holds (FixedUppers[j−1], FixedUppers[j]] nodes. nil means
	// {4, 16, 64} (A7, unverified).
	FixedUppers []int64
	// TrainArrivals is the number of arrivals before the first clustering
	// (the end of the training period, A10); 0 means ReclusterEvery.
	TrainArrivals int
	// ReclusterEvery is the number of arrivals between re-clusterings of
	// the full history; 0 means 1000 (thesis §4.3).
	ReclusterEvery int

	// NoAvailability disables availability inference (§2.5): no DOWN
	// periods, no refused forecasts, no excluded jobs.
	NoAvailability bool
	// CountAtRelease judges the arrival count when it is complete, at the
	// release that ends it (DOWN until the next release), the literal
	// reading of thesis §4.2.5 "as each count is generated … when a count
	// exceeds this upper bound"; by default (A11) the count is judged at
	// every arrival, including it.
	CountAtRelease bool
	// Availability selects further readings of availability inference
	// that the thesis leaves open (the zero value is the spec's, A11).
	// Like CountAtRelease, it has no effect with NoAvailability.
	Availability AvailabilityReading
}

// Validate reports an out-of-range parameter, naming it.
func (c Config) Validate() error {
	switch {
	case !(c.Quantile >= 0 && c.Quantile < 1): // also NaN
		return fmt.Errorf("qbets: Quantile %v must be in (0, 1)", c.Quantile)
	case !(c.Confidence >= 0 && c.Confidence < 1):
		return fmt.Errorf("qbets: Confidence %v must be in (0, 1)", c.Confidence)
	case c.Cluster < 0 || c.Cluster >= numClusterModes:
		return fmt.Errorf("qbets: unknown Cluster mode %d", int(c.Cluster))
	case c.MaxClusters < 0:
		return fmt.Errorf("qbets: MaxClusters %d must be ≥ 0", c.MaxClusters)
	case c.TrainArrivals < 0:
		return fmt.Errorf("qbets: TrainArrivals %d must be ≥ 0", c.TrainArrivals)
	case c.ReclusterEvery < 0:
		return fmt.Errorf("qbets: ReclusterEvery %d must be ≥ 0", c.ReclusterEvery)
	}
	for i := 1; i < len(c.FixedUppers); i++ {
		if c.FixedUppers[i] <= c.FixedUppers[i-1] {
			return fmt.Errorf("qbets: FixedUppers[%d] = %d is not above FixedUppers[%d] = %d",
				i, c.FixedUppers[i], i-1, c.FixedUppers[i-1])
		}
	}
	if c.FixedUppers != nil && c.Cluster != ClusterFixedProcs {
		return errors.New("qbets: FixedUppers is set but Cluster is not ClusterFixedProcs")
	}
	return nil
}

// Observation is one started job: its wait is Start − Submit.
type Observation struct {
	Submit, Start int64
	Nodes         int
	Walltime      int64
}

// record is one job of the full history H_all.
type record struct {
	wait int64
	pair int32 // index into Predictor.pairs: its (nodes, walltime)
}

// Stats are the Predictor's counters.
type Stats struct {
	Arrivals      int // Submit calls
	Releases      int // Observe calls
	Jobs          int // jobs in the full history (released, not DOWN-excluded)
	ChangePoints  int // change points (trims) of the cluster histories, as they happened
	Reclusterings int // clusterings of the full history
	DownExcluded  int // released jobs left out because they were submitted while DOWN
	DownPeriods   int // closed DOWN periods
	Clusters      int // current clusters
}

// Predictor is the online QBETS predictor of one queue (spec §2.6).
//
// Feed it arrival events with Submit and start events with Observe, in
// time order; ask with Forecast (or Predict / ProbWithin). Waits become
// visible only when a job starts, so Observe comes in start order; jobs
// must be observed after their Submit, but Submit is optional. Arrivals
// drive re-clustering (every ReclusterEvery) and the arrival-count
// availability detector; a caller that never calls Submit gets
// re-clustering counted in releases instead, and only the
// time-since-last-release detector (which judges at the latest start time
// seen, or at Request.At).
//
// A Predictor is safe for concurrent use.
type Predictor struct {
	mu    sync.Mutex
	cfg   Config
	q, c  float64
	nMin  int
	tab   *indexTable
	part  *partition
	hists []*history
	queue *history // queue-level fallback (A13); nil without clustering
	all   []record
	pairs []pairStat
	pairI map[[2]int64]int
	avail *availability

	sawSubmit   bool
	events      int // arrivals, or releases until the first Submit
	nextCluster int
	now         int64
	st          Stats
}

// New returns a Predictor for cfg.
func New(cfg Config) (*Predictor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Quantile == 0 {
		cfg.Quantile = 0.95
	}
	if cfg.Confidence == 0 {
		cfg.Confidence = 0.95
	}
	if cfg.ReclusterEvery == 0 {
		cfg.ReclusterEvery = 1000
	}
	if cfg.TrainArrivals == 0 {
		cfg.TrainArrivals = cfg.ReclusterEvery
	}
	if cfg.MaxClusters == 0 {
		cfg.MaxClusters = 10
	}
	if cfg.Cluster == ClusterFixedProcs && cfg.FixedUppers == nil {
		cfg.FixedUppers = defaultFixedUppers
	}
	p := &Predictor{cfg: cfg, q: cfg.Quantile, c: cfg.Confidence,
		nMin: MinHistory(cfg.Quantile, cfg.Confidence), tab: newIndexTable(cfg.Quantile, cfg.Confidence),
		pairI: map[[2]int64]int{}, nextCluster: cfg.TrainArrivals}
	p.part = onePartition(cfg.Cluster)
	if cfg.Cluster == ClusterFixedProcs {
		p.part = fitPartition(cfg.Cluster, nil, cfg.FixedUppers, p.nMin, cfg.MaxClusters)
	}
	p.hists = make([]*history, p.part.k)
	for i := range p.hists {
		p.hists[i] = newHistory(!cfg.NoTrim, p.nMin, p.tab)
	}
	if cfg.Cluster != ClusterNone {
		p.queue = newHistory(!cfg.NoTrim, p.nMin, p.tab)
	}
	if !cfg.NoAvailability {
		p.avail = newAvailability(p.tab)
		p.avail.atRelease = cfg.CountAtRelease
		p.avail.setReading(cfg.Availability)
	}
	return p, nil
}

// Submit records the arrival of a job at t (Unix seconds). Call it before
// asking for that job's Forecast.
func (p *Predictor) Submit(t int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sawSubmit = true
	p.st.Arrivals++
	p.now = max(p.now, t)
	if p.avail != nil {
		p.avail.arrive(t)
	}
	p.tick()
}

// Observe records a started job. Jobs must arrive in start order.
func (p *Predictor) Observe(o Observation) {
	w := max(o.Start-o.Submit, 0)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.st.Releases++
	p.now = max(p.now, o.Start)
	excluded := false
	if p.avail != nil {
		p.avail.release(o.Start)
		excluded = p.avail.submittedDown(o.Submit)
	}
	if excluded {
		p.st.DownExcluded++
	} else {
		p.record(o.Nodes, o.Walltime, w)
	}
	if !p.sawSubmit {
		p.tick()
	}
}

// record appends r to the full history and to its cluster's and the
// queue's trimmed histories.
func (p *Predictor) record(nodes int, wall, wait int64) {
	k := [2]int64{int64(nodes), wall}
	i, ok := p.pairI[k]
	if !ok {
		i = len(p.pairs)
		p.pairI[k] = i
		p.pairs = append(p.pairs, pairStat{nodes: nodes, wall: wall})
	}
	p.all = append(p.all, record{wait: wait, pair: int32(i)})
	p.pairs[i].n++
	p.pairs[i].s += float64(wait) + 1
	if p.hists[p.part.index(nodes, wall)].add(wait) {
		p.st.ChangePoints++
	}
	if p.queue != nil {
		p.queue.add(wait)
	}
}

// tick counts one arrival and re-clusters on schedule (A10).
func (p *Predictor) tick() {
	p.events++
	if p.events < p.nextCluster {
		return
	}
	p.nextCluster += p.cfg.ReclusterEvery
	if p.cfg.Cluster == ClusterNone || p.cfg.Cluster == ClusterFixedProcs {
		return
	}
	p.recluster()
}

// recluster fits a new partition to the full history and rebuilds the
// cluster histories (A9): a cluster whose key box is unchanged holds
// exactly the jobs it held before and keeps its state; every other one is
// rebuilt by replaying the change-point detector over its jobs in release
// order.
func (p *Predictor) recluster() {
	p.st.Reclusterings++
	np := fitPartition(p.cfg.Cluster, p.pairs, p.cfg.FixedUppers, p.nMin, p.cfg.MaxClusters)
	old := map[[4]int64]*history{}
	for i, b := range p.part.boxes() {
		old[boxKey(b)] = p.hists[i]
	}
	hs := make([]*history, np.k)
	replay := make([]bool, np.k)
	need := false
	for i, b := range np.boxes() {
		if h, ok := old[boxKey(b)]; ok {
			hs[i] = h
			continue
		}
		hs[i] = newHistory(!p.cfg.NoTrim, p.nMin, p.tab)
		replay[i] = true
		need = true
	}
	if need {
		// Each distinct (nodes, walltime) pair maps to one cluster, so
		// the scan of the full history is a table lookup per job.
		of := make([]int32, len(p.pairs))
		size := make([]int, np.k)
		for i, x := range p.pairs {
			of[i] = int32(np.index(x.nodes, x.wall))
			size[of[i]] += x.n
		}
		ws := make([][]int64, np.k)
		for j := range hs {
			if replay[j] {
				ws[j] = make([]int64, 0, size[j])
			}
		}
		for _, r := range p.all {
			if j := of[r.pair]; replay[j] {
				ws[j] = append(ws[j], r.wait)
			}
		}
		for j, h := range hs {
			if replay[j] {
				h.replay(ws[j])
			}
		}
	}
	p.part, p.hists = np, hs
}

func boxKey(b ClusterInfo) [4]int64 {
	if b.NodeSeconds != Full {
		return [4]int64{b.NodeSeconds.Lo, b.NodeSeconds.Hi, -1, -1}
	}
	return [4]int64{b.Nodes.Lo, b.Nodes.Hi, b.Walltime.Lo, b.Walltime.Hi}
}

// Forecast answers a Request (§2.6 "on arrival"): the upper and lower
// level-C bounds on the q-quantile of the wait from the job's cluster, or
// from the queue-level history when the cluster's is too short, or a
// Reason there is none.
func (p *Predictor) Forecast(r Request) Forecast {
	p.mu.Lock()
	defer p.mu.Unlock()
	h, f := p.pick(r)
	if h == nil {
		return f
	}
	f.Upper, f.OK = h.bound()
	f.Lower, f.LowerOK = h.lower()
	f.History = h.len()
	return f
}

// pick returns the history that answers r, or nil and the reason.
func (p *Predictor) pick(r Request) (*history, Forecast) {
	at := r.At
	if at == 0 {
		at = p.now
	}
	if p.avail != nil && p.avail.downAt(at) {
		return nil, Forecast{Cluster: -1, Reason: MachineDown}
	}
	c := p.part.index(r.Nodes, r.Walltime)
	f := Forecast{Cluster: c}
	h := p.hists[c]
	if _, ok := h.bound(); !ok {
		h = p.queue
		f.Fallback = true
		if h == nil {
			f.Reason = NoHistory
			return nil, f
		}
		if _, ok := h.bound(); !ok {
			f.Reason = NoHistory
			return nil, f
		}
	}
	return h, f
}

// Predict returns the upper level-C bound on the q-quantile of the wait
// of a job submitted now, in seconds; ok is false when there is no bound
// (too little history, or the machine may be down; Forecast says which).
func (p *Predictor) Predict(nodes int, walltime int64) (bound int64, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h, _ := p.pick(Request{Nodes: nodes, Walltime: walltime})
	if h == nil {
		return 0, false
	}
	return h.bound()
}

// ProbWithin answers the inverted query of §2.7 from the job's cluster
// (or the queue-level history when the cluster's is too short): the
// largest q' in {0.01, …, 0.99} whose level-C upper bound is ≤ within, or
// 0 — also 0 when there is no bound at all or the machine may be down.
func (p *Predictor) ProbWithin(nodes int, walltime, within int64) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	h, _ := p.pick(Request{Nodes: nodes, Walltime: walltime})
	if h == nil {
		return 0
	}
	return h.probWithin(within, p.c)
}

// Len is the total size of the current (trimmed) cluster histories; with
// ClusterNone, the size of the queue's history.
func (p *Predictor) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, h := range p.hists {
		n += h.len()
	}
	return n
}

// Trims is the number of change points detected so far in the cluster
// histories (Stats.ChangePoints).
func (p *Predictor) Trims() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.st.ChangePoints
}

// Config returns the configuration in effect, with every zero field
// replaced by its default (q, C, re-clustering cadence, ...).
func (p *Predictor) Config() Config { return p.cfg }

// Stats returns the counters.
func (p *Predictor) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.st
	s.Jobs = len(p.all)
	s.Clusters = p.part.k
	if p.avail != nil {
		s.DownPeriods = len(p.avail.periods)
	}
	return s
}

// Clusters describes the current clusters, in index order (the index a
// Forecast reports).
func (p *Predictor) Clusters() []ClusterInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.part.boxes()
	for _, x := range p.pairs {
		out[p.part.index(x.nodes, x.wall)].Jobs += x.n
	}
	for i := range out {
		out[i].History = p.hists[i].len()
	}
	return out
}
