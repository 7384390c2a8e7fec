package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// The causes classify puts a start far from Slurm's (more than
// bf_interval) to. The state at a moment t is the set of jobs running
// just before it (started before t, ending after t, with the tick run
// times: TestTickRunTime) in each schedule; a job's moment is the earlier
// of its two starts, where the two schedules first treat it otherwise.
// Where the states differ by a job itself started apart, the job is a
// cascade of that one, and takes its root's cause; the roots are:
const (
	// The states differ only by jobs each started within bf_interval of
	// Slurm's start: the phase of the schedulers' runs moved an earlier
	// start, and so its end, across the moment. By the job of the
	// difference started farthest from Slurm's: Slurm's main scheduler
	// started it, and the policy earlier or later; or backfill did.
	causeMainEarly = "phase: an earlier job the policy's main scheduler started before Slurm's"
	causeMainLate  = "phase: an earlier job the policy started after Slurm's main scheduler"
	causeBFPhase   = "phase: an earlier job Slurm's backfill started (cycle phase)"
	// The same state. The policy early: Slurm's eligible time came later;
	// Slurm started other jobs between (its order or its backfill); or
	// nothing in its place (Slurm's schedulers had not reached it: its
	// main scheduler's or backfill cycle's pace, by Slurm's scheduler of
	// the job).
	causeEligible      = "same state, policy early: Slurm's eligible time later"
	causeSlurmOther    = "same state, policy early: Slurm started other jobs first"
	causeSlurmPaceMain = "same state, policy early: Slurm's main scheduler came later"
	causeSlurmPaceBF   = "same state, policy early: Slurm's backfill cycle came later"
	// The same state, the policy late: it started other jobs between, of
	// higher priority at the moment (Slurm's sprio, which the policy's
	// equals: TestPriorityExact) or lower (its backfill); or nothing in
	// its place (the job fitted no node of the policy's, or a
	// reservation held it).
	causePolicyOrder    = "same state, policy late: it started jobs of higher priority first"
	causePolicyBackfill = "same state, policy late: it backfilled jobs of lower priority first"
	causePolicyHeld     = "same state, policy late: it started nothing in its place (node choice or a reservation)"
)

// Pairs out of order whose two jobs both start within bf_interval of
// Slurm's starts.
const (
	causeTick      = "both within bf_interval, Slurm's starts ≤ 2 s apart (a tick's phase)"
	causeLocalPrio = "both within bf_interval, Slurm started the one of lower priority first"
	causeLocalBF   = "both within bf_interval, the policy started the one of lower priority first"
	causeLocalTie  = "both within bf_interval, equal priorities"
)

// rootCauses and pairCauses list them in the tables' order.
var (
	rootCauses = []string{causeMainEarly, causeMainLate, causeBFPhase, causeEligible, causeSlurmOther, causeSlurmPaceMain,
		causeSlurmPaceBF, causePolicyOrder, causePolicyBackfill, causePolicyHeld}
	pairCauses = append(slices.Clone(rootCauses), causeTick, causeLocalPrio, causeLocalBF, causeLocalTie)
)

// diagnosis is classify's count of each cause on one recording: of the
// jobs started more than bf_interval from Slurm's start (by root cause;
// roots those whose own cause is not a cascade) and of the competing
// pairs out of Slurm's order (a tie one half; a pair with a job started
// apart takes the root cause of the one whose moment came first).
type diagnosis struct {
	apart, roots int
	oneOver      int // of apart: bf_interval + 1 s from Slurm's
	jobCause     map[string]int
	rootsCause   map[string]int
	pairs        int
	out          float64
	pairCause    map[string]float64
	first        int64          // the first root's moment, s from the origin
	rootOf       map[int]string // each root's cause, by the workload's index
}

// slurmPrio is Slurm's priority of each pending job at time t (Unix s):
// the last sprio sample at or before t that lists it, else sacct's
// priority at its start.
type slurmPrio struct {
	c     *checked
	times []int64 // the samples' times, s
	prios []map[string]int64
}

func newSlurmPrio(c *checked) *slurmPrio {
	sp := &slurmPrio{c: c}
	for _, smp := range c.rec.Samples {
		ps, err := parseSprio(smp.Sprio)
		if err != nil {
			continue
		}
		m := map[string]int64{}
		for _, p := range ps {
			m[p.ID] = p.Priority
		}
		sp.times, sp.prios = append(sp.times, smp.T/1000), append(sp.prios, m)
	}
	return sp
}

func (sp *slurmPrio) at(i int, t int64) int64 {
	id := sp.c.rec.IDs[i]
	for k := len(sp.times) - 1; k >= 0; k-- {
		if sp.times[k] > t {
			continue
		}
		if v, ok := sp.prios[k][id]; ok {
			return v
		}
	}
	return sp.c.real[i].Priority
}

// classify puts each job a schedule (starts, Unix s) starts more than
// bfInterval from Slurm's start, and each competing pair it puts out of
// Slurm's order (score's pairs), to a cause (the constants above).
// Slurm's scheduler of each start comes from slurmctld's log.
func classify(c *checked, starts []int64, bfInterval int64) diagnosis {
	n := len(c.real)
	d := diagnosis{jobCause: map[string]int{}, rootsCause: map[string]int{}, pairCause: map[string]float64{}, first: -1, rootOf: map[int]string{}}
	run, real := make([]int64, n), make([]int64, n)
	for i := range n {
		run[i], real[i] = c.jobs[i].RunTime, c.real[i].Start
	}
	backfill := map[string]bool{}
	for _, l := range c.rec.Log {
		backfill[l.ID] = l.Backfill
	}
	apart := func(k int) bool { return abs(starts[k]-real[k]) > bfInterval }
	moment := func(k int) int64 { return min(starts[k], real[k]) }
	// running is the set of jobs but i running just before t.
	running := func(st []int64, i int, t int64) []int {
		var s []int
		for k := range n {
			if k != i && st[k] < t && st[k]+run[k] > t {
				s = append(s, k)
			}
		}
		return s
	}
	// placedBy is the earliest job started apart, its moment before t0,
	// that ran in either schedule when one of jobs started in its own;
	// -1 if none.
	placedBy := func(i int, t0 int64, jobs []int) int {
		by := -1
		for k := range n {
			if k == i || !apart(k) || moment(k) >= t0 || by >= 0 && moment(k) >= moment(by) {
				continue
			}
			for _, j := range jobs {
				at := func(st []int64) bool { return st[k] <= st[j] && st[j] < st[k]+run[k] }
				if at(starts) || at(real) {
					by = k
					break
				}
			}
		}
		return by
	}
	sp := newSlurmPrio(c)
	var order []int // the jobs started apart, by moment
	for i := range n {
		if apart(i) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(moment(a) - moment(b)) })
	root := make([]string, n)
	for _, i := range order {
		d.apart++
		if abs(starts[i]-real[i]) == bfInterval+1 {
			d.oneOver++
		}
		t0 := moment(i)
		ps, pr := running(starts, i, t0), running(real, i, t0)
		var diff []int
		for _, k := range ps {
			if !slices.Contains(pr, k) {
				diff = append(diff, k)
			}
		}
		for _, k := range pr {
			if !slices.Contains(ps, k) {
				diff = append(diff, k)
			}
		}
		// A job of the difference started apart began earlier (it runs
		// before t0 in a schedule): its root is known.
		if k := slices.IndexFunc(diff, apart); k >= 0 {
			for _, j := range diff {
				if apart(j) && moment(j) < moment(diff[k]) {
					k = slices.Index(diff, j)
				}
			}
			root[i] = root[diff[k]]
			d.jobCause[root[i]]++
			continue
		}
		// The same jobs run, but one started apart earlier ran when one of
		// them started: it may have put that one on another node (the
		// nodes of the jobs before decide a job's: consTres), a cascade
		// of the earliest such.
		if k := placedBy(i, t0, append(ps, pr...)); k >= 0 {
			root[i] = root[k]
			d.jobCause[root[i]]++
			continue
		}
		d.roots++
		if d.first < 0 {
			d.first = t0 - c.origin
		}
		switch {
		case len(diff) > 0:
			far := diff[0]
			for _, k := range diff {
				if abs(starts[k]-real[k]) > abs(starts[far]-real[far]) {
					far = k
				}
			}
			switch {
			case backfill[c.rec.IDs[far]]:
				root[i] = causeBFPhase
			case starts[far] < real[far]:
				root[i] = causeMainEarly
			default:
				root[i] = causeMainLate
			}
		case starts[i] < real[i]:
			other := false
			for k := range n {
				if k != i && real[k] >= t0 && real[k] < real[i] && starts[k] > t0 {
					other = true
				}
			}
			switch {
			case c.real[i].Eligible > t0:
				root[i] = causeEligible
			case other:
				root[i] = causeSlurmOther
			case backfill[c.rec.IDs[i]]:
				root[i] = causeSlurmPaceBF
			default:
				root[i] = causeSlurmPaceMain
			}
		default:
			higher, lower := false, false
			for k := range n {
				if k != i && starts[k] >= t0 && starts[k] < starts[i] && real[k] > t0 {
					if sp.at(k, t0) >= sp.at(i, t0) {
						higher = true
					} else {
						lower = true
					}
				}
			}
			switch {
			case higher:
				root[i] = causePolicyOrder
			case lower:
				root[i] = causePolicyBackfill
			default:
				root[i] = causePolicyHeld
			}
		}
		d.jobCause[root[i]]++
		d.rootsCause[root[i]]++
		d.rootOf[i] = root[i]
	}
	d.pairs = eachOutOfOrder(c, starts, func(a, b int, w float64) {
		d.out += w
		var why string
		switch {
		case apart(a) && apart(b):
			why = root[a]
			if moment(b) < moment(a) {
				why = root[b]
			}
		case apart(a):
			why = root[a]
		case apart(b):
			why = root[b]
		case real[b]-real[a] <= 2:
			why = causeTick
		default:
			t := min(starts[b], real[a])
			switch pa, pb := sp.at(a, t), sp.at(b, t); {
			case pb > pa:
				why = causeLocalPrio
			case pa > pb:
				why = causeLocalBF
			default:
				why = causeLocalTie
			}
		}
		d.pairCause[why] += w
	})
	return d
}

// classifyRecordings are the recordings classified: every site's.
var classifyRecordings = func() []string {
	paths := slices.Concat(livePaths, tiersRuns)
	for _, p := range [][2]string{gresPaths, gresExclPaths, oneNodePaths} {
		paths = append(paths, p[0], p[1])
	}
	return paths
}()

// otherOf is the run of the same site scored against path as the
// baseline: the next recording of its site.
func otherOf(path string) string {
	for _, ps := range [][]string{livePaths, tiersRuns, gresPaths[:], gresExclPaths[:], oneNodePaths[:]} {
		if k := slices.Index(ps, path); k >= 0 {
			return ps[(k+1)%len(ps)]
		}
	}
	return path
}

// diagnosisTable writes the README's region diagnosis: a column a
// recording, each cell the policy's count and in parentheses that of the
// other run of Slurm (otherOf) scored against the same recording; and a
// sentence that sums the roots up.
func diagnosisTable(paths []string, pol, self []diagnosis) string {
	var b strings.Builder
	b.WriteString("| cause: the policy's count (another run of Slurm's) |")
	for _, p := range paths {
		fmt.Fprintf(&b, " %s |", strings.TrimSuffix(strings.TrimPrefix(p, "testdata/"), ".json"))
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(paths)) + "\n")
	row := func(name string, cell func(d diagnosis) string) {
		fmt.Fprintf(&b, "| %s |", name)
		for k := range paths {
			fmt.Fprintf(&b, " %s (%s) |", cell(pol[k]), cell(self[k]))
		}
		b.WriteString("\n")
	}
	row("**jobs started more than bf_interval from Slurm's start**", func(d diagnosis) string { return fmt.Sprintf("**%d**", d.apart) })
	row("of these, bf_interval + 1 s from it", func(d diagnosis) string { return fmt.Sprint(d.oneOver) })
	row("of these, roots (the others cascades)", func(d diagnosis) string { return fmt.Sprint(d.roots) })
	row("the first root's moment (s from the origin)", func(d diagnosis) string { return fmt.Sprint(d.first) })
	for _, cs := range rootCauses {
		row("jobs/roots by root cause: "+cs, func(d diagnosis) string { return fmt.Sprintf("%d/%d", d.jobCause[cs], d.rootsCause[cs]) })
	}
	row("**competing pairs out of Slurm's order**", func(d diagnosis) string { return fmt.Sprintf("**%.0f of %d**", d.out, d.pairs) })
	for _, cs := range pairCauses {
		row("pairs: "+cs, func(d diagnosis) string { return fmt.Sprintf("%.0f", d.pairCause[cs]) })
	}
	// The sum: roots per recording, how many are phase roots, and the
	// pairs whose two jobs both start within bf_interval.
	sum := func(ds []diagnosis) string {
		var roots []float64
		allRoots, allPhase, local, out := 0, 0, 0.0, 0.0
		for _, d := range ds {
			ph := d.rootsCause[causeMainEarly] + d.rootsCause[causeMainLate] + d.rootsCause[causeBFPhase]
			roots = append(roots, float64(d.roots))
			allRoots, allPhase, out = allRoots+d.roots, allPhase+ph, out+d.out
			for _, cs := range pairCauses[len(rootCauses):] {
				local += d.pairCause[cs]
			}
		}
		return fmt.Sprintf("%s roots a recording, %d of %d of them phase roots; %.1f%% of the pairs out of order have both jobs within bf_interval",
			readme.Span("%.0f", roots), allPhase, allRoots, 100*local/max(out, 1))
	}
	fmt.Fprintf(&b, "\nOver the %d recordings, the policy: %s. Another run of Slurm against each: %s.\n", len(paths), sum(pol), sum(self))
	return b.String()
}

// TestDiagnosis generates the README's region diagnosis: on every
// recording, each job the policy starts more than bf_interval from
// Slurm's start and each competing pair it puts out of Slurm's order by
// cause, beside the same for another run of Slurm of the same site. It
// checks that every job and pair gets one cause, and that the pairs out of
// order are score's.
func TestDiagnosis(t *testing.T) {
	var pol, self []diagnosis
	for _, path := range classifyRecordings {
		_, c := readPrepared(t, path)
		_, o := readPrepared(t, otherOf(path))
		s, err := runSlurm(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		for _, starts := range [][]int64{s.starts, otherRun("", c, o, 0).starts} {
			d := classify(c, starts, bfInterval)
			sum, sumRoots, sumPairs := 0, 0, 0.0
			for _, cs := range rootCauses {
				sum, sumRoots = sum+d.jobCause[cs], sumRoots+d.rootsCause[cs]
			}
			for _, cs := range pairCauses {
				sumPairs += d.pairCause[cs]
			}
			o := pairsOutOfOrder(c, starts, bfInterval)
			if sum != d.apart || sumRoots != d.roots || sumPairs != d.out || d.out != o.out || d.pairs != o.pairs {
				t.Errorf("%s: causes of %d jobs (%d roots) and %.1f pairs, want %d (%d) and %.1f of %d (pairsOutOfOrder: %.1f of %d)", path, sum, sumRoots, sumPairs, d.apart, d.roots, d.out, d.pairs, o.out, o.pairs)
			}
			if len(pol) == len(self) {
				pol = append(pol, d)
			} else {
				self = append(self, d)
			}
		}
	}
	readme.Check(t, "README.md", "diagnosis", []byte(diagnosisTable(classifyRecordings, pol, self)))
	checkDiagnosisProse(t, pol)
}

// isPhase: the cause is a phase root's.
func isPhase(cause string) bool {
	return cause == causeMainEarly || cause == causeMainLate || cause == causeBFPhase
}

// checkDiagnosisProse checks what the README's text under "Each start
// apart and each pair out of order, by cause" reads from the policy's
// diagnoses (pol, in classifyRecordings' order): the first root 15–39 s
// into the run on the four-node sites and 3 s on the one-node site; no
// root of its own (not a phase root) on the same job of two runs of a
// four-node site, and on the one-node site job 1 one on both runs, the
// policy early on one and late on the other; fs-tiers' second run's
// decay run 89 ms into its origin's second; and on the live site's four runs job 12 of the workload a phase
// root, started by the policy at 20 s and by Slurm 125–150 s later, its
// main scheduler's run that started jobs 16–18 falling between the
// policy's at 17 and 20 s.
func checkDiagnosisProse(t *testing.T, pol []diagnosis) {
	t.Helper()
	own := map[string]map[int]string{} // by site: the job's root of its own, and its recording
	for k, path := range classifyRecordings {
		d := pol[k]
		lo, hi := int64(15), int64(39)
		if slices.Contains(oneNodePaths[:], path) {
			lo, hi = 3, 3
		}
		if d.first < lo || d.first > hi {
			t.Errorf("%s: the first root at %d s, want %d–%d s (README)", path, d.first, lo, hi)
		}
		site := otherOf(otherOf(path)) // a site's key: any of its runs, the same for all
		for _, ps := range [][]string{livePaths, tiersRuns, gresPaths[:], gresExclPaths[:], oneNodePaths[:]} {
			if slices.Contains(ps, path) {
				site = ps[0]
			}
		}
		if own[site] == nil {
			own[site] = map[int]string{}
		}
		for i, cause := range d.rootOf {
			if isPhase(cause) {
				continue
			}
			if other, ok := own[site][i]; ok && site != oneNodePaths[0] {
				t.Errorf("job %d a root of its own on %s and %s (README: none recurs)", i, other, path)
			}
			own[site][i] = path
		}
	}
	// fs-tiers' second run: the decay run 89 ms into the origin's second.
	if rec, c := readPrepared(t, tiersRuns[1]); !slices.Contains(rec.Decays, 1000*c.origin+89) {
		t.Errorf("%s: no decay run 89 ms into the origin's second (README)", tiersRuns[1])
	}
	// The one-node site: job 1 a root of its own on both runs, the
	// policy early on the first and late on the second.
	one := slices.Index(classifyRecordings, oneNodePaths[0])
	if a, b := pol[one].rootOf[1], pol[one+1].rootOf[1]; a != causeSlurmOther || b != causePolicyOrder {
		t.Errorf("one-node site: job 1's roots %q and %q, want %q and %q (README)", a, b, causeSlurmOther, causePolicyOrder)
	}
	for k, path := range livePaths {
		rec, c := readPrepared(t, path)
		s, err := runSlurm(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		const j = 12
		if cause, ok := pol[k].rootOf[j]; !ok || !isPhase(cause) {
			t.Errorf("%s: job %d's root %q, want it a phase root (README)", path, j, cause)
		}
		if got, late := s.starts[j]-c.origin, c.real[j].Start-s.starts[j]; got != 20 || late < 125 || late > 150 {
			t.Errorf("%s: job %d started at %d s by the policy, %d s later by Slurm; want 20 s, 125–150 s (README)", path, j, got, late)
		}
		if s.starts[17]-c.origin != 17 || s.starts[16]-c.origin != 20 || s.starts[18]-c.origin != 20 {
			t.Errorf("%s: the policy started jobs 17, 16, 18 at %d, %d, %d s; want 17, 20, 20 (README)", path, s.starts[17]-c.origin, s.starts[16]-c.origin, s.starts[18]-c.origin)
		}
		for _, l := range rec.Log {
			if i, ok := c.index[l.ID]; ok && i >= 16 && i <= 18 && (l.Backfill || l.Start <= 1000*(c.origin+17) || l.Start >= 1000*(c.origin+20)) {
				t.Errorf("%s: Slurm started job %d at %d ms from the origin (backfill %v); want its main scheduler, between 17 and 20 s (README)", path, i, l.Start-1000*c.origin, l.Backfill)
			}
		}
	}
}
