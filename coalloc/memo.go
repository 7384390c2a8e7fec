package coalloc

import (
	"math"

	"github.com/batchq/batchq/varq"
)

// Versioned is a Forecaster that says when its answers may change: while
// Version returns the same value, ProbWithin answers the same question
// the same way. Site forecasters may implement it.
//
// Re-boosting (reboost.go) plans a reservation on every free site at each
// review, ReboostEvery seconds apart, and the trajectory from the later
// now is the earlier one without its first points: the same questions.
// On a Versioned site the Executor keeps the answers it got for the
// reservation and asks the site only what it did not ask at this version,
// so a site whose forecaster was not fed in between costs no forecast.
// The plans are those of asking every time.
//
// A qbets.Predictor changes only when it is fed: its Stats().Arrivals +
// Stats().Releases, which every Submit or Observe raises, is a version
// (examples/coalloc does that).
type Versioned interface {
	varq.Forecaster
	Version() uint64
}

// memo is one site's answers about one reservation's trajectory, valid at
// one version of the site's forecaster. It is asked only trajectory
// questions of its reservation r: submitting at s is the job of r.Nodes
// padded to r.Padded(s) that must start within r.Start − s, so s names
// the question. p[k] is the answer for submitting at from + k·step (NaN:
// not asked yet); questions off that grid, which a review period that is
// not a multiple of the step asks, are passed through.
type memo struct {
	ver        uint64
	from, step int64
	p          []float64
}

// forecaster returns f answering reservation r's trajectory questions
// from now on (step step, 0 meaning varq.DefaultStep) from m where m holds
// the answer, after starting m afresh from now if f's version changed. A
// forecaster that is not Versioned is returned as it is: it is asked
// every time.
func (m *memo) forecaster(f varq.Forecaster, r varq.Request, now, step int64) varq.Forecaster {
	v, ok := f.(Versioned)
	if !ok {
		return f
	}
	if step == 0 {
		step = varq.DefaultStep
	}
	if ver := v.Version(); m.p == nil || ver != m.ver || step != m.step {
		m.ver, m.from, m.step = ver, now, step
		m.p = m.p[:0]
		for s := now; s < r.Start; s += step {
			m.p = append(m.p, math.NaN())
		}
	}
	return memoized{f: f, m: m, start: r.Start}
}

type memoized struct {
	f     varq.Forecaster
	m     *memo
	start int64
}

func (c memoized) ProbWithin(nodes int, walltime, within int64) float64 {
	m := c.m
	s := c.start - within
	k := (s - m.from) / m.step
	if s < m.from || (s-m.from)%m.step != 0 || k >= int64(len(m.p)) {
		return c.f.ProbWithin(nodes, walltime, within)
	}
	if !math.IsNaN(m.p[k]) {
		return m.p[k]
	}
	m.p[k] = c.f.ProbWithin(nodes, walltime, within)
	return m.p[k]
}
