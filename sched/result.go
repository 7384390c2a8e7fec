package sched

import (
	"context"
	"maps"
	"math"
	"math/bits"
	"slices"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// Record is what happened to one sane job.
type Record struct {
	// Job is the trace line given to Load (a copy of the one given to
	// Submit, with its submit time): the log's values, unchanged. The
	// simulated ones are the fields below; SWF combines both.
	Job *swf.Job
	// Size, Estimate and RunTime are the job as simulated: processors
	// (S5), the estimate used (S6 filled in), the run time (the estimate
	// if killed), each as Config.Peer builds them if set. On a machine of
	// Nodes, Size is the cores the job's demand asks when it gives them
	// (Nodes × Cores): the machine's size is its cores, and a GPU trace's
	// processors are GPUs (the rule size_from_demand); processors that
	// the demand's cores per node split, rounded up, stay the size.
	Size, Estimate, RunTime int64
	Start, End              int64   // -1 if it never started / ended
	Wait                    int64   // Start − Submit
	BSLD                    float64 // bounded slowdown max(1, (w+r)/max(τ, r))
	Slowdown                float64 // (w+r)/max(r, 1 s)
	Prediction              int64   // prediction before any correction (at arrival, or the last propagated one)
	Final                   int64   // prediction at the end (after corrections)
	Accuracy                float64 // time-weighted from submission (§3.4)
	// Corrections counts every correction; PostEstimate those made with p ≥ e (S15).
	Corrections, PostEstimate int
	// FirstReservation is the first reservation time, -1 if none (§3.5).
	FirstReservation int64
	Backfilled       bool
	EstimateFilled   bool // the log had no estimate (S6)
	Cancelled        bool
	// Killed: the job reached its estimate and was ended there
	// (Config.KillAtEstimate); RunTime is then the estimate, or with
	// Config.KillCheck the time to the first check at or after it.
	Killed   bool
	Included bool // in the averaged set (S7)
	// rules are the job-building rules that changed the job (Changes),
	// but for the two the fields EstimateFilled and Killed hold.
	rules rule
}

// SWF returns the job's line as simulated: the log's line with the
// simulated wait (−1 if it never started), the estimate, run time and
// processors used, and status 0 (failed) if it was killed. A job a peer
// mode moved in time (Config.Peer) has its simulated submit time.
func (r *Record) SWF() swf.Job {
	j := *r.Job
	j.Wait = swf.Unknown
	if r.Start >= 0 {
		j.Wait = r.Wait
		j.Submit = r.Start - r.Wait
	}
	j.ReqTime, j.RunTime, j.AllocProcs = r.Estimate, r.RunTime, r.Size
	if j.ReqProcs <= 0 {
		j.ReqProcs = r.Size
	}
	if r.Killed {
		j.Status = swf.StatusFailed
	}
	return j
}

// Result is the outcome of a simulation.
type Result struct {
	Records  []Record // in Load/Submit order
	Rejected sanitize.Report
	Summary  Summary
	// Policy names the Scheduler (its Name method, else its Go type),
	// not a preset: a preset's Config also holds a predictor and a
	// correction, which the Scheduler does not know. EASY++, EASY_SJBF
	// and PERFECT++ share one, "EASY(queue=arrival,backfill=prediction)";
	// Preset.Name names the preset.
	Policy string
	// Refused counts the Pass actions the simulator refused as a policy's
	// error (ErrNotWaiting, ErrOutOfRange, ErrStalePass; not ErrNoFit,
	// the outcome of a probe). The built-ins have none.
	Refused int
	// NoNode counts, on a machine of nodes, the jobs rejected as
	// sanitize.FitsNoNode by what no node has enough of: "cores",
	// "memory", "GPUs", "GPU model", "named resource X" (the first
	// lacking, by name), "whole node", "nodes" (fewer nodes than asked)
	// or "invalid demand".
	NoNode map[string]int

	machine     *machine // Check's machine of nodes, nil for one pool
	machineSize int64
	shares      *shareArena // the records' node shares (held.at), with KeepShares
	held        []held      // what each record's job held, on a machine of nodes (Use)
	keptShares  bool
	promises    bool // the policy never delays a reservation if predictions are exact
	// folded counts the jobs per rule (Changed) with Config.SummaryOnly,
	// which keeps no Records; nil otherwise.
	folded *[nRules]int
}

// Summary holds the §3 metrics averaged over the included jobs (S7: all
// completed jobs but the first 1% in termination order and those ending
// after the last arrival).
type Summary struct {
	Jobs      int // completed jobs
	Included  int // averaged
	Excluded  int // warm-up and cool-down
	Cancelled int
	Rejected  int // not sane, or a duplicate ID (sanitize.DuplicateID)
	Filled    int // estimates filled in (S6)
	// NoEstimate counts the records whose line had no user estimate
	// (field 9 ≤ 0), whatever the mode made of it: filled in (S6, Filled)
	// or, in a peer mode, a 1-second run. KillAtEstimate never ends them.
	NoEstimate int
	Killed     int // ended at their estimate (Config.KillAtEstimate)
	// Overran counts the started jobs that ran more than twice their
	// estimate. Each one holds processors long after every prediction of
	// it expired (S3), which a backfilling scheduler cannot plan around: if
	// there are many, consider Config.KillAtEstimate. A killed job is not
	// counted: under Config.KillCheck one whose estimate is shorter than
	// the wait to the next check runs past twice it, ended by the kill
	// all the same (reports said "consider -kill" of a run with -kill).
	Overran int

	MeanWait     float64 // seconds
	MeanResponse float64 // seconds
	MeanSlowdown float64 // jobs with r > 0 only
	MeanBSLD     float64
	Accuracy     float64 // mean time-weighted accuracy, 0..1
	BackfillRate float64 // fraction backfilled
	// MeanCorrections and SDCorrections per job.
	MeanCorrections, SDCorrections float64
	// Utilization is the §3.6 load of the simulated schedule over
	// [WindowStart, WindowEnd] (end of the last warm-up job, last arrival):
	// Σ Size·ℓ over the machine's processors; on a machine of Nodes, the
	// share of its cores the jobs' sizes took. That is Result.Use's cores
	// over the same window, less what Use counts beyond Size: the rest of
	// the whole nodes an exclusive job takes, and processors split
	// unevenly over a demand's nodes (10 on 3 nodes hold 4 cores on each:
	// 12).
	Utilization            float64
	WindowStart, WindowEnd int64
	Predictability         Predictability
}

// Predictability is §3.5 over the included jobs that got a reservation.
type Predictability struct {
	Rate                            float64 // fraction of included jobs with a reservation
	AbsMean, AbsMedian, AbsSD       float64 // |start − R| in seconds
	DelayRate                       float64 // fraction of included jobs with start > R
	DelayMean, DelayMedian, DelaySD float64
}

func (s *Sim) result() *Result {
	// Jobs still waiting or running (none after Finish) keep what they have.
	s.waitFCFS.Ascend(func(j *Job) bool { s.close(j); return true })
	s.run.Ascend(func(j *Job) bool { s.close(j); return true })
	res := &Result{Records: s.recs, Rejected: s.rejected, Policy: policyName(s.sched), Refused: s.refused}
	if s.summ != nil {
		// The records still open (never started, or not ended) count
		// as they are.
		for k := s.recHead; k < len(s.recs); k++ {
			if r := &s.recs[k]; r.End < 0 {
				s.summ.fold(r)
			}
		}
		s.recs, s.recBase, s.recHead = nil, s.recBase+len(s.recs), 0
		res.Records, res.folded = nil, &s.summ.rules
	}
	switch p := s.sched.(type) {
	case conservativeScheduler:
		res.promises = true
	case EASYScheduler:
		res.promises = kindOf(p.Queue) == ByArrival
	}
	// A waiting job re-predicted (propagation) may have held a
	// reservation made for another length, which moves when its
	// prediction changes; its record keeps only the last prediction.
	res.promises = res.promises && !s.repredicted
	for _, i := range s.tieRuns { // runs of jobs ending at one instant, into record order
		end, k := s.recs[s.ended[i]].End, i+1
		for k < len(s.ended) && s.recs[s.ended[k]].End == end {
			k++
		}
		slices.Sort(s.ended[i:k])
	}
	s.tieRuns = s.tieRuns[:0]
	if s.summ != nil {
		res.Summary = s.summ.summary(s.cfg.MachineSize, s.lastSubmit)
	} else {
		res.Summary = summarize(res.Records, s.cfg.MachineSize, s.ended, s.lastSubmit)
	}
	res.Summary.Rejected = len(s.rejected.Excluded)
	res.NoNode = maps.Clone(s.noNode)
	res.machine, res.machineSize, res.shares, res.held, res.keptShares = s.m, s.cfg.MachineSize, &s.shares, s.held, s.cfg.KeepShares
	return res
}

// close writes a live job's outcome into its record, when it ends or is
// cancelled.
func (s *Sim) close(jb *Job) {
	if s.summ != nil && jb.end >= 0 { // (SummaryOnly is on one pool: Validate)
		s.foldLive(jb) // final: folded from the live job, then let go
		return
	}
	rec := s.rec(jb.idx)
	rec.Estimate, rec.RunTime = jb.e, jb.r
	rec.Start, rec.End = jb.start, jb.end
	rec.Prediction, rec.Final = jb.p0, jb.p
	rec.Backfilled = jb.backfill
	rec.Corrections, rec.PostEstimate = jb.nCorr, jb.kPost
	rec.FirstReservation = jb.firstRes
	rec.EstimateFilled = jb.filled
	if s.m != nil && jb.start >= 0 {
		if len(s.held) < len(s.recs) { // records only grow: so does held, amortised
			s.held = slices.Grow(s.held, len(s.recs)-len(s.held))[:len(s.recs)]
		}
		h := &s.held[jb.idx]
		*h = held{}
		if s.cfg.KeepShares {
			// Kept as placed, runs of nodes whole (see share): cut into a
			// share per node they took 32 bytes per node a job held, 1.3
			// GB on CEA-Curie's 5,832 nodes (Check and Shares read runs).
			h.at, h.n = s.shares.add(jb.alloc), int32(len(jb.alloc))
		}
		h.cores, h.mem, h.gpus = jb.held, jb.heldMem, jb.heldGPUs
	}
	rec.Cancelled = jb.state == cancelled
	rec.Killed = jb.killed && jb.start >= 0 // not if cancelled before it started
	if jb.start >= 0 {
		rec.Wait = jb.start - jb.j.Submit
		if s.summ == nil { // (SummaryOnly: no record is seen, the fold computes its own)
			rec.BSLD, rec.Slowdown = slowdowns(rec.Wait, jb.r, s.cfg.bsldThreshold())
		}
	}
	if jb.state == done {
		if d := jb.end - jb.j.Submit; d > 0 {
			rec.Accuracy = jb.accSum / float64(d)
		} else {
			rec.Accuracy = accuracy(jb.p, jb.r)
		}
	}
}

// count adds record r to the counts that do not depend on the order of
// the records: Killed, Overran, Cancelled and Filled (summarize's, and
// Config.SummaryOnly's as each record is folded).
func (sum *Summary) count(r *Record) {
	if r.Killed {
		sum.Killed++
	}
	if r.Start >= 0 && !r.Killed && r.Estimate > 0 && r.RunTime > 2*r.Estimate {
		sum.Overran++
	}
	if r.Cancelled {
		sum.Cancelled++
	}
	if r.EstimateFilled {
		sum.Filled++
	}
}

// summarize is the S7 rule and the §3 metrics given the records of the completed jobs (ended
// and not cancelled) in termination order, ties by record order, and the
// largest submit time among the records.
func summarize(recs []Record, P int64, ended []int32, lastSubmit int64) Summary {
	var sum Summary
	sum.Jobs = len(ended)
	warm := len(ended) / 100
	sum.WindowEnd = lastSubmit
	if warm > 0 {
		sum.WindowStart = recs[ended[warm-1]].End
	} else if len(ended) > 0 {
		sum.WindowStart = math.MaxInt64
		for _, i := range ended {
			// the simulated submit, not the line's: a peer mode moves
			// an unknown (-1) one to 1, and the window must not open
			// before any job was there
			sum.WindowStart = min(sum.WindowStart, recs[i].Start-recs[i].Wait)
		}
	}
	// One pass in record order: the counts, and Load's area (same order,
	// same rounding).
	var area float64
	for i := range recs {
		r := &recs[i]
		r.Included = false
		sum.count(r)
		if r.Job.ReqTime <= 0 {
			sum.NoEstimate++
		}
		area += r.busy(sum.WindowStart, sum.WindowEnd)
	}
	if sum.WindowEnd > sum.WindowStart && P > 0 {
		sum.Utilization = area / (float64(P) * float64(sum.WindowEnd-sum.WindowStart))
	}
	// The sums run in termination order, which fixes their rounding.
	// reserved has room for its count, taken first: grown by appends it
	// allocated about five times its size at the run's peak.
	nres := 0
	for k, i := range ended {
		if r := &recs[i]; k >= warm && r.End <= lastSubmit && r.FirstReservation >= 0 {
			nres++
		}
	}
	reserved, delayed := make([]float64, 0, nres), []float64(nil)
	var pos float64 // included jobs with r > 0
	for k, i := range ended {
		r := &recs[i]
		if k < warm || r.End > lastSubmit {
			continue
		}
		r.Included = true
		sum.Included++
		sum.MeanWait += float64(r.Wait)
		sum.MeanResponse += float64(r.Wait + r.RunTime)
		if r.RunTime > 0 {
			sum.MeanSlowdown += r.Slowdown
			pos++
		}
		sum.MeanBSLD += r.BSLD
		sum.Accuracy += r.Accuracy
		if r.Backfilled {
			sum.BackfillRate++
		}
		if r.FirstReservation >= 0 {
			d := float64(r.Start - r.FirstReservation)
			reserved = append(reserved, math.Abs(d))
			if d > 0 {
				delayed = append(delayed, d)
			}
		}
	}
	sum.Excluded = sum.Jobs - sum.Included
	if n := float64(sum.Included); n > 0 {
		sum.MeanWait /= n
		sum.MeanResponse /= n
		if pos > 0 {
			sum.MeanSlowdown /= pos
		}
		sum.MeanBSLD /= n
		sum.Accuracy /= n
		sum.BackfillRate /= n
		sum.MeanCorrections, sum.SDCorrections = correctionsSD(recs, ended)
		pr := &sum.Predictability
		pr.Rate = float64(len(reserved)) / n
		pr.AbsMean, pr.AbsSD = meanSD(reserved)
		pr.AbsMedian = median(reserved)
		pr.DelayRate = float64(len(delayed)) / n
		pr.DelayMean, pr.DelaySD = meanSD(delayed)
		pr.DelayMedian = median(delayed)
	}
	return sum
}

// Utilization is the §3.6 load Σ n·ℓ / (P·(end−start)) of the records
// that started, each clipped to [start, end], on P processors: the load
// of any window of the schedule (Summary.Utilization is the S7 window's).
// n is Record.Size: on a machine of Nodes the cores a demand asks, so P
// is then the machine's cores.
func (r *Result) Utilization(P, start, end int64) float64 {
	if end <= start || P <= 0 {
		return 0
	}
	var area float64
	for i := range r.Records {
		area += r.Records[i].busy(start, end)
	}
	return area / (float64(P) * float64(end-start))
}

// busy is the processor-seconds the record's job ran within [start, end]
// (0 if it never started or ended).
func (r *Record) busy(start, end int64) float64 {
	if r.Start < 0 || r.End < 0 {
		return 0
	}
	if l := min(end, r.End) - max(start, r.Start); l > 0 {
		return float64(r.Size) * float64(l)
	}
	return 0
}

// correctionsSD is meanSD of the included jobs' corrections in
// termination order, read from the records in two passes rather than
// copied into a list of them all (8 bytes a job, allocated while every
// record is live).
func correctionsSD(recs []Record, ended []int32) (mean, sd float64) {
	n := 0
	for _, i := range ended {
		if r := &recs[i]; r.Included {
			mean += float64(r.Corrections)
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	mean /= float64(n)
	for _, i := range ended {
		if r := &recs[i]; r.Included {
			x := float64(r.Corrections)
			sd += (x - mean) * (x - mean)
		}
	}
	return mean, math.Sqrt(sd / float64(n))
}

// summand is a list's element for meanSD and median: the float64 values
// of integers, or the integers themselves in 32 bits (half the memory:
// foldSummary's list of reserved jobs' offsets), which give the same sums
// and middle values, converted one by one.
type summand interface{ ~int32 | ~float64 }

func meanSD[T summand](xs []T) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += float64(x)
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (float64(x) - mean) * (float64(x) - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)))
}

// median is the middle value of xs, the mean of the two middle ones for
// an even count (0 for none), as a sort would give it, but found by
// selection: the sort of the reservation lists was 1% of an EASY run's
// instructions on LANL-CM5. xs holds no NaN and no -0 (|d| and d > 0 of
// integer d), so the middle values are the same however they are found;
// xs is reordered, which its callers no longer read (a copy was the size
// of the list again, at the run's peak).
func median[T summand](xs []T) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	k := n / 2
	hi := nth(xs, k)
	if n%2 == 1 {
		return float64(hi)
	}
	return (float64(slices.Max(xs[:k])) + float64(hi)) / 2 // (nth left the k smallest first)
}

// nth reorders xs so that xs[k] is the value a sort would put there, none
// before it larger and none after it smaller, and returns it: Wirth's
// selection (Hoare's partition around xs[k]), sorting what is left once
// the partitions have not narrowed enough (an adversarial order).
func nth[T summand](xs []T, k int) T {
	lo, hi := 0, len(xs)-1
	for budget := 2*bits.Len(uint(len(xs))) + 8; lo < hi; budget-- {
		if budget == 0 || hi-lo < 12 {
			slices.Sort(xs[lo : hi+1])
			break
		}
		p, i, j := xs[k], lo, hi
		for i <= j {
			for xs[i] < p {
				i++
			}
			for p < xs[j] {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		// xs[lo:i] <= p <= xs[j+1:hi+1]; between j and i, p itself.
		if j < k {
			lo = i
		}
		if k < i {
			hi = j
		}
	}
	return xs[k]
}

// Run simulates jobs (the sane ones; the rest are counted in
// Result.Rejected) under cfg and returns per-job records and the summary.
// The observers are told every submission, start, end and reservation as
// it happens (a fair-share policy learns usage from OnStart and OnEnd). A
// Scheduler that leaves jobs waiting at the end is an error (ErrStall),
// returned with the Result. ctx is heard before the jobs are loaded,
// every few thousand jobs while they load (Sim.LoadContext) and at every
// instant of the simulation (Sim.FinishContext). Once ctx is done, Run
// returns its error and no Result.
func Run(ctx context.Context, cfg Config, jobs []swf.Job, obs ...Observer) (*Result, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, o := range obs {
		s.Observe(o)
	}
	if err := s.load(ctx, jobs); err != nil {
		return nil, err
	}
	return s.finish(ctx)
}

// Changed counts, per rule, the jobs a job-building rule changed: a
// missing field filled in, an invalid line turned into a 1-second job, a
// run cut to the estimate, a kill (the rule names of Record.Changes;
// Peer's table says which mode applies which). A job can count
// under several rules; nil when no rule changed a job. When most jobs
// count under some rule, the schedule says more about the rule than about
// the log. (A method, not a Summary field, so that Summary stays a
// comparable value.)
func (r *Result) Changed() map[string]int {
	var m map[string]int
	if r.folded != nil {
		for i, n := range r.folded {
			if n > 0 {
				if m == nil {
					m = make(map[string]int)
				}
				m[ruleNames[i]] = n
			}
		}
		return m
	}
	for i := range r.Records {
		m = r.Records[i].changes().count(m)
	}
	return m
}
