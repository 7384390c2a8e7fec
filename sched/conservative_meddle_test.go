package sched

import (
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// alternator runs the built-in EASY at some passes (those act marks) and
// its inner scheduler at the others: EASY's reservation of its head
// (Sim.reserve, no Pass.Reserve) is a change of the waiting queue the
// conservative memo must see.
type alternator struct {
	inner Scheduler
	act   []bool
	n     int
}

func (a *alternator) Schedule(p *Pass) {
	easy := a.act[a.n%len(a.act)]
	a.n++
	if easy {
		EASYScheduler{}.Schedule(p)
		return
	}
	a.inner.Schedule(p)
}

// TestConservativeMeddledRapid: what changes the waiting queue from
// inside a conservative pass (an observer that cancels or submits a job
// when a job gets a reservation or starts) or between passes without
// Pass.Reserve (the built-in EASY's reservation of its head, when a
// Scheduler alternates EASY with conservative backfilling) leaves the
// records of the plain pass, which rebuilds everything at every pass.
//
// Ten checks of rapid's default count each (1,000 cases, 0.3 s): the
// quiet paths' misses of EASY's reservation (conservativeQuiet without
// its qepoch) show in about one case in a few hundred.
func TestConservativeMeddledRapid(t *testing.T) {
	for range 10 {
		rapid.Check(t, consMeddled)
	}
}

func consMeddled(t *rapid.T) {
	P := rapid.Int64Range(1, 8).Draw(t, "P")
	n := rapid.IntRange(1, 30).Draw(t, "n")
	jobs := drawConsJobs(t, P, n, 1)
	easy := rapid.SliceOfN(rapid.SampledFrom([]bool{false, false, true}), 1, 8).Draw(t, "easy")
	// per reservation or start event: 0 nothing, 1 cancel the job
	// of the ID given, 2 submit a copy of job 1 under a new ID
	obs := rapid.SliceOfN(rapid.SampledFrom([]int{0, 0, 0, 0, 1, 2}), 1, 12).Draw(t, "obs")
	ids := rapid.SliceOfN(rapid.Int64Range(1, int64(n)), 1, 12).Draw(t, "ids")
	perEvent := rapid.Bool().Draw(t, "perEvent")
	run := func(inner Scheduler) *Result {
		sim, err := New(Config{MachineSize: P, Scheduler: &alternator{inner: inner, act: easy}, PerEventPass: perEvent})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Load(jobs); err != nil {
			t.Fatal(err)
		}
		meddle(sim, jobs, obs, ids)
		res, err := sim.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	samePlainRecords(t, run(plainConservative{}), run(conservativeScheduler{}))
}

// meddle makes an observer of sim act at each reservation and start, by
// turns: obs says what (0 nothing, 1 cancel the job of the ID ids gives,
// 2 submit a copy of that job of jobs under a new ID, four at most).
func meddle(sim *Sim, jobs []swf.Job, obs []int, ids []int64) {
	k, next := 0, int64(len(jobs)+1)
	act := func() {
		a, id := obs[k%len(obs)], ids[k%len(ids)]
		k++
		switch {
		case a == 1:
			sim.Cancel(id)
		case a == 2 && next < int64(len(jobs)+5):
			j := jobs[id-1]
			j.ID, next = next, next+1
			sim.Submit(j)
		}
	}
	sim.Observe(Hooks{
		Reservation: func(int64, *swf.Job, int64) { act() },
		Start:       func(int64, *swf.Job, bool) { act() },
	})
}
