package main

import (
	"testing"

	"github.com/batchq/batchq/coalloc"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
)

// fakeTrials starts a trial on fake machines whose jobs start 10 s after
// submission, with constant forecasts probs.
func fakeTrials(t *testing.T, probs []float64, cfg trialConfig, until int64) (*trials, []*varqtest.FakeMachine) {
	t.Helper()
	ms := make([]*varqtest.FakeMachine, len(probs))
	sites := make([]coalloc.Site, len(probs))
	for i, p := range probs {
		ms[i] = &varqtest.FakeMachine{Delay: func(int, int64) int64 { return 10 }}
		f := varq.ForecasterFunc(func(int, int64, int64) (float64, bool) { return p, true })
		sites[i] = coalloc.Site{Name: string(rune('A' + i)), Forecaster: f, Machine: ms[i]}
	}
	x, err := coalloc.NewExecutor(sites)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		m.OnStart = func(id, at int64) { x.Started(i, id, at) }
	}
	tr, err := startTrials(x, ms[0], cfg, 0, until)
	if err != nil {
		t.Fatal(err)
	}
	return tr, ms
}

func TestTrialsProtocol(t *testing.T) {
	cfg := trialConfig{nodes: 4, walltime: 3600, lead: 4 * 3600, pAll: 0.90}
	lockstep := func(tr *trials, ms []*varqtest.FakeMachine, until int64) {
		for now := int64(0); now <= until; now += 30 {
			for _, m := range ms {
				m.RunUntil(now)
			}
		}
		if tr.err != nil || tr.x.Err() != nil {
			t.Fatal(tr.err, tr.x.Err())
		}
	}
	// Possible every time: one request per lead+walltime = 18000 s.
	tr, ms := fakeTrials(t, []float64{0.90, 0.80, 0.85, 0.70}, cfg, 90001)
	lockstep(tr, ms, 120000)
	s := tr.summary()
	if s.attempts != 6 || s.executed != 6 || s.pAchieved != 1 || s.requestsPerRes != 2 || s.submittedPerRes != 2 {
		t.Errorf("summary %+v", s)
	}
	if o := s.overAllocation(); o <= 1 || o > 1.01 {
		t.Errorf("over-allocation %v: jobs start 20 s before the start time", o)
	}
	// Never possible: a retry every 600 s, nothing executed.
	tr2, ms2 := fakeTrials(t, []float64{0.5, 0.5}, cfg, 6000)
	lockstep(tr2, ms2, 7000)
	if tr2.attempts != 10 || len(tr2.results()) != 0 {
		t.Errorf("attempts %d, results %d; want 10, 0", tr2.attempts, len(tr2.results()))
	}
	for _, bad := range []trialConfig{{}, {nodes: 1, walltime: 1, lead: 1, pAll: 2}} {
		if _, err := startTrials(tr.x, ms[0], bad, 0, 1); err == nil {
			t.Errorf("trial %+v accepted", bad)
		}
	}
}
