package estmodel

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/batchq/batchq/swf"
)

// defaultPhi is the share of exact estimates Mu'alem and Feitelson hard-coded.
const defaultPhi = 0.10

// PhiModel is the Φ-model (Mu'alem & Feitelson; named by Zhang et al.; spec
// §5.1): with probability Φ the estimate equals the run time (the peak of
// jobs killed at their estimate); otherwise e = r/u with u ~ U(0, 1]; jobs
// shorter than 90 s get 10·e (the failed-at-startup hump); finally the
// "outrageous" values are truncated to EMax.
type PhiModel struct {
	// Phi is the probability of an exact estimate; 0 means 0.10, the share
	// Mu'alem and Feitelson hard-coded, and a negative value means none
	// (Φ = 0).
	Phi float64
	// EMax is the upper bound (the spec recommends the log's E_max); 0 means
	// no bound.
	EMax int64
}

func (m PhiModel) phi() float64 {
	switch {
	case m.Phi == 0:
		return defaultPhi
	case m.Phi < 0:
		return 0
	}
	return m.Phi
}

// Validate reports whether the model is usable.
func (m PhiModel) Validate() error {
	if p := m.phi(); !(p >= 0 && p <= 1) {
		return errors.New("estmodel: Φ above 1 or NaN")
	}
	if m.EMax < 0 {
		return errors.New("estmodel: negative E_max")
	}
	return nil
}

// Estimate returns the Φ-model estimate of run time r (seconds), or −1
// (SWF's "unknown") for a negative r, an invalid model or a nil rng.
func (m PhiModel) Estimate(r int64, rng *rand.Rand) int64 {
	if r < 0 || rng == nil || m.Validate() != nil {
		return -1
	}
	e := float64(r)
	if rng.Float64() >= m.phi() {
		e /= 1 - rng.Float64() // u in (0, 1]
	}
	if r < 90 {
		e *= 10
	}
	return truncate(max(toSeconds(e), r), m.EMax)
}

// Apply sets field 9 of every job (unknown run times count as 0).
func (m PhiModel) Apply(jobs []swf.Job, rng *rand.Rand) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if rng == nil {
		return errNilRand
	}
	for i := range jobs {
		jobs[i].ReqTime = m.Estimate(max(0, jobs[i].RunTime), rng)
	}
	return nil
}

// String names the model and its parameters (Φ as the model uses it: 0.1
// for 0), as Modal's String does: "Φ-model user estimates, Φ = 0.1,
// E_max = 64800 s (package estmodel)".
func (m PhiModel) String() string {
	return fmt.Sprintf("Φ-model user estimates, Φ = %g%s (package estmodel)", m.phi(), eMaxNote(m.EMax))
}
