package sched

import (
	"errors"
	"fmt"
)

// Config describes one simulated scheduler. The zero value plus a machine
// size is the thesis's vanilla EASY: user estimates as predictions, FCFS
// backfilling order, no correction, one scheduling pass per timestamp, the
// first running job that frees enough processors fixes the shadow (S2),
// stale predictions used as they are (S3), jobs run their logged run time
// (S9), bounded slowdown threshold 10 s, jobs built from SWF lines by the
// thesis's rules (S4–S6).
type Config struct {
	// MachineSize is the number of processors P (required; take it from
	// swf.Header.MachineSize and override as needed, e.g. 512 for CTC).
	MachineSize int64
	// Scheduler decides, at each scheduling pass, which waiting jobs start.
	// nil means EASYScheduler{} (EASY, FCFS backfilling). The built-ins are
	// EASYScheduler (also SJBF, SJF and LXF&W orders) and the schedulers
	// presets FCFS and Conservative set; any value implementing Scheduler
	// works.
	Scheduler Scheduler
	// Predictor gives each job's prediction p at arrival. nil means the
	// user estimate (p = e). Package sched/predict has the thesis's.
	Predictor RuntimePredictor
	// Corrector changes p of a running job still alive at start+p. nil means
	// no correction (stale predictions are used as they are, S3).
	Corrector Corrector
	// CorrectionTarget multiplies the estimate the corrector jumps to and
	// grows from: 0 or 1 is e, 2 is the doubled estimate of X2+ (S16).
	CorrectionTarget int64
	// PerEventPass runs a scheduling pass after every event instead of once
	// per timestamp batch (S1). pyss passes per event, predictsim per
	// timestamp.
	PerEventPass bool
	// BoundedSlowdownThreshold is the τ of max(1, (w+r)/max(τ, r)); 0 means 10 s.
	BoundedSlowdownThreshold int64
	// MaxEstimate replaces missing user estimates (S6). 0 means the largest
	// estimate among the loaded jobs; if no job has one, e := r.
	MaxEstimate int64
	// ShadowTies adds to EASY's extra processors every running job whose
	// predicted end equals the shadow, not only the first one that frees
	// enough processors (S2; pyss and predictsim do this). The thesis's
	// rule, the default, stops at the first.
	ShadowTies bool
	// KillAtEstimate ends a job at start + estimate when it would run
	// longer, as production schedulers do (the SWF definition of field 9).
	// Killed jobs are counted in Summary.Killed and written with status 0.
	// A job is killed only at an estimate its user gave: a job without one
	// (field 9 ≤ 0, counted in Summary.NoEstimate) runs its full time,
	// planned with the estimate S6 filled in, which is the simulator's
	// guess, not a limit anyone set. The default runs every job for its
	// logged run time (S9): the archive logs already reflect their own
	// kills.
	//
	// The cut run time is the job's run time from its arrival on, for all
	// that may look at it: an oracle predictor (predict.Perfect, X2_perf)
	// predicts the run that will happen, not the logged one; a history
	// predictor learns it at termination, as a real scheduler would; the
	// accuracy of predictions (§3.4) is measured against it; and
	// Observers and Job.SWF see it in RunTime. A job cancelled before it
	// started is not counted as killed.
	KillAtEstimate bool
	// Peer builds jobs from SWF lines the way a peer simulator does (see
	// Peer), so that schedules can be compared job by job. With PeerPyss
	// and PerEventPass it also handles each instant's events in pyss's
	// order (see Peer); WithPeer sets the peer's other options too.
	Peer Peer
}

// Validate reports an unusable configuration.
func (c Config) Validate() error {
	if c.MachineSize <= 0 {
		return errors.New("sched: MachineSize must be positive")
	}
	if c.MachineSize > 1<<40 {
		return fmt.Errorf("sched: MachineSize %d above 2^40", c.MachineSize)
	}
	if c.CorrectionTarget < 0 || c.BoundedSlowdownThreshold < 0 || c.MaxEstimate < 0 {
		return errors.New("sched: negative CorrectionTarget, BoundedSlowdownThreshold or MaxEstimate")
	}
	if c.Peer < PeerNone || c.Peer > PeerPredictsim {
		return fmt.Errorf("sched: unknown peer %d", c.Peer)
	}
	if v, ok := c.Scheduler.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return nil
}

func (c Config) bsldThreshold() int64 {
	if c.BoundedSlowdownThreshold == 0 {
		return 10
	}
	return c.BoundedSlowdownThreshold
}
