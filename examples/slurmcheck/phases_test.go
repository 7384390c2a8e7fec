package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// schedRun is one run of one of Slurm's schedulers as slurmctld's log
// shows it: its starts, each within 100 ms of the one before (the rule
// of TestSubmitSecond and TestEndTriggeredMain), by the main scheduler or
// backfill. atEnd: the run's first start came within 100 ms after a job's
// end, the main scheduler run an epilog-complete report makes at once
// (TestEndTriggeredMain), not a tick of the background loop.
type schedRun struct {
	backfill bool
	at       int64 // the first start, Unix ms
	atEnd    bool
	jobs     []string
}

// schedRuns groups the log's starts into runs of each scheduler, in time
// order.
func schedRuns(log []logJob) []schedRun {
	jobs := slices.Clone(log)
	slices.SortStableFunc(jobs, func(a, b logJob) int { return int(a.Start - b.Start) })
	var ends []int64
	for _, l := range log {
		if l.End != 0 {
			ends = append(ends, l.End)
		}
	}
	var runs []schedRun
	last := map[bool]int{false: -1, true: -1} // each scheduler's run, an index into runs
	prev := map[bool]int64{}
	for _, l := range jobs {
		if k := last[l.Backfill]; k >= 0 && l.Start-prev[l.Backfill] <= 100 {
			runs[k].jobs = append(runs[k].jobs, l.ID)
		} else {
			atEnd := slices.ContainsFunc(ends, func(e int64) bool { return l.Start >= e && l.Start-e < 100 })
			runs = append(runs, schedRun{backfill: l.Backfill, at: l.Start, atEnd: atEnd, jobs: []string{l.ID}})
			last[l.Backfill] = len(runs) - 1
		}
		prev[l.Backfill] = l.Start
	}
	return runs
}

// phases is what slurmctld's log of one run says of its threads' phases,
// in ms from the recording's origin (the decay run's whole second,
// checked.origin) or within the second.
type phases struct {
	decay    int64 // the decay thread's run at the origin (slurmctld's start)
	bfFirst  int64 // backfill's first cycle: its first start
	mainRun  int64 // the main scheduler's first run: its first start
	mainSub  []int64
	loopRuns int   // the main scheduler's runs from the background loop
	phase0   int64 // the first and last loop run's phase in its second
	phase1   int64
	drift    float64 // ms a second the loop's phase moved, first to last
	wraps    int     // times the phase went from late in a second to early in the next
	// The policy's starts of the jobs of Slurm's first main scheduler
	// run (s from the origin), first and last.
	policy0, policy1 int64
	// earlierApart counts the jobs Slurm started before its first main
	// scheduler run that the policy starts at another second.
	earlierApart int
}

// phasesOf reads a recording's phases from slurmctld's log and runs the
// policy on it for its first starts by each scheduler.
func phasesOf(t *testing.T, path string) phases {
	t.Helper()
	rec, c := readPrepared(t, path)
	var ph phases
	o := 1000 * c.origin
	found := false
	for _, d := range rec.Decays {
		if d/1000 == c.origin {
			ph.decay, found = d-o, true
		}
	}
	if !found {
		t.Fatalf("%s: no decay run in the origin's second %d", path, c.origin)
	}
	runs := schedRuns(rec.Log)
	ph.bfFirst, ph.mainRun = -1, -1
	var loop []int64
	var first []string // the jobs of the main scheduler's first run
	for _, r := range runs {
		switch {
		case r.backfill:
			if ph.bfFirst < 0 {
				ph.bfFirst = r.at - o
			}
		case ph.mainRun < 0:
			ph.mainRun, first = r.at-o, r.jobs
			for _, id := range r.jobs {
				ph.mainSub = append(ph.mainSub, c.real[c.index[id]].Submit-c.origin)
			}
			fallthrough
		case !r.atEnd:
			loop = append(loop, r.at)
		}
	}
	if ph.bfFirst < 0 || len(loop) < 2 {
		t.Fatalf("%s: backfill's first run at %d ms, %d runs of the main scheduler's loop", path, ph.bfFirst, len(loop))
	}
	ph.loopRuns = len(loop)
	ph.phase0, ph.phase1 = loop[0]%1000, loop[len(loop)-1]%1000
	var moved int64
	for i := 1; i < len(loop); i++ {
		d := loop[i]%1000 - loop[i-1]%1000
		if d < -500 {
			ph.wraps++
			d += 1000
		}
		moved += d
	}
	ph.drift = float64(moved) / (float64(loop[len(loop)-1]-loop[0]) / 1000)
	s, err := runSlurm(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range c.real {
		if 1000*r.Start < o+ph.mainRun-ph.mainRun%1000 && s.starts[i] != r.Start {
			ph.earlierApart++
		}
	}
	ph.policy0, ph.policy1 = math.MaxInt64, math.MinInt64
	for _, id := range first {
		i := c.index[id]
		ph.policy0, ph.policy1 = min(ph.policy0, s.starts[i]-c.origin), max(ph.policy1, s.starts[i]-c.origin)
	}
	return ph
}

// policyStarts says when the policy started the jobs of Slurm's first
// main scheduler run. (Which of its schedulers did is not in its
// result: Record.Backfilled marks only a start past a reservation.)
func policyStarts(ph phases) string {
	if ph.policy1 != ph.policy0 {
		return fmt.Sprintf("%d–%d s", ph.policy0, ph.policy1)
	}
	return fmt.Sprintf("%d s", ph.policy0)
}

// secs writes ms as seconds to two places.
func secs(ms int64) string { return fmt.Sprintf("%.2f", float64(ms)/1000) }

// phaseTable is the README's region phases: the thread phases of the four
// live runs, read from slurmctld's log (README.md, "Slurm's pace", "Where
// the phases come from").
func phaseTable(phs []phases) string {
	var b strings.Builder
	b.WriteString("| run | decay thread's first run | backfill's first cycle (its phase − the decay's) | main scheduler's first run (− the decay's) | its jobs submitted at | the policy's starts of these jobs | background loop's runs | their phase in the second, first → last | drift | phase wrapped |\n")
	b.WriteString("|---|---:|---:|---:|---|---:|---:|---|---:|---:|\n")
	var mains []int64
	for k, ph := range phs {
		path := livePaths[k]
		mains = append(mains, ph.mainRun)
		subs := slices.Compact(slices.Sorted(slices.Values(ph.mainSub)))
		var sub []string
		for _, s := range subs {
			sub = append(sub, fmt.Sprintf("%d s", s))
		}
		// The phase in the second, relative to the decay run's: the
		// backfill thread's first cycle comes a fraction of a second
		// before it, the loop's first run just after it.
		rel := func(ms int64) int64 { return ((ms-ph.decay)%1000 + 1000) % 1000 }
		bfRel := rel(ph.bfFirst) - 1000
		fmt.Fprintf(&b, "| %d (%s) | %s s | %s s (%+d ms) | %s s (+%d ms; %s s after it) | %s (%d jobs) | %s | %d | .%03d → .%03d | %.1f ms/s | %d |\n",
			k+1, path, secs(ph.decay), secs(ph.bfFirst), bfRel, secs(ph.mainRun), rel(ph.mainRun), secs(ph.mainRun-ph.decay),
			strings.Join(sub, ", "), len(ph.mainSub), policyStarts(ph), ph.loopRuns, ph.phase0, ph.phase1, ph.drift, ph.wraps)
	}
	fmt.Fprintf(&b, "\nTimes are from the origin (the decay run's whole second, simulated time 0); a scheduler's run is its starts each within 100 ms of the one before, the first start its time; the background loop's runs are the main scheduler's runs but those within 100 ms after a job's end (an epilog report's, `TestEndTriggeredMain`); the drift is the phase's move over the loop's runs, unwrapped, per second between the first and the last. Slurm's first main scheduler run: %s–%s s after the origin.\n",
		secs(slices.Min(mains)), secs(slices.Max(mains)))
	return b.String()
}

// TestPhases generates the README's region phases from the four live
// recordings' slurmctld logs (kept in testdata: each job's start and end
// to the millisecond and the scheduler that started it, and the decay
// thread's runs), and checks what the README's prose reads from it: on
// every run backfill's first cycle comes a fraction of a second before
// the decay thread's run in the second and the loop's first run just after
// it; the first burst (submitted at 7 s) starts at 9.4–10.0 s by Slurm's
// main scheduler, at 8 s by the policy's, the earliest difference (the
// jobs Slurm started before start at the same second in the policy); the loop's phase drifts later
// in the second and wraps 0–2
// times a run. The figures were first read by a script that was not kept (commit
// e53d4039's message); this test replaces it.
func TestPhases(t *testing.T) {
	var phs []phases
	lo, hi := int64(math.MaxInt64), int64(0)
	var wraps []int
	bfEarlier := 0 // runs whose first backfill cycle comes earlier in its second than the loop's first run
	for _, path := range livePaths {
		ph := phasesOf(t, path)
		phs = append(phs, ph)
		rel := func(ms int64) int64 { return ((ms-ph.decay)%1000 + 1000) % 1000 }
		if r := rel(ph.bfFirst); r < 500 {
			t.Errorf("%s: backfill's first cycle %d ms after the decay's run in the second, want a fraction of a second before", path, r)
		}
		if r := rel(ph.mainRun); r > 100 {
			t.Errorf("%s: the main scheduler's first run %d ms after the decay's in the second, want just after", path, r)
		}
		if slices.ContainsFunc(ph.mainSub, func(s int64) bool { return s != 7 }) {
			t.Errorf("%s: Slurm's first main scheduler run started jobs submitted at %v s, want 7 s", path, ph.mainSub)
		}
		if ph.drift <= 0 {
			t.Errorf("%s: the loop's phase moved %.1f ms a second, want later in the second", path, ph.drift)
		}
		lo, hi = min(lo, ph.mainRun), max(hi, ph.mainRun)
		if ph.bfFirst%1000 < ph.mainRun%1000 {
			bfEarlier++
		}
		wraps = append(wraps, ph.wraps)
		if ph.earlierApart != 0 {
			t.Errorf("%s: %d jobs Slurm started before its first main scheduler run start at another second in the policy, want none (the first burst is the earliest difference)", path, ph.earlierApart)
		}
		if ph.policy0 != 8 || ph.policy1 != 8 {
			t.Errorf("%s: the policy started the first burst at %d–%d s, want 8 s", path, ph.policy0, ph.policy1)
		}
	}
	if (lo+50)/100 != 94 || (hi+50)/100 != 100 {
		t.Errorf("Slurm's first main scheduler run at %d–%d ms after the origin, want 9.4–10.0 s", lo, hi)
	}
	if bfEarlier != 3 {
		t.Errorf("on %d runs of 4 backfill's first cycle comes earlier in its second than the loop's first run, want 3 (README.md, \"Where the pairs out of order lie\")", bfEarlier)
	}
	if slices.Min(wraps) != 0 || slices.Max(wraps) != 2 {
		t.Errorf("the loop's phase wrapped %v times on the four runs, want 0–2", wraps)
	}
	readme.Check(t, "README.md", "phases", []byte(phaseTable(phs)))
}
