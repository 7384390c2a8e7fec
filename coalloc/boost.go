package coalloc

import (
	"errors"
	"fmt"
)

// table holds p_{i,r}: table[i][r] is the probability that one VARQ
// request for reservation i on resource r succeeds. Every row has one
// entry per resource.
type table [][]float64

// Validate checks the shape and that every entry is a probability.
func (t table) Validate() error {
	if len(t) == 0 {
		return errors.New("coalloc: empty probability table")
	}
	for i, row := range t {
		if len(row) != len(t[0]) {
			return fmt.Errorf("coalloc: table row %d has %d resources, row 0 has %d", i, len(row), len(t[0]))
		}
		for r, p := range row {
			if !(p >= 0 && p <= 1) {
				return fmt.Errorf("coalloc: p[%d][%d] = %v is not a probability", i, r, p)
			}
		}
	}
	return nil
}

// Config holds the planner's options. The zero value is the thesis's
// procedure as the spec resolves it.
type Config struct {
	// Step is the VARQ trajectory step; 0 means varq.DefaultStep.
	Step int64
	// AllowReuse lets one resource serve several reservations (Q19); by
	// default a drawn resource leaves the pool, which matches Figure 6.1
	// (2 + 3 requests on the 5 machines of Table 6.1).
	AllowReuse bool
	// StopOnProduct stops drawing as soon as Π P_res_i ≥ P_all, instead of
	// waiting for every P_res_i ≥ P_indep (Q20).
	StopOnProduct bool
	// LatestMeeting plans each request at the latest point of its
	// trajectory whose probability meets the per-reservation target
	// P_indep, VARQ's min-overhead rule (§3), falling back to the maximum
	// on a site where no point meets it. By default a request is planned
	// at the trajectory maximum, the latest argmax: the best VARQ can offer
	// (Q18, the thesis's procedure). The maximum of 480–1440 noisy
	// forecasts is biased upward, and boosting then keeps the sites with
	// the highest maxima: the promise is a winner's curse. The latest
	// meeting point does not pick the highest of many estimates, so it
	// selects less on noise, and it submits later, so it spins less.
	LatestMeeting bool
	// Reboost makes the Executor re-plan while it executes (Q16 carried to
	// CO-VARQ, see reboost.go): every ReboostEvery seconds it re-forecasts
	// each unserved reservation's live requests and, when their joint
	// chance falls below P_indep, draws redundant requests on further
	// resources. Off, the plan is executed as made (the thesis). The
	// target is per reservation even with StopOnProduct, so such a plan
	// may be re-boosted at its first review.
	Reboost bool
	// ReboostEvery is the re-forecast period; 0 means Step (30 s).
	ReboostEvery int64
	// DropDead makes re-boosting cancel a request whose live probability
	// fell to 0 when another of its reservation's requests still has a
	// chance. Off by default: measured, it costs successes (reboost.go).
	DropDead bool
}

// point is the trajectory point rule c plans requests at.
func (c Config) point() pointRule {
	if c.LatestMeeting {
		return latestMeeting
	}
	return atMax
}

// Validate reports an option out of range.
func (c Config) Validate() error {
	switch {
	case c.Step < 0:
		return fmt.Errorf("coalloc: negative Step %d", c.Step)
	case c.ReboostEvery < 0:
		return fmt.Errorf("coalloc: negative ReboostEvery %d", c.ReboostEvery)
	case c.ReboostEvery > maxPeriod:
		// The next review, now + ReboostEvery, wrapped into the past: a
		// machine runs such a timer at once (sched's did, again and
		// again, at the same instant) or refuses it.
		return fmt.Errorf("coalloc: ReboostEvery %d above 2^40 s", c.ReboostEvery)
	}
	return nil
}

// maxPeriod bounds Config.ReboostEvery, as varq bounds its Step and Every:
// 2^40 s, past any reservation's start.
const maxPeriod = 1 << 40

// Requests is the number of VARQ requests the plan launches, Σ|S_i|.
func (b Plan) Requests() int {
	n := 0
	for _, s := range b.Sets {
		n += len(s)
	}
	return n
}

// boost runs CO-VARQ's greedy boosting (§4 step 3) for the joint target
// pAll: round-robin over the reservations in input order, each one still
// below P_indep draws the resource with the highest p_{i,r} it does not
// hold yet (ties: the lower index) from the pool. Resources with p = 0
// cannot help and are never drawn.
func boost(t table, pAll float64, cfg Config) (Plan, error) {
	if err := t.Validate(); err != nil {
		return Plan{}, err
	}
	if err := cfg.Validate(); err != nil {
		return Plan{}, err
	}
	if !(pAll > 0 && pAll <= 1) {
		return Plan{}, fmt.Errorf("coalloc: P_all %v outside (0, 1]", pAll)
	}
	count, nres := len(t), len(t[0])
	b := Plan{PAll: pAll, PIndep: pIndep(pAll, count), Sets: make([][]int, count), PRes: make([]float64, count)}
	fail := make([]float64, count) // Π(1 − p) per reservation
	for i := range fail {
		fail[i] = 1
	}
	taken := make([]bool, nres)   // drawn by anyone (without replacement)
	held := make([][]bool, count) // drawn by reservation i (with reuse)
	for i := range held {
		held[i] = make([]bool, nres)
	}
	met := func(i int) bool { return 1-fail[i] >= b.PIndep }
	done := func() bool {
		if cfg.StopOnProduct && b.expected() >= pAll {
			return true
		}
		for i := range count {
			if !met(i) {
				return false
			}
		}
		return true
	}
	for !done() {
		drew := false
		for i := range count {
			if met(i) {
				continue
			}
			best := drawBest(t[i], func(r int) bool { return !held[i][r] && (cfg.AllowReuse || !taken[r]) })
			if best < 0 {
				if cfg.StopOnProduct {
					continue // another reservation may still lift the product
				}
				b.finish(fail)
				return b, nil
			}
			taken[best], held[i][best] = true, true
			b.Sets[i] = append(b.Sets[i], best)
			fail[i] *= 1 - t[i][best]
			b.PRes[i] = 1 - fail[i]
			drew = true
			if done() {
				break
			}
		}
		if !drew {
			b.finish(fail)
			return b, nil
		}
	}
	b.finish(fail)
	b.OK = true
	return b, nil
}

// drawBest is the draw of boosting and re-boosting: the resource r with
// the highest probability row[r] among those free(r) allows, the lower
// index on ties, or −1 when none of them has p > 0 (it cannot help).
func drawBest(row []float64, free func(r int) bool) int {
	best := -1
	for r, p := range row {
		if p == 0 || !free(r) {
			continue
		}
		if best < 0 || p > row[best] {
			best = r
		}
	}
	return best
}

func (b *Plan) finish(fail []float64) {
	for i, f := range fail {
		b.PRes[i] = 1 - f
	}
	b.PExpected = b.expected()
}

func (b *Plan) expected() float64 {
	e := 1.0
	for _, p := range b.PRes {
		e *= p
	}
	return e
}
