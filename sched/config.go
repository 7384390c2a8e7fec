package sched

import (
	"errors"
	"fmt"

	"github.com/batchq/batchq/estmodel"
)

// Policy decides which waiting job holds the reservation and how many
// reservations there are (spec §2.4).
type Policy int

const (
	// EASYPolicy: aggressive backfilling, one reservation for the holder
	// (the FCFS head unless Holder says otherwise). The default.
	EASYPolicy Policy = iota
	// FCFSPolicy: no backfilling at all.
	FCFSPolicy
	// ConservativePolicy: every waiting job gets a reservation, in arrival
	// order, in a free-processor profile.
	ConservativePolicy
	// SJFPolicy: EASY whose reservation goes to the shortest waiting job by
	// prediction and whose backfill order is ascending prediction.
	SJFPolicy
	// LXFWPolicy: EASY whose reservation goes to the job of highest priority
	// (w+e)/e + 0.02·w (w, e in hours, A31), backfilling by priority.
	LXFWPolicy
)

var policyNames = [...]string{"EASY", "FCFS", "conservative", "SJF", "LXF&W"}

func (p Policy) String() string {
	if p < 0 || int(p) >= len(policyNames) {
		return fmt.Sprintf("Policy(%d)", int(p))
	}
	return policyNames[p]
}

// BackfillOrder is the order in which EASY visits the other waiting jobs.
type BackfillOrder int

const (
	// BackfillFCFS visits jobs in arrival order. The default.
	BackfillFCFS BackfillOrder = iota
	// BackfillSJBF visits jobs by ascending current prediction (Shortest Job
	// Backfilled First, §6.4); ties by arrival order then ID (A14).
	BackfillSJBF
)

// Config describes one simulated scheduler. The zero value plus a machine
// size is vanilla EASY with user estimates: FCFS backfilling order, no
// prediction correction, one scheduling pass per timestamp, bounded
// slowdown threshold 10 s.
type Config struct {
	// MachineSize is the number of processors P (required; take it from
	// swf.Header.MachineSize and override as needed, e.g. 512 for CTC).
	MachineSize int64
	Policy      Policy
	Backfill    BackfillOrder
	// Predictor gives each job's prediction p at arrival. nil means the
	// user estimate (p = e).
	Predictor RuntimePredictor
	// Corrector changes p of a running job still alive at start+p. nil means
	// no correction (stale predictions are used as they are, A3).
	Corrector Corrector
	// CorrectionTarget multiplies the estimate the corrector jumps to and
	// grows from: 0 or 1 is e, 2 is the doubled estimate of X2+ (A16).
	CorrectionTarget int64
	// PerEventPass runs a scheduling pass after every event instead of once
	// per timestamp batch (A1).
	PerEventPass bool
	// BoundedSlowdownThreshold is the τ of max(1, (w+r)/max(τ, r)); 0 means 10 s.
	BoundedSlowdownThreshold int64
	// MaxEstimate replaces missing user estimates (A6). 0 means the largest
	// estimate among the loaded jobs; if no job has one, e := r.
	MaxEstimate int64
	// EstimateSafeBackfill admits a backfill by condition (i) only if the
	// job's user-estimated end is also before the shadow (§2.4, §6.5).
	EstimateSafeBackfill bool
}

// Validate reports an unusable configuration.
func (c Config) Validate() error {
	if c.MachineSize <= 0 {
		return errors.New("sched: MachineSize must be positive")
	}
	if c.Policy < EASYPolicy || c.Policy > LXFWPolicy {
		return fmt.Errorf("sched: unknown policy %d", c.Policy)
	}
	if c.Backfill < BackfillFCFS || c.Backfill > BackfillSJBF {
		return fmt.Errorf("sched: unknown backfill order %d", c.Backfill)
	}
	if c.CorrectionTarget < 0 || c.BoundedSlowdownThreshold < 0 || c.MaxEstimate < 0 {
		return errors.New("sched: negative CorrectionTarget, BoundedSlowdownThreshold or MaxEstimate")
	}
	return nil
}

func (c Config) bsldThreshold() int64 {
	if c.BoundedSlowdownThreshold == 0 {
		return 10
	}
	return c.BoundedSlowdownThreshold
}

// history returns EASY++'s default user-history predictor.
func history() RuntimePredictor {
	h, _ := estmodel.NewUserHistory(estmodel.HistoryConfig{})
	return h
}

// The named variants of Tab 4.4 (spec §2.4). Each returns a fresh Config
// (predictors keep per-simulation state: never share one between Sims).

// EASY is vanilla EASY: p = e, no correction, FCFS backfilling.
func EASY(p int64) Config { return Config{MachineSize: p} }

// FCFS never backfills.
func FCFS(p int64) Config { return Config{MachineSize: p, Policy: FCFSPolicy} }

// Conservative gives every waiting job a reservation (user estimates).
func Conservative(p int64) Config { return Config{MachineSize: p, Policy: ConservativePolicy} }

// EASYPred is EASY with the user-history predictor and no correction.
func EASYPred(p int64) Config { return Config{MachineSize: p, Predictor: history()} }

// EASYPCor is EASY with p = e and correction (only post-estimate steps act).
func EASYPCor(p int64) Config { return Config{MachineSize: p, Corrector: EstimateCorrector{}} }

// EASYSJBF is EASY with p = e and shortest-job-backfilled-first.
func EASYSJBF(p int64) Config { return Config{MachineSize: p, Backfill: BackfillSJBF} }

// EASYPlus is EASY+: user-history predictions with correction.
func EASYPlus(p int64) Config {
	return Config{MachineSize: p, Predictor: history(), Corrector: EstimateCorrector{}}
}

// EASYPlusPlus is EASY++: EASY+ with SJBF.
func EASYPlusPlus(p int64) Config {
	c := EASYPlus(p)
	c.Backfill = BackfillSJBF
	return c
}

// PerfectPlusPlus is PERFECT++: p = r with SJBF.
func PerfectPlusPlus(p int64) Config {
	return Config{MachineSize: p, Predictor: estmodel.Perfect{}, Backfill: BackfillSJBF}
}

// X2 predicts 2e, no correction.
func X2(p int64) Config { return Config{MachineSize: p, Predictor: estmodel.X2{}} }

// X2Plus predicts 2·(history prediction), falling back to 2e, with
// correction towards 2e (A16).
func X2Plus(p int64) Config {
	return Config{MachineSize: p, Predictor: estmodel.X2{P: history()}, Corrector: EstimateCorrector{}, CorrectionTarget: 2}
}

// X2PlusPlus is X2+ with SJBF.
func X2PlusPlus(p int64) Config {
	c := X2Plus(p)
	c.Backfill = BackfillSJBF
	return c
}

// X2Perf predicts 2r.
func X2Perf(p int64) Config {
	return Config{MachineSize: p, Predictor: estmodel.X2{P: estmodel.Perfect{}}}
}

// X2PlusPlusPerf predicts 2r with SJBF.
func X2PlusPlusPerf(p int64) Config {
	c := X2Perf(p)
	c.Backfill = BackfillSJBF
	return c
}

// SJF gives the reservation to the shortest job by estimate and backfills
// by ascending estimate.
func SJF(p int64) Config { return Config{MachineSize: p, Policy: SJFPolicy} }

// SJFPlus is SJF+ (= SJF++): history predictions with correction.
func SJFPlus(p int64) Config {
	return Config{MachineSize: p, Policy: SJFPolicy, Predictor: history(), Corrector: EstimateCorrector{}}
}

// SJFPerf is SJF by actual runtime.
func SJFPerf(p int64) Config {
	return Config{MachineSize: p, Policy: SJFPolicy, Predictor: estmodel.Perfect{}}
}

// LXFW is LXF&W backfilling with user estimates (Ch.3 §3.10).
func LXFW(p int64) Config { return Config{MachineSize: p, Policy: LXFWPolicy} }

// Variants maps the Tab 4.4 names to their constructors.
var Variants = map[string]func(p int64) Config{
	"FCFS": FCFS, "EASY": EASY, "EASY_PRED": EASYPred, "EASY_PCOR": EASYPCor,
	"EASY_SJBF": EASYSJBF, "EASY+": EASYPlus, "EASY++": EASYPlusPlus,
	"PERFECT++": PerfectPlusPlus, "X2": X2, "X2+": X2Plus, "X2++": X2PlusPlus,
	"X2_perf": X2Perf, "X2++_perf": X2PlusPlusPerf, "SJF": SJF, "SJF+": SJFPlus,
	"SJF_perf": SJFPerf, "LXF&W": LXFW, "Conservative": Conservative,
}
