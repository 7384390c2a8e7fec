package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// okChecked is conservative backfilling that checks, after each pass,
// the invariant rebaseOwn's shortcut rests on: a final profile the
// memo trusts (ok) is nowhere overdrawn. It counts the finals checked.
type okChecked struct {
	t       *rapid.T
	inner   Scheduler
	checked *int
}

func (c okChecked) Schedule(p *Pass) {
	c.inner.Schedule(p)
	m := p.s.prof.memo
	if m == nil || !m.ok {
		return
	}
	*c.checked++
	for _, q := range m.final {
		if q.free < 0 {
			c.t.Fatalf("final %v overdrawn with ok at %d", m.final, p.s.now)
		}
	}
}

// TestConservativeOkFinalSoundRapid: every conservative pass whose memo
// is ok leaves a final profile nowhere overdrawn, on workloads that
// overdraw at the start of passes (jobs outliving their predictions,
// S3, corrected by a Corrector, re-predicted by user history), with
// cancellations between passes, an observer that cancels or submits at
// a reservation or a start (inside a pass), EASY passes between
// (alternator), kills at the estimate and passes per event; and the
// records equal the plain computation's. The premise of consMemo.ok's
// soundness, which spares the next pass its walk for an overdraw
// (rebaseOwn): it fails when consOverdrawn marks nothing (a final
// [{1 -1} {2 2}] overdrawn with ok, tried 2026-11-30).
func TestConservativeOkFinalSoundRapid(t *testing.T) {
	checked := 0
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 8).Draw(t, "P")
		n := rapid.IntRange(1, 40).Draw(t, "n")
		jobs := drawConsJobs(t, P, n, 3)
		pred := rapid.IntRange(0, 3).Draw(t, "predictor")
		kill := rapid.Bool().Draw(t, "kill")
		perEvent := rapid.Bool().Draw(t, "perEvent")
		cancels := drawCancels(t, 3, 200, n)
		easy := rapid.SliceOfN(rapid.SampledFrom([]bool{false, false, false, true}), 1, 6).Draw(t, "easy")
		obs := rapid.SliceOfN(rapid.SampledFrom([]int{0, 0, 0, 0, 1, 2}), 1, 12).Draw(t, "obs")
		ids := rapid.SliceOfN(rapid.Int64Range(1, int64(n)), 1, 12).Draw(t, "ids")
		run := func(inner Scheduler) *Result {
			cfg := Config{MachineSize: P, Scheduler: &alternator{inner: inner, act: easy}, KillAtEstimate: kill, PerEventPass: perEvent}
			withPredictor(t, &cfg, pred)
			return runCancelled(t, cfg, jobs, cancels, func(s *Sim) { meddle(s, jobs, obs, ids) })
		}
		want := run(plainConservative{})
		got := run(okChecked{t: t, inner: conservativeScheduler{}, checked: &checked})
		samePlainRecords(t, want, got)
	})
	if checked == 0 {
		t.Fatal("no ok final checked")
	}
}
