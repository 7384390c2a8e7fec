package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// checked is a recording made ready for simulation: the jobs as SWF (in
// the workload's order, job i+1 is planned job i), what Slurm did with
// each, and the origin of the simulated clock.
type checked struct {
	rec  *recording
	jobs []swf.Job
	real []realJob
	// origin is the Unix second of simulated time 0: the last
	// recomputation of priorities (a decay run) at or before the first
	// submission (the first submission when none is recorded). The policy
	// recalculates every PriorityCalcPeriod from its first job on, so
	// its runs fall the first submission's distance from origin after
	// Slurm's (result.Phase).
	origin int64
	// names are the SWF numbers' names: users, accounts, partitions, QOS.
	users, accounts, partitions, qos []string
	// index is each Slurm job id's place in the workload; nodes the
	// NodeName lines (one node each), perNode their CPUs= (the same on
	// every line), cpus all the CPUs.
	index                map[string]int
	nodes, perNode, cpus int64
	// memPerNode (MB) and gpusPerNode are each node's consumable memory
	// (RealMemory=, when SelectTypeParameters makes memory consumable,
	// CR_*_Memory; else 0) and GPUs (Gres=gpu:N), the same on every line;
	// demand that some job asks memory or GPUs (the workload's --mem and
	// --gres=gpu:N).
	memPerNode, gpusPerNode int64
	demand                  bool
	// fromLog counts the jobs whose run time is slurmctld's logged
	// duration rounded up (tickRunTime), longer those of them it makes
	// longer than sacct's End − Start; the others have End − Start.
	fromLog, longer int
	// noLimit counts the jobs sacct shows without a time limit, by the
	// form of its TimelimitRaw (limitOf says what they are planned with).
	noLimit map[string]int
	// cutLimits counts the jobs whose limit was above their partition's
	// MaxTime, planned with it (limitOf).
	cutLimits int
	// killCheck is the Slurm policy's slurm.Config.KillCheck: 0 is
	// slurmctld's 30 s time-limit check; a test's variant sets -1, a kill
	// at the limit at once.
	killCheck int64
}

// prepare reads what Slurm did and turns the workload into SWF jobs: the
// real submit time, the run time as Slurm's schedulers saw it (tickRunTime),
// the time limit as the estimate, the CPUs, and the user, account (Group),
// partition (Queue) and QOS (Partition) as numbers into the name lists
// (1-based).
func prepare(rec *recording) (*checked, error) {
	real, err := parseSacct(rec.Sacct)
	if err != nil {
		return nil, err
	}
	logged := make(map[string]logJob, len(rec.Log))
	for _, l := range rec.Log {
		logged[l.ID] = l
	}
	c := &checked{rec: rec, index: map[string]int{}}
	if err := c.readNodes(rec.Conf); err != nil {
		return nil, err
	}
	index := func(names *[]string, s string) int64 {
		if i := slices.Index(*names, s); i >= 0 {
			return int64(i + 1)
		}
		*names = append(*names, s)
		return int64(len(*names))
	}
	first := int64(math.MaxInt64)
	var maxTimes map[string]int64 // the partitions', read at the first job
	var cutOwn map[int]int64      // the own limits of the jobs cut to MaxTime, by index
	for i, id := range rec.IDs {
		r, ok := real[id]
		if !ok {
			return nil, fmt.Errorf("job %d (Slurm %s) is not in sacct", i, id)
		}
		var cut bool
		own := r.Limit
		if r.Limit, cut, err = limitOf(r, rec.Conf, &maxTimes); err != nil {
			return nil, err
		}
		if cut {
			c.cutLimits++
			if cutOwn == nil {
				cutOwn = map[int]int64{}
			}
			cutOwn[i] = own
		}
		if r.NoLimit != "" {
			if c.noLimit == nil {
				c.noLimit = map[string]int{}
			}
			c.noLimit[r.NoLimit]++
		}
		// A job that slept past its limit ends in TIMEOUT (site
		// qos-tree): it ran, and its run time is what it ran.
		killed := r.State == "TIMEOUT" && rec.Workload[i].Sleep > rec.Workload[i].Limit*60
		if r.Start == 0 || r.End < r.Start || !strings.HasPrefix(r.State, "COMPLETED") && !killed {
			return nil, fmt.Errorf("job %d (Slurm %s) did not run to completion: %s, start %d, end %d", i, id, r.State, r.Start, r.End)
		}
		// An exclusive job is allocated its node's CPUs (AllocCPUS).
		if p := rec.Workload[i]; p.CPUs != r.CPUs && !(p.Exclusive && r.CPUs == c.perNode) || p.User != r.User || p.Account != r.Account || p.Partition != r.Partition || p.QOS != r.QOS {
			return nil, fmt.Errorf("job %d (Slurm %s): sacct shows %s/%s/%s/%s with %d CPUs, planned %s/%s/%s/%s with %d",
				i, id, r.User, r.Account, r.Partition, r.QOS, r.CPUs, p.User, p.Account, p.Partition, p.QOS, p.CPUs)
		}
		if err := c.checkDemand(rec.Workload[i], r); err != nil {
			return nil, fmt.Errorf("job %d (Slurm %s): %w", i, id, err)
		}
		c.real = append(c.real, r)
		c.index[id] = i
		first = min(first, r.Submit)
	}
	c.origin = first
	for _, d := range rec.Decays {
		if s := d / 1000; s <= first && (c.origin == first || s > c.origin) {
			c.origin = s
		}
	}
	for i, r := range c.real {
		run, fromLog, err := tickRunTime(r, logged[rec.IDs[i]])
		if err != nil {
			return nil, fmt.Errorf("job %d (Slurm %s): %w", i, rec.IDs[i], err)
		}
		if own, ok := cutOwn[i]; ok {
			if err := cutRunsPast(r, run, own, rec.Conf); err != nil {
				return nil, fmt.Errorf("job %d (Slurm %s): %w", i, rec.IDs[i], err)
			}
		}
		if fromLog {
			c.fromLog++
			if run > r.End-r.Start {
				c.longer++
			}
		}
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime = int64(i+1), r.Submit-c.origin, r.Start-r.Submit, run
		// The CPUs asked (those of an exclusive job's node are the
		// machine's to hold: swf.Demand.Exclusive).
		cpus := rec.Workload[i].CPUs
		j.AllocProcs, j.ReqProcs, j.ReqTime, j.Status = cpus, cpus, r.Limit, swf.StatusCompleted
		j.User, j.Group = index(&c.users, r.User), index(&c.accounts, r.Account)
		j.Queue, j.Partition = index(&c.partitions, r.Partition), index(&c.qos, r.QOS)
		if c.nodes > 1 {
			// sbatch -c: one task of that many CPUs, on one node; --mem
			// and --gres=gpu:N per node (GPUs in thousandths).
			p := rec.Workload[i]
			j.Demand = &swf.Demand{Nodes: 1, Memory: p.Mem, GPUs: 1000 * p.GPUs, Exclusive: p.Exclusive}
		}
		c.jobs = append(c.jobs, j)
	}
	return c, nil
}

// readNodes reads the recorded NodeName lines: the nodes, their CPUs=,
// and their RealMemory= (consumable only under a SelectTypeParameters of
// memory, CR_*_Memory: Slurm counts it then, else a job's --mem is not
// held) and Gres=gpu:N, each the same on every line.
func (c *checked) readNodes(conf string) error {
	memory := false
	for _, l := range strings.Split(conf, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "SelectTypeParameters="); ok {
			memory = strings.Contains(strings.ToLower(v), "memory")
		}
	}
	var mem, gpus int64 = -1, -1
	for _, l := range strings.Split(conf, "\n") {
		if !strings.HasPrefix(l, "NodeName=") {
			continue
		}
		var m, g int64
		for _, f := range strings.Fields(l) {
			k, v, _ := strings.Cut(f, "=")
			switch {
			case strings.EqualFold(k, "CPUs"):
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n <= 0 || (c.perNode != 0 && n != c.perNode) {
					return fmt.Errorf("the NodeName line's CPUs=%q: want a count, the same on every line", v)
				}
				c.nodes, c.perNode, c.cpus = c.nodes+1, n, c.cpus+n
			case strings.EqualFold(k, "RealMemory"):
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n < 0 || n > 1<<40 {
					return fmt.Errorf("the NodeName line's RealMemory=%q: want MB", v)
				}
				m = n
			case strings.EqualFold(k, "Gres"):
				for _, gr := range strings.Split(v, ",") {
					// gpu:N or gpu:TYPE:N; other kinds are not modelled.
					f := strings.Split(gr, ":")
					if f[0] != "gpu" {
						continue
					}
					n, err := strconv.ParseInt(f[len(f)-1], 10, 64)
					if len(f) < 2 || err != nil || n < 0 || n > 64 {
						return fmt.Errorf("the NodeName line's Gres=%q: want gpu:N, N of at most 64", v)
					}
					g += n
				}
			}
		}
		if (mem >= 0 && m != mem) || (gpus >= 0 && g != gpus) {
			return errors.New("the NodeName lines' RealMemory= or Gres=gpu: differ: want the same on every line")
		}
		mem, gpus = m, g
	}
	if c.cpus == 0 {
		return errors.New("the recorded slurm.conf has no NodeName line with CPUs=")
	}
	if memory {
		c.memPerNode = mem
	}
	c.gpusPerNode = gpus
	return nil
}

// checkDemand checks a job's planned memory and GPUs against what sacct
// shows it was allocated (AllocTRES, when recorded) and against a node's
// (a job no node holds would never start), and notes that some job asks
// them.
func (c *checked) checkDemand(p plannedJob, r realJob) error {
	if p.Mem < 0 || p.GPUs < 0 {
		return fmt.Errorf("planned %d MB and %d GPUs: want none or more", p.Mem, p.GPUs)
	}
	if p.Mem == 0 && p.GPUs == 0 {
		return nil
	}
	c.demand = true
	if c.nodes < 2 {
		return fmt.Errorf("planned %d MB and %d GPUs on one node: the site of memory and GPUs has several", p.Mem, p.GPUs)
	}
	// An exclusive job's AllocTRES may show its node's memory and GPUs.
	if r.TRES && (r.Mem != p.Mem || r.GPUs != p.GPUs) && !(p.Exclusive && (r.Mem == c.memPerNode || r.Mem == p.Mem) && (r.GPUs == c.gpusPerNode || r.GPUs == p.GPUs)) {
		return fmt.Errorf("sacct's AllocTRES shows %d MB and %d GPUs, planned %d and %d", r.Mem, r.GPUs, p.Mem, p.GPUs)
	}
	if (c.memPerNode > 0 && p.Mem > c.memPerNode) || p.GPUs > c.gpusPerNode {
		return fmt.Errorf("planned %d MB and %d GPUs, above a node's %d MB and %d GPUs", p.Mem, p.GPUs, c.memPerNode, c.gpusPerNode)
	}
	return nil
}

// demandLoad says, where some job asks memory or GPUs, what the nodes
// hold of them and how much of each the workload asks over its span, as
// describeWorkload says it of the CPUs; "" elsewhere.
func (c *checked) demandLoad() string {
	w := c.rec.Workload
	if !c.demand || len(w) < 2 || w[len(w)-1].At <= 0 {
		return ""
	}
	var mem, gpus float64
	for _, j := range w {
		mem += float64(j.Mem * j.Sleep)
		gpus += float64(j.GPUs * j.Sleep)
	}
	span := float64(w[len(w)-1].At) / 1000 * float64(c.nodes)
	of := func(what string, asked float64, per int64) string {
		if per <= 0 {
			return "no " + what + " held"
		}
		return fmt.Sprintf("%.1f times the %s", asked/(span*float64(per)), what)
	}
	return fmt.Sprintf("Each node also holds %d MB of memory and %d GPUs (memory only when SelectTypeParameters makes it consumable): the jobs ask %s and %s the nodes serve over that span.\n",
		c.memPerNode, c.gpusPerNode, of("memory", mem, c.memPerNode), of("GPUs", gpus, c.gpusPerNode))
}

// tickRunTime is a job's run time in whole seconds as Slurm's schedulers
// saw it: the time from the scheduler run that started it to the first
// run that could reuse its CPUs. slurmctld's schedulers act at ticks of
// its loops, one second apart (the background loop's ten 100 ms sleeps,
// each backfill check), and a job started at a tick ends its sleep plus
// its launch and teardown later (0.02–0.38 s more on the four live runs,
// slurmctld's log): just after a later tick, so the next tick that finds
// its node free comes the real duration rounded up after its start. The
// simulations count whole seconds and let a scheduler run at an end's
// second reuse its CPUs, so the run time is that rounded-up duration from
// slurmctld's log to the millisecond (fromLog); sacct's End − Start
// (each second truncated: the sleep itself, most often) when the log
// lacks the job or its end, counted in checked.fromLog and said above
// the table. A logged duration that is negative or more than 2 s from
// End − Start (the two differ by the truncation, under a second, plus
// the log lines' delay) is not the run sacct shows: an error, not a run
// time silently changed.
// With End − Start every job gave its node back up to a second early,
// and the simulations ran ahead of Slurm more with every job that
// followed another on a node (README.md, "The policy ran ahead").
func tickRunTime(r realJob, l logJob) (run int64, fromLog bool, err error) {
	if l.Start == 0 || l.End == 0 {
		return r.End - r.Start, false, nil
	}
	run = (l.End - l.Start + 999) / 1000
	if l.End < l.Start || abs(run-(r.End-r.Start)) > 2 {
		return 0, false, fmt.Errorf("slurmctld's log gives a run of %d ms, sacct's End − Start %d s: not the same run", l.End-l.Start, r.End-r.Start)
	}
	return run, true, nil
}

// simulated is one simulation of the workload: each job's start (in the
// workload's order, Unix seconds) and, for a policy that models Slurm's
// priority, its priority of each pending job at each sample.
type simulated struct {
	name   string
	starts []int64
	// ends are the jobs' ends when they are not start + Slurm's run time
	// (another run of Slurm); nil otherwise.
	ends []int64
	// backfilled counts the jobs backfill started.
	backfilled int
	// prios[k][id] is the simulated priority of job id at sample k; nil
	// when the policy has no priority to compare.
	prios []map[string]int64
	// plan is how often the Slurm policy's named-node plan parted from
	// the machine; nil for a run without one.
	plan *planMisses
}

// planMisses are slurm.Policy.PlanMisses: the backfill cycles whose
// plan's GPUs differed from the machine's (planned on the pool of CPUs
// instead) and the starts the plan found room for that the machine
// refused (planned a second later). Both 0 while the plan chooses GPUs as
// the machine does; either not 0 makes the row's starts less exactly
// Slurm's plan, which the report says.
type planMisses struct {
	Drift   int `json:"drift_cycles"`
	Refused int `json:"refused_starts"`
}

// figures are the comparison's numbers for one simulation.
type figures struct {
	Name string `json:"name"`
	// Pairs are the competing pairs: both jobs waiting at once in Slurm
	// (each submitted before either started) and started at different
	// seconds by Slurm. Agree is the share of them the simulation starts
	// in the same order, a simulated tie counting one half.
	Pairs int     `json:"competing_pairs"`
	Agree float64 `json:"order_agreement"`
	// AllPairs and AllAgree: the same over every pair Slurm started at
	// different seconds.
	AllPairs int     `json:"all_pairs"`
	AllAgree float64 `json:"order_agreement_all"`
	// Within is the share of jobs the simulation starts at most one
	// bf_interval from Slurm's start; MeanError the mean |simulated −
	// Slurm's start| in seconds.
	Within    float64 `json:"within_bf_interval"`
	MeanError float64 `json:"mean_start_error"`
	// Backfilled is the share of jobs backfill started.
	Backfilled float64 `json:"backfilled"`
	// Span is from the first submission to the last simulated end (s).
	Span int64 `json:"span"`
	// PrioSamples counts the (sample, pending job) pairs compared;
	// PrioAbs and PrioRel are the mean |simulated − Slurm's priority| and
	// the mean of it over Slurm's priority; nil when not modelled.
	PrioSamples int      `json:"priority_samples"`
	PrioAbs     *float64 `json:"priority_error,omitempty"`
	PrioRel     *float64 `json:"priority_error_relative,omitempty"`
	// PrioFirst is the mean |priority error| over the samples before
	// Slurm's first recalculation after the first submission (the
	// priorities set at submission only: no usage, no age yet), over
	// PrioFirstSamples pairs; nil when none.
	PrioFirstSamples int      `json:"priority_samples_first_period"`
	PrioFirst        *float64 `json:"priority_error_first_period,omitempty"`
	// LateError is the mean signed start error (simulated − Slurm's, in
	// seconds) of the jobs Slurm started from the last submission on, in
	// bins of lateBin seconds of Slurm's start after it (a bin no start
	// fell in is NaN, written null): where the simulation runs ahead of
	// Slurm (negative) or behind once no arrival resets the queue.
	LateError []jsonFloat `json:"late_start_error"`
	// ByPartition is the mean signed start error (simulated − Slurm's,
	// in seconds) of each partition's jobs, in the order of the
	// partitions' names: a rule that delays one partition's jobs shows
	// as a bias there, where the runs' chaos spreads both ways.
	ByPartition []partError `json:"start_error_by_partition"`
	// ByKind is the same by the kind of job (jobKind), with the share of
	// each kind's jobs started within one bf_interval; only where some
	// job asks memory or GPUs.
	ByKind []kindError `json:"start_error_by_kind,omitempty"`
	// Plan is, for the Slurm policy's rows (backfill planned on named
	// nodes), how often the plan parted from the machine; absent for
	// the others.
	Plan *planMisses `json:"named_node_plan,omitempty"`
}

// kindError is one kind of job's mean signed start error and share
// started within one bf_interval.
type kindError struct {
	Kind   string  `json:"kind"`
	Jobs   int     `json:"jobs"`
	Mean   float64 `json:"mean"`
	Within float64 `json:"within_bf_interval"`
}

// jobKinds are jobKind's kinds, in the order reported.
var jobKinds = []string{"GPU", "memory", "CPU"}

// jobKind is the kind of planned job p on the site of memory and GPUs:
// "GPU" if it asks GPUs, "memory" if more than half a node's memory
// (memPerNode MB; one a node), "CPU" otherwise.
func jobKind(p plannedJob, memPerNode int64) string {
	switch {
	case p.GPUs > 0:
		return "GPU"
	case 2*p.Mem > memPerNode && memPerNode > 0:
		return "memory"
	}
	return "CPU"
}

// byKind is figures.ByKind of the simulated starts.
func byKind(c *checked, starts []int64) []kindError {
	out := make([]kindError, len(jobKinds))
	for k, name := range jobKinds {
		out[k].Kind = name
	}
	for i, r := range c.real {
		k := slices.Index(jobKinds, jobKind(c.rec.Workload[i], c.memPerNode))
		d := starts[i] - r.Start
		out[k].Jobs++
		out[k].Mean += float64(d)
		if d >= -bfInterval && d <= bfInterval {
			out[k].Within++
		}
	}
	for k := range out {
		if n := float64(max(out[k].Jobs, 1)); out[k].Jobs > 0 {
			out[k].Mean, out[k].Within = out[k].Mean/n, out[k].Within/n
		}
	}
	return out
}

// partError is one partition's mean signed start error over its jobs.
type partError struct {
	Partition string  `json:"partition"`
	Jobs      int     `json:"jobs"`
	Mean      float64 `json:"mean"`
}

// byPartition is figures.ByPartition of the simulated starts.
func byPartition(real []realJob, starts []int64) []partError {
	sum, n := map[string]float64{}, map[string]int{}
	for i, r := range real {
		sum[r.Partition] += float64(starts[i] - r.Start)
		n[r.Partition]++
	}
	var out []partError
	for _, p := range slices.Sorted(maps.Keys(n)) {
		out = append(out, partError{p, n[p], sum[p] / float64(n[p])})
	}
	return out
}

// lateBin is the width of LateError's bins (s).
const lateBin = 30

// jsonFloat is a float64 that JSON writes as null when NaN.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// lateError is figures.LateError of the simulated starts.
func lateError(real []realJob, starts []int64) []jsonFloat {
	last := int64(math.MinInt64)
	for _, r := range real {
		last = max(last, r.Submit)
	}
	var sum []float64
	var cnt []int
	for i, r := range real {
		if r.Start < last {
			continue
		}
		k := int((r.Start - last) / lateBin)
		for len(sum) <= k {
			sum, cnt = append(sum, 0), append(cnt, 0)
		}
		sum[k] += float64(starts[i] - r.Start)
		cnt[k]++
	}
	out := make([]jsonFloat, len(sum))
	for k := range sum {
		out[k] = jsonFloat(math.NaN())
		if cnt[k] > 0 {
			out[k] = jsonFloat(sum[k] / float64(cnt[k]))
		}
	}
	return out
}

// score compares a simulation with what Slurm did.
func score(c *checked, s *simulated) (figures, error) {
	f := figures{Name: s.name, Plan: s.plan}
	n := len(c.real)
	if len(s.starts) != n {
		return f, fmt.Errorf("%s: %d starts for %d jobs", s.name, len(s.starts), n)
	}
	var agree, all float64
	for i := range n {
		ri, si := c.real[i], s.starts[i]
		for j := i + 1; j < n; j++ {
			rj, sj := c.real[j], s.starts[j]
			if ri.Start == rj.Start {
				continue
			}
			same := 0.0
			switch {
			case si == sj:
				same = 0.5
			case (si < sj) == (ri.Start < rj.Start):
				same = 1
			}
			f.AllPairs++
			all += same
			if max(ri.Submit, rj.Submit) < min(ri.Start, rj.Start) {
				f.Pairs++
				agree += same
			}
		}
	}
	f.Agree, f.AllAgree = agree/float64(max(f.Pairs, 1)), all/float64(max(f.AllPairs, 1))
	within, errSum := 0, 0.0
	for i := range n {
		d := s.starts[i] - c.real[i].Start
		if d >= -bfInterval && d <= bfInterval {
			within++
		}
		errSum += math.Abs(float64(d))
	}
	f.Within, f.MeanError = float64(within)/float64(n), errSum/float64(n)
	f.LateError = lateError(c.real, s.starts)
	f.ByPartition = byPartition(c.real, s.starts)
	if c.demand {
		f.ByKind = byKind(c, s.starts)
	}
	f.Backfilled = float64(s.backfilled) / float64(n)
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for i, r := range c.real {
		end := s.starts[i] + r.End - r.Start // (TestScore's hand-made case has no jobs)
		if i < len(c.jobs) {                 // the simulated run time (tickRunTime)
			end = s.starts[i] + c.jobs[i].RunTime
		}
		if s.ends != nil {
			end = s.ends[i]
		}
		first, last = min(first, r.Submit), max(last, end)
	}
	f.Span = last - first
	if s.prios == nil {
		return f, nil
	}
	var abs, rel, absFirst float64
	firstDecay := int64(math.MaxInt64)
	for _, d := range c.rec.Decays {
		if d > c.real[0].Submit*1000 {
			firstDecay = min(firstDecay, d)
		}
	}
	for k, smp := range c.rec.Samples {
		ps, err := parseSprio(smp.Sprio)
		if err != nil {
			return f, err
		}
		for _, p := range ps {
			got, ok := s.prios[k][p.ID]
			if !ok {
				continue
			}
			d := math.Abs(float64(got - p.Priority))
			f.PrioSamples++
			abs += d
			if smp.T < firstDecay {
				f.PrioFirstSamples++
				absFirst += d
			}
			rel += d / math.Max(float64(p.Priority), 1)
		}
	}
	if f.PrioSamples > 0 {
		a, r := abs/float64(f.PrioSamples), rel/float64(f.PrioSamples)
		f.PrioAbs, f.PrioRel = &a, &r
	}
	if f.PrioFirstSamples > 0 {
		a := absFirst / float64(f.PrioFirstSamples)
		f.PrioFirst = &a
	}
	return f, nil
}

// runEASY is plain EASY (FCFS order, backfilling with the time limits as
// estimates) on the node's CPUs as one pool.
func runEASY(ctx context.Context, c *checked) (*simulated, error) {
	// EASY on a pool of processors: the jobs without their one-node
	// demand.
	jobs := c.jobs
	if c.nodes > 1 {
		jobs = slices.Clone(c.jobs)
		for i := range jobs {
			jobs[i].Demand = nil
		}
	}
	res, err := sched.Run(ctx, sched.EASY(c.cpus), jobs)
	if err != nil {
		return nil, err
	}
	return startsOf("EASY (sched, FCFS order)", c, res)
}

func startsOf(name string, c *checked, res *sched.Result) (*simulated, error) {
	s := &simulated{name: name, starts: make([]int64, len(c.jobs))}
	if len(res.Records) != len(c.jobs) {
		return nil, fmt.Errorf("%s simulated %d of %d jobs (rejected: %v)", name, len(res.Records), len(c.jobs), res.Rejected)
	}
	for _, r := range res.Records {
		if r.Start < 0 {
			return nil, fmt.Errorf("%s: job %d never started", name, r.Job.ID)
		}
		s.starts[r.Job.ID-1] = r.Start + c.origin
		if r.Backfilled {
			s.backfilled++
		}
	}
	return s, nil
}

// result is the whole comparison of a recording.
type result struct {
	Workload string   `json:"workload"`
	Jobs     int      `json:"jobs"`
	Waits    [3]int64 `json:"real_waits"` // median, mean, longest (s)
	Span     int64    `json:"span"`       // first submission to last end (s)
	// SpanRunTimes is Span with each job's end Slurm's start plus the
	// simulations' run time (tickRunTime): the end a simulation that
	// started every job when Slurm did would give (sacct's End is up to
	// a second earlier).
	SpanRunTimes int64 `json:"span_run_times"`
	Samples      int   `json:"samples"`
	// Phase is how long (ms) before the first submission Slurm last
	// recalculated priorities; -1 if no run is recorded before it.
	Phase int64 `json:"phase_ms"`
	// Backfilled is the share of jobs Slurm's backfill started (its
	// log); -1 without the log.
	Backfilled float64 `json:"backfilled"`
	// Slurm is Slurm's own pace, from its log; nil without it.
	Slurm *slurmSide `json:"slurm,omitempty"`
	// SlurmNotMeasured says why Slurm's pace is missing although the
	// recording has a log.
	SlurmNotMeasured string `json:"slurm_not_measured,omitempty"`
	// RunTimesFromLog counts the jobs whose simulated run time is
	// slurmctld's logged duration rounded up (tickRunTime), the others'
	// being sacct's End − Start; RunTimesLonger those of them a second or
	// more longer than End − Start.
	RunTimesFromLog int `json:"run_times_from_log"`
	RunTimesLonger  int `json:"run_times_longer_than_sacct"`
	// NoTimeLimit counts the jobs sacct shows without a time limit, by
	// the form of TimelimitRaw ("UNLIMITED", "Partition_Limit"): planned
	// with their partition's MaxTime, a year where it has none, as
	// Slurm's backfill plans them.
	NoTimeLimit map[string]int `json:"no_time_limit,omitempty"`
	// LimitsCut counts the jobs whose time limit was above their
	// partition's MaxTime: planned with the MaxTime, as Slurm's backfill
	// plans them.
	LimitsCut int       `json:"limits_cut_to_max_time,omitempty"`
	CPUs      int64     `json:"cpus"`
	Figures   []figures `json:"figures"`
}

// Goals of issue 33 for the Slurm policy.
const (
	goalAgree  = 0.95
	goalWithin = 0.90
)

// compare runs every simulation on the recording and scores each.
func compare(rec *recording) (*result, error) {
	res, err := compareRun(rec)
	return res, rec.named(err)
}

func compareRun(rec *recording) (*result, error) {
	c, err := prepare(rec)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	res := &result{Workload: describeWorkload(rec.Workload, c.nodes, c.perNode) + c.demandLoad(), Jobs: len(c.real), Samples: len(rec.Samples), CPUs: c.cpus,
		RunTimesFromLog: c.fromLog, RunTimesLonger: c.longer, NoTimeLimit: c.noLimit, LimitsCut: c.cutLimits}
	var halfLife int64
	if cfg, _, err := siteConfig(c); err == nil {
		halfLife = cfg.DecayHalfLife
	}
	res.Slurm, res.SlurmNotMeasured = measureSlurm(c, halfLife)
	waits := make([]int64, len(c.real))
	var sum, last int64
	for i, r := range c.real {
		waits[i] = r.Start - r.Submit
		sum += waits[i]
		last = max(last, r.End)
	}
	slices.Sort(waits)
	res.Waits = [3]int64{waits[len(waits)/2], sum / int64(len(waits)), waits[len(waits)-1]}
	res.Span = last - (c.jobs[0].Submit + c.origin)
	var lastRun int64
	for i, r := range c.real {
		lastRun = max(lastRun, r.Start+c.jobs[i].RunTime)
	}
	res.SpanRunTimes = lastRun - (c.jobs[0].Submit + c.origin)
	res.Phase = -1
	for _, d := range rec.Decays {
		if d <= c.real[0].Submit*1000 {
			res.Phase = c.real[0].Submit*1000 - d
		}
	}
	res.Backfilled = -1
	if len(rec.Log) > 0 {
		bf := 0
		for _, l := range rec.Log {
			if _, ok := c.index[l.ID]; ok && l.Backfill {
				bf++
			}
		}
		res.Backfilled = float64(bf) / float64(len(c.real))
	}
	for _, run := range []func(context.Context, *checked) (*simulated, error){runSlurm, runSlurmCPUs, runEASY} {
		s, err := run(ctx, c)
		if err != nil {
			return nil, err
		}
		if s == nil {
			continue
		}
		f, err := score(c, s)
		if err != nil {
			return nil, err
		}
		res.Figures = append(res.Figures, f)
	}
	return res, nil
}

// table is the README's region for one recording: the workload and the
// figures.
func table(r *result) string {
	var b strings.Builder
	b.WriteString(r.head())
	fmt.Fprintf(&b, "| simulation | competing pairs in Slurm's order | all pairs in Slurm's order | started within bf_interval (%d s) | mean \\|start error\\| | backfilled | first submission to last end | priority samples | mean \\|priority error\\| | relative |\n", bfInterval)
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, f := range r.Figures {
		b.WriteString(f.row() + "\n")
	}
	b.WriteString(r.tail())
	return b.String()
}

// head describes the workload and what Slurm did with it.
func (r *result) head() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nSlurm's waits: median %d s, mean %d s, longest %d s; %d s from the first submission to the last end; %d samples of the pending jobs' priorities (sprio, every %v)",
		r.Workload, r.Waits[0], r.Waits[1], r.Waits[2], r.Span, r.Samples, sampleEvery)
	if r.Backfilled >= 0 {
		fmt.Fprintf(&b, "; backfill started %.1f%% of the jobs (slurmctld's log), the main scheduler the rest", 100*r.Backfilled)
	}
	if r.Phase >= 0 {
		fmt.Fprintf(&b, "; Slurm recalculated priorities every PriorityCalcPeriod from about %.0f s before the first submission (the policy: from the first submission on)", float64(r.Phase)/1000)
	}
	b.WriteString("; " + r.runTimes())
	if t := noLimitText(r.NoTimeLimit); t != "" {
		b.WriteString("; " + t)
	}
	if t := cutLimitText(r.LimitsCut); t != "" {
		b.WriteString("; " + t)
	}
	b.WriteString(".\n\n")
	return b.String()
}

// runTimes says where the simulations' run times come from: how many are
// slurmctld's logged durations rounded up, and how many of those differ
// from sacct's End − Start.
func (r *result) runTimes() string {
	return fmt.Sprintf("the simulations' run times: for %d of the %d jobs slurmctld's logged duration rounded up to the second (for %d of them a second or more longer than sacct's End − Start), for the other %d End − Start",
		r.RunTimesFromLog, r.Jobs, r.RunTimesLonger, r.Jobs-r.RunTimesFromLog)
}

// row is a table row of the figures, from its second column on.
func (f *figures) row() string {
	prio := "| – | n/a | n/a |"
	if f.PrioAbs != nil {
		prio = fmt.Sprintf("| %d | %.0f | %.1f%% |", f.PrioSamples, *f.PrioAbs, 100**f.PrioRel)
	}
	return fmt.Sprintf("| %s | %.1f%% of %d | %.1f%% of %d | %.1f%% | %.1f s | %.1f%% | %d s %s", f.Name, 100*f.Agree, f.Pairs, 100*f.AllAgree, f.AllPairs, 100*f.Within, f.MeanError, 100*f.Backfilled, f.Span, prio)
}

// tail is the text under the table: the policy's priorities before the
// first recalculation, the goals, and Slurm's own pace.
func (r *result) tail() string {
	var b strings.Builder
	for _, f := range r.Figures {
		if f.Name == slurmName {
			met := func(v, goal float64) string {
				if v >= goal {
					return "met"
				}
				return "not met"
			}
			if f.PrioFirst != nil {
				fmt.Fprintf(&b, "\nThe policy's priorities before Slurm's first recalculation (set at submission: job size, partition, QOS, fair share without usage): mean error %.1f over %d samples.\n", *f.PrioFirst, f.PrioFirstSamples)
			}
			fmt.Fprintf(&b, "\nGoals for the Slurm policy: ≥ %.0f%% of competing pairs in Slurm's order, %s (%.1f%%); ≥ %.0f%% of jobs within one bf_interval, %s (%.1f%%).\n",
				100*goalAgree, met(f.Agree, goalAgree), 100*f.Agree, 100*goalWithin, met(f.Within, goalWithin), 100*f.Within)
		}
	}
	for _, f := range r.Figures {
		if p := f.Plan; p != nil && (p.Drift > 0 || p.Refused > 0) {
			fmt.Fprintf(&b, "\n%s: its backfill plan on named nodes parted from the machine: %d cycles planned on the pool of CPUs (the plan's GPUs in use differed from the machine's), "+
				"%d starts it found room for refused by the machine (planned a second later); those starts are planned less exactly than Slurm's.\n", f.Name, p.Drift, p.Refused)
		}
	}
	if r.Slurm != nil {
		b.WriteString("\n" + r.Slurm.text(r.CPUs))
	}
	if r.SlurmNotMeasured != "" {
		fmt.Fprintf(&b, "\nSlurm's own pace (slurmctld's log): not measured: %s.\n", r.SlurmNotMeasured)
	}
	return b.String()
}
