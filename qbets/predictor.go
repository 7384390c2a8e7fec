package qbets

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/batchq/batchq/internal/plugin"
)

// Level is one (quantile, confidence) pair a Predictor answers.
type Level struct{ Quantile, Confidence float64 }

// Config selects the quantile, the confidence and the features. The zero
// value is full QBETS (§2.6): q = C = 0.95, the thesis's run-length
// change-point trimming, jobs clustered by the fixed processor ranges
// {1–4, 5–16, 17–64, 65+}, and availability inference that flags a
// possibly-down machine without withholding the bound (see the package
// doc for why, and Withhold for the thesis's behaviour).
type Config struct {
	Quantile   float64 // q; 0 means 0.95
	Confidence float64 // C; 0 means 0.95
	// Levels lists further (q, C) pairs answered from the same feed
	// (Request.Quantile/Confidence select one); each keeps its own
	// trimmed histories, the rest of the state is shared.
	Levels []Level

	// Trimmer makes the change-point detector of each history (§2.3);
	// nil means RunLength, the thesis's.
	Trimmer func(minHistory int) Trimmer
	// NoTrim disables change-point trimming.
	NoTrim bool

	// Clusterer groups jobs by what they request (§2.4); nil means the
	// built-in that Cluster names.
	Clusterer Clusterer
	// Cluster is the shorthand for a built-in Clusterer; the zero value
	// is ClusterFixedProcs.
	Cluster ClusterMode
	// MaxClusters caps the number of clusters per level of the
	// model-based modes (the BIC search range is [1, min(MaxClusters,
	// ⌊n/n_min⌋)]); 0 means 10 (Q8).
	MaxClusters int
	// FixedUppers are the node-count breakpoints of ClusterFixedProcs:
	// cluster j holds (FixedUppers[j−1], FixedUppers[j]] nodes. nil means
	// {4, 16, 64} (Q7, unverified).
	FixedUppers []int64
	// TrainArrivals is the number of arrivals before the first clustering
	// (the end of the training period, Q10); 0 means ReclusterEvery.
	TrainArrivals int
	// ReclusterEvery is the number of arrivals between re-clusterings of
	// the full history; 0 means 1000 (thesis §4.3).
	ReclusterEvery int

	// MaxHistory bounds memory for long-lived feeds: the Predictor
	// forgets the oldest released jobs once it holds more than about
	// MaxHistory (between MaxHistory and 9/8 of it), in the full history
	// and in every trimmed history. 0 means no limit.
	MaxHistory int

	// NoAvailability disables availability inference (§2.5): no DOWN
	// periods, no flags, no excluded jobs.
	NoAvailability bool
	// Withhold is the thesis's behaviour: no bound while the machine may
	// be down (Reason MachineDown). By default the bound is given and
	// flagged (Forecast.MayBeDown).
	Withhold bool
	// CountAtRelease judges the arrival count when it is complete, at the
	// release that ends it (DOWN until the next release), the literal
	// reading of thesis §4.2.5 "as each count is generated … when a count
	// exceeds this upper bound"; by default (Q11) the count is judged at
	// every arrival, including it.
	CountAtRelease bool
	// Availability selects further readings of availability inference
	// that the thesis leaves open (the zero value is the spec's, Q11).
	// Like CountAtRelease, it has no effect with NoAvailability.
	Availability AvailabilityReading
}

func validLevel(name string, v float64) error {
	if !(v >= 0 && v < 1) { // also NaN
		return fmt.Errorf("qbets: %s %v must be in (0, 1)", name, v)
	}
	return nil
}

// Validate reports an out-of-range or contradictory setting, naming it.
func (c Config) Validate() error {
	if err := validLevel("Quantile", c.Quantile); err != nil {
		return err
	}
	if err := validLevel("Confidence", c.Confidence); err != nil {
		return err
	}
	for i, l := range c.Levels {
		if err := validLevel(fmt.Sprintf("Levels[%d].Quantile", i), l.Quantile); err != nil {
			return err
		}
		if err := validLevel(fmt.Sprintf("Levels[%d].Confidence", i), l.Confidence); err != nil {
			return err
		}
		if l.Quantile == 0 || l.Confidence == 0 {
			return fmt.Errorf("qbets: Levels[%d] needs both Quantile and Confidence", i)
		}
	}
	switch {
	case c.Cluster < 0 || c.Cluster >= numClusterModes:
		return fmt.Errorf("qbets: unknown Cluster mode %d", int(c.Cluster))
	case c.MaxClusters < 0:
		return fmt.Errorf("qbets: MaxClusters %d must be ≥ 0", c.MaxClusters)
	case c.TrainArrivals < 0:
		return fmt.Errorf("qbets: TrainArrivals %d must be ≥ 0", c.TrainArrivals)
	case c.ReclusterEvery < 0:
		return fmt.Errorf("qbets: ReclusterEvery %d must be ≥ 0", c.ReclusterEvery)
	case c.MaxHistory < 0:
		return fmt.Errorf("qbets: MaxHistory %d must be ≥ 0", c.MaxHistory)
	case c.NoTrim && c.Trimmer != nil:
		return errors.New("qbets: both NoTrim and Trimmer are set")
	case c.Clusterer != nil && plugin.Missing(c.Clusterer):
		return errors.New("qbets: Clusterer is a nil pointer")
	case c.Clusterer != nil && (c.Cluster != 0 || c.FixedUppers != nil || c.MaxClusters != 0):
		return errors.New("qbets: Clusterer is set together with Cluster, FixedUppers or MaxClusters")
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
	for _, l := range c.levels() {
		// A level whose minimum history is beyond any queue's would
		// never bound a wait, and building its index table took minutes
		// (q = 1−2^−53).
		if n := minHistoryOf(l.Quantile, l.Confidence); n < 0 || n > maxMinHistory {
			return fmt.Errorf("qbets: q = %v, C = %v need a history above %d jobs", l.Quantile, l.Confidence, maxMinHistory)
		}
	}
	if c.MaxHistory > 0 {
		for _, l := range c.levels() {
			if n := minHistoryOf(l.Quantile, l.Confidence); c.MaxHistory < n {
				return fmt.Errorf("qbets: MaxHistory %d is below the minimum history %d of q = %v, C = %v",
					c.MaxHistory, n, l.Quantile, l.Confidence)
			}
		}
	}
	return nil
}

// maxMinHistory bounds a level's minimum history: q = 0.99999 at
// C = 0.99 needs 460,515 jobs.
const maxMinHistory = 1 << 22

// levels is the primary level (defaults applied) then the others, without
// repeats.
func (c Config) levels() []Level {
	first := Level{c.Quantile, c.Confidence}
	if first.Quantile == 0 {
		first.Quantile = 0.95
	}
	if first.Confidence == 0 {
		first.Confidence = 0.95
	}
	out := []Level{first}
	for _, l := range c.Levels {
		dup := false
		for _, o := range out {
			dup = dup || o == l
		}
		if !dup {
			out = append(out, l)
		}
	}
	return out
}

// Observation is one started job: its wait is Start − Submit.
type Observation struct {
	Submit, Start int64
	Nodes         int
	Walltime      int64
}

// Stats are the Predictor's counters.
type Stats struct {
	Arrivals      int // Submit calls
	Releases      int // Observe calls
	Jobs          int // jobs in the full history (released, not DOWN-excluded, not forgotten)
	ChangePoints  int // change points (trims) of the cluster histories of the first level, as they happened
	Reclusterings int // clusterings of the full history
	DownExcluded  int // released jobs kept out of the cluster histories: submitted while DOWN
	DownPeriods   int // closed DOWN periods
	Clusters      int // current clusters
	Forgotten     int // released jobs dropped by MaxHistory
	NilFits       int // re-fits whose Clusterer returned no Partition: the previous partition was kept
}

// level is the state of one (q, C) pair.
type level struct {
	Level
	nMin  int
	tab   *indexTable
	hists []*history // per cluster
	queue *history   // queue-level fallback (Q13); nil with one cluster of ClusterNone
	down  *history   // waits of jobs submitted while DOWN; nil with Withhold or NoAvailability
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
// seen, or at Request.At). A feed call that returns an error changes
// nothing.
//
// A Predictor is safe for concurrent use.
type Predictor struct {
	mu      sync.Mutex
	cfg     Config
	levels  []*level
	clus    Clusterer
	fast    *builtin // the built-in Clusterer, fitted from the pair statistics
	part    Partition
	k       int   // clusters of part
	boxes   []Box // part.Boxes()
	all     []Observation
	allPair []int32 // pair index of each job of all
	pairs   []pairStat
	pairI   map[[2]int64]int
	avail   *availability

	sawSubmit   bool
	started     bool
	lastStart   int64
	events      int // arrivals, or releases until the first Submit
	nextCluster int
	now         int64
	fitTo       int // jobs ever recorded when the partition was last fitted
	st          Stats
}

// New returns a Predictor for cfg.
func New(cfg Config) (*Predictor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lv := cfg.levels()
	cfg.Quantile, cfg.Confidence = lv[0].Quantile, lv[0].Confidence
	cfg.Levels, cfg.FixedUppers = slices.Clone(cfg.Levels), slices.Clone(cfg.FixedUppers)
	if cfg.ReclusterEvery == 0 {
		cfg.ReclusterEvery = 1000
	}
	if cfg.TrainArrivals == 0 {
		cfg.TrainArrivals = cfg.ReclusterEvery
	}
	if cfg.Clusterer == nil {
		if cfg.MaxClusters == 0 {
			cfg.MaxClusters = 10
		}
		if cfg.Cluster == ClusterFixedProcs && cfg.FixedUppers == nil {
			cfg.FixedUppers = slices.Clone(defaultFixedUppers)
		}
	}
	p := &Predictor{cfg: cfg, pairI: map[[2]int64]int{}, nextCluster: cfg.TrainArrivals}
	for _, l := range lv {
		n := minHistoryOf(l.Quantile, l.Confidence)
		if cfg.Trimmer != nil && plugin.Missing(cfg.Trimmer(n)) {
			return nil, fmt.Errorf("qbets: Config.Trimmer(%d) returned a nil Trimmer (NoTrim turns trimming off)", n)
		}
		p.levels = append(p.levels, &level{Level: l, nMin: n, tab: newIndexTable(l.Quantile, l.Confidence)})
	}
	if cfg.Clusterer != nil {
		p.clus = cfg.Clusterer
	} else {
		p.fast = &builtin{mode: cfg.Cluster, fixed: cfg.FixedUppers, kMax: cfg.MaxClusters}
		p.clus = p.fast
	}
	if cfg.Clusterer == nil && cfg.Cluster != ClusterFixedProcs {
		p.setPartition(&partition{mode: cfg.Cluster, k: 1}) // one cluster until trained
	} else if np := p.fit(); np != nil {
		p.setPartition(np)
	} else {
		return nil, errNilPartition
	}
	for _, l := range p.levels {
		l.hists = make([]*history, p.k)
		for i := range l.hists {
			l.hists[i] = p.newHistory(l)
		}
		if cfg.Clusterer != nil || cfg.Cluster != ClusterNone {
			l.queue = p.newHistory(l)
		}
		if !cfg.NoAvailability && !cfg.Withhold {
			l.down = p.newHistory(l)
		}
	}
	if !cfg.NoAvailability {
		p.avail = newAvailability(p.levels[0].tab)
		p.avail.atRelease = cfg.CountAtRelease
		p.avail.setReading(cfg.Availability)
		p.avail.cnt.cap, p.avail.gap.cap = cfg.MaxHistory, cfg.MaxHistory
	}
	return p, nil
}

func (p *Predictor) newHistory(l *level) *history {
	var tr Trimmer
	if !p.cfg.NoTrim {
		if p.cfg.Trimmer != nil {
			tr = p.cfg.Trimmer(l.nMin)
		} else {
			tr = RunLength(l.nMin)
		}
	}
	h := newHistory(tr, l.nMin, l.tab)
	h.cap = p.cfg.MaxHistory
	return h
}

// fit fits the Clusterer to the full history. It returns nil, and
// leaves fitTo alone, when a user's Clusterer returned no Partition (a
// nil interface or a nil pointer).
func (p *Predictor) fit() Partition {
	n := p.levels[0].nMin
	var np Partition
	if p.fast != nil {
		np = p.fast.fit(p.pairs, n)
	} else if np = p.clus.Fit(p.all, n); plugin.Missing(np) {
		return nil
	}
	p.fitTo = p.st.Forgotten + len(p.all)
	return np
}

// errNilPartition is a user Clusterer's Fit returning no Partition where
// the Predictor cannot keep a previous one (New, UnmarshalBinary).
var errNilPartition = errors.New("qbets: the Clusterer's Fit returned a nil Partition")

func (p *Predictor) setPartition(np Partition) {
	p.part = np
	p.boxes = np.Boxes()
	p.k = max(len(p.boxes), 1)
}

// cluster is the cluster of a request, or −1 when the partition does not
// say one (a user Partition out of its range).
func (p *Predictor) cluster(nodes int, wall int64) int {
	c := p.part.Cluster(nodes, wall)
	if c < 0 || c >= p.k {
		return -1
	}
	return c
}

// Submit records the arrival of a job at t (seconds, ≥ 0; else
// ErrRejected). Call it before asking for that job's Forecast.
func (p *Predictor) Submit(t int64) error {
	if t < 0 {
		return fmt.Errorf("%w: Submit time %d is negative", ErrRejected, t)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sawSubmit = true
	p.st.Arrivals++
	p.now = max(p.now, t)
	if p.avail != nil {
		p.avail.arrive(t)
	}
	p.tick()
	return nil
}

// Observe records a started job. Jobs must come in start order; a job
// with negative nodes, walltime or submit time, a start before its
// submit, or a start before the previous job's is not recorded
// (ErrRejected).
func (p *Predictor) Observe(o Observation) error {
	switch {
	case o.Nodes < 0:
		return fmt.Errorf("%w: Observe: Nodes %d is negative", ErrRejected, o.Nodes)
	case o.Walltime < 0:
		return fmt.Errorf("%w: Observe: Walltime %d is negative", ErrRejected, o.Walltime)
	case o.Submit < 0:
		return fmt.Errorf("%w: Observe: Submit %d is negative", ErrRejected, o.Submit)
	case o.Start < o.Submit:
		return fmt.Errorf("%w: Observe: Start %d is before Submit %d", ErrRejected, o.Start, o.Submit)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started && o.Start < p.lastStart {
		return fmt.Errorf("%w: Observe: Start %d is before the previous job's start %d (starts must come in order)", ErrRejected, o.Start, p.lastStart)
	}
	p.started, p.lastStart = true, o.Start
	w := o.Start - o.Submit
	p.st.Releases++
	p.now = max(p.now, o.Start)
	excluded := false
	if p.avail != nil {
		p.avail.release(o.Start)
		excluded = p.avail.submittedDown(o.Submit)
	}
	if excluded {
		p.st.DownExcluded++
		for _, l := range p.levels {
			if l.down != nil {
				l.down.add(w)
			}
		}
	} else {
		p.record(o, w)
	}
	if !p.sawSubmit {
		p.tick()
	}
	return nil
}

// record appends o to the full history and to its cluster's and the
// queue's trimmed histories.
func (p *Predictor) record(o Observation, w int64) {
	p.record0(o)
	c := p.cluster(o.Nodes, o.Walltime)
	for j, l := range p.levels {
		if c >= 0 && l.hists[c].add(w) && j == 0 {
			p.st.ChangePoints++
		}
		if l.queue != nil {
			l.queue.add(w)
		}
	}
	// len(p.all)-m, not m+m/8: the sum wraps for a MaxHistory near the
	// int limit, and the history would be forgotten at every job
	if m := p.cfg.MaxHistory; m > 0 && len(p.all)-m > max(m/8, 1) {
		p.forget(len(p.all) - m)
	}
}

// record0 appends o to the full history.
func (p *Predictor) record0(o Observation) {
	k := [2]int64{int64(o.Nodes), o.Walltime}
	i, ok := p.pairI[k]
	if !ok {
		i = len(p.pairs)
		p.pairI[k] = i
		p.pairs = append(p.pairs, pairStat{nodes: o.Nodes, wall: o.Walltime})
	}
	p.all = append(p.all, o)
	p.allPair = append(p.allPair, int32(i))
	p.pairs[i].n++
	p.pairs[i].s += float64(o.Start-o.Submit) + 1
}

// forget drops the oldest n jobs of the full history.
func (p *Predictor) forget(n int) {
	for i, o := range p.all[:n] {
		ps := &p.pairs[p.allPair[i]]
		ps.n--
		ps.s -= float64(o.Start-o.Submit) + 1
	}
	p.all = append(p.all[:0], p.all[n:]...)
	p.allPair = append(p.allPair[:0], p.allPair[n:]...)
	p.st.Forgotten += n
	if len(p.pairI) > 2*len(p.all)+64 {
		p.compactPairs()
	}
}

// compactPairs drops the pairs no job of the full history has.
func (p *Predictor) compactPairs() {
	remap := make([]int32, len(p.pairs))
	var kept []pairStat
	clear(p.pairI)
	for i, x := range p.pairs {
		if x.n <= 0 {
			remap[i] = -1
			continue
		}
		remap[i] = int32(len(kept))
		p.pairI[[2]int64{int64(x.nodes), x.wall}] = len(kept)
		kept = append(kept, x)
	}
	p.pairs = kept
	for i, x := range p.allPair {
		p.allPair[i] = remap[x]
	}
}

// tick counts one arrival and re-clusters on schedule (Q10).
func (p *Predictor) tick() {
	p.events++
	if p.events < p.nextCluster {
		return
	}
	p.nextCluster += p.cfg.ReclusterEvery
	if p.fast != nil && (p.cfg.Cluster == ClusterNone || p.cfg.Cluster == ClusterFixedProcs) {
		return // these never change
	}
	p.recluster()
}

// recluster fits a new partition to the full history and rebuilds the
// cluster histories (Q9): a cluster whose box is unchanged holds exactly
// the jobs it held before and keeps its state; every other one is rebuilt
// by replaying the change-point detector over its jobs in release order.
func (p *Predictor) recluster() {
	p.st.Reclusterings++
	np := p.fit()
	if np == nil {
		// A user Clusterer's bug: the previous partition still maps every
		// request, so it stays; the failure is counted, and the next
		// scheduled re-fit tries again.
		p.st.NilFits++
		return
	}
	old := p.boxes
	p.setPartition(np)
	p.rebuild(old)
}

// rebuild re-creates the cluster histories of every level for the
// current partition, keeping those whose box is in old (nil: none).
func (p *Predictor) rebuild(old []Box) {
	oldAt := map[Box]int{}
	for i, b := range old {
		oldAt[b] = i
	}
	var of []int32 // cluster of each job of all, −1: none or unchanged
	for _, l := range p.levels {
		hs := make([]*history, p.k)
		replay := make([]bool, p.k)
		need := false
		for i := range hs {
			if i < len(p.boxes) {
				if j, ok := oldAt[p.boxes[i]]; ok && j < len(l.hists) {
					hs[i] = l.hists[j]
					continue
				}
			}
			hs[i] = p.newHistory(l)
			replay[i] = true
			need = true
		}
		if need {
			if of == nil {
				of = p.clusterOfAll()
			}
			ws := make([][]int64, p.k)
			for i, o := range p.all {
				if c := of[i]; c >= 0 && replay[c] {
					ws[c] = append(ws[c], o.Start-o.Submit)
				}
			}
			for j, h := range hs {
				if replay[j] {
					h.replay(ws[j])
				}
			}
		}
		l.hists = hs
	}
}

// clusterOfAll maps each job of the full history to its cluster.
func (p *Predictor) clusterOfAll() []int32 {
	of := make([]int32, len(p.all))
	if _, ok := p.part.(*partition); ok {
		// Each distinct (nodes, walltime) pair maps to one cluster, so
		// the scan is a table lookup per job.
		pc := make([]int32, len(p.pairs))
		for i, x := range p.pairs {
			pc[i] = int32(p.cluster(x.nodes, x.wall))
		}
		for i, x := range p.allPair {
			of[i] = pc[x]
		}
		return of
	}
	for i, o := range p.all {
		of[i] = int32(p.cluster(o.Nodes, o.Walltime))
	}
	return of
}

// level returns the state of the pair r asks for, or nil.
func (p *Predictor) level(q, c float64) *level {
	l0 := p.levels[0]
	if q == 0 {
		q = l0.Quantile
	}
	if c == 0 {
		c = l0.Confidence
	}
	for _, l := range p.levels {
		if l.Quantile == q && l.Confidence == c {
			return l
		}
	}
	return nil
}

// Forecast answers a Request (§2.6 "on arrival"): the upper and lower
// level-C bounds on the q-quantile of the wait from the job's cluster, or
// from the queue-level history when the cluster's is too short, or a
// Reason there is none; with the availability flags.
func (p *Predictor) Forecast(r Request) Forecast {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.level(r.Quantile, r.Confidence)
	if l == nil || r.Nodes < 0 || r.Walltime < 0 {
		return Forecast{Cluster: -1, Reason: BadRequest}
	}
	h, f := p.pick(l, r.Nodes, r.Walltime, r.At, true)
	if h == nil {
		return f
	}
	f.Upper, f.OK = h.bound()
	f.Lower, f.LowerOK = h.lower()
	f.History = h.len()
	return f
}

// pick returns the history that answers a request at level l, or nil and
// the reason; evidence fills the availability fields.
func (p *Predictor) pick(l *level, nodes int, wall, at int64, evidence bool) (*history, Forecast) {
	if at == 0 {
		at = p.now
	}
	c := p.cluster(nodes, wall)
	f := Forecast{Cluster: c}
	if p.avail != nil && p.avail.downAt(at) {
		f.MayBeDown = true
		if evidence {
			f.Down = p.avail.evidence(at)
		}
		if p.cfg.Withhold {
			f.Cluster, f.Reason = -1, MachineDown
			return nil, f
		}
		if _, ok := l.down.bound(); ok {
			f.Down.FromDownHistory = true
			return l.down, f
		}
	}
	var h *history
	if c >= 0 {
		h = l.hists[c]
	}
	if h == nil || !h.ok() {
		h = l.queue
		f.Fallback = true
		if h == nil || !h.ok() {
			f.Reason = NoHistory
			return nil, f
		}
	}
	return h, f
}

// Predict returns the upper level-C bound on the q-quantile of the wait
// of a job submitted now, in seconds, at the Config's (q, C); ok is false
// when there is no bound (too little history, a bad request, or the
// machine may be down and Config.Withhold is set; Forecast says which).
func (p *Predictor) Predict(nodes int, walltime int64) (bound int64, ok bool) {
	if nodes < 0 || walltime < 0 {
		return 0, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	h, _ := p.pick(p.levels[0], nodes, walltime, 0, false)
	if h == nil {
		return 0, false
	}
	return h.bound()
}

// ProbWithin answers the inverted query of §2.7 at the Config's
// confidence, from the history Forecast would use: the largest q' in
// {0.01, …, 0.99} whose level-C upper bound is ≤ within (0 when none is).
// ok is false when there is no history to answer from (too little
// history, a bad request, or the machine may be down and Config.Withhold
// is set), so a 0 with ok means "not likely to start within".
func (p *Predictor) ProbWithin(nodes int, walltime, within int64) (prob float64, ok bool) {
	if nodes < 0 || walltime < 0 {
		return 0, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.levels[0]
	h, _ := p.pick(l, nodes, walltime, 0, false)
	if h == nil {
		return 0, false
	}
	return h.probWithin(within, l.Confidence), true
}

// Len is the total size of the current (trimmed) cluster histories of the
// Config's (q, C).
func (p *Predictor) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, h := range p.levels[0].hists {
		n += h.len()
	}
	return n
}

// Config returns the configuration in effect, with every zero field
// replaced by its default (q, C, re-clustering cadence, ...).
func (p *Predictor) Config() Config {
	c := p.cfg
	c.Levels, c.FixedUppers = slices.Clone(c.Levels), slices.Clone(c.FixedUppers)
	return c
}

// Stats returns the counters.
func (p *Predictor) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.st
	s.Jobs = len(p.all)
	s.Clusters = p.k
	if p.avail != nil {
		s.DownPeriods = len(p.avail.periods)
	}
	return s
}

// Clusters describes the current clusters, in index order (the index a
// Forecast reports), with the history sizes of the Config's (q, C).
func (p *Predictor) Clusters() []ClusterInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ClusterInfo, p.k)
	for i := range out {
		if i < len(p.boxes) {
			out[i].Box = p.boxes[i]
		}
		out[i].History = p.levels[0].hists[i].len()
	}
	for _, x := range p.pairs {
		if c := p.cluster(x.nodes, x.wall); c >= 0 {
			out[c].Jobs += x.n
		}
	}
	return out
}
