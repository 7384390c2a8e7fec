package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// TestConservativeAllRoutesRapid: every route by which the profile can
// change around or inside a conservative pass, drawn together in one
// run (the other rapid tests draw them apart): an observer that cancels
// a waiting or running job, or submits one, when a job gets a
// reservation or starts (inside the pass's loop); cancellations
// between passes; kills at the estimate; predictors that correct and
// re-predict (S3's overruns); EASY at some passes; a pass per event or
// per instant. The memo's bounds (most over gain, the most free in the
// slots given back in this pass and the last, noStart) hold only if nothing but the loop's
// own moves adds free processors while the loop runs: the records must
// be the plain pass's, which rebuilds everything at every pass.
func TestConservativeAllRoutesRapid(t *testing.T) {
	for range 20 {
		rapid.Check(t, consAllRoutes)
	}
}

func consAllRoutes(t *rapid.T) {
	P := rapid.Int64Range(1, 10).Draw(t, "P")
	n := rapid.IntRange(1, 40).Draw(t, "n")
	jobs := drawConsJobs(t, P, n, 3)
	easy := rapid.SliceOfN(rapid.SampledFrom([]bool{false, false, false, true}), 1, 8).Draw(t, "easy")
	obs := rapid.SliceOfN(rapid.SampledFrom([]int{0, 0, 0, 0, 0, 1, 2}), 1, 12).Draw(t, "obs")
	ids := rapid.SliceOfN(rapid.Int64Range(1, int64(n)), 1, 12).Draw(t, "ids")
	pred := rapid.IntRange(0, 3).Draw(t, "predictor")
	kill := rapid.Bool().Draw(t, "kill")
	perEvent := rapid.Bool().Draw(t, "perEvent")
	var end int64
	for _, j := range jobs {
		end = max(end, j.Submit)
	}
	cancels := drawCancels(t, 4, end+40, n)
	run := func(inner Scheduler) *Result {
		cfg := Config{MachineSize: P, Scheduler: &alternator{inner: inner, act: easy}, KillAtEstimate: kill, PerEventPass: perEvent}
		withPredictor(t, &cfg, pred)
		return runCancelled(t, cfg, jobs, cancels, func(sim *Sim) { meddle(sim, jobs, obs, ids) })
	}
	samePlainRecords(t, run(plainConservative{}), run(conservativeScheduler{}))
}
