package sched

import (
	"testing"

	"pgregory.net/rapid"
)

// okChecked is conservative backfilling that checks, after each pass,
// the invariant rebaseKnown's shortcut rests on: a final profile the
// memo trusts (ok) is nowhere overdrawn, whether or not the pass marked
// it sound, and sound implies ok. It counts the finals checked that
// were ok but not marked sound (those TestConservativeSoundMemoRapid's
// check skips).
type okChecked struct {
	t          *rapid.T
	unmarked   *int
	inner      Scheduler
	passesSeen *int
}

func (c okChecked) Schedule(p *Pass) {
	c.inner.Schedule(p)
	*c.passesSeen++
	m := p.s.prof.memo
	if m == nil {
		return
	}
	if m.sound && !m.ok {
		c.t.Fatalf("memo marked sound but not ok at %d", p.s.now)
	}
	if !m.ok {
		return
	}
	if !m.sound {
		*c.unmarked++
	}
	for _, q := range m.final {
		if q.free < 0 {
			c.t.Fatalf("final %v overdrawn with ok (sound %v) at %d", m.final, m.sound, p.s.now)
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
// records equal the plain computation's. This is the premise that makes
// consMemo.sound safe, checked also where the flag is false (a pass that
// began overdrawn, or from Pass.Profile), so that a change that left an
// overdraw in an ok final fails here even if it cleared sound.
func TestConservativeOkFinalSoundRapid(t *testing.T) {
	unmarked, passes := 0, 0
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
		got := run(okChecked{t: t, unmarked: &unmarked, inner: conservativeScheduler{}, passesSeen: &passes})
		samePlainRecords(t, want, got)
	})
	// the check must reach finals the flag does not vouch for
	if unmarked == 0 {
		t.Fatalf("no ok final unmarked sound in %d passes: the check proves nothing beyond the flag", passes)
	}
	t.Logf("%d passes, %d ok finals not marked sound checked", passes, unmarked)
}
