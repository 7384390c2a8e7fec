package agent

import (
	"testing"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
)

// capForecaster answers 0 for jobs of more than max nodes (a size it has
// no history for, or larger than the machine) and for everything while
// down (QBETS's silence, §2.5); otherwise 0.8 for submissions at least
// 20 000 s before the start and 0.3 for later ones.
type capForecaster struct {
	max  int
	down bool
}

func (f *capForecaster) ProbWithin(nodes int, _, within int64) (float64, bool) {
	switch {
	case f.down || nodes > f.max:
		return 0, true
	case within >= 20000:
		return 0.8, true
	}
	return 0.3, true
}

// silenceRun hands a 5-node request (arriving at 0, planned at 1590) and
// a 6-node one (arriving at 50, planned and submitted at 1580, never
// started) for the same start time 21600 to an agent in crowdQueued mode
// that re-plans every 30 s. down, if set, is called at 1585.
func silenceRun(t *testing.T, f *capForecaster, down func()) (*Agent, []Outcome) {
	t.Helper()
	m := &varqtest.FakeMachine{Delay: func(nodes int, _ int64) int64 {
		if nodes == 6 {
			return -1
		}
		return 0
	}}
	a, err := New(m, f, Config{Fraction: 1, Crowd: "queued", Replan: varq.ReplanConfig{ReqProb: 0.75, Every: 30}})
	if err != nil {
		t.Fatal(err)
	}
	m.OnStart = a.Started
	for _, j := range []swf.Job{crowdJob(0, 5), crowdJob(50, 6)} {
		m.At(j.Submit, func() { a.Arrive(j) })
	}
	if down != nil {
		m.At(1585, down)
	}
	m.Run()
	if a.Err() != nil {
		t.Fatal(a.Err())
	}
	outs := a.Outcomes()
	if len(outs) != 2 || !outs[0].Accepted || outs[0].Plan.Submit != 1590 || outs[1].Submit != 1580 {
		t.Fatalf("set-up: %+v", outs)
	}
	return a, outs
}

// Once the 6-node request is queued, the 5-node one's crowd-aware question
// (11 nodes) has no chance at any submission, but the forecaster still
// answers for 5 nodes: that is no silence, so the accepted request cannot
// keep its plan; with nothing to fall back to, it is dropped (Q16).
func TestCrowdZerosAreNotSilence(t *testing.T) {
	a, outs := silenceRun(t, &capForecaster{max: 10}, nil)
	if o := outs[0]; o.Submitted.Possible {
		t.Errorf("the 5-node request was submitted at %d by its plan %v; want dropped", o.Submit, o.Submitted)
	}
	if st := a.Stats(); st.Kept != 0 || st.CrowdZeros != 1 {
		t.Errorf("stats %+v, want no plan kept and one crowd-made zero", st)
	}
}

// Real silence (the forecaster answers 0 whatever the size) still keeps
// the plan under a crowd mode: the request is submitted at 1590 as
// planned.
func TestCrowdKeepsPlanThroughSilence(t *testing.T) {
	f := &capForecaster{max: 10}
	a, outs := silenceRun(t, f, func() { f.down = true })
	if o := outs[0]; !o.Submitted.Possible || o.Submit != 1590 {
		t.Errorf("the 5-node request: submitted %v at %d; want its plan at 1590", o.Submitted, o.Submit)
	}
	if st := a.Stats(); st.Kept != 1 || st.KeptRequests != 1 || st.CrowdZeros != 0 {
		t.Errorf("stats %+v, want one plan kept and submitted", st)
	}
}
