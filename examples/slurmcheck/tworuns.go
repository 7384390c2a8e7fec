package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The ceiling: how far a real Slurm agrees with itself. Two live runs of
// the same seeded workload on the same site differ by the host's load and
// the phase of slurmctld's loops; scoring one run against the other with
// the figures the simulations get says how much of a simulation's gap no
// model of Slurm can close.

// secondName names the row of the other Slurm run.
const secondName = "Slurm, a second run of the same workload"

// twoRuns is the comparison of two recordings of the same workload: each
// recording's own comparison (the policy and EASY against it, then the
// other run of Slurm against it, as Figures' last row), and how far the
// two runs' submissions lie apart.
type twoRuns struct {
	Runs [2]*result `json:"runs"`
	// SubmitDiff is the mean and the largest |difference| (s) between the
	// two runs' sacct submit times of the same job, each relative to its
	// run's first submission; SubmitLate the largest delay (ms) of an
	// sbatch call behind its planned time, over the runs that kept the
	// call times (-1: none did).
	SubmitDiff [2]float64 `json:"submit_difference"`
	SubmitLate int64      `json:"sbatch_late_ms"`
	// Late counts the jobs whose submit (as SubmitDiff) differs by 2 s
	// or more; FirstApart is the first job in submission order whose
	// start differs by more than bf_interval between the runs (on the
	// first submissions' clock), FirstApartSubmit the difference of its
	// submits (s); FirstApart is -1 when none.
	Late             int   `json:"submits_2s_apart"`
	FirstApart       int   `json:"first_apart"`
	FirstApartSubmit int64 `json:"first_apart_submit_difference"`
	// PrioWindow is how close (ms) two runs' samples must be to compare
	// their priorities.
	PrioWindow int64 `json:"priority_window_ms"`
}

// compareTwo compares each recording with the simulations and with the
// other Slurm run; the workloads must be the same.
func compareTwo(a, b *recording) (*twoRuns, error) {
	if !slices.Equal(a.Workload, b.Workload) || a.Conf != b.Conf || a.Shares != b.Shares || a.QOS != b.QOS {
		return nil, fmt.Errorf("%s and %s are not recordings of the same workload and site", a.name, b.name)
	}
	ca, err := prepare(a)
	if err != nil {
		return nil, a.named(err)
	}
	cb, err := prepare(b)
	if err != nil {
		return nil, b.named(err)
	}
	out := &twoRuns{SubmitLate: -1, PrioWindow: sampleEvery.Milliseconds() / 2}
	for k, pair := range [2][2]*checked{{ca, cb}, {cb, ca}} {
		if out.Runs[k], err = compare(pair[0].rec); err != nil {
			return nil, err
		}
		name := secondName
		if k == 1 {
			name = "Slurm, the first run"
		}
		f, err := score(pair[0], otherRun(name, pair[0], pair[1], out.PrioWindow))
		if err != nil {
			return nil, err
		}
		out.Runs[k].Figures = append(out.Runs[k].Figures, f)
	}
	var sum float64
	out.FirstApart = -1
	for i := range ca.real {
		sd := (ca.real[i].Submit - ca.real[0].Submit) - (cb.real[i].Submit - cb.real[0].Submit)
		d := math.Abs(float64(sd))
		sum += d
		out.SubmitDiff[1] = max(out.SubmitDiff[1], d)
		if d >= 2 {
			out.Late++
		}
		if st := (ca.real[i].Start - ca.real[0].Submit) - (cb.real[i].Start - cb.real[0].Submit); out.FirstApart < 0 && abs(st) > bfInterval {
			out.FirstApart, out.FirstApartSubmit = i, sd
		}
	}
	out.SubmitDiff[0] = sum / float64(len(ca.real))
	for _, r := range []*recording{a, b} {
		for i, t := range r.Submitted {
			out.SubmitLate = max(out.SubmitLate, t-r.Submitted[0]-r.Workload[i].At)
		}
	}
	return out, nil
}

// otherRun is run o of Slurm as a simulation of run c: each job's start
// and end on c's clock (o's times shifted so that the first submissions
// coincide; sacct's whole seconds), backfill's share from o's log, and,
// at each of c's samples, o's priorities of the jobs pending at o's
// nearest sample if it lies within window ms and no recalculation of
// either run falls between the two (c's job ids).
func otherRun(name string, c, o *checked, window int64) *simulated {
	shift := c.real[0].Submit - o.real[0].Submit
	s := &simulated{name: name, starts: make([]int64, len(o.real)), ends: make([]int64, len(o.real))}
	for i, r := range o.real {
		s.starts[i], s.ends[i] = r.Start+shift, r.End+shift
	}
	for _, l := range o.rec.Log {
		if _, ok := o.index[l.ID]; ok && l.Backfill {
			s.backfilled++
		}
	}
	decays := slices.Clone(c.rec.Decays)
	for _, d := range o.rec.Decays {
		decays = append(decays, d+shift*1000)
	}
	s.prios = make([]map[string]int64, len(c.rec.Samples))
	for k, smp := range c.rec.Samples {
		best := -1
		for m, om := range o.rec.Samples {
			if d := abs(om.T + shift*1000 - smp.T); d <= window && (best < 0 || d < abs(o.rec.Samples[best].T+shift*1000-smp.T)) {
				best = m
			}
		}
		if best < 0 {
			continue
		}
		lo, hi := min(smp.T, o.rec.Samples[best].T+shift*1000), max(smp.T, o.rec.Samples[best].T+shift*1000)
		if slices.ContainsFunc(decays, func(d int64) bool { return lo < d && d <= hi }) {
			continue
		}
		ps, err := parseSprio(o.rec.Samples[best].Sprio)
		if err != nil {
			continue // scoring o's own recording reports it
		}
		m := map[string]int64{}
		for _, p := range ps {
			if i, ok := o.index[p.ID]; ok {
				m[c.rec.IDs[i]] = p.Priority
			}
		}
		s.prios[k] = m
	}
	return s
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// ceiling is the share of Slurm's self-agreement a simulation reaches on
// a figure.
func ceiling(v, self float64) float64 {
	if self <= 0 {
		return 0
	}
	return v / self
}

// table is the README's region for two runs: the first run described,
// one table with each simulation and the other Slurm run against each
// run, and what the self-agreement means for the goals.
func (t *twoRuns) table(names [2]string) string {
	var b strings.Builder
	r1, r2 := t.Runs[0], t.Runs[1]
	b.WriteString(r1.head())
	fmt.Fprintf(&b, "The second run (%s): waits median %d s, mean %d s, longest %d s; %d s from the first submission to the last end; %d samples", names[1], r2.Waits[0], r2.Waits[1], r2.Waits[2], r2.Span, r2.Samples)
	if r2.Backfilled >= 0 {
		fmt.Fprintf(&b, "; backfill started %.1f%% of the jobs", 100*r2.Backfilled)
	}
	fmt.Fprintf(&b, "; %s. Its submissions, relative to each run's first, lie a mean %.2f s and at most %.0f s from the first run's in sacct's whole seconds", r2.runTimes(), t.SubmitDiff[0], t.SubmitDiff[1])
	if t.SubmitLate >= 0 {
		fmt.Fprintf(&b, " (its sbatch calls came at most %d ms after their planned time: a call waits for the one before it)", t.SubmitLate)
	}
	fmt.Fprintf(&b, "; %d jobs' submits lie 2 s or more apart; the workload, the slurm.conf lines, the fair-share tree and the QOS are the same.", t.Late)
	if t.FirstApart >= 0 {
		fmt.Fprintf(&b, " The runs part early: the first job whose starts lie more than bf_interval apart is job %d of the workload (submits %d s apart).", t.FirstApart+1, abs(t.FirstApartSubmit))
	}
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "| against | simulation | competing pairs in Slurm's order | all pairs in Slurm's order | started within bf_interval (%d s) | mean \\|start error\\| | backfilled | first submission to last end | priority samples | mean \\|priority error\\| | relative |\n", bfInterval)
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for k, r := range t.Runs {
		for _, f := range r.Figures {
			fmt.Fprintf(&b, "| run %d (%s) %s\n", k+1, names[k], f.row())
		}
	}
	self := t.Runs[0].Figures[len(t.Runs[0].Figures)-1]
	self2 := t.Runs[1].Figures[len(t.Runs[1].Figures)-1]
	prio := "n/a (no pair of samples close enough)"
	if self.PrioAbs != nil {
		prio = fmt.Sprintf("%.0f (%.1f%%) over %d pairs of samples within %.1f s of each other", *self.PrioAbs, 100**self.PrioRel, self.PrioSamples, float64(t.PrioWindow)/1000)
	}
	fmt.Fprintf(&b, "\nSlurm against itself, the second run scored against the first (in parentheses the first against the second): %.1f%% of the competing pairs in the same order (%.1f%%), %.1f%% of the jobs within one bf_interval (%.1f%%), a mean |start error| of %.1f s, a mean |priority error| of %s.",
		100*self.Agree, 100*self2.Agree, 100*self.Within, 100*self2.Within, self.MeanError, prio)
	b.WriteString(" Relative to that ceiling (each figure over the other Slurm run's on the same recording): ")
	var rel []string
	for k, r := range t.Runs {
		s := r.Figures[len(r.Figures)-1]
		for _, f := range r.Figures[:len(r.Figures)-1] {
			rel = append(rel, fmt.Sprintf("%s on run %d, %.0f%% of Slurm's competing pairs in order and %.0f%% of its starts within bf_interval",
				f.Name, k+1, 100*ceiling(f.Agree, s.Agree), 100*ceiling(f.Within, s.Within)))
		}
	}
	b.WriteString(strings.Join(rel, "; ") + ".\n")
	// The mean signed start error by partition, the policy's beside the
	// other Slurm run's: a bias of the model in one partition shows in
	// the policy's on both runs and not in Slurm's.
	var parts []string
	for k, r := range t.Runs {
		for _, f := range r.Figures {
			if f.Name != slurmName && f.Name != r.Figures[len(r.Figures)-1].Name {
				continue
			}
			who := "the policy"
			if f.Name != slurmName {
				who = "the other Slurm run"
			}
			parts = append(parts, fmt.Sprintf("on run %d %s %s", k+1, who, partText(f.ByPartition)))
		}
	}
	fmt.Fprintf(&b, "\nMean signed start error (simulated − Slurm's) by partition: %s.\n", strings.Join(parts, "; "))
	if kinds := kindText(t); kinds != "" {
		b.WriteString(kinds)
	}
	b.WriteString(r1.tail())
	return b.String()
}

// kindText is, on the site of memory and GPUs, each simulation's and
// the other Slurm run's mean signed start error and share within one
// bf_interval by the kind of job (jobKind), on each run; "" elsewhere.
func kindText(t *twoRuns) string {
	var parts []string
	counted := ""
	for k, r := range t.Runs {
		for _, f := range r.Figures {
			if f.ByKind == nil {
				continue
			}
			var ks []string
			var ns []string
			for _, e := range f.ByKind {
				ks = append(ks, fmt.Sprintf("%s %+.1f s (%.0f%% within)", e.Kind, e.Mean, 100*e.Within))
				ns = append(ns, fmt.Sprintf("%d %s", e.Jobs, e.Kind))
			}
			counted = strings.Join(ns, ", ")
			parts = append(parts, fmt.Sprintf("on run %d %s: %s", k+1, f.Name, strings.Join(ks, ", ")))
		}
	}
	if parts == nil {
		return ""
	}
	return fmt.Sprintf("\nBy the kind of job (%s jobs: GPU, asking GPUs; memory, more than half a node's memory; CPU, the others), the mean signed start error and the share started within one bf_interval: %s.\n",
		counted, strings.Join(parts, "; "))
}

// partText is ByPartition for a sentence: "batch +1.0 s, debug -2.0 s".
func partText(ps []partError) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%s %+.1f s", p.Partition, p.Mean)
	}
	return strings.Join(out, ", ")
}

// manyRuns is the README's region for three or more runs of one workload:
// Slurm against itself for every pair of runs (each direction, as
// compareTwo scores it), then the Slurm policy on each run beside the
// mean of the other runs against that run. Two runs that happen to agree
// (the same Fair Tree ranks at every recalculation, say) overstate the
// ceiling; more runs show its spread.
func manyRuns(names []string, recs []*recording) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "| runs | competing pairs in the same order | started within bf_interval (%d s) | mean \\|start error\\| | mean \\|priority error\\| (relative) |\n", bfInterval)
	b.WriteString("|---|---:|---:|---:|---:|\n")
	prio := func(f figures) string {
		if f.PrioAbs == nil {
			return "n/a"
		}
		return fmt.Sprintf("%.0f (%.1f%%)", *f.PrioAbs, 100**f.PrioRel)
	}
	n := len(recs)
	self := make([][]figures, n) // self[k]: the other runs against run k
	pol := make([]figures, n)
	span := make([]int64, n) // Slurm's, first submission to last start + run time
	for i := range n {
		for j := i + 1; j < n; j++ {
			two, err := compareTwo(recs[i], recs[j])
			if err != nil {
				return "", fmt.Errorf("%s, %s: %w", names[i], names[j], err)
			}
			for k, r := range two.Runs {
				run := []int{i, j}[k]
				self[run] = append(self[run], r.Figures[len(r.Figures)-1])
				span[run] = r.SpanRunTimes
				for _, f := range r.Figures {
					if f.Name == slurmName {
						pol[run] = f
					}
				}
			}
			a, c := two.Runs[0].Figures[len(two.Runs[0].Figures)-1], two.Runs[1].Figures[len(two.Runs[1].Figures)-1]
			fmt.Fprintf(&b, "| %d against %d (%d against %d) | %.1f%% (%.1f%%) | %.1f%% (%.1f%%) | %.1f s | %s (%s) |\n",
				j+1, i+1, i+1, j+1, 100*a.Agree, 100*c.Agree, 100*a.Within, 100*c.Within, a.MeanError, prio(a), prio(c))
		}
	}
	fmt.Fprintf(&b, "\n| run | Slurm policy: competing pairs in Slurm's order | the other runs (mean) | policy: within bf_interval | the other runs (mean) | policy: mean \\|priority error\\| (relative) | policy: mean signed start error from the last submission on, by %d s of Slurm's start | policy: mean signed start error by partition | policy's last end − Slurm's (each its starts + the run times) |\n", lateBin)
	b.WriteString("|---|---:|---:|---:|---:|---:|---|---|---:|\n")
	for k := range n {
		var agree, within float64
		for _, f := range self[k] {
			agree += f.Agree / float64(len(self[k]))
			within += f.Within / float64(len(self[k]))
		}
		late := make([]string, len(pol[k].LateError))
		for i, e := range pol[k].LateError {
			late[i] = "–"
			if !math.IsNaN(float64(e)) {
				late[i] = fmt.Sprintf("%+.0f s", float64(e))
			}
		}
		fmt.Fprintf(&b, "| %d (%s) | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %s | %s | %s | %+d s |\n", k+1, names[k], 100*pol[k].Agree, 100*agree, 100*pol[k].Within, 100*within, prio(pol[k]),
			strings.Join(late, ", "), partText(pol[k].ByPartition), pol[k].Span-span[k])
	}
	return b.String(), nil
}
