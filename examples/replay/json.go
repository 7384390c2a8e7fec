package main

import (
	"io"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sched"
)

// reportJSON is -json: the numbers of the text report, times in seconds
// since the workload's time 0.
type reportJSON struct {
	Workload string `json:"workload"`
	// Rejected counts the jobs EASY did not simulate, by reason
	// (sanitize.Reason's names in lower case with _ for spaces, as
	// simulate's: duplicate_id); empty when it simulated every job.
	Rejected map[string]int `json:"rejected"`
	// OutOfOrder counts the trace's job lines earlier than the line before
	// them (simulated in submit order); absent when none is.
	OutOfOrder int `json:"out_of_order,omitempty"`
	// TrailingZeros is the zero bytes after the trace's last gzip
	// member, ignored (simulate's and swfstat's key).
	TrailingZeros int64 `json:"trailing_zero_bytes"`
	// Skipped is the trace's malformed lines skipped (-lenient).
	cli.Skipped
	// OtherStatus is the trace's job lines of a status outside the SWF
	// standard -1..5 (kept and simulated), by value as simulate's
	// warning_data.other_status; absent when there is none.
	OtherStatus *otherStatusJSON `json:"other_status,omitempty"`
	// PartialOnly is the jobs given by partial-execution lines only (no
	// summary line under their number), left out whole, as simulate's
	// warning_data.partial_only.jobs; absent when there is none.
	PartialOnly int `json:"partial_only_jobs,omitempty"`
	// Partitions are the trace's jobs by partition (field 16) when they
	// name more than one, simulated as one pool; absent otherwise.
	Partitions *cli.Partitions `json:"partitions,omitempty"`
	// Changed counts the jobs a job-building rule changed (an estimate
	// filled, a size taken from the request ...), by rule, as simulate's
	// changed (sched.Result.Changed of EASY); empty when none was.
	Changed    map[string]int  `json:"changed"`
	Schedulers []schedulerJSON `json:"schedulers"`
	QBETS      []qbetsJSON     `json:"qbets"`
	// SimulatedWaited counts the jobs whose simulated EASY wait (what
	// QBETS is scored on) is not 0: 0 makes the QBETS figures degenerate,
	// a bound of 0 s holding for every job, as the text says.
	SimulatedWaited int      `json:"simulated_waited"`
	VARQ            varqJSON `json:"varq"`
	Figures         []string `json:"figures,omitempty"`
}

type otherStatusJSON struct {
	Lines    int            `json:"lines"`
	ByStatus map[string]int `json:"by_status"`
}

// schedulerJSON: the means over no job averaged are null, as the text
// report's "–" (a mean over nothing is stored as 0).
type schedulerJSON struct {
	Variant     string   `json:"variant"`
	Jobs        int      `json:"jobs_averaged"`
	MeanWait    *float64 `json:"mean_wait_s"`
	MeanBSLD    *float64 `json:"mean_bsld"`
	Utilization *float64 `json:"utilization"` // null: an empty S7 window (as simulate -json)
	Accuracy    *float64 `json:"accuracy"`
}

type qbetsJSON struct {
	Method       string   `json:"method"`
	Correctness  *float64 `json:"correctness"` // null: no bound scored (as "–" in the text)
	Answered     int      `json:"answered"`
	Declined     int      `json:"declined"`
	MedianBound  *float64 `json:"median_bound_s"`        // null: no bound (as qbets -json writes it; it was -1)
	RMS          *float64 `json:"rms_over_prediction_s"` // null: no bound scored
	ChangePoints int      `json:"change_points"`
}

type varqJSON struct {
	// Planned is false when no simulated job arrived at or after the plan's
	// time: the other fields are then zero.
	Planned bool `json:"planned"`
	// NotPlanned says why nothing was planned when a request was made
	// (its start past 2^40 s); absent otherwise.
	NotPlanned string  `json:"not_planned,omitempty"`
	PlannedAt  int64   `json:"planned_at"`
	Nodes      int     `json:"nodes"`
	Walltime   int64   `json:"walltime_s"`
	Start      int64   `json:"start"`
	Target     float64 `json:"target"`
	NoBound    string  `json:"no_bound,omitempty"`
	Possible   bool    `json:"possible"`
	Submit     int64   `json:"submit,omitempty"`
	Asked      int64   `json:"asked_walltime_s,omitempty"`
	Prob       float64 `json:"probability,omitempty"`
	Checked    bool    `json:"checked"`
	// NotChecked says why a possible plan was not carried out (a job
	// numbered 2^63 − 1 leaves no number for it); absent otherwise.
	NotChecked string `json:"not_checked,omitempty"`
	Ran        bool   `json:"ran"`
	Success    bool   `json:"success"`
	Started    int64  `json:"started,omitempty"`
}

// writeJSON prints r as reportJSON.
func writeJSON(w io.Writer, r *result, files []string) error {
	out := reportJSON{Workload: r.w.desc, Figures: files, Rejected: cli.ReasonKeys(cli.ByReason(r.sims["EASY"].Rejected)),
		OutOfOrder: r.w.outOfOrder, TrailingZeros: r.w.zeros, Skipped: r.w.skipped, Partitions: r.w.partitions, Changed: r.sims["EASY"].Changed(),
		PartialOnly: r.w.partialOnly}
	if o := r.w.otherStatus; o.Lines > 0 {
		out.OtherStatus = &otherStatusJSON{Lines: o.Lines, ByStatus: o.Keys()}
	}
	if out.Changed == nil {
		out.Changed = map[string]int{}
	}
	for _, v := range variants {
		s := r.sims[v].Summary
		some := s.Included > 0
		out.Schedulers = append(out.Schedulers, schedulerJSON{v, s.Included, ifSome(some, s.MeanWait), ifSome(some, s.MeanBSLD), windowUtilization(&s), ifSome(some, s.Accuracy)})
	}
	q := r.q
	out.SimulatedWaited = q.waited
	for k, m := range methods {
		c := q.scores[k]
		some := c.Answered() > 0
		out.QBETS = append(out.QBETS, qbetsJSON{m.name, ifSome(some, c.Correctness()), c.Answered(), c.Declined(),
			optional(median(q.bounds[k][q.train:])), ifSome(some && c.Correctness() > 0, c.RMS()), c.ChangePoints})
	}
	p := q.plan
	out.VARQ = varqJSON{Planned: p.made, NotPlanned: p.notPlanned, PlannedAt: p.now, Nodes: p.req.Nodes, Walltime: p.req.Walltime, Start: p.req.Start, Target: p.target,
		NoBound: p.noBound, Possible: p.plan.Possible, Checked: p.checked, NotChecked: p.notChecked, Ran: p.ran, Success: p.success}
	if p.plan.Possible {
		out.VARQ.Submit, out.VARQ.Asked, out.VARQ.Prob = p.plan.Submit, p.plan.Walltime, p.plan.Prob
	}
	if p.ran {
		out.VARQ.Started = p.started
	}
	return cli.WriteJSON(w, out)
}

// optional is median's result for JSON: nil for its -1 (no bound).
// ifSome is &v, or nil (JSON null) when no job went into v.
// windowUtilization is the utilization over S7's window, nil when the
// window is empty (its end, the last arrival, at or before its start, the
// end of the warm-up jobs): sched.Summary stores 0 there, which read as an
// idle machine (a 1-job log printed utilization 0.00 beside "–" means).
func windowUtilization(s *sched.Summary) *float64 {
	if s.WindowEnd <= s.WindowStart {
		return nil
	}
	return &s.Utilization
}

func ifSome(some bool, v float64) *float64 {
	if !some {
		return nil
	}
	return &v
}

func optional(m float64) *float64 {
	if m < 0 {
		return nil
	}
	return &m
}
