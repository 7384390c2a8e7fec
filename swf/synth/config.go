package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/batchq/batchq/internal/plugin"
	"github.com/batchq/batchq/swf"
)

// Config configures a Generator. The zero value is the paper's model: typed
// (batch and interactive), 128 nodes, start at midnight, seed 0, the default
// arrival rate (offered load ≈ 0.40), no estimates.
type Config struct {
	// Machine is the machine size P in nodes (0 means 128). The per-type
	// size bounds are derived from it by the spec's §7 rule.
	Machine int64
	// Typeless selects the single whole-log parameter set (§2.2).
	Typeless bool
	// Batch, Interactive and Whole replace the parameter sets, e.g. with
	// ones fitted to another log; a replacement is used as given. nil means
	// the paper's sets (§2) with their size bounds scaled to Machine.
	Batch, Interactive, Whole *TypeParams
	// StartHour (0–23) is the clock hour of time 0.
	StartHour int
	// Seed seeds the PCG generator.
	Seed uint64
	// Drand48 draws from the POSIX drand48 generator seeded by
	// srand48(Seed), as the reference C does, instead of PCG; with
	// CompatClock the output is the C's, bit for bit (the golden tests).
	Drand48 bool
	// Source, when set, replaces the generator.
	Source rand.Source
	// CompatClock truncates each type's clock to whole seconds after every
	// arrival, as the C's unsigned long clock does (§9: the truncation drifts
	// and flattens the daily cycle on long runs; only for golden tests).
	CompatClock bool
	// TargetLoad, when positive, sets the offered load Σ r·n / (P·span) by
	// scaling the arrival shape of every type (§8). ArrivalShapeScale sets
	// the factor directly (0 means 1); it is ignored when TargetLoad is set.
	TargetLoad        float64
	ArrivalShapeScale float64
	// Estimator, if set, fills field 9 (user estimates) of the jobs of
	// Jobs and WriteSWF, drawing from the generator's random source; nil
	// leaves it unknown. estmodel.Modal{} is Tsafrir's modal model with
	// E_max = max(longest run time, 1 h); estmodel.FModel and
	// estmodel.PhiModel fit as well. Jobs then needs a batch of at least
	// 200 jobs (the parallelworkloads wrapper's limit for the modal model:
	// below it the model has no tail).
	Estimator Estimator
}

// Estimator sets field 9 (ReqTime) of jobs from their other fields. The
// estimate models of package estmodel implement it; a type that also
// implements fmt.Stringer names itself in the SWF header's notes.
type Estimator interface {
	Apply(jobs []swf.Job, rng *rand.Rand) error
}

// maxMachine bounds Config.Machine: above the largest machine in
// processors, and low enough that the load calculation (O(P)) finishes.
// maxJobs bounds Generator.Jobs, which holds its jobs in memory.
const (
	maxMachine = 1 << 24
	maxJobs    = 1 << 28
)

func (c *Config) machine() int64 {
	if c.Machine == 0 {
		return 128
	}
	return c.Machine
}

// params returns the parameter sets in use: slot 0 interactive, slot 1 batch
// (the SWF queue numbers). In typeless mode both slots hold Whole.
func (c *Config) params() [2]TypeParams {
	p := c.machine()
	if c.Typeless {
		w := typeless().scaleTo(p, 0, 2.5)
		if c.Whole != nil {
			w = *c.Whole
		}
		return [2]TypeParams{w, w}
	}
	b, i := batch().scaleTo(p, 0, 2), interactive().scaleTo(p, 1.5, 4)
	if c.Batch != nil {
		b = *c.Batch
	}
	if c.Interactive != nil {
		i = *c.Interactive
	}
	return [2]TypeParams{i, b}
}

// Validate reports whether the configuration is usable.
func (c Config) Validate() error {
	if c.Machine < 0 || c.Machine == 1 || c.Machine > maxMachine {
		return fmt.Errorf("synth: machine size %d, need 2 to %d", c.Machine, maxMachine)
	}
	if c.StartHour < 0 || c.StartHour > 23 {
		return fmt.Errorf("synth: start hour %d outside 0–23", c.StartHour)
	}
	// NaN would otherwise read as "not set", and +Inf has no meaning.
	if !(c.TargetLoad >= 0) || !(c.ArrivalShapeScale >= 0) || math.IsInf(c.TargetLoad, 0) || math.IsInf(c.ArrivalShapeScale, 0) {
		return fmt.Errorf("synth: TargetLoad %v and ArrivalShapeScale %v must be finite and not negative", c.TargetLoad, c.ArrivalShapeScale)
	}
	if k := c.ArrivalShapeScale; k > 0 && c.TargetLoad == 0 {
		for _, p := range c.params() {
			if err := p.arrivalsReachable(k); err != nil {
				return err
			}
		}
	}
	// A nil Estimator or Source means the default; one holding a nil
	// pointer or func would panic at its first call.
	if c.Estimator != nil && plugin.Missing(c.Estimator) {
		return errors.New("synth: Estimator is a nil pointer")
	}
	if c.Source != nil && plugin.Missing(c.Source) {
		return errors.New("synth: Source is a nil pointer")
	}
	if v, ok := c.Estimator.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("synth: Estimator: %w", err)
		}
	}
	for _, p := range c.params() {
		if err := p.Validate(); err != nil {
			return err
		}
	}
	return nil
}
