// Package shake perturbs a log's arrivals (Tsafrir's input shaking): the
// evaluation method examples/flurries and examples/sweep average over.
package shake

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/batchq/batchq/swf"
)

// Input shaking (Tsafrir's thesis §6.5.5): instead of removing flurries,
// run many simulations on slightly perturbed copies of the log and report
// mean ± confidence interval. A perturbed log is as representative as the
// original, and averaging over perturbations defeats the chaotic
// sensitivity that flurries cause (the butterfly effect of §6.2), without
// having to identify them.

// Config says how to perturb arrivals. The zero value is the thesis's
// example: 10% of the jobs, each moved by ±u seconds with u uniform in
// [0, 60], seed 0.
type Config struct {
	Share    float64 // fraction of jobs perturbed, (0, 1]; default 0.1
	MaxShift int64   // U: shifts are uniform integers in [−U, U] seconds; default 60
	Seed     uint64  // same seed, same perturbation
}

// Validate reports a parameter out of range.
func (c *Config) Validate() error {
	if c.Share < 0 || c.Share > 1 || math.IsNaN(c.Share) {
		return fmt.Errorf("shake: Share %v, want in (0, 1] (0 = default 0.1)", c.Share)
	}
	if c.MaxShift < 0 {
		return fmt.Errorf("shake: MaxShift %d s, want ≥ 0 (0 = default 60)", c.MaxShift)
	}
	return nil
}

// Report says what Shake did.
type Report struct {
	Shifted int // jobs whose submit time was drawn anew (a draw of 0 counts)
	Clamped int // shifts that would have made a submit time negative; set to 0
}

// Shake returns a perturbed copy of jobs, sorted again by submit time
// (ties keep input order): exactly round(Share·n) jobs, chosen uniformly
// at random, have their submit time moved by a uniform integer in
// [−MaxShift, MaxShift]. Only submit times change. Unknown submit times
// (< 0) are never chosen.
func Shake(jobs []swf.Job, cfg Config) ([]swf.Job, Report, error) {
	var rep Report
	if err := cfg.Validate(); err != nil {
		return nil, rep, err
	}
	if cfg.Share == 0 {
		cfg.Share = 0.1
	}
	if cfg.MaxShift == 0 {
		cfg.MaxShift = 60
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5ca1ab1e))
	out := slices.Clone(jobs)
	var known []int
	for i := range out {
		if out[i].Submit >= 0 {
			known = append(known, i)
		}
	}
	k := int(math.Round(cfg.Share * float64(len(known))))
	// Partial Fisher–Yates: the first k of known become a uniform sample.
	for i := 0; i < k; i++ {
		j := i + rng.IntN(len(known)-i)
		known[i], known[j] = known[j], known[i]
		jb := &out[known[i]]
		jb.Submit += rng.Int64N(2*cfg.MaxShift+1) - cfg.MaxShift
		if jb.Submit < 0 {
			jb.Submit = 0
			rep.Clamped++
		}
		rep.Shifted++
	}
	slices.SortStableFunc(out, func(a, b swf.Job) int { return cmp.Compare(a.Submit, b.Submit) })
	return out, rep, nil
}
