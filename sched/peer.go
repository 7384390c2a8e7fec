package sched

import (
	"fmt"
	"strings"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

// Peer names a peer simulator whose way of building jobs from SWF lines
// Config.Peer reproduces, so that a schedule can be checked job by job
// against the tool a researcher trusts.
type Peer int

const (
	// PeerNone builds jobs by the thesis's rules: sane jobs only (S4),
	// size from field 5 else field 8 (S5), missing estimates filled (S6),
	// logged run times (S9). The default.
	PeerNone Peer = iota
	// PeerPyss builds jobs as pyss (2007, Tsafrir and Feitelson's
	// simulator) does: estimate = max(requested, run, 1), run =
	// max(min(requested, run), 1) (a job that overran its estimate runs
	// only until it; a job without an estimate runs 1 second), processors
	// from field 5 clamped to the machine, and a line with a run time ≤ 0,
	// no processor count or no submit time simulated as a 1-second job
	// with estimate 1 on max(1, field 5) processors, submitted at
	// max(submit, 1), so every line is in the schedule. The package doc's
	// table lists what each mode does with each missing field; every job a
	// rule changed is counted in Result.Changed.
	PeerPyss
	// PeerPredictsim is PeerPyss with processors from field 8
	// (requested), or field 5 when field 8 is missing, as predictsim (a
	// 2024 descendant of pyss) reads them.
	PeerPredictsim
)

var peerNames = [...]string{"none", "pyss", "predictsim"}

func (p Peer) String() string {
	if p < 0 || int(p) >= len(peerNames) {
		return fmt.Sprintf("Peer(%d)", int(p))
	}
	return peerNames[p]
}

// UnmarshalText sets p to the peer of this name ("none", "pyss",
// "predictsim"; case-insensitive; "" is none), so that a Peer works with
// flag.TextVar and encoding/json.
func (p *Peer) UnmarshalText(name []byte) error {
	for i, n := range peerNames {
		if strings.EqualFold(string(name), n) {
			*p = Peer(i)
			return nil
		}
	}
	if len(name) == 0 {
		*p = PeerNone
		return nil
	}
	return fmt.Errorf("sched: unknown peer %q (want none, pyss or predictsim)", name)
}

// MarshalText returns the peer's name.
func (p Peer) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// WithPeer returns c set up to reproduce peer's schedules: its job
// construction (Config.Peer), its tie rule at the shadow (ShadowTies, both
// peers), its pass granularity (one pass per event for pyss, per timestamp
// for predictsim) and, for pyss and a user-history predictor, pyss's
// history: the last jobs by termination time, re-predicting waiting jobs
// as it changes. The options stay separate
// fields so that each one's effect can be measured alone. With PeerPyss
// and PerEventPass the events of one instant also come in pyss's order:
// prediction expiries, then arrivals, then terminations, a pass after each
// arrival and termination.
func (c Config) WithPeer(peer Peer) Config {
	c.Peer = peer
	if peer == PeerNone {
		return c
	}
	c.ShadowTies = true
	c.PerEventPass = peer == PeerPyss
	if peer == PeerPyss {
		c.Predictor = pyssHistory(c.Predictor)
	}
	return c
}

// pyssHistory returns a user-history predictor (bare or doubled by X2)
// rebuilt the way pyss's EASY++ keeps its history: the window holds the
// user's last jobs by termination time, and waiting jobs are re-predicted
// whenever it changes (pyss re-predicts every waiting job at every pass).
// Other predictors are returned as they are.
func pyssHistory(p RuntimePredictor) RuntimePredictor {
	switch h := p.(type) {
	case *predict.UserHistory:
		cfg := h.Config()
		cfg.ByTermination, cfg.Propagate = true, true
		n, err := predict.NewUserHistory(cfg)
		if err != nil {
			return p
		}
		return n
	case predict.X2:
		if h.P != nil {
			return predict.X2{P: pyssHistory(h.P)}
		}
	}
	return p
}

// peerJob rewrites j the way peer builds jobs (pyss's and predictsim's
// _job_input_to_job in base/prototype.py, read in their source) and
// returns the rules that changed it:
//   - the processors are field 5 for pyss; for predictsim field 8, or
//     field 5 when field 8 is not positive (its workload parser's
//     num_requested_processors falls back to the allocated count);
//   - a line with run time ≤ 0, no processor count or a submit time < 0 is
//     invalid for both: a 1-second job with estimate 1 on max(1, field 5)
//     processors, submitted at max(submit, 1), so every line is in the
//     schedule (KTH job 6608, run time 0, runs 1 second on its 4
//     processors in both);
//   - otherwise estimate = max(field 9, run, 1) and run = max(min(field 9,
//     run), 1): a job that overran its estimate runs only until it, and a
//     job without an estimate (field 9 = −1) runs 1 second with its run
//     time as its estimate (NASA-iPSC, SDSC-Par and OSC-Clust in
//     predictsim's references: every job 1 second long);
//   - a size above the machine is clamped to it. (The peers leave an
//     invalid line's max(1, field 5) unclamped and then find no time at
//     which it fits; sched clamps it as it clamps a valid line.)
//
// Neither peer reads the status (field 11), the wait (field 3) or any
// field after 12. A submit time beyond sanitize.MaxTime is left for the
// sane predicate to reject.
func peerJob(j *swf.Job, peer Peer, machine int64) rule {
	if j.Submit > sanitize.MaxTime {
		return 0
	}
	var r rule
	n := j.AllocProcs
	fromAllocated := false
	if peer == PeerPredictsim {
		n, fromAllocated = j.ReqProcs, j.ReqProcs <= 0
		if fromAllocated {
			n = j.AllocProcs
		}
	}
	if j.RunTime <= 0 || n <= 0 || j.Submit < 0 {
		switch {
		case j.RunTime < 0:
			r |= rulePeerNoRunTime
		case j.RunTime == 0:
			r |= rulePeerZeroRunTime
		}
		if n <= 0 {
			r |= rulePeerNoSize
		}
		switch {
		case j.Submit < 0:
			r |= rulePeerNoSubmit
		case j.Submit == 0:
			r |= rulePeerSubmitMoved
		}
		j.Submit = max(j.Submit, 1)
		j.RunTime, j.ReqTime = 1, 1
		n = max(1, j.AllocProcs)
	} else {
		if fromAllocated {
			r |= rulePeerSizeFromAllocated
		}
		req := j.ReqTime
		switch {
		case req <= 0:
			r |= rulePeerNoEstimate
		case req < j.RunTime:
			r |= rulePeerRunCut
		}
		j.ReqTime = max(req, j.RunTime, 1)
		j.RunTime = max(min(req, j.RunTime), 1)
	}
	if n > machine {
		n = machine
		r |= rulePeerSizeClamped
	}
	j.AllocProcs, j.ReqProcs = n, n
	return r
}
