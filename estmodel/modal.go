package estmodel

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/batchq/batchq/swf"
)

// errNilRand is a nil random source: the models draw from the caller's
// *rand.Rand so that the same seed gives the same estimates everywhere.
var errNilRand = errors.New("estmodel: nil *rand.Rand (pass a seeded one, e.g. rand.New(rand.NewPCG(seed, 0)))")

// Bin is one mode of a generated estimate distribution: an estimate value
// and how many jobs use it.
type Bin struct {
	Time    int64   // the estimate, seconds
	Jobs    int     // number of jobs with this estimate
	Percent float64 // the model's percentage before rounding to jobs
	Head    bool    // one of the (up to 20) popular head values
	User    bool    // given by the caller as a UserBin
}

// Distribution is the output of the modal model: the bins (ascending by
// time, job counts summing to N) and what each step decided, for reports.
type Distribution struct {
	Bins []Bin
	// N is the number of jobs; K the number of distinct estimates requested
	// (step 1) and A the time-curve parameter (step 2).
	N, K int
	A    float64
	// HeadTimes are in time-rank order (E_max first); HeadRanks[ttr] is the
	// popularity rank the pool algorithm gave to HeadTimes[ttr].
	HeadTimes []int64
	HeadRanks []int
	// TailDropped counts tail values lost to collisions (S24), PoolFallbacks
	// pool picks from an empty pool, EmptyBins bins that got 0 jobs in step 7
	// and were left out of Bins.
	TailDropped, PoolFallbacks, EmptyBins int
}

// Generate runs the modal model (thesis Ch. 5, spec §7.2–7.8): K, the head
// times, the tail times, the head and tail sizes, the user bins, the pool
// mapping of head times to sizes, the random pairing of tail times with tail
// sizes, and the conversion to job counts. The result depends only on cfg and
// the state of rng.
func Generate(cfg ModalConfig, rng *rand.Rand) (*Distribution, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errNilRand
	}
	p := cfg.params()
	d := &Distribution{N: cfg.N, K: cfg.numEstimates()}
	d.A = timeCurveA(d.K, p)

	userPct := map[int64]float64{}
	userJobs := map[int64]int{}
	var userTimes []int64
	for _, b := range cfg.Bins {
		userTimes = append(userTimes, b.Time)
		userPct[b.Time] = b.percent(cfg.N)
		userJobs[b.Time] = b.jobs(cfg.N)
	}
	head := embedUserTimes(headTimes(cfg.EMax), userTimes)
	head = truncateHead(head, max(d.K, len(cfg.Bins)+1), userPct)
	d.HeadTimes = head

	var tail []int64
	if cfg.ThesisTail {
		tail, d.TailDropped = tailTimesThesis(d.K, cfg.EMax, d.A, head)
	} else {
		tail, d.TailDropped = tailTimes(max(0, d.K-len(head)), cfg.EMax, d.A, head)
	}

	plan := embedUserSizes(head, userPct, p)
	pool := poolMap(len(head), plan.Fixed, rng)
	d.HeadRanks, d.PoolFallbacks = pool.Rank, pool.Fallbacks

	bins := make([]Bin, 0, len(head)+len(tail))
	for ttr, t := range head {
		_, user := userPct[t]
		bins = append(bins, Bin{Time: t, Percent: plan.Sizes[pool.Rank[ttr]-1], Head: true, User: user})
	}
	if len(tail) == 0 && plan.TailMass > 0 {
		// No tail values (tiny K): the head takes the tail's share too.
		scale := 100 / (100 - plan.TailMass)
		for i := range bins {
			bins[i].Percent *= scale
		}
	}
	tsizes := tailSizes(len(head)+1, len(tail), plan.TailMass, p)
	rng.Shuffle(len(tsizes), func(i, j int) { tsizes[i], tsizes[j] = tsizes[j], tsizes[i] })
	for i, t := range tail {
		bins = append(bins, Bin{Time: t, Percent: tsizes[i]})
	}

	pct := make([]float64, len(bins))
	fixed := make([]int, len(bins))
	for i, b := range bins {
		pct[i], fixed[i] = b.Percent, -1
		if b.User {
			fixed[i] = userJobs[b.Time]
		}
	}
	jobs, err := counts(pct, fixed, cfg.N)
	if err != nil {
		return nil, err
	}
	for i := range bins {
		bins[i].Jobs = jobs[i]
	}
	d.Bins = slices.DeleteFunc(bins, func(b Bin) bool { return b.Jobs == 0 })
	d.EmptyBins = len(bins) - len(d.Bins)
	slices.SortFunc(d.Bins, func(a, b Bin) int { return cmp.Compare(a.Time, b.Time) })
	return d, nil
}

// truncateHead keeps at most k head times when K is smaller than the head
// (S25): E_max and the user times stay, the largest other times go first.
func truncateHead(head []int64, k int, user map[int64]float64) []int64 {
	for i := len(head) - 1; len(head) > k && i >= 1; i-- {
		if _, ok := user[head[i]]; !ok {
			head = slices.Delete(head, i, i+1)
		}
	}
	return head
}

// Estimates returns the N estimates of the distribution, one per job,
// in descending order (the input Assign expects). Of a Distribution
// built by hand it returns at most min(N, 2^28) values (Bins whose job
// counts add up to more would not fit in memory).
func (d *Distribution) Estimates() []int64 {
	n := max(min(d.N, maxJobs), 0)
	out := make([]int64, 0, n)
	for i := len(d.Bins) - 1; i >= 0 && len(out) < n; i-- {
		for range min(d.Bins[i].Jobs, n-len(out)) {
			out = append(out, d.Bins[i].Time)
		}
	}
	return out
}

// Modal is the modal model as one step, the shape FModel and PhiModel
// share: Apply generates a distribution for the jobs (Generate) and pairs
// it with their run times (Assign). The zero value is the spec's default:
// N is the number of jobs, E_max is the longest run time but at least one
// hour, and run times above E_max are truncated to it.
type Modal struct {
	// Config configures Generate; N 0 means len(jobs) and EMax 0 means
	// max(longest run time, 3600).
	Config ModalConfig
	Assign AssignConfig
}

// Validate reports whether the model is usable for some set of jobs.
func (m Modal) Validate() error {
	c := m.Config
	c.N = max(c.N, 1)
	c.EMax = cmp.Or(c.EMax, 3600)
	return c.Validate()
}

// Apply sets field 9 of every job to a modal-model estimate (and, unless
// Assign.KeepRuntimes, truncates run times above E_max). Use Generate and
// Assign for the distribution and the report.
func (m Modal) Apply(jobs []swf.Job, rng *rand.Rand) error {
	if rng == nil {
		return errNilRand
	}
	if len(jobs) == 0 {
		return nil
	}
	c := m.Config
	c.N = cmp.Or(c.N, len(jobs))
	if c.EMax == 0 {
		c.EMax = 3600
		for i := range jobs {
			c.EMax = max(c.EMax, jobs[i].RunTime)
		}
	}
	d, err := Generate(c, rng)
	if err != nil {
		return err
	}
	_, err = d.Assign(jobs, m.Assign, rng)
	return err
}

// String names the model, for notes in SWF headers.
func (m Modal) String() string {
	return "Tsafrir modal-model user estimates (package estmodel)"
}
