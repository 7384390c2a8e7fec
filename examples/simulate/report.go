package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/batchq/batchq/sanitize"
)

// rejections counts Result.Rejected by reason, in the sane predicate's order.
func rejections(rep *sanitize.Report) (reasons []sanitize.Reason, count map[sanitize.Reason]int) {
	count = map[sanitize.Reason]int{}
	for _, e := range rep.Excluded {
		if count[e.Reason] == 0 {
			reasons = append(reasons, e.Reason)
		}
		count[e.Reason]++
	}
	slices.Sort(reasons)
	return reasons, count
}

// reasonKey is a reason as a JSON key: "no run time" → "no_run_time".
func reasonKey(r sanitize.Reason) string { return strings.ReplaceAll(r.String(), " ", "_") }

// warnings are the remarks on the input and the run, one line each.
func warnings(info *runInfo) []string {
	var ws []string
	st := info.trace.stats
	if st.Skipped > 0 {
		w := fmt.Sprintf("skipped %d malformed lines (-lenient)", st.Skipped)
		if len(st.Errors) > 0 {
			w += "; first: " + st.Errors[0].Error()
		}
		ws = append(ws, w)
	}
	if st.OutOfOrder > 0 {
		ws = append(ws, fmt.Sprintf("%d job lines earlier than a previous line (simulated in submit order)", st.OutOfOrder))
	}
	if st.LateComments > 0 {
		ws = append(ws, fmt.Sprintf("%d comment lines after the first job line", st.LateComments))
	}
	for _, w := range st.Warnings {
		ws = append(ws, "header: "+w.Error())
	}
	if st.UnknownSubmit > 0 {
		ws = append(ws, fmt.Sprintf("%d job lines with an unknown submit time (-1)", st.UnknownSubmit))
	}
	if st.OtherStatus > 0 {
		vals := make([]string, 0, len(st.OtherStatusCounts))
		for v, n := range st.OtherStatusCounts {
			vals = append(vals, fmt.Sprintf("%d×%d", n, v))
		}
		slices.Sort(vals)
		ws = append(ws, fmt.Sprintf("%d job lines with a status outside the SWF standard (kept and simulated): %s",
			st.OtherStatus, strings.Join(vals, ", ")))
	}
	sum := &info.res.Summary
	if len(info.res.Records) == 0 {
		ws = append(ws, "no job was simulated: every line was rejected")
	}
	if sum.Overran > 0 {
		ws = append(ws, fmt.Sprintf("%d jobs ran more than twice their estimate and held processors long after every prediction of them expired (A3); consider -kill",
			sum.Overran))
	}
	return ws
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
	line("machine", "%d processors (%s)", info.cfg.MachineSize, info.machineFrom)
	line("options", "%s", optionsText(info))
	line("jobs read", "%d", len(info.trace.jobs))
	line("simulated", "%d", len(res.Records))
	reasons, count := rejections(&res.Rejected)
	line("rejected", "%d", len(res.Rejected.Excluded))
	for _, r := range reasons {
		line("  "+r.String(), "%d", count[r])
	}
	for _, ws := range warnings(info) {
		line("warning", "%s", ws)
	}
	line("mean wait", "%.0f s (%.1f min)", sum.MeanWait, sum.MeanWait/60)
	line("mean response", "%.0f s (%.1f min)", sum.MeanResponse, sum.MeanResponse/60)
	line("mean bsld", "%.2f (bounded slowdown, τ = %d s)", sum.MeanBSLD, bsldTau(info))
	line("mean slowdown", "%.2f", sum.MeanSlowdown)
	line("utilization", "%.3f (over %s)", sum.Utilization, windowText(sum.WindowStart, sum.WindowEnd))
	line("backfill rate", "%.3f", sum.BackfillRate)
	line("accuracy", "%.3f (time-weighted prediction accuracy)", sum.Accuracy)
	line("corrections", "%.2f per job (sd %.2f)", sum.MeanCorrections, sum.SDCorrections)
	line("reservations", "%.3f of jobs, |start − reservation| mean %.0f s", sum.Predictability.Rate, sum.Predictability.AbsMean)
	line("averaged", "%d jobs (A7: %d excluded, the first 1%% to end and those ending after the last arrival)", sum.Included, sum.Excluded)
	line("completed", "%d", sum.Jobs)
	line("cancelled", "%d", sum.Cancelled)
	line("killed", "%d (ended at their estimate, -kill)", sum.Killed)
	line("overran", "%d (ran more than twice their estimate)", sum.Overran)
	line("estimates filled", "%d (no estimate in the log, A6)", sum.Filled)
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

	MeanWait       float64 `json:"mean_wait_s"`
	MeanWaitMin    float64 `json:"mean_wait_min"`
	MeanResponse   float64 `json:"mean_response_s"`
	MeanBSLD       float64 `json:"mean_bsld"`
	MeanSlowdown   float64 `json:"mean_slowdown"`
	Utilization    float64 `json:"utilization"`
	WindowStart    int64   `json:"window_start_s"`
	WindowEnd      int64   `json:"window_end_s"`
	BackfillRate   float64 `json:"backfill_rate"`
	Accuracy       float64 `json:"accuracy"`
	MeanCorr       float64 `json:"mean_corrections"`
	ReservedRate   float64 `json:"reservation_rate"`
	ReservedAbs    float64 `json:"reservation_abs_mean_s"`
	JobsCompleted  int     `json:"jobs_completed"`
	JobsAveraged   int     `json:"jobs_averaged"`
	JobsExcluded   int     `json:"jobs_excluded"`
	Cancelled      int     `json:"cancelled"`
	Killed         int     `json:"killed"`
	Overran        int     `json:"overran"`
	EstimateFilled int     `json:"estimates_filled"`

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
	Skipped      int      `json:"skipped"`
	Errors       []string `json:"errors"`
	OutOfOrder   int      `json:"out_of_order"`
	LateComments int      `json:"late_comments"`
}

func jsonReport(info *runInfo) report {
	res, sum, st := info.res, &info.res.Summary, info.trace.stats
	reasons, count := rejections(&res.Rejected)
	rej := map[string]int{}
	for _, r := range reasons {
		rej[reasonKey(r)] = count[r]
	}
	errs := []string{}
	for _, e := range st.Errors {
		errs = append(errs, e.Error())
	}
	return report{
		Trace:         info.trace.name,
		Policy:        info.policy.Name,
		Machine:       info.cfg.MachineSize,
		MachineFrom:   info.machineFrom,
		Options:       jsonOptions{info.cfg.Peer.String(), info.cfg.PerEventPass, info.cfg.KillAtEstimate, info.cfg.ShadowTies},
		JobsRead:      len(info.trace.jobs),
		JobsSimulated: len(res.Records),
		JobsRejected:  len(res.Rejected.Excluded),
		Rejected:      rej,
		Reader:        jsonReader{st.Skipped, errs, st.OutOfOrder, st.LateComments},
		Warnings:      append([]string{}, warnings(info)...),

		MeanWait:       sum.MeanWait,
		MeanWaitMin:    sum.MeanWait / 60,
		MeanResponse:   sum.MeanResponse,
		MeanBSLD:       sum.MeanBSLD,
		MeanSlowdown:   sum.MeanSlowdown,
		Utilization:    sum.Utilization,
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

		Outputs:  append([]string{}, info.outputs...),
		WallTime: info.wall.Seconds(),
		SimTime:  info.simTime.Seconds(),
		Version:  moduleVersion(),
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
