package sched

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestRebaseOwnMatchesWalk: rebaseOwn, whose was is nowhere overdrawn
// and which then looks for an overdraw only where diff is negative,
// gives the profile, gain and soundness that a walk of every point
// gives (rebaseWalk), for random sound profiles and running jobs'
// changes of either sign (an overdraw found in about a third of the
// draws).
func TestRebaseOwnMatchesWalk(t *testing.T) {
	var p, q Profile
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.Int64Range(0, 50).Draw(t, "now")
		was := drawSteps(t, "was", now, 10)
		for k := range was { // sound: every free raised alike (the steps keep their form)
			was[k].free += 3
		}
		// the changes (mostly losses, so that some overdraw) begin and
		// end at was's points or a second off, where an overdraw
		// begins and ends
		diff := []point{{now, rapid.Int64Range(-8, 12).Draw(t, "diff0")}}
		for _, q := range was[1:] {
			if !rapid.Bool().Draw(t, "change") {
				continue
			}
			at := q.t + rapid.Int64Range(-1, 1).Draw(t, "off")
			v := rapid.Int64Range(-8, 12).Draw(t, "diff")
			if last := diff[len(diff)-1]; at > last.t && v != last.free {
				diff = append(diff, point{at, v})
			}
		}
		p.pts, q.pts = nil, nil
		wg, ws := q.rebaseWalk(slices.Clone(was), slices.Clone(diff))
		gg, gs := p.rebaseOwn(slices.Clone(was), slices.Clone(diff))
		if !slices.Equal(p.pts, q.pts) || gg != wg || gs != ws {
			t.Fatalf("rebaseOwn(%v, %v): %v %v %v; rebaseWalk: %v %v %v", was, diff, p.pts, gg, gs, q.pts, wg, ws)
		}
	})
}

// rebaseWalk is rebaseOwn for a was that may be overdrawn (the tests'
// random profiles): its soundness from a walk of every point, where
// rebaseOwn reads only the times at which diff is negative.
func (p *Profile) rebaseWalk(was, diff []point) (gain span, sound bool) {
	gain, _ = p.rebaseOwn(was, diff)
	return gain, !slices.ContainsFunc(p.pts, func(q point) bool { return q.free < 0 })
}

// TestConservativeSoundMemoRapid: a conservative pass leaves an ok
// final profile nowhere overdrawn (okChecked), the premise on which the
// next pass looks for an overdraw only where the running jobs took
// processors since (rebaseOwn) and conservativeQuiet not at all, on
// workloads whose jobs outlive their estimates (S3's reservations held
// at now overdraw the profile) on small machines, a pass per event or
// per timestamp, with kills or not. It fails when consOverdrawn marks
// nothing (tried, 2026-11-30); TestRebaseOwnMatchesWalk fails on a
// shortcut that misses an overdraw.
func TestConservativeSoundMemoRapid(t *testing.T) {
	checked := 0
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 6).Draw(t, "P")
		jobs := drawOverrunJobs(t, P, rapid.IntRange(5, 50).Draw(t, "n"))
		cfg := Config{MachineSize: P, Scheduler: okChecked{t: t, inner: conservativeScheduler{}, checked: &checked},
			PerEventPass: rapid.Bool().Draw(t, "perEvent"), KillAtEstimate: rapid.Bool().Draw(t, "kill")}
		if _, err := Run(context.Background(), cfg, jobs); err != nil {
			t.Fatal(err)
		}
	})
	if checked == 0 {
		t.Fatal("no ok final checked")
	}
}
