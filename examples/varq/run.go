package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/agent"
)

// workload is one trace prepared for simulation.
type workload struct {
	name     string
	size     int64
	sizeFrom string // "-machine", "header MaxProcs" or "header MaxNodes"
	jobs     []swf.Job
	excluded int // not sane
	// notSane is the not-sane jobs by reason (sanitize.Sane's): the
	// heading counts them, opt.warn says why (coalloc's words).
	notSane  map[string]int
	jobsRead int       // the job lines read
	dups     int       // sane jobs under a number an earlier one has (duplicate ID)
	cut      int       // sane jobs beyond -jobs
	zeros    int64     // zero bytes after the log's last gzip member, ignored
	read     swf.Stats // the reader's counts: with -lenient, the malformed lines skipped
}

// loadWorkload reads the log at path for a machine of machine processors,
// or of its header's size when machine is 0. A log without a size (one
// converted from Alibaba's GPU pod list) needs -machine: its jobs do not
// tell the machine (the largest is a bound from below, and a machine of
// its size would run one job at a time), so none is guessed. lenient
// skips malformed lines, counted in the workload's read (-lenient).
func loadWorkload(path string, limit int, machine int64, lenient bool) (workload, error) {
	h, jobs, read, zeros, err := cli.ReadLogLenient(path, lenient)
	if err != nil {
		return workload{}, err
	}
	if len(jobs) == 0 { // (before the header's size: an empty file has no header either)
		return workload{}, fmt.Errorf("%s: no job lines: no sane job to simulate", path)
	}
	size, from := machine, "-machine"
	if machine == 0 {
		if size, err = h.MachineSize(); err != nil {
			return workload{}, fmt.Errorf("%s: machine size unknown: %w; pass -machine P (processors as the log counts them)", path, err)
		}
		from = "header MaxNodes"
		if h.MaxProcs > 0 {
			from = "header MaxProcs"
		}
		if err := cli.CheckMachine(size); err != nil { // sched's error names no file
			return workload{}, fmt.Errorf("%s: %w; pass -machine P (the size is the %s)", path, err, from)
		}
	}
	sane, rep := sanitize.Sane(jobs, size)
	w := workload{name: filepath.Base(path), size: size, sizeFrom: from, excluded: len(rep.Excluded), zeros: zeros, read: read,
		notSane: cli.ByReason(rep), jobsRead: len(jobs)}
	// A number already read names another job: the simulator would reject
	// it (sched counts it as a duplicate ID) in the run without VARQ but
	// not when the agent submits it under a new number, and the two runs
	// would compare different workloads. The first job keeps the number.
	sane, w.dups = cli.FirstIDs(sane)
	if len(sane) == 0 {
		why := ""
		if w.excluded > 0 {
			why = ": " + cli.Reasons(cli.ByReason(rep))
		}
		return workload{}, cli.NothingLeft(fmt.Errorf("%s: no sane job to simulate (%d jobs read, %d not sane%s)", path, len(jobs), w.excluded, why), read)
	}
	slices.SortStableFunc(sane, func(a, b swf.Job) int { return int(a.Submit - b.Submit) })
	if limit > 0 && len(sane) > limit {
		w.cut = len(sane) - limit
		sane = sane[:limit]
	}
	w.jobs = sane
	return w, nil
}

// cell is the outcome of one simulation.
type cell struct {
	fraction, target float64
	agent.Summary
	dropped  int // accepted, then given up before submission
	stats    agent.Stats
	makespan int64   // last job end − first submit
	wait     float64 // mean wait of all jobs in the simulation
	elapsed  time.Duration
	diag     *diagResult // with -diag
	// changed counts the jobs each rule of the simulator changed
	// (sched.Result.Changed): the log's and, with VARQ, the agent's.
	changed map[string]int
	// rejected counts the jobs the simulator rejected, by reason (a real
	// number at or above 10^18 that a made-up one takes, say: the
	// duplicates of the log are left out before, w.dups).
	rejected map[string]int
}

// simulate runs one cell: EASY on the machine's real size, the selected
// jobs handed to VARQ at their submit times, QBETS fed by every simulated
// start.
func simulate(w workload, fraction, target float64, opt options) (cell, error) {
	t0 := time.Now()
	s, err := sched.New(sched.EASY(w.size))
	if err != nil {
		return cell{}, err
	}
	first, err := cli.AgentFirstID(w.jobs)
	if err != nil {
		return cell{}, fmt.Errorf("%s: %w", w.name, err)
	}
	m := agent.NewSchedMachine(s, first)
	// Full QBETS (clustering, trimming, availability) fed by the
	// simulated queue's own arrivals and starts (thesis §6.5), the VARQ
	// jobs' included: they are ordinary jobs to the scheduler.
	// Withhold: the thesis's QBETS, silent (probability 0) while the
	// machine may be down, as the README's tables were made; the qbets
	// default would answer then.
	fc, err := qbets.New(qbets.Config{NoAvailability: opt.noAvail, Withhold: !opt.noAvail})
	if err != nil {
		return cell{}, err
	}
	cfg := agent.Config{
		Fraction:       fraction,
		Replan:         varq.ReplanConfig{ReqProb: target, Every: opt.every, OnlyAtSubmit: opt.every == 0},
		Seed:           opt.seed,
		Unsynchronized: opt.unsync,
		Crowd:          opt.crowd,
	}
	ag, err := agent.New(m, forecaster(fc), cfg)
	if err != nil {
		return cell{}, err
	}
	normal := make([]swf.Job, 0, len(w.jobs))
	for _, j := range w.jobs {
		if !ag.Select() {
			normal = append(normal, j)
			continue
		}
		s.At(j.Submit, func(int64) { ag.Arrive(j) })
	}
	if err := s.Load(normal); err != nil {
		return cell{}, err
	}
	if opt.probe != nil {
		opt.probe.schedule(s, fc, w)
	}
	var diag *diagObserver
	if opt.diag != nil {
		diag = newDiag(observer{fc: fc, agent: ag}, forecaster(fc), target)
		s.Observe(diag)
	} else {
		s.Observe(&observer{fc: fc, agent: ag})
	}
	res, err := s.Finish()
	if err != nil {
		return cell{}, err
	}
	if err := ag.Err(); err != nil {
		// Name the log and cell: "varq: request Start 1099511647200
		// outside ±2^40 s" alone named neither (a job submitted within
		// hours of 2^40 s, sane, planned past it).
		return cell{}, fmt.Errorf("%s, %.0f%% VARQ, target %.2f: %w", w.name, 100*fraction, target, err)
	}
	c := cell{fraction: fraction, target: target, Summary: ag.Summary(), stats: ag.Stats(),
		elapsed: time.Since(t0), changed: res.Changed(), rejected: cli.ByReason(res.Rejected)}
	if diag != nil && fraction > 0 {
		fmt.Fprintf(opt.diag, "diagnosis %s, %.0f%% VARQ, target %.2f: coverage P(wait ≤ B(%.2f)) at submission\n",
			w.name, 100*fraction, target, target)
		c.diag = diag.report(opt.diag, ag.Outcomes())
	}
	for _, o := range ag.Outcomes() {
		if o.Accepted && !o.Submitted.Possible {
			c.dropped++
		}
	}
	first, last, n := int64(-1), int64(0), 0
	for _, r := range res.Records {
		if r.Start < 0 {
			continue
		}
		if first < 0 || r.Job.Submit < first {
			first = r.Job.Submit
		}
		last = max(last, r.End)
		c.wait += float64(r.Wait)
		n++
	}
	if n > 0 {
		c.makespan, c.wait = last-first, c.wait/float64(n)
	}
	return c, nil
}

// observer feeds every simulated start to the forecaster (QBETS sees the
// queue it predicts) and to the agent.
type observer struct {
	fc    *qbets.Predictor
	agent *agent.Agent
}

func (o *observer) OnSubmit(now int64, _ *swf.Job) { o.fc.Submit(now) }
func (o *observer) OnStart(now int64, j *swf.Job, _ bool) {
	o.fc.Observe(qbets.Observation{Submit: j.Submit, Start: now, Nodes: int(max(j.Size(), 0)), Walltime: max(j.ReqTime, 0)})
	o.agent.Started(j.ID, now)
}
func (o *observer) OnEnd(int64, *swf.Job, bool)          {}
func (o *observer) OnReservation(int64, *swf.Job, int64) {}

// reproduce prints every log's table; with -lenient, the malformed lines
// skipped are added to opt.skipped.
func reproduce(out io.Writer, opt options) error {
	if opt.fractions == nil {
		opt.fractions = fractions
	}
	if opt.targets == nil {
		opt.targets = targets
	}
	for _, p := range opt.paths {
		opt.stage(filepath.Base(p) + " without VARQ")
		w, err := loadWorkload(p, opt.jobs, opt.machine, opt.lenient)
		if err != nil {
			return err
		}
		if opt.skipped != nil {
			opt.skipped.Add(w.name, w.read, len(opt.paths) > 1)
		}
		if w.excluded > 0 && opt.warn != nil {
			// (the heading counts them and, as the README's runs print
			// it, not why)
			fmt.Fprintf(opt.warn, "varq: %s: %d of %d jobs not sane: %s\n", w.name, w.excluded, w.jobsRead, cli.Reasons(w.notSane))
		}
		base, err := simulate(w, 0, 0.5, opt)
		if err != nil {
			return err
		}
		printHeader(out, w, base, opt.crowd)
		plotted := opt.plot == ""
		for _, f := range opt.fractions {
			for _, q := range opt.targets {
				opt.stage(fmt.Sprintf("%s %.0f%% %.2f", w.name, 100*f, q))
				copt := opt
				if !plotted && f > 0 {
					// The figure is drawn from the first cell with VARQ
					// jobs: the queue VARQ plans against includes them.
					copt.probe = &trajProbe{}
				}
				c, err := simulate(w, f, q, copt)
				if err != nil {
					return err
				}
				if copt.probe != nil {
					plotted = true
					files, err := copt.probe.write(opt.plot, w.name, fmt.Sprintf("%.0f %% VARQ jobs", 100*f))
					if err != nil {
						return err
					}
					if opt.progress != nil {
						fmt.Fprintf(opt.progress, "%s: figure 5.4 request: %s\n  wrote %s\n", w.name, copt.probe.summary(), strings.Join(files, ", "))
					}
				}
				printRow(out, c, base)
				if opt.progress != nil {
					fmt.Fprintf(opt.progress, "%s %.0f%% %.2f: %d accepted, %d refused, %d dropped, "+
						"plan kept through silence %d times (%d submitted so), crowd-made zeros %d, jobs changed per rule: %s, %v\n",
						w.name, 100*f, q, c.Count, c.Refused, c.dropped, c.stats.Kept, c.stats.KeptRequests,
						c.stats.CrowdZeros, cli.RuleCounts(c.changed), c.elapsed.Round(time.Millisecond))
				}
			}
		}
		fmt.Fprintln(out)
	}
	return nil
}

// stage starts the next cell on the progress bar, if any.
func (o options) stage(name string) {
	if o.bar != nil {
		o.bar.Stage(name, 1)
	}
}

// printHeader prints one log's heading, its run without VARQ (with the
// jobs the simulator's rules changed, as every command that simulates
// says them) and the table's header.
func printHeader(out io.Writer, w workload, base cell, crowd string) {
	dups := ""
	if w.dups > 0 {
		dups = fmt.Sprintf(", %d %s", w.dups, sanitize.DuplicateID)
	}
	from := "" // the header's size, as the README's runs say it
	if w.sizeFrom == "-machine" {
		from = " (-machine)"
	}
	fmt.Fprintf(out, "## %s: %d processors%s, %d sane jobs (%d not sane%s, %d beyond -jobs)\n\n",
		w.name, w.size, from, len(w.jobs), w.excluded, dups, w.cut)
	if w.zeros > 0 {
		fmt.Fprintf(out, "(%s.)\n\n", cli.PaddingNote(w.zeros))
	}
	if note := cli.SkippedOf(w.read).Note(); note != "" {
		fmt.Fprintf(out, "(%s.)\n\n", note)
	}
	rejected := ""
	if len(base.rejected) > 0 {
		rejected = "; rejected by the simulator: " + cli.Reasons(base.rejected)
	}
	fmt.Fprintf(out, "Without VARQ: makespan %.1f d, mean wait %.0f s; jobs changed per rule: %s%s.\n\n",
		float64(base.makespan)/86400, base.wait, cli.RuleCounts(base.changed), rejected)
	if crowd != "" && crowd != "off" {
		fmt.Fprintf(out, "Crowd-aware planning (beyond the thesis): -crowd %v.\n\n", crowd)
	}
	fmt.Fprintln(out, "| % VARQ | target | pred | thesis | act | thesis | count | thesis | refused | used/req | makespan | mean wait |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|---|---|")
}

// printRow prints one cell beside the thesis's, the makespan and mean wait
// against the run without VARQ.
func printRow(out io.Writer, c, base cell) {
	th, ok := thesisFor(c.fraction, c.target)
	tp, ta, tn := "–", "–", "–"
	if ok {
		tp, ta, tn = fmt.Sprintf("%.2f", th.Pred), fmt.Sprintf("%.2f", th.Act), fmt.Sprint(th.Count)
	}
	span := "–" // no makespan to compare with: every job ran 0 s at one instant
	if base.makespan > 0 {
		span = fmt.Sprintf("%+.1f%%", 100*(float64(c.makespan)/float64(base.makespan)-1))
	}
	// Means over the accepted VARQ jobs: none accepted (a log of one job,
	// every request refused) has none, "–" as the thesis's missing cells,
	// not 0.00 (a predicted and an achieved probability of 0).
	pred, act, ratio := "–", "–", "–"
	if c.Count > 0 {
		pred, act = fmt.Sprintf("%.2f", c.MeanPred), fmt.Sprintf("%.2f", c.Success)
	}
	if c.Required > 0 { // (none when every accepted request was dropped)
		ratio = fmt.Sprintf("%.2f", c.Ratio())
	}
	fmt.Fprintf(out, "| %.0f | %.2f | %s | %s | %s | %s | %d | %s | %d | %s | %s | %.0f s |\n",
		100*c.fraction, c.target, pred, tp, act, ta, c.Count, tn, c.Refused, ratio, span, c.wait)
}

// thesisFor is the thesis's cell for fraction f and target q, if it has one.
func thesisFor(f, q float64) (thesisCell, bool) {
	fi, ti := slices.Index(fractions, f), slices.Index(targets, q)
	if fi < 0 || ti < 0 {
		return thesisCell{}, false
	}
	return table56[fi][ti], true
}

// forecaster is VARQ's view of the predictor: the probability of starting
// within a time, 0 where QBETS has no history to answer from.
func forecaster(p *qbets.Predictor) varq.Forecaster {
	return p // ok false (no history, machine may be down) reads as 0
}
