package rangeset

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/batchq/batchq/swf"
)

// Load functions (Hariharan et al. §III-B; spec §3.2): generic linear
// shapes runtime = A·load + B, learned from the users who ran the same kind
// of job at very different loads, and later applied to any target.

// LoadFunc is runtime = A·load + B (seconds).
type LoadFunc struct{ A, B float64 }

// At is the function's runtime at load l.
func (f LoadFunc) At(l float64) float64 { return f.A*l + f.B }

// Key identifies "the same kind of job": ⟨user, request size, queue,
// group⟩.
type Key struct{ User, Size, Queue, Group int64 }

// KeyOf is the Key of an SWF job (its size is swf.Job.Size: allocated,
// else requested processors).
func KeyOf(j *swf.Job) Key {
	return Key{User: j.User, Size: j.Size(), Queue: j.Queue, Group: j.Group}
}

// LoadSample is one finished job: its key, actual runtime (s) and actual
// load (LoadProfile.JobLoad).
type LoadSample struct {
	Key     Key
	Runtime float64
	Load    float64
}

// LoadFuncConfig holds the parameters of BuildLoadFuncs. The zero value is
// the paper's: k = 25 tuples of ≥ l = 10 jobs whose loads span ≥ m = 0.5,
// 20 bins of width 0.05, chain steps of at most X = 50%, and the spec's
// [R] per-bin DBSCAN (ε = 0.1·median, minPts = 2, H12).
type LoadFuncConfig struct {
	Tuples      int     // k: at most this many functions (0: 25)
	MinJobs     int     // l: jobs a tuple needs (0: 10)
	MinSpread   float64 // m: max − min load a tuple needs (0: 0.5)
	MaxStepPct  float64 // X: largest runtime increase along the chain, % (0: 50)
	BinWidth    float64 // load bin width (0: 0.05)
	EpsFrac     float64 // per-bin DBSCAN ε as a fraction of the bin's median runtime (0: 0.1)
	MinPts      int     // per-bin DBSCAN minPts (0: 2)
	StrictChain bool    // require r_x < r_y on chain edges instead of ≤ (H13)
}

// Validate names the first parameter out of range.
func (c LoadFuncConfig) Validate() error {
	switch {
	case c.Tuples < 0:
		return fmt.Errorf("rangeset: LoadFuncConfig.Tuples = %d, need ≥ 0", c.Tuples)
	case c.MinJobs < 0:
		return fmt.Errorf("rangeset: LoadFuncConfig.MinJobs = %d, need ≥ 0", c.MinJobs)
	case !(c.MinSpread >= 0 && c.MinSpread <= 1):
		return fmt.Errorf("rangeset: LoadFuncConfig.MinSpread = %v, need in [0, 1]", c.MinSpread)
	case !(c.MaxStepPct >= 0) || math.IsInf(c.MaxStepPct, 0):
		return fmt.Errorf("rangeset: LoadFuncConfig.MaxStepPct = %v, need ≥ 0", c.MaxStepPct)
	case !(c.BinWidth == 0 || c.BinWidth >= 1e-6 && c.BinWidth <= 1):
		// One bin per 1e-6 of load at most: a tinier width allocated
		// more bins than memory holds.
		return fmt.Errorf("rangeset: LoadFuncConfig.BinWidth = %v, need 0 (default) or in [1e-6, 1]", c.BinWidth)
	case !(c.EpsFrac >= 0) || math.IsInf(c.EpsFrac, 0):
		return fmt.Errorf("rangeset: LoadFuncConfig.EpsFrac = %v, need ≥ 0", c.EpsFrac)
	case c.MinPts < 0:
		return fmt.Errorf("rangeset: LoadFuncConfig.MinPts = %d, need ≥ 0", c.MinPts)
	}
	return nil
}

func (c LoadFuncConfig) withDefaults() LoadFuncConfig {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	if c.Tuples == 0 {
		c.Tuples = 25
	}
	if c.MinJobs == 0 {
		c.MinJobs = 10
	}
	if c.MinPts == 0 {
		c.MinPts = 2
	}
	def(&c.MinSpread, 0.5)
	def(&c.MaxStepPct, 50)
	def(&c.BinWidth, 0.05)
	def(&c.EpsFrac, 0.1)
	return c
}

// BuildLoadFuncs learns up to Tuples load functions from finished jobs
// (the validation set): per qualifying key, bin the jobs by load, keep each
// bin's dense runtime cluster, take the longest non-decreasing chain of
// bins with bounded steps, and fit a least-squares line through it at the
// bins' mean actual loads. Keys whose chain has fewer than 2 bins give no
// function (spec §3.2 step 6). Samples without a user (Key.User < 0) are
// of no key: the user-less jobs are not one user's kind of job.
func BuildLoadFuncs(samples []LoadSample, cfg LoadFuncConfig) ([]LoadFunc, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	groups := map[Key][]LoadSample{}
	for i, s := range samples {
		if !(s.Runtime >= 0 && s.Runtime <= maxTime) || !(s.Load >= 0) || math.IsInf(s.Load, 1) {
			return nil, fmt.Errorf("rangeset: BuildLoadFuncs sample %d: runtime %v, load %v", i, s.Runtime, s.Load)
		}
		if s.Key.User < 0 {
			continue // no user: no kind of job (History.Add)
		}
		groups[s.Key] = append(groups[s.Key], s)
	}
	// H14: filter by l and m first, then rank by job count (ties by key,
	// for determinism) and keep the top k.
	type cand struct {
		k  Key
		ss []LoadSample
	}
	var cands []cand
	for k, ss := range groups {
		if len(ss) < cfg.MinJobs {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range ss {
			lo, hi = min(lo, s.Load), max(hi, s.Load)
		}
		if hi-lo >= cfg.MinSpread {
			cands = append(cands, cand{k, ss})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(len(b.ss), len(a.ss)); c != 0 {
			return c
		}
		return cmpKey(a.k, b.k)
	})
	var fs []LoadFunc
	for _, c := range cands {
		if len(fs) == cfg.Tuples {
			break
		}
		if f, ok := loadFunc(c.ss, cfg); ok {
			fs = append(fs, f)
		}
	}
	return fs, nil
}

func cmpKey(a, b Key) int {
	if c := cmp.Compare(a.User, b.User); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Size, b.Size); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Queue, b.Queue); c != 0 {
		return c
	}
	return cmp.Compare(a.Group, b.Group)
}

// loadBin is one non-empty load bin after its cluster filter.
type loadBin struct {
	runtime float64 // mean runtime of the kept cluster
	load    float64 // mean actual load of the kept jobs
}

// loadFunc runs steps 2–6 of §3.2 on one tuple's jobs.
func loadFunc(ss []LoadSample, cfg LoadFuncConfig) (LoadFunc, bool) {
	nb := int(math.Ceil(1/cfg.BinWidth - 1e-9))
	byBin := make([][]LoadSample, nb)
	for _, s := range ss {
		b := int(min(s.Load/cfg.BinWidth, float64(nb-1))) // the last bin is closed: [0.95, 1.0]; capped before the conversion
		byBin[b] = append(byBin[b], s)
	}
	var bins []loadBin
	for _, b := range byBin {
		if len(b) == 0 {
			continue
		}
		if kept := denseCluster(b, cfg); len(kept) > 0 {
			var r, l float64
			for _, s := range kept {
				r += s.Runtime
				l += s.Load
			}
			bins = append(bins, loadBin{r / float64(len(kept)), l / float64(len(kept))})
		}
	}
	chain := longestChain(bins, cfg.MaxStepPct, cfg.StrictChain)
	if len(chain) < 2 {
		return LoadFunc{}, false
	}
	a, b, ok := fitLine(chain)
	return LoadFunc{A: a, B: b}, ok
}

// denseCluster keeps the largest 1-D DBSCAN cluster of a bin's runtimes
// (H12); a bin of ≤ 2 jobs keeps them all, one that is all noise keeps
// nothing.
func denseCluster(b []LoadSample, cfg LoadFuncConfig) []LoadSample {
	if len(b) <= 2 {
		return b
	}
	s := slices.Clone(b)
	slices.SortFunc(s, func(x, y LoadSample) int { return cmp.Compare(x.Runtime, y.Runtime) })
	med := s[len(s)/2].Runtime
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1].Runtime + s[len(s)/2].Runtime) / 2
	}
	lab := dbscan1D(runtimes(s), cfg.EpsFrac*med, cfg.MinPts)
	count := map[int]int{}
	best, bestN := -1, 0
	for _, l := range lab {
		if l < 0 {
			continue
		}
		count[l]++
		if count[l] > bestN || (count[l] == bestN && l < best) {
			best, bestN = l, count[l]
		}
	}
	var kept []LoadSample
	for i, l := range lab {
		if l == best && best >= 0 {
			kept = append(kept, s[i])
		}
	}
	return kept
}

func runtimes(s []LoadSample) []float64 {
	r := make([]float64, len(s))
	for i := range s {
		r[i] = s[i].Runtime
	}
	return r
}

// dbscan1D labels sorted values with cluster numbers (−1 for noise) by
// standard DBSCAN: N_ε(p) includes p, a core point has ≥ minPts
// neighbours, border points join the first cluster that reaches them. On a
// sorted line a neighbourhood is a contiguous window, found with two
// pointers.
func dbscan1D(x []float64, eps float64, minPts int) []int {
	n := len(x)
	lo, hi := make([]int, n), make([]int, n) // neighbourhood [lo, hi)
	for i, l, h := 0, 0, 0; i < n; i++ {
		for x[i]-x[l] > eps {
			l++
		}
		if h < i+1 {
			h = i + 1
		}
		for h < n && x[h]-x[i] <= eps {
			h++
		}
		lo[i], hi[i] = l, h
	}
	core := func(i int) bool { return hi[i]-lo[i] >= minPts }
	lab := make([]int, n)
	for i := range lab {
		lab[i] = -2 // unvisited
	}
	c := 0
	for i := 0; i < n; i++ {
		if lab[i] != -2 {
			continue
		}
		if !core(i) {
			lab[i] = -1
			continue
		}
		lab[i] = c
		stack := []int{i}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for q := lo[p]; q < hi[p]; q++ {
				if lab[q] == -2 || lab[q] == -1 {
					wasUnvisited := lab[q] == -2
					lab[q] = c
					if wasUnvisited && core(q) {
						stack = append(stack, q)
					}
				}
			}
		}
		c++
	}
	return lab
}

// longestChain is the longest path in the DAG of bins (already in load
// order) with an edge x→y iff load_x < load_y, r_x ≤ r_y (or <), and the
// increase (r_y − r_x)/r_x is at most maxPct percent (§3.2 step 4). Ties
// between equally long paths go to the one starting at the lower load.
func longestChain(bins []loadBin, maxPct float64, strict bool) []loadBin {
	n := len(bins)
	if n == 0 {
		return nil
	}
	edge := func(x, y loadBin) bool {
		if !(x.load < y.load) {
			return false
		}
		if strict && !(x.runtime < y.runtime) || !strict && !(x.runtime <= y.runtime) {
			return false
		}
		if x.runtime == 0 {
			return y.runtime == 0
		}
		return (y.runtime-x.runtime)*100/x.runtime <= maxPct
	}
	L := make([]int, n)
	next := make([]int, n)
	for x := n - 1; x >= 0; x-- {
		L[x], next[x] = 1, -1
		for y := x + 1; y < n; y++ {
			if edge(bins[x], bins[y]) && 1+L[y] > L[x] {
				L[x], next[x] = 1+L[y], y
			}
		}
	}
	start := 0
	for x := 1; x < n; x++ {
		if L[x] > L[start] {
			start = x
		}
	}
	var out []loadBin
	for x := start; x >= 0; x = next[x] {
		out = append(out, bins[x])
	}
	return out
}

// fitLine is the least-squares line runtime = a·load + b (numpy's polyfit
// of degree 1). All loads equal gives no line.
func fitLine(pts []loadBin) (a, b float64, ok bool) {
	var mx, my float64
	for _, p := range pts {
		mx += p.load
		my += p.runtime
	}
	n := float64(len(pts))
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for _, p := range pts {
		sxy += (p.load - mx) * (p.runtime - my)
		sxx += (p.load - mx) * (p.load - mx)
	}
	if sxx == 0 {
		return 0, 0, false
	}
	a = sxy / sxx
	return a, my - a*mx, true
}
