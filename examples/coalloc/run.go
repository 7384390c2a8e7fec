package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/batchq/batchq/coalloc"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/agent"
)

// machine is one simulated site: its trace shifted to start at 0.
type machine struct {
	name string
	size int64
	jobs []swf.Job
	span int64 // last submit after the shift
	read int   // jobs in the log
	// zeros counts the zero bytes after the log's last gzip member,
	// ignored (said on the warning writer: cli.PaddingNote).
	zeros int64
	// skipped is the reader's counts: with -lenient, the malformed lines
	// skipped (said on the warning writer: cli.Skipped.Note).
	skipped swf.Stats
	// left counts the log's jobs left out, by sanitize.Reason's name: not
	// sane, or a duplicate ID (under a job number an earlier job has),
	// which the simulator would reject in silence.
	left map[string]int
}

// loadMachine reads the log at path; lenient skips its malformed lines,
// counted (-lenient).
func loadMachine(path string, lenient bool) (machine, error) {
	h, jobs, st, zeros, err := cli.ReadLogLenient(path, lenient)
	if err != nil {
		return machine{}, err
	}
	if len(jobs) == 0 { // (before the header's size: an empty file has no header either)
		return machine{}, fmt.Errorf("%s: no job lines", path)
	}
	size, err := h.MachineSize()
	if err != nil {
		return machine{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := cli.CheckMachine(size); err != nil { // sched's error names no file
		return machine{}, fmt.Errorf("%s: %w", path, err)
	}
	sane, rep := sanitize.Sane(jobs, size)
	left := cli.ByReason(rep)
	sane, dups := cli.FirstIDs(sane)
	if dups > 0 {
		left[sanitize.DuplicateID.String()] = dups
	}
	if len(sane) == 0 {
		return machine{}, cli.NothingLeft(cli.NoSaneJob(path, len(jobs), left), st)
	}
	slices.SortStableFunc(sane, func(a, b swf.Job) int { return int(a.Submit - b.Submit) })
	t0 := sane[0].Submit
	for i := range sane {
		sane[i].Submit -= t0
	}
	return machine{name: filepath.Base(path), size: size, jobs: sane, span: sane[len(sane)-1].Submit, read: len(jobs), left: left, zeros: zeros, skipped: st}, nil
}

func loadMachines(paths []string, lenient bool) ([]machine, error) {
	var ms []machine
	for _, p := range paths {
		m, err := loadMachine(p, lenient)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// siteObserver feeds a machine's arrivals and starts to its forecaster
// (QBETS re-clusters on arrivals and watches them for availability) and
// its starts to the executor.
type siteObserver struct {
	site int
	fc   *qbets.Predictor
	x    **coalloc.Executor
}

func (o *siteObserver) OnSubmit(now int64, _ *swf.Job) { o.fc.Submit(now) }
func (o *siteObserver) OnStart(now int64, j *swf.Job, _ bool) {
	o.fc.Observe(qbets.Observation{Submit: j.Submit, Start: now, Nodes: int(max(j.Size(), 0)), Walltime: max(j.ReqTime, 0)})
	(*o.x).Started(o.site, j.ID, now)
}
func (o *siteObserver) OnEnd(int64, *swf.Job, bool)          {}
func (o *siteObserver) OnReservation(int64, *swf.Job, int64) {}

// versioned is a site's QBETS as a coalloc.Versioned forecaster: its
// answers change only when it is fed, and every Submit and Observe counts
// an arrival or a release, so re-boosting re-plans a site that was not fed
// since its last review from the answers it already has. It counts the
// forecasts CO-VARQ asks in *asked, if not nil (the progress line).
type versioned struct {
	*qbets.Predictor
	asked *int64
	size  int64 // the machine's processors
}

func (v versioned) Version() uint64 {
	s := v.Stats()
	return uint64(s.Arrivals) + uint64(s.Releases)
}

func (v versioned) ProbWithin(nodes int, walltime, within int64) (float64, bool) {
	if v.asked != nil {
		*v.asked++
	}
	if int64(nodes) > v.size {
		// A machine smaller than the request never starts it: QBETS,
		// which knows no machine size, gave some a chance, and the
		// simulator's refusal of the job submitted ("agent: simulator
		// rejected job 301 (48 processors, …) on a 16-processor
		// machine") ended the whole run after its earlier trials.
		return 0, true
	}
	return v.Predictor.ProbWithin(nodes, walltime, within) // no history: read as 0
}

// siteStat calibrates one site's VARQ promise in a trial: over the
// reservations served by a single request there (no redundancy to censor
// it), the promised probability against the share running by the start
// time; and over every submission there, the forecast the same padded job
// gets when it is actually submitted.
type siteStat struct {
	name       string
	single, ok int     // single-request reservations; of them, served
	promised   float64 // summed over the single-request reservations
	submits    int     // submissions re-forecast
	atSubmit   float64 // summed over them
}

func (s siteStat) promise() float64    { return s.promised / float64(max(s.single, 1)) }
func (s siteStat) achieved() float64   { return float64(s.ok) / float64(max(s.single, 1)) }
func (s siteStat) reforecast() float64 { return s.atSubmit / float64(max(s.submits, 1)) }

// runTrial simulates every machine over the period and runs one trial's
// protocol on them. With opt.diag it also calibrates each site (one
// siteStat per machine) and prints that there.
func runTrial(ms []machine, tr trial, opt options) (trialSummary, []siteStat, error) {
	if opt.diag != nil {
		fmt.Fprintf(opt.diag, "diagnosis (%d, %d, %d), P_all %.2f:\n", tr.Nodes, tr.Walltime, tr.Lead, tr.PAll)
	}
	var refc []reforecastStat // per site; nil: no re-forecast at submission
	if opt.diag != nil {
		refc = make([]reforecastStat, len(ms))
	}
	s, results, err := simulateTrial(ms, tr, opt, refc)
	if err != nil || opt.diag == nil {
		return s, nil, err
	}
	st := siteStats(ms, results)
	for i, r := range refc {
		st[i].submits, st[i].atSubmit = r.n, r.p
		if r.n > 0 {
			fmt.Fprintf(opt.diag, "  %s: %d submissions, forecast at submission (same job, same start) %.3f\n",
				ms[i].name, r.n, st[i].reforecast())
		}
	}
	for _, x := range st {
		if x.single > 0 {
			fmt.Fprintf(opt.diag, "  %s: %d single-request reservations, promised %.3f, achieved %.3f\n",
				x.name, x.single, x.promise(), x.achieved())
		}
	}
	return s, st, nil
}

// siteStats counts, per site, the reservations served by a single request
// there, their promise and whether they were served.
func siteStats(ms []machine, results []coalloc.Result) []siteStat {
	st := make([]siteStat, len(ms))
	for i := range st {
		st[i].name = ms[i].name
	}
	for _, r := range results {
		for i, launch := range r.Plan.Launch {
			if len(launch) != 1 {
				continue
			}
			s := &st[launch[0].Resource]
			s.single++
			s.promised += launch[0].VARQ.Prob
			if r.Satisfied[i] {
				s.ok++
			}
		}
	}
	return st
}

// reforecast asks the site's forecaster again, at each CO-VARQ
// submission, the probability that this padded job (walltime W + (D − now))
// starts within D − now: the plan's promise made at request time against
// the forecast the same submission gets when it happens.
type reforecast struct {
	varq.Machine
	fc   varq.Forecaster
	w    int64
	stat *reforecastStat
}

type reforecastStat struct {
	n int
	p float64
}

func (r *reforecast) Submit(nodes int, walltime, runtime int64) (int64, error) {
	r.stat.n++
	p, _ := r.fc.ProbWithin(nodes, walltime, walltime-r.w) // no history: 0
	r.stat.p += p
	return r.Machine.Submit(nodes, walltime, runtime)
}

// warmupDays is how long QBETS warms up on every machine before the first
// request: requests are made from then to day -days.
const warmupDays = 7

// maxDays bounds -days, as replay's -days is bounded.
const maxDays = 36500

// checkDays refuses a trial period that runs past the end of every log by
// more than a day: its requests would find idle machines, and the
// lockstep's cost grows with the days asked for, not with the logs. A
// default -days (dflt) past the end is cut to it instead, with a note:
// the default 120 days refused a log of 42 days, naming -days, which the
// user had not given. Logs that end within the warm-up allow day 8 alone,
// and idle is true: every request meets idle machines, every one executed
// (a P_achieved of 1.000 with no word: two logs of 6 days, -days 8), which
// the report says.
func checkDays(ms []machine, days int64, dflt bool) (d int64, note string, idle bool, err error) {
	var last int64
	for _, m := range ms {
		last = max(last, m.span)
	}
	end := last/86400 + 1
	top := max(end, warmupDays+1)
	switch {
	case days <= top:
		return days, "", end <= warmupDays, nil
	case dflt:
		return top, fmt.Sprintf("coalloc: requests on days %d–%d, not to the default day %d: the last job of every log is submitted by day %d", warmupDays, top, days, end), end <= warmupDays, nil
	}
	return 0, "", false, cli.Usagef("-days %d: the last job of every log is submitted by day %d; requests after it find idle machines (want -days %d to %d)",
		days, end, warmupDays+1, top)
}

// idleNote is the report's word on logs that end within the warm-up.
func idleNote(ms []machine) string {
	var last int64
	for _, m := range ms {
		last = max(last, m.span)
	}
	return fmt.Sprintf("\ndegenerate: the last job of every log is submitted by day %d, within the %d-day warm-up: every request met idle machines, so P_achieved says nothing of the plans (give logs longer than %d days)\n",
		last/86400+1, warmupDays, warmupDays)
}

// simulateTrial runs one trial; with refc (one per site) each site's
// submissions are re-forecast into it.
func simulateTrial(ms []machine, tr trial, opt options, refc []reforecastStat) (trialSummary, []coalloc.Result, error) {
	until := opt.days * 86400
	var sites []coalloc.Site
	var sims []*sched.Sim
	var x *coalloc.Executor
	for i, mc := range ms {
		s, err := sched.New(sched.EASY(mc.size))
		if err != nil {
			return trialSummary{}, nil, err
		}
		first, err := cli.AgentFirstID(mc.jobs)
		if err != nil {
			return trialSummary{}, nil, fmt.Errorf("%s: %w", mc.name, err)
		}
		n := 0
		for _, j := range mc.jobs {
			if j.Submit <= until+2*tr.Lead {
				n++
			}
		}
		if err := s.Load(mc.jobs[:n]); err != nil {
			return trialSummary{}, nil, err
		}
		// Full QBETS (clustering, trimming, availability) fed by the
		// simulated queue's own arrivals and starts, CO-VARQ's jobs
		// included.
		// Withhold: the thesis's QBETS (no forecast while the machine may
		// be down), as the README's tables were made.
		fc, err := qbets.New(qbets.Config{Withhold: true})
		if err != nil {
			return trialSummary{}, nil, err
		}
		s.Observe(&siteObserver{site: i, fc: fc, x: &x})
		sims = append(sims, s)
		var m varq.Machine = agent.NewSchedMachine(s, first)
		if refc != nil {
			m = &reforecast{Machine: m, fc: versioned{fc, nil, mc.size}, w: tr.Walltime, stat: &refc[i]}
		}
		sites = append(sites, coalloc.Site{Name: mc.name, Forecaster: versioned{fc, opt.asked, mc.size}, Machine: m})
	}
	x, err := coalloc.NewExecutor(sites)
	if err != nil {
		return trialSummary{}, nil, err
	}
	const warmup = warmupDays * 86400
	cfg := trialConfig{count: opt.count, nodes: tr.Nodes, walltime: tr.Walltime, lead: tr.Lead, pAll: tr.PAll, plan: opt.plan}
	trials, err := startTrials(x, sites[0].Machine, cfg, warmup, until)
	if err != nil {
		return trialSummary{}, nil, err
	}
	end := until + tr.Lead + tr.Walltime + opt.step
	for t := int64(0); t <= end; t += opt.step {
		for _, s := range sims {
			if err := s.RunUntil(t); err != nil {
				return trialSummary{}, nil, err
			}
		}
		if err := cmp.Or(x.Err(), trials.err); err != nil {
			return trialSummary{}, nil, err
		}
	}
	return trials.summary(), trials.results(), nil
}

func reproduce(out io.Writer, opt options) error {
	if opt.trials == nil {
		opt.trials = table62
	}
	ms, err := loadMachines(opt.paths, opt.lenient)
	if err != nil {
		return err
	}
	days, note, idle, err := checkDays(ms, opt.days, opt.daysDefault)
	if err != nil {
		return err
	}
	if note != "" && opt.warn != nil {
		fmt.Fprintln(opt.warn, note)
	}
	opt.days = days
	for _, m := range ms {
		if len(m.left) > 0 && opt.warn != nil {
			fmt.Fprintf(opt.warn, "coalloc: %s: %d of %d jobs simulated: %s\n", m.name, len(m.jobs), m.read, cli.Reasons(m.left))
		}
		if m.zeros > 0 && opt.warn != nil {
			fmt.Fprintf(opt.warn, "coalloc: %s: %s\n", m.name, cli.PaddingNote(m.zeros))
		}
		if note := cli.SkippedOf(m.skipped).Note(); note != "" && opt.warn != nil {
			fmt.Fprintf(opt.warn, "coalloc: %s: %s\n", m.name, note)
		}
		if opt.left != nil {
			opt.left.Skipped.Add(m.name, m.skipped, len(ms) > 1)
			opt.left.add(m)
		}
	}
	changed, err := loadedChanges(ms, opt)
	if err != nil {
		return err
	}
	printHeading(out, ms, opt, changed)
	sums, _, err := runTrials(ms, opt)
	if err != nil {
		return err
	}
	printTable(out, opt.trials, sums)
	if idle {
		fmt.Fprint(out, idleNote(ms))
	}
	if small := smallerMachines(ms, opt.trials); len(small) > 0 {
		printSmaller(out, small)
		if opt.left != nil {
			opt.left.Smaller = small
		}
	}
	if opt.plan.DropDead {
		var dropped []string
		for i, tr := range opt.trials {
			dropped = append(dropped, fmt.Sprintf("(%d, %dh, %dh) %.2f", tr.Nodes, tr.Walltime/3600, tr.Lead/3600, sums[i].droppedPerRes))
		}
		fmt.Fprintf(out, "\nRequests dropped for a live probability of 0, per reservation: %s.\n", strings.Join(dropped, "; "))
	}
	return nil
}

// printHeading prints the machines and the trials' settings, and, per
// machine, the jobs the simulator's rules changed (changed, from
// loadedChanges: an estimate filled in, a size taken from the requested
// processors, a number made up for a job without one, …), as every
// command that simulates says them.
func printHeading(out io.Writer, ms []machine, opt options, changed []loaded) {
	fmt.Fprintf(out, "%d machines, requests on days %d–%d (after a %d-day warm-up), COUNT = %d, point %v, re-boost %v, drop %v:",
		len(ms), warmupDays, opt.days, warmupDays, opt.count, pointName(opt.plan), opt.plan.Reboost, opt.plan.DropDead)
	for _, m := range ms {
		fmt.Fprintf(out, " %s (%d)", m.name, m.size)
	}
	fmt.Fprint(out, "\n\n")
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.name + ": " + cli.RuleCounts(changed[i].changed)
		if len(changed[i].rejected) > 0 {
			parts[i] += " (rejected by the simulator: " + cli.Reasons(changed[i].rejected) + ")"
		}
	}
	fmt.Fprintf(out, "Jobs changed per rule, of those the trials load: %s.\n\n", strings.Join(parts, "; "))
}

// loaded is what the simulator did to one machine's jobs: the jobs each
// rule changed (sched.Result.Changed) and those it rejected, by reason
// (a real number at or above 10^18 that a made-up one takes, say: the
// log's duplicates are left out before, machine.left).
type loaded struct {
	changed, rejected map[string]int
}

// loadedChanges counts, per machine, the jobs a rule of the simulator
// changed or rejected among those the trials load (submitted by day -days
// plus twice the longest lead; a trial of a shorter lead loads fewer), by
// an EASY run of them without CO-VARQ: the rules change a job as it is
// loaded or as it runs, whatever else the machine runs. (A trial does not
// finish its simulations, so it has no sched.Result to count from; this
// run costs about a second for the five default machines.)
func loadedChanges(ms []machine, opt options) ([]loaded, error) {
	trials := opt.trials
	if trials == nil {
		trials = table62
	}
	var lead int64
	for _, tr := range trials {
		lead = max(lead, tr.Lead)
	}
	until := opt.days*86400 + 2*lead
	out := make([]loaded, len(ms))
	for i, m := range ms {
		n := 0
		for n < len(m.jobs) && m.jobs[n].Submit <= until {
			n++
		}
		res, err := sched.Run(context.Background(), sched.EASY(m.size), m.jobs[:n])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		out[i] = loaded{res.Changed(), cli.ByReason(res.Rejected)}
	}
	return out, nil
}

// runTrials runs every trial of opt.trials (Table 6.2 when nil) on the
// machines; with opt.diag, also each trial's site calibration.
func runTrials(ms []machine, opt options) ([]trialSummary, [][]siteStat, error) {
	if opt.trials == nil {
		opt.trials = table62
	}
	var sums []trialSummary
	var sites [][]siteStat
	for i, tr := range opt.trials {
		if opt.bar != nil {
			opt.bar.Stage(fmt.Sprintf("trial %d of %d", i+1, len(opt.trials)), 1)
		}
		t0 := time.Now()
		var asked int64
		opt.asked = &asked
		s, st, err := runTrial(ms, tr, opt)
		if err != nil {
			return nil, nil, err
		}
		sums, sites = append(sums, s), append(sites, st)
		if opt.progress != nil {
			fmt.Fprintf(opt.progress, "trial (%d, %d, %d): %v, %d forecasts\n", tr.Nodes, tr.Walltime, tr.Lead, time.Since(t0).Round(time.Millisecond), asked)
		}
	}
	return sums, sites, nil
}

// printTable prints the trials' results beside the thesis's Table 6.2.
func printTable(out io.Writer, trials []trial, sums []trialSummary) {
	fmt.Fprintln(out, "| (N, W, D) | P_all | P_expected | thesis | P_achieved | ± s.e. | thesis | executed | attempts | requests/res | re-boosts/res | submitted/res | over-allocation |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var none []string
	for i, tr := range trials {
		s := sums[i]
		// Every figure but the counts is a mean over the executed
		// co-allocations: a trial without one has none, not 0.
		figs := []string{fmt.Sprintf("%.3f", s.pExpected), fmt.Sprintf("%.3f", s.pAchieved), fmt.Sprintf("%.3f", stdErr(s)),
			fmt.Sprintf("%.2f", s.requestsPerRes), fmt.Sprintf("%.2f", s.reboostsPerRes), fmt.Sprintf("%.2f", s.submittedPerRes), fmt.Sprintf("%.2f", s.overAllocation())}
		if s.executed == 0 {
			for k := range figs {
				figs[k] = "–"
			}
			none = append(none, fmt.Sprintf("(%d, %dh, %dh)", tr.Nodes, tr.Walltime/3600, tr.Lead/3600))
		}
		fmt.Fprintf(out, "| %d, %dh, %dh | %.2f | %s | %.3f | %s | %s | %.3f | %d | %d | %s | %s | %s | %s |\n",
			tr.Nodes, tr.Walltime/3600, tr.Lead/3600, tr.PAll, figs[0], tr.Expected, figs[1], figs[2], tr.Achvd,
			s.executed, s.attempts, figs[3], figs[4], figs[5], figs[6])
	}
	if len(none) > 0 {
		fmt.Fprintf(out, "\ntrial %s executed no co-allocation: its figures are empty, not zero.\n", strings.Join(none, ", "))
	}
}

// smallerJSON is a machine with fewer processors than a trial's N: every
// reservation there has probability 0 (versioned.ProbWithin), so the
// trial plans none and executes no co-allocation.
type smallerJSON struct {
	Trial   string `json:"trial"`
	Machine string `json:"machine"`
	Size    int64  `json:"size"`
	Nodes   int    `json:"nodes"`
}

// smallerMachines lists, per trial in order, the machines smaller than
// its N.
func smallerMachines(ms []machine, trials []trial) []smallerJSON {
	var small []smallerJSON
	for _, tr := range trials {
		for _, m := range ms {
			if m.size < int64(tr.Nodes) {
				small = append(small, smallerJSON{Trial: fmt.Sprintf("(%d, %dh, %dh)", tr.Nodes, tr.Walltime/3600, tr.Lead/3600), Machine: m.name, Size: m.size, Nodes: tr.Nodes})
			}
		}
	}
	return small
}

// printSmaller says why a trial whose N exceeds a machine executed no
// co-allocation: the table's line said only that it executed none.
func printSmaller(out io.Writer, small []smallerJSON) {
	parts := make([]string, len(small))
	for i, s := range small {
		parts[i] = fmt.Sprintf("trial %s: %s has %d processors, fewer than its %d", s.Trial, s.Machine, s.Size, s.Nodes)
	}
	fmt.Fprintf(out, "\nA machine smaller than a trial's N answers probability 0, so the trial plans no co-allocation: %s.\n", strings.Join(parts, "; "))
}

// pointName is how the header names the plan's point rule.
func pointName(c coalloc.Config) string {
	if c.LatestMeeting {
		return "latest"
	}
	return "max"
}

// stdErr is the binomial standard error of P_achieved, taking the trial's
// co-allocations as independent: sqrt(p (1 − p) / executed). They are not
// quite independent (one follows the other on the same queues), so it is
// a lower bound on the noise.
func stdErr(s trialSummary) float64 {
	if s.executed == 0 {
		return math.NaN()
	}
	p := s.pAchieved
	return math.Sqrt(p * (1 - p) / float64(s.executed))
}
