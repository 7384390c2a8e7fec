package coalloc

import (
	"cmp"
	"math"

	"github.com/batchq/batchq/varq"
)

// versionedForecaster is a Forecaster that says when its answers may
// change: while Version returns the same value, ProbWithin answers the same
// question the same way. Site forecasters may implement it (see Site).
//
// Re-boosting (reboost.go) plans a reservation on every free site at each
// review, ReboostEvery seconds apart, and the trajectory from the later
// now is the earlier one without its first points: the same questions.
// On a versioned site the Executor keeps the answers it got for the
// reservation and asks the site only what it did not ask at this version,
// so a site whose forecaster was not fed in between costs no forecast,
// and it keeps the plan it read off them while that plan's submission is
// still ahead. The plans are those of asking every time.
//
// A qbets.Predictor changes only when it is fed: its Stats().Arrivals +
// Stats().Releases, which every Submit or Observe raises, is a version
// (examples/coalloc does that).
type versionedForecaster interface {
	varq.Forecaster
	Version() uint64
}

// memo is one site's answers about one reservation's trajectory, valid at
// one version of the site's forecaster, and the last plan read off them.
// It is asked only trajectory questions of its reservation r: submitting
// at s is the job of r.Nodes padded to r.Padded(s) that must start within
// r.Start − s, so s names the question. p[k] is the answer for submitting
// at from + k·step (NaN: not asked yet); questions off that grid, which a
// review period that is not a multiple of the step asks, are passed
// through.
type memo struct {
	f          varq.Forecaster
	start      int64
	ver        uint64
	from, step int64
	p          []float64 // NaN: not asked yet
	ok         []bool

	planned bool      // plan is the plan made at planAt at this version
	plan    varq.Plan // for target and rule
	planAt  int64
	target  float64
	rule    pointRule
}

// pointPlan is pointPlan(rec, f, r, now, step, target, rule), answered
// from m where it can when f is versionedForecaster; m starts afresh when f's
// version changed. It reuses m's last plan, made at this version from an
// earlier point of the same grid, when that plan's submission has not
// passed or it had none: the trajectory from now is the earlier one
// without the points before now, so the latest point meeting the target
// and the latest argmax are the same ones if they are still in it, and an
// all-zero trajectory stays all zero. Otherwise it reads the plan off the
// answers m holds, asking f only the questions m has not asked.
func (m *memo) pointPlan(rec *recorder, f varq.Forecaster, r varq.Request, now, step int64, target float64, rule pointRule) (varq.Plan, error) {
	v, ok := f.(versionedForecaster)
	if !ok {
		return pointPlan(rec, f, r, now, step, target, rule)
	}
	if _, err := r.TrajectoryLen(now, step); err != nil {
		return varq.Plan{}, err // before making room for the answers
	}
	step = cmp.Or(step, varq.DefaultStep)
	if ver := v.Version(); m.p == nil || ver != m.ver || step != m.step || r.Start != m.start {
		m.ver, m.from, m.step, m.start = ver, now, step, r.Start
		m.p, m.ok = m.p[:0], m.ok[:0]
		for s := now; s < r.Start; s += step {
			m.p, m.ok = append(m.p, math.NaN()), append(m.ok, false)
		}
		m.planned = false
	}
	if m.planned && target == m.target && rule == m.rule && now >= m.planAt && (now-m.planAt)%step == 0 &&
		(!m.plan.Possible || m.plan.Submit >= now) {
		return m.plan, nil
	}
	m.f = f
	p, err := pointPlan(rec, m, r, now, step, target, rule)
	if err != nil {
		return p, err
	}
	m.planned, m.plan, m.planAt, m.target, m.rule = true, p, now, target, rule
	return p, nil
}

// ProbWithin answers a trajectory question from m, or asks m.f and keeps
// the answer.
func (m *memo) ProbWithin(nodes int, walltime, within int64) (float64, bool) {
	s := m.start - within
	k := (s - m.from) / m.step
	if s < m.from || (s-m.from)%m.step != 0 || k >= int64(len(m.p)) {
		return m.f.ProbWithin(nodes, walltime, within)
	}
	if math.IsNaN(m.p[k]) {
		m.p[k], m.ok[k] = m.f.ProbWithin(nodes, walltime, within)
	}
	return m.p[k], m.ok[k]
}
