package agent

import (
	"testing"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
	"pgregory.net/rapid"
)

// askLog records what a crowd-aware agent asks its forecaster: at which
// clock time, for how many nodes, for a submission how long before the
// start. It answers 0.8 to submissions at least cut seconds before the
// start and 0.1 to later ones, whatever the size.
type askLog struct {
	m    *varqtest.FakeMachine
	cut  int64
	asks []ask
}

type ask struct {
	at     int64
	nodes  int
	within int64
}

func (l *askLog) ProbWithin(nodes int, _, within int64) (float64, bool) {
	l.asks = append(l.asks, ask{l.m.Now(), nodes, within})
	if within >= l.cut {
		return 0.8, true
	}
	return 0.1, true
}

// sizesAt is the set of sizes asked at clock time t about a submission
// within seconds before the start (within < 0: any).
func (l *askLog) sizesAt(t, within int64) map[int]bool {
	got := map[int]bool{}
	for _, a := range l.asks {
		if a.at == t && (within < 0 || a.within == within) {
			got[a.nodes] = true
		}
	}
	return got
}

func crowdJob(submit, procs int64) swf.Job {
	return swf.Job{Submit: submit, RunTime: 600, ReqTime: 3600, AllocProcs: procs}
}

// crowdRun hands jobs to an agent in the given crowd mode. Submissions
// are good only 20 000 s or more before the start (the 6 h start time is
// 21600), so requests arriving before 1600 submit early and the others are
// refused, but all of them ask. On the machine an 8-node job starts 1000 s
// after its submission, a 4-node job never starts, others at once.
func crowdRun(t *testing.T, mode crowdMode, every int64, jobs []swf.Job) *askLog {
	t.Helper()
	m := &varqtest.FakeMachine{Delay: func(nodes int, _ int64) int64 {
		switch nodes {
		case 8:
			return 1000
		case 4:
			return -1
		}
		return 0
	}}
	log := &askLog{m: m, cut: 20000}
	a, err := New(m, log, Config{Fraction: 1, Crowd: mode.String(),
		Replan: varq.ReplanConfig{ReqProb: 0.75, Every: every, OnlyAtSubmit: every == 0}})
	if err != nil {
		t.Fatal(err)
	}
	m.OnStart = a.Started
	for _, j := range jobs {
		m.At(j.Submit, func() { a.Arrive(j) })
	}
	m.Run()
	if a.Err() != nil {
		t.Fatal(a.Err())
	}
	return log
}

// crowdQueued asks about the request's nodes plus those of the agent's
// queued (submitted, not started) requests for the same start time.
func TestCrowdQueuedAsksForTheSummedSize(t *testing.T) {
	jobs := []swf.Job{
		crowdJob(0, 8),     // submits at 1590, starts at 2590
		crowdJob(100, 4),   // submits at 1600, never starts
		crowdJob(1700, 2),  // meets both queued: 2 + 8 + 4
		crowdJob(3000, 2),  // the 8-node job started: 2 + 4
		crowdJob(21600, 2), // start time 43200: the queued 4-node job is for 21600
	}
	log := crowdRun(t, crowdQueued, 0, jobs)
	for _, c := range []struct {
		at   int64
		want int
	}{{0, 8}, {100, 4}, {1590, 8}, {1600, 4 + 8}, {1700, 2 + 8 + 4}, {3000, 2 + 4}, {21600, 2}} {
		got := log.sizesAt(c.at, -1)
		if len(got) != 1 || !got[c.want] {
			t.Errorf("at %d asked for sizes %v, want only %d", c.at, got, c.want)
		}
	}
	// The thesis's method asks about the request alone.
	log = crowdRun(t, crowdOff, 0, jobs)
	for i, at := range []int64{0, 100, 1700, 3000, 21600} {
		if got := log.sizesAt(at, -1); len(got) != 1 || !got[int(jobs[i].Size())] {
			t.Errorf("crowdOff at %d asked for sizes %v", at, got)
		}
	}
}

// crowdPlanned also counts accepted requests not yet submitted, but only
// for candidate submissions at or after their planned submission: the 8-node
// request (planned 1590) counts the 4-node one (planned 1600) for its late
// candidates and not for its planned one, and the other way round.
func TestCrowdPlannedCountsEarlierPlans(t *testing.T) {
	jobs := []swf.Job{crowdJob(0, 8), crowdJob(10, 4)}
	log := crowdRun(t, crowdPlanned, 30, jobs)
	for _, c := range []struct {
		at, submit int64
		want       int
	}{
		{30, 21570, 8 + 4}, // the 8-node request re-planning: a late candidate
		{30, 1590, 8},      // its own plan, before the 4-node one submits
		{40, 21580, 4 + 8}, // the 4-node request re-planning
		{40, 1600, 4 + 8},  // its plan: the 8-node one submits first
		{1600, 1600, 4 + 8},
	} {
		got := log.sizesAt(c.at, 21600-c.submit)
		if len(got) != 1 || !got[c.want] {
			t.Errorf("at %d, candidate %d: asked for sizes %v, want only %d", c.at, c.submit, got, c.want)
		}
	}
	// crowdQueued leaves pending requests out; crowdAccepted counts them
	// whenever they plan to submit.
	for _, c := range []struct {
		mode crowdMode
		want int
	}{{crowdQueued, 8}, {crowdAccepted, 8 + 4}} {
		log = crowdRun(t, c.mode, 30, jobs)
		for _, submit := range []int64{21570, 1590} {
			if got := log.sizesAt(30, 21600-submit); len(got) != 1 || !got[c.want] {
				t.Errorf("%v at 30, candidate %d: asked for sizes %v, want only %d", c.mode, submit, got, c.want)
			}
		}
	}
}

// The ledger empties as requests start, are dropped or refused: nothing
// is left once the machine is idle, whatever the crowd mode.
func TestCrowdLedgerEmpties(t *testing.T) {
	for _, mode := range []crowdMode{crowdQueued, crowdPlanned, crowdAccepted} {
		m := &varqtest.FakeMachine{Delay: func(nodes int, _ int64) int64 { return int64(nodes) * 10 }}
		f := &shiftingForecaster{cut: 600, hi: 0.8, lo: 0.3}
		a, err := New(m, f, Config{Fraction: 1, Crowd: mode.String(), Replan: varq.ReplanConfig{ReqProb: 0.75}})
		if err != nil {
			t.Fatal(err)
		}
		m.OnStart = a.Started
		for i := range int64(50) {
			j := crowdJob(i*997, 1+i%13)
			m.At(j.Submit, func() { a.Arrive(j) })
		}
		m.Run()
		if a.Err() != nil || len(a.crwd.groups) != 0 {
			t.Errorf("%v: err %v, ledger left %d start times", mode, a.Err(), len(a.crwd.groups))
		}
	}
	for _, m := range []crowdMode{crowdOff, crowdQueued, crowdPlanned, crowdAccepted} {
		if got, err := parseCrowd(m.String()); got != m || err != nil {
			t.Errorf("parseCrowd(%q) = %v, %v", m, got, err)
		}
	}
	if got, err := parseCrowd(""); got != crowdOff || err != nil {
		t.Errorf(`parseCrowd("") = %v, %v`, got, err)
	}
	if _, err := New(&varqtest.FakeMachine{}, &shiftingForecaster{}, Config{Crowd: "crowded", Replan: varq.ReplanConfig{ReqProb: 0.5}}); err == nil {
		t.Error("unknown crowd mode accepted")
	}
}

// Whatever the forecaster, the queue and the crowd, a crowd-aware agent
// submits every padded job strictly before its start time and no more
// than one period (Config.Period, 7200 s here) before it.
func TestCrowdAgentNeverSubmitsLate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := runRandomCrowdAgent(t, nil, nil)
		for _, o := range a.Outcomes() {
			if o.Submitted.Possible && (o.Submit >= o.Plan.Start || o.Submit < o.Plan.Start-7200) {
				t.Fatalf("submitted at %d for start %d: %+v", o.Submit, o.Plan.Start, o)
			}
		}
	})
}

// runRandomCrowdAgent draws a forecaster (a sizedForecaster, handed to
// wrap if wrap is not nil), a machine, a crowd mode, a re-planning period
// and up to 40 jobs, runs a crowd-aware agent (period 7200 s) over them and
// returns it; ready sees the agent before the run.
func runRandomCrowdAgent(t *rapid.T, wrap func(sizedForecaster) varq.Forecaster, ready func(*Agent)) *Agent {
	probs := rapid.SliceOfN(rapid.Float64Range(0, 1), 1, 50).Draw(t, "probs")
	step := rapid.Int64Range(30, 900).Draw(t, "step")
	var f varq.Forecaster = sizedForecaster{tableForecaster{step, probs}}
	if wrap != nil {
		f = wrap(f.(sizedForecaster))
	}
	delays := rapid.SliceOfN(rapid.Int64Range(-1, 30000), 1, 20).Draw(t, "delays")
	k := 0
	m := &varqtest.FakeMachine{Delay: func(int, int64) int64 { k++; return delays[k%len(delays)] }}
	mode := rapid.SampledFrom([]crowdMode{crowdQueued, crowdPlanned, crowdAccepted}).Draw(t, "mode")
	// Re-planning every 0 (only at the planned submission) or 30–3600 s:
	// more often than the trajectory's 30-s step asks nothing new, and a
	// 1-s period made one run in a few take 40 s under -race.
	every := rapid.Int64Range(varq.DefaultStep-1, 3600).Draw(t, "every")
	if every < varq.DefaultStep {
		every = 0
	}
	a, err := New(m, f, Config{Fraction: 1, Crowd: mode.String(), Period: 7200,
		Replan: varq.ReplanConfig{ReqProb: rapid.Float64Range(0.01, 1).Draw(t, "target"), Every: every, OnlyAtSubmit: every == 0}})
	if err != nil {
		t.Fatal(err)
	}
	if ready != nil {
		ready(a)
	}
	m.OnStart = a.Started
	arrival := int64(0)
	for i := range rapid.IntRange(1, 40).Draw(t, "jobs") {
		arrival += rapid.Int64Range(0, 2000).Draw(t, "gap")
		j := crowdJob(arrival, int64(rapid.IntRange(1, 64).Draw(t, "procs")))
		j.ID = int64(i)
		m.At(j.Submit, func() { a.Arrive(j) })
	}
	m.Run()
	if a.Err() != nil {
		t.Fatal(a.Err())
	}
	return a
}

// sizedForecaster lowers the table's probability for larger jobs, so the
// crowd changes the plans.
type sizedForecaster struct{ tableForecaster }

func (f sizedForecaster) ProbWithin(nodes int, w, within int64) (float64, bool) {
	p, ok := f.tableForecaster.ProbWithin(nodes, w, within)
	return p * 16 / float64(16+nodes), ok
}
