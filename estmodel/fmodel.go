package estmodel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/batchq/batchq/swf"
)

// FModel is the f-model of artificial inaccuracy (thesis Ch. 3, spec §5.1):
// with badness f ≥ 0 and F = f + 1, the random model draws e ~ U[r, F·r], the
// deterministic model sets e = F·r. With EMax > 0 the estimate is truncated to
// min(e, EMax) (the truncated f-model, which the thesis prefers as a "quick
// and dirty" substitute). In the thesis's figures the random model with f is
// compared with the deterministic one with f/2 (same mean estimate).
//
// The thesis's point is that this is not a model of user inaccuracy: larger f
// improves EASY, while real estimates are modal and make it worse.
type FModel struct {
	F             float64 // the badness f ≥ 0 (not F = f + 1)
	Deterministic bool
	EMax          int64 // > 0: truncate estimates to it
}

// Validate reports whether the model is usable.
func (m FModel) Validate() error {
	if m.F < 0 || math.IsNaN(m.F) || math.IsInf(m.F, 0) {
		return errors.New("estmodel: f-model badness must be a finite f ≥ 0")
	}
	if m.EMax < 0 {
		return errors.New("estmodel: negative E_max")
	}
	return nil
}

// Estimate returns the estimate for run time r (seconds, rounded to the
// second). rng is used only by the random model. It returns −1 (SWF's
// "unknown") for a negative r, an invalid model, or a nil rng that the
// random model needs.
func (m FModel) Estimate(r int64, rng *rand.Rand) int64 {
	if r < 0 || (rng == nil && !m.Deterministic) || m.Validate() != nil {
		return -1
	}
	factor := m.F + 1
	if !m.Deterministic {
		factor = 1 + rng.Float64()*m.F
	}
	return truncate(max(toSeconds(float64(r)*factor), r), m.EMax)
}

// Apply sets field 9 of every job from its run time (unknown run times count
// as 0).
func (m FModel) Apply(jobs []swf.Job, rng *rand.Rand) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if rng == nil && (!m.Deterministic) {
		return errNilRand
	}
	for i := range jobs {
		jobs[i].ReqTime = m.Estimate(max(0, jobs[i].RunTime), rng)
	}
	return nil
}

// toSeconds rounds to whole seconds, saturating far below overflow. The
// models take the larger of it and the run time: an estimate of a run time
// above 2^52 s saturated below it, though both models draw e ≥ r.
func toSeconds(x float64) int64 {
	const ceiling = 1 << 52
	if x >= ceiling {
		return ceiling
	}
	return int64(math.Round(x))
}

func truncate(e, eMax int64) int64 {
	if eMax > 0 && e > eMax {
		return eMax
	}
	return e
}

// String names the model and its parameters, as Modal's String does, for
// notes in SWF headers and a user's output (a bare struct said nothing):
// "truncated f-model user estimates, f = 1, random, E_max = 64800 s
// (package estmodel)".
func (m FModel) String() string {
	kind, draw := "f-model", "random"
	if m.EMax > 0 {
		kind = "truncated f-model"
	}
	if m.Deterministic {
		draw = "deterministic"
	}
	return fmt.Sprintf("%s user estimates, f = %g, %s%s (package estmodel)", kind, m.F, draw, eMaxNote(m.EMax))
}

// eMaxNote is ", E_max = N s" for a bound, "" for none.
func eMaxNote(eMax int64) string {
	if eMax <= 0 {
		return ""
	}
	return fmt.Sprintf(", E_max = %d s", eMax)
}
