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
	// only until it), processors from field 5 clamped to the machine, a
	// line with an unknown run time or processor count simulated as a
	// 1-second, 1-processor job with estimate 1, so every line is in the
	// schedule, and a line with run time 0 as a 1-second job with
	// estimate 1 on its processors (pyss's test is run time <= 0).
	PeerPyss
	// PeerPredictsim is PeerPyss with processors from field 8 (requested),
	// as predictsim (a 2024 descendant of pyss) reads them.
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

// peerJob rewrites j the way peer builds jobs. A line with an unknown
// submit time is left for the sane predicate to reject: it has no place in
// time.
func peerJob(j *swf.Job, peer Peer, machine int64) {
	n := j.AllocProcs
	if peer == PeerPredictsim {
		n = j.ReqProcs
	}
	if j.Submit < 0 || j.Submit > sanitize.MaxTime {
		return // rejected by the sane predicate
	}
	switch {
	case j.RunTime < 0 || n <= 0:
		j.RunTime, j.ReqTime, n = 1, 1, 1
	case j.RunTime == 0:
		// Both peers treat a zero run time as a problem line too (pyss
		// tests run time <= 0): a 1-second job with estimate 1, but on the
		// processors the line gives (KTH job 6608: pyss and predictsim
		// both run it with estimate 1 on 4 processors).
		j.RunTime, j.ReqTime = 1, 1
	default:
		req := j.ReqTime
		j.ReqTime = max(req, j.RunTime, 1)
		j.RunTime = max(min(req, j.RunTime), 1)
	}
	n = min(n, machine)
	j.AllocProcs, j.ReqProcs = n, n
}
