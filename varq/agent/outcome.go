package agent

import (
	"math"
	"math/bits"

	"github.com/batchq/batchq/varq"
)

// Outcome is what happened to one VARQ request in a simulation (or a live
// run): what was predicted, whether the job was running by the start time,
// and what it cost.
type Outcome struct {
	// Plan is the plan VARQ accepted the request with (its probability is
	// the promise made to the user); NOT_POSSIBLE when it was refused.
	Plan     varq.Plan
	Accepted bool
	// Submitted is the plan the job was finally submitted by, after
	// re-planning (NOT_POSSIBLE when it was dropped before submission).
	Submitted varq.Plan
	Submit    int64 // actual submission time
	Job       int64 // the padded job submitted, when Submitted is possible
	Started   int64 // actual start time; meaningful when Ran
	Ran       bool  // the job started (it may have been cancelled in the queue)
	Success   bool  // it was running at or before Plan.Start
	Required  int64 // N·W node-seconds
	Used      int64 // node-seconds actually occupied (spinning included)
}

// Summary aggregates the accepted requests of one experiment cell, the
// columns of Tables 5.2–5.6: mean predicted probability, achieved success
// fraction, count, and allocation used against required (Table 5.5).
type Summary struct {
	Count    int
	MeanPred float64
	Success  float64 // fraction of accepted requests that succeeded
	Refused  int
	Required int64 // node-seconds
	Used     int64
}

// Ratio is used/required allocation, 0 when nothing was required.
func (s Summary) Ratio() float64 {
	if s.Required == 0 {
		return 0
	}
	return float64(s.Used) / float64(s.Required)
}

// Summary aggregates the agent's outcomes so far (Outcomes); refused
// requests are counted apart and do not enter the means, as in the
// thesis's tables. A request accepted and then dropped before submission
// counts as a failure but enters neither allocation sum: its work ran as
// an ordinary job.
func (a *Agent) Summary() Summary { return summarize(a.outs) }

// summarize is Agent.Summary over any outcomes.
func summarize(outs []Outcome) Summary {
	var s Summary
	var pred float64
	ok := 0
	for _, o := range outs {
		if !o.Plan.Possible {
			s.Refused++
			continue
		}
		s.Count++
		pred += o.Plan.Prob
		if o.Success {
			ok++
		}
		if o.Submitted.Possible {
			s.Required = min(s.Required, math.MaxInt64-o.Required) + o.Required // (held, as each term is)
			s.Used = min(s.Used, math.MaxInt64-o.Used) + o.Used
		}
	}
	if s.Count > 0 {
		s.MeanPred = pred / float64(s.Count)
		s.Success = float64(ok) / float64(s.Count)
	}
	return s
}

// nodeSeconds is nodes·secs (each ≥ 0), held at 2^63 − 1: a job of 2^40
// processors (sched's largest machine) working 2^40 s wrapped Required to
// 0.
func nodeSeconds(nodes int, secs int64) int64 {
	hi, lo := bits.Mul64(uint64(max(nodes, 0)), uint64(max(secs, 0)))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}
