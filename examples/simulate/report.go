package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf/convert"
)

// rejections counts Result.Rejected by reason, in the sane predicate's order.
func rejections(rep *sanitize.Report) (reasons []sanitize.Reason, count map[sanitize.Reason]int) {
	count = map[sanitize.Reason]int{}
	for ex := rep.Excluded; len(ex) > 0; { // (a run of one reason at a time, as cli.ByReason)
		r, n := ex[0].Reason, 1
		for n < len(ex) && ex[n].Reason == r {
			n++
		}
		if count[r] == 0 {
			reasons = append(reasons, r)
		}
		count[r] += n
		ex = ex[n:]
	}
	slices.Sort(reasons)
	return reasons, count
}

// warning is one remark on the input or the run: its line of text and its
// JSON twin, the same figures under the warning's kind in the report's
// warning_data.
type warning struct {
	kind string
	text string
	data any
}

// warnings are the remarks on the input and the run, one line each. Every
// one carries its figures for -json (report.WarningData).
func warnings(info *runInfo) []warning {
	var ws []warning
	add := func(kind string, data any, format string, a ...any) {
		ws = append(ws, warning{kind, fmt.Sprintf(format, a...), data})
	}
	st := info.trace.stats
	if w := (cli.Skipped{Lines: st.Skipped, Errors: cli.SkippedOf(st).Errors}).Note(); w != "" {
		add("skipped", map[string]int{"lines": st.Skipped}, "%s", w) // (the rounded fields: their own warning below)
	}
	if st.OutOfOrder > 0 {
		lines := "job lines"
		if st.OutOfOrder == 1 { // ("1 job lines")
			lines = "job line"
		}
		add("out_of_order", map[string]int{"lines": st.OutOfOrder},
			"%d %s earlier than the line before them (simulated in submit order)", st.OutOfOrder, lines)
	}
	if st.LateComments > 0 {
		add("late_comments", map[string]int{"lines": st.LateComments}, "%d comment lines after the first job line", st.LateComments)
	}
	if d, r := info.slurmDrift, info.slurmRefused; d > 0 || r > 0 {
		// (0 while the named-node plan chooses GPUs as the machine does)
		add("slurm_plan_misses", map[string]int{"drift_cycles": d, "refused_starts": r},
			"the Slurm policy's backfill plan on named nodes parted from the machine: %d cycles planned on the pool of CPUs "+
				"(the plan's GPUs in use differed from the machine's), %d starts it found room for refused by the machine "+
				"(planned a second later); those jobs' starts are planned less exactly than Slurm's", d, r)
	}
	if z := info.trace.zeros; z > 0 {
		add("trailing_zero_bytes", map[string]int64{"bytes": z}, "%d zero bytes after the last gzip member ignored", z)
	}
	if len(st.Warnings) > 0 {
		msgs := make([]string, len(st.Warnings))
		for i, w := range st.Warnings {
			msgs[i] = w.Error()
		}
		for _, m := range msgs {
			add("header", map[string][]string{"messages": msgs}, "header: %s", m)
		}
	}
	// The rounded fields a simulation reads: submit, run and requested
	// time (fields 2, 4, 9); a fraction in the wait or the think time (3,
	// 18) changes no schedule, batchq's or pyss's (whose parser converts
	// a field only when it is read; predictsim's descends from it).
	simRounded := st.RoundedFields[1] + st.RoundedFields[3] + st.RoundedFields[8]
	if st.Rounded > 0 && simRounded == 0 {
		add("rounded", map[string]int{"fields": st.Rounded, "simulated_fields": 0},
			"%s, all in the wait or the think time (fields 3, 18), which no simulation reads: the schedule is that of the whole seconds", cli.RoundedNote(st.Rounded))
	} else if st.Rounded > 0 {
		if p := info.cfg.Peer; p != sched.PeerNone {
			// The peers read field 4 as a float and truncate it when
			// they build the job, and fail on a fraction in the other
			// fields they read: a rounded run can be a second off the
			// peer's, and a run under half a second is a valid 1-second
			// job with its estimate there, an invalid one here.
			add("rounded", map[string]any{"fields": st.Rounded, "peer": p.String()},
				"%s; the peer truncates a run time's fraction (field 4) and fails on a fraction in the other fields it reads, so -compat %s can differ from %s on these jobs",
				cli.RoundedNote(st.Rounded), p, p)
		} else {
			add("rounded", map[string]int{"fields": st.Rounded}, "%s", cli.RoundedNote(st.Rounded))
		}
	}
	if b := cli.BelowNote(st); b != "" {
		add("below_unknown", map[string]any{"fields": st.BelowUnknown, "by_field": cli.BelowByField(st)}, "%s", b)
	}
	if st.UnknownSubmit > 0 {
		add("unknown_submit", map[string]int{"lines": st.UnknownSubmit}, "%d job lines with an unknown submit time (-1)", st.UnknownSubmit)
	}
	if n := info.partialOnly.Jobs(); n > 0 {
		// (their lines are among the rejected "partial execution", whose
		// job is taken to be simulated by its summary line)
		add("partial_only", map[string]int{"jobs": n},
			"%d jobs given by partial-execution lines only (status 2, 3, 4; no summary line under their number): left out whole, their lines among the rejected partial executions", n)
	}
	if o := cli.OtherStatusOf(st); o.Lines > 0 {
		add("other_status", map[string]any{"lines": o.Lines, "by_status": o.Keys()}, "%s", o.Note())
	}
	sum := &info.res.Summary
	if simulated(info.res) == 0 {
		add("nothing_simulated", map[string]int{"jobs_read": info.trace.read}, "no job was simulated: every line was rejected")
	}
	if n := simulated(info.res); n > 0 && sum.Included == 0 {
		// A log submitted at one instant ends every job after its last
		// arrival: the means then average no job, and 0 is not their value.
		add("nothing_averaged", map[string]int{"jobs_simulated": n, "excluded": sum.Excluded},
			"none of the %d simulated jobs is averaged (S7 leaves out the first 1%% to end and those ending after the last arrival, here all): the means, bsld and utilization below describe no job", n)
	}
	if sum.Overran > 0 {
		add("overran", map[string]int{"jobs": sum.Overran},
			"%d jobs ran more than twice their estimate and held processors long after every prediction of them expired (S3); consider -kill",
			sum.Overran)
	}
	if info.cfg.KillAtEstimate && sum.NoEstimate > 0 {
		data := map[string]int{"no_estimate": sum.NoEstimate, "jobs_simulated": simulated(info.res)}
		if info.cfg.Peer != sched.PeerNone {
			// A peer builds a job without an estimate as a 1-second run
			// and no estimate is filled (sched.Peer's table): "ran their
			// logged time" was false there, beside the degenerate
			// warning's "ran 1 second". -kill itself changes nothing.
			add("kill_no_estimate", data,
				"%d of %d jobs had no estimate (field 9): -compat %s ran each 1 second, as the peer does; -kill changes nothing in a peer mode (the peer already cuts every run at its estimate)",
				sum.NoEstimate, simulated(info.res), info.cfg.Peer)
		} else {
			add("kill_no_estimate", data,
				"%d of %d jobs had no estimate (field 9): -kill did not end them, they ran their logged time (S6 filled in an estimate for planning only)",
				sum.NoEstimate, simulated(info.res))
		}
	}
	if d := degenerateEMax(info); d != nil {
		add("degenerate_e_max", d, "%s", d.Text("the schedule planned them with it (examples/estimates -emax writes the log with another E_max)"))
	}
	if d := degeneracy(info.res, info.changed(), info.slurmCancelled, info.waited(), info.partialOnly.Jobs()); d != nil {
		add("degenerate", d, "%s", d.text())
	}
	return ws
}

// degenerateEMax is the log's largest estimate if it is one corrupt
// value (cli.DegenerateEMax, the rule examples/estimates warns by) and S6
// filled jobs with it: the jobs it reached are those filled and those
// that asked it. nil otherwise: no job filled, or filled otherwise (a
// peer, -slurm-conf).
func degenerateEMax(info *runInfo) *cli.DegenerateEMax {
	sum := &info.res.Summary
	if sum.Filled == 0 || info.cfg.Peer != sched.PeerNone || info.cfg.MaxEstimate != 0 || info.policy.Name == slurmPreset.Name {
		return nil
	}
	d := info.eMax.Degenerate()
	if d != nil {
		d.Reached(min(sum.Filled+info.eMax.AtMax, simulated(info.res)), simulated(info.res))
	}
	return d
}

// degenerate describes a schedule that says more about the rules that
// built its jobs than about the log: most jobs rejected (a header's
// machine smaller than most jobs, a log of repeated numbers: the schedule
// is of the few left), most jobs cancelled at submission by the Slurm
// policy (an unknown partition, a partition's limits), most jobs made
// 1-second jobs, most jobs changed by one rule, utilization near 0, every
// wait 0.
type degenerate struct {
	Symptoms   []string       `json:"symptoms"`
	Jobs       int            `json:"jobs_simulated"`
	Rejected   int            `json:"jobs_rejected"`
	RejectedBy map[string]int `json:"rejected"` // reason → count, as the report's rejected, partial lines aside
	rejectedBy map[string]int // the same in the text's words
	// PartialLines are the lines of partial executions left out (status
	// 2, 3 or 4: one run of a checkpointed job, whose summary line is
	// simulated), not jobs: a log of checkpointed jobs, several such
	// lines a job, read as "mostly rejected" when they were counted so.
	PartialLines  int            `json:"partial_lines,omitempty"`
	Cancelled     int            `json:"jobs_cancelled,omitempty"` // -slurm-conf: cancelled at submission
	CancelledBy   map[string]int `json:"cancelled,omitempty"`      // reason → count (Slurm's words)
	OneSecondJobs int            `json:"one_second_jobs"`          // run 1 s or less as simulated, not as logged
	Utilization   float64        `json:"utilization"`
	AllWaitsZero  bool           `json:"all_waits_zero"`
	MostlyChanged []string       `json:"mostly_changed_by"` // rules that changed more than half the jobs
	Changed       map[string]int `json:"changed"`           // jobs changed per rule (sched.Result.Changed)
}

// Thresholds of degeneracy: more than half of the jobs, utilization
// below 1%.
const (
	degenerateShare       = 0.5
	degenerateUtilization = 0.01
)

// waited reports whether any simulated job waited, averaged or not:
// "every wait 0 s" had been said of the averaged jobs' mean wait where a
// job S7 leaves out (the first 1% to end, those ending after the last
// arrival) had waited (-compat pyss -kill on four jobs, one of which
// waited 40 s). The streaming path, which keeps no records, has its
// observer tell (streamLog.waited), so that both paths give the same
// report.
func (info *runInfo) waited() bool {
	if info.streamed {
		return info.streamWaited
	}
	return slices.ContainsFunc(info.res.Records, func(r sched.Record) bool { return r.Wait > 0 })
}

// simulated is the number of jobs simulated: the records, or their count
// when the run kept none (sched.Config.SummaryOnly).
func simulated(res *sched.Result) int { return res.Rejected.Kept }

// oneSecondJobs counts the simulated jobs that ran at most 1 second
// although the log says otherwise (a peer's or a kill's doing).
func oneSecondJobs(res *sched.Result) int {
	n := 0
	for i := range res.Records {
		if r := &res.Records[i]; r.RunTime <= 1 && r.RunTime != r.Job.RunTime {
			n++
		}
	}
	return n
}

// degeneracy returns the symptoms of a degenerate schedule, nil if it
// shows none. Every wait 0 counts only beside another symptom: a lightly
// loaded machine legitimately starts every job at once. changed is
// res.Changed() (runInfo.changed); cancelled, the jobs the Slurm policy
// cancelled at submission by reason (nil without -slurm-conf); waited,
// whether any simulated job waited (runInfo.waited); partialOnly, the jobs
// given by partial lines only (cli.PartialOnly), rejected jobs whose lines
// are among the partial ones (a log of 10 whole jobs and 90 such ones
// simulated 10 with no degenerate warning).
func degeneracy(res *sched.Result, changed, cancelled map[string]int, waited bool, partialOnly int) *degenerate {
	n := simulated(res)
	if n == 0 {
		return nil
	}
	sum := &res.Summary
	d := &degenerate{Jobs: n, OneSecondJobs: oneSecondJobs(res), Utilization: sum.Utilization,
		AllWaitsZero: sum.Included > 0 && !waited, Changed: changed}
	d.rejectedBy = cli.ByReason(res.Rejected)
	d.PartialLines = cli.TakePartial(d.rejectedBy)
	d.Rejected = len(res.Rejected.Excluded) - d.PartialLines
	if partialOnly > 0 {
		d.Rejected += partialOnly
		d.rejectedBy["partial lines only"] = partialOnly
	}
	d.RejectedBy = cli.ReasonKeys(d.rejectedBy)
	if float64(d.Rejected) > degenerateShare*float64(d.Rejected+n) {
		d.Symptoms = append(d.Symptoms, "mostly_rejected")
	}
	for _, k := range cancelled {
		d.Cancelled += k
	}
	if float64(d.Cancelled) > degenerateShare*float64(n) { // (they are among the n simulated)
		d.Symptoms = append(d.Symptoms, "mostly_cancelled")
		d.CancelledBy = cancelled
	}
	if float64(d.OneSecondJobs) > degenerateShare*float64(n) {
		d.Symptoms = append(d.Symptoms, "one_second_jobs")
	}
	// (the rules that fill a value from the same line are left out there)
	if d.MostlyChanged = cli.MostlyChanged(d.Changed, n); len(d.MostlyChanged) > 0 {
		d.Symptoms = append(d.Symptoms, "mostly_changed_by_rule")
	}
	if sum.Included > 0 && sum.Utilization < degenerateUtilization {
		d.Symptoms = append(d.Symptoms, "utilization_near_zero")
	}
	if len(d.Symptoms) == 0 {
		return nil
	}
	if d.AllWaitsZero {
		d.Symptoms = append(d.Symptoms, "all_waits_zero")
	}
	return d
}

func (d *degenerate) text() string {
	pct := func(k int) string {
		return fmt.Sprintf("%d of %d jobs (%.0f%%)", k, d.Jobs, 100*float64(k)/float64(d.Jobs))
	}
	var parts []string
	for _, s := range d.Symptoms {
		switch s {
		case "mostly_rejected":
			parts = append(parts, fmt.Sprintf("%d of %d jobs (%.0f%%) rejected (%s), the schedule is of the rest",
				d.Rejected, d.Rejected+d.Jobs, 100*float64(d.Rejected)/float64(d.Rejected+d.Jobs), cli.Reasons(d.rejectedBy)))
		case "mostly_cancelled":
			parts = append(parts, pct(d.Cancelled)+" cancelled at submission by the Slurm policy ("+cli.Reasons(d.CancelledBy)+"), the schedule is of the rest")
		case "one_second_jobs":
			parts = append(parts, pct(d.OneSecondJobs)+" ran 1 second instead of their logged time")
		case "mostly_changed_by_rule":
			for _, r := range d.MostlyChanged {
				parts = append(parts, pct(d.Changed[r])+" changed by rule "+r)
			}
		case "utilization_near_zero":
			parts = append(parts, fmt.Sprintf("utilization %.3f", d.Utilization))
		case "all_waits_zero":
			parts = append(parts, "every wait 0 s")
		}
	}
	return "degenerate schedule, it reflects the job-building rules more than the log: " + strings.Join(parts, "; ") +
		"; jobs changed per rule: " + cli.RuleCounts(d.Changed)
}

// changed is sched.Result.Changed, never nil (for JSON), counted once: it
// walks every record, and the report and its warnings both need it.
func (info *runInfo) changed() map[string]int {
	if info.changedByRule == nil {
		info.changedByRule = info.res.Changed()
		if info.changedByRule == nil {
			info.changedByRule = map[string]int{}
		}
	}
	return info.changedByRule
}

// optionsText renders the options of the simulated configuration.
func optionsText(info *runInfo) string {
	c := info.cfg
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	return fmt.Sprintf("compat %s, per-event passes %s, kill at estimate %s, shadow ties %s",
		c.Peer, onOff(c.PerEventPass), onOff(c.KillAtEstimate), onOff(c.ShadowTies))
}

// textReport prints the human-readable report.
func textReport(w io.Writer, info *runInfo) error {
	res, sum := info.res, &info.res.Summary
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, format string, a ...any) { fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{k}, a...)...) }
	line("trace", "%s", filepath.Base(info.trace.name))
	line("policy", "%s: %s", info.policy.Name, info.policy.Doc)
	line("machine", "%s", machineText(info))
	line("options", "%s", optionsText(info))
	nodeLines(info, line)
	partitionLines(info, line)
	line("jobs read", "%d", info.trace.read)
	line("simulated", "%d", simulated(res))
	reasons, count := rejections(&res.Rejected)
	line("rejected", "%d", len(res.Rejected.Excluded))
	for _, r := range reasons {
		line("  "+r.String(), "%d", count[r])
		afterRejections(info, r, line)
	}
	for _, w := range warnings(info) {
		line("warning", "%s", w.text)
	}
	line("mean wait", "%.0f s (%.1f min)", sum.MeanWait, sum.MeanWait/60)
	line("mean response", "%.0f s (%.1f min)", sum.MeanResponse, sum.MeanResponse/60)
	line("mean bsld", "%.2f (bounded slowdown, τ = %d s)", sum.MeanBSLD, bsldTau(info))
	line("mean slowdown", "%.2f", sum.MeanSlowdown)
	line("utilization", "%.3f (over %s)", sum.Utilization, windowText(sum.WindowStart, sum.WindowEnd))
	resultLines(info, line)
	line("backfill rate", "%.3f", sum.BackfillRate)
	line("accuracy", "%.3f (time-weighted prediction accuracy)", sum.Accuracy)
	line("corrections", "%.2f per job (sd %.2f)", sum.MeanCorrections, sum.SDCorrections)
	line("reservations", "%.3f of jobs, |start − reservation| mean %.0f s", sum.Predictability.Rate, sum.Predictability.AbsMean)
	line("averaged", "%d jobs (S7: %d excluded, the first 1%% to end and those ending after the last arrival)", sum.Included, sum.Excluded)
	line("completed", "%d", sum.Jobs)
	line("cancelled", "%d", sum.Cancelled)
	// Under -slurm-conf the policy kills at slurmctld's limit check
	// whatever -kill says (Run sets KillAtEstimate and KillCheck): the
	// line names what killed them.
	killedBy := "ended at their estimate, -kill"
	if info.policy.Name == slurmPreset.Name {
		killedBy = "ended at the first 30 s limit check at or after their time limit plus OverTimeLimit by the Slurm policy, -slurm-conf"
	}
	line("killed", "%d (%s)", sum.Killed, killedBy)
	line("overran", "%d (ran more than twice their estimate)", sum.Overran)
	line("estimates filled", "%d (no estimate in the log, S6)", sum.Filled)
	if info.policy.Name == slurmPreset.Name {
		// The policy gave them a limit (slurm.Policy.Run), at which it
		// kills them: the line said 0 jobs, and named -kill.
		line("no estimate", "%d lines of the log (field 9 missing; their partition's DefaultTime, else MaxTime, else a year, is their time limit, -slurm-conf)", info.slurmNoLimit)
	} else {
		line("no estimate", "%d (field 9 missing; -kill never ends them)", sum.NoEstimate)
	}
	line("changed by rules", "%s", cli.RuleCounts(info.changed()))
	for _, f := range info.outputs {
		line("wrote", "%s", f)
	}
	line("wall time", "%.2f s (read %.2f s, simulate %.2f s)", info.wall.Seconds(), info.readTime.Seconds(), info.simTime.Seconds())
	return tw.Flush()
}

func bsldTau(info *runInfo) int64 {
	if t := info.cfg.BoundedSlowdownThreshold; t > 0 {
		return t
	}
	return 10
}

func windowText(start, end int64) string {
	if end <= start {
		return "an empty window"
	}
	return fmt.Sprintf("[%d, %d] s, %.1f days", start, end, float64(end-start)/86400)
}

// windowUtilization is the utilization over S7's window, nil when the
// window is empty (its end, the last arrival, at or before its start, the
// end of the warm-up jobs): no figure, rather than a 0 that reads as an
// idle machine.
func windowUtilization(sum *sched.Summary) *float64 {
	if sum.WindowEnd <= sum.WindowStart {
		return nil
	}
	return &sum.Utilization
}

// report is the -json output. Times are seconds; rates and utilization
// fractions in [0, 1].
type report struct {
	Trace         string         `json:"trace"`
	Policy        string         `json:"policy"`
	Machine       int64          `json:"machine"`
	MachineFrom   string         `json:"machine_from"`
	Options       jsonOptions    `json:"options"`
	JobsRead      int            `json:"jobs_read"`
	JobsSimulated int            `json:"jobs_simulated"`
	JobsRejected  int            `json:"jobs_rejected"`
	Rejected      map[string]int `json:"rejected"` // reason → count, only reasons that occurred
	Reader        jsonReader     `json:"reader"`
	Warnings      []string       `json:"warnings"`
	// WarningData holds each warning's figures under its kind (skipped,
	// out_of_order, late_comments, header, rounded, unknown_submit, other_status,
	// nothing_simulated, nothing_averaged, overran, kill_no_estimate,
	// degenerate, slurm_plan_misses).
	WarningData map[string]any `json:"warning_data"`
	// SlurmConf lists, with -slurm-conf, what the file has that the
	// Slurm model leaves out ("ignored: KEY (lines)") and how it read
	// the rest ("note: ...").
	SlurmConf []string `json:"slurm_conf,omitempty"`
	// SlurmCancelled counts by reason, with -slurm-conf, the jobs no
	// partition can run (a time limit above MaxTime, an unknown
	// partition, too many nodes), which Slurm's policy cancels.
	SlurmCancelled map[string]int `json:"slurm_cancelled,omitempty"`
	// Partitions are the jobs by partition (SWF field 16) when they name
	// more than one and were simulated as one pool; Partition is
	// -partition's selection. Both absent otherwise.
	Partitions *cli.Partitions `json:"partitions,omitempty"`
	Partition  *selection      `json:"partition,omitempty"`

	MeanWait       float64  `json:"mean_wait_s"`
	MeanWaitMin    float64  `json:"mean_wait_min"`
	MeanResponse   float64  `json:"mean_response_s"`
	MeanBSLD       float64  `json:"mean_bsld"`
	MeanSlowdown   float64  `json:"mean_slowdown"`
	Utilization    *float64 `json:"utilization"` // null: an empty S7 window
	WindowStart    int64    `json:"window_start_s"`
	WindowEnd      int64    `json:"window_end_s"`
	BackfillRate   float64  `json:"backfill_rate"`
	Accuracy       float64  `json:"accuracy"`
	MeanCorr       float64  `json:"mean_corrections"`
	ReservedRate   float64  `json:"reservation_rate"`
	ReservedAbs    float64  `json:"reservation_abs_mean_s"`
	JobsCompleted  int      `json:"jobs_completed"`
	JobsAveraged   int      `json:"jobs_averaged"`
	JobsExcluded   int      `json:"jobs_excluded"`
	Cancelled      int      `json:"cancelled"`
	Killed         int      `json:"killed"`
	Overran        int      `json:"overran"`
	EstimateFilled int      `json:"estimates_filled"`
	NoEstimate     int      `json:"no_estimate"`
	// Changed counts the jobs each job-building rule changed
	// (sched.Result.Changed); OneSecondJobs those run 1 s or less although
	// the log says otherwise.
	Changed       map[string]int `json:"changed"`
	OneSecondJobs int            `json:"one_second_jobs"`

	// Format is the trace's, "swf" or "alibaba"; Conversion what reading
	// an Alibaba pod list found. Nodes describes a machine of nodes (null
	// for one pool), NodesRead what reading its file found; NoNode the
	// jobs no node could hold by the resource they lack (Result.NoNode);
	// Use the share of each resource held (Result.Use); Waits the logged
	// vs simulated waits (null without logged waits); Check -check's
	// outcome ("ok", "not run" or the violation).
	Format     string          `json:"format"`
	Conversion *convert.Report `json:"conversion"`
	Nodes      *machineFacts   `json:"nodes"`
	NodesRead  *convert.Report `json:"nodes_read"`
	NoNode     map[string]int  `json:"no_node"`
	Use        use             `json:"use"`
	Waits      *waitCompare    `json:"waits"`
	Check      string          `json:"check"`

	Outputs  []string `json:"outputs"`
	WallTime float64  `json:"wall_time_s"`
	SimTime  float64  `json:"simulate_time_s"`
	Version  string   `json:"version"`
}

type jsonOptions struct {
	Compat         string `json:"compat"`
	PerEventPass   bool   `json:"per_event"`
	KillAtEstimate bool   `json:"kill"`
	ShadowTies     bool   `json:"ties"`
}

type jsonReader struct {
	Skipped       int      `json:"skipped"`
	Errors        []string `json:"errors"`
	OutOfOrder    int      `json:"out_of_order"`
	LateComments  int      `json:"late_comments"`
	TrailingZeros int64    `json:"trailing_zero_bytes"` // after the last gzip member, ignored (swfstat's key)
}

func jsonReport(info *runInfo) report {
	res, sum, st := info.res, &info.res.Summary, info.trace.stats
	rej := cli.ReasonKeys(cli.ByReason(res.Rejected))
	errs := []string{}
	for _, e := range st.Errors {
		errs = append(errs, e.Error())
	}
	texts, data := []string{}, map[string]any{}
	for _, w := range warnings(info) {
		texts = append(texts, w.text)
		data[w.kind] = w.data
	}
	return report{
		Trace:          info.trace.name,
		Policy:         info.policy.Name,
		Machine:        info.cfg.MachineSize,
		MachineFrom:    info.machineFrom,
		Options:        jsonOptions{info.cfg.Peer.String(), info.cfg.PerEventPass, info.cfg.KillAtEstimate, info.cfg.ShadowTies},
		JobsRead:       info.trace.read,
		JobsSimulated:  simulated(res),
		JobsRejected:   len(res.Rejected.Excluded),
		Rejected:       rej,
		Reader:         jsonReader{st.Skipped, errs, st.OutOfOrder, st.LateComments, info.trace.zeros},
		Warnings:       texts,
		WarningData:    data,
		SlurmConf:      info.slurmIgnored,
		SlurmCancelled: info.slurmCancelled,
		Partitions:     info.partitions,
		Partition:      info.selected,

		MeanWait:       sum.MeanWait,
		MeanWaitMin:    sum.MeanWait / 60,
		MeanResponse:   sum.MeanResponse,
		MeanBSLD:       sum.MeanBSLD,
		MeanSlowdown:   sum.MeanSlowdown,
		Utilization:    windowUtilization(sum),
		WindowStart:    sum.WindowStart,
		WindowEnd:      sum.WindowEnd,
		BackfillRate:   sum.BackfillRate,
		Accuracy:       sum.Accuracy,
		MeanCorr:       sum.MeanCorrections,
		ReservedRate:   sum.Predictability.Rate,
		ReservedAbs:    sum.Predictability.AbsMean,
		JobsCompleted:  sum.Jobs,
		JobsAveraged:   sum.Included,
		JobsExcluded:   sum.Excluded,
		Cancelled:      sum.Cancelled,
		Killed:         sum.Killed,
		Overran:        sum.Overran,
		EstimateFilled: sum.Filled,
		NoEstimate:     sum.NoEstimate,
		Changed:        info.changed(),
		OneSecondJobs:  oneSecondJobs(res),

		Format:     info.trace.format,
		Conversion: info.trace.report,
		Nodes:      factsOf(info),
		NodesRead:  nodesRead(info),
		NoNode:     noNode(res),
		Use:        useFor(info),
		Waits:      waitsOf(info),
		Check:      checkText(info),

		Outputs:  append([]string{}, info.outputs...),
		WallTime: info.wall.Seconds(),
		SimTime:  info.simTime.Seconds(),
		Version:  moduleVersion(),
	}
}
