package agent

import (
	"math"
	"testing"

	"github.com/batchq/batchq/varq"
)

func TestSummary(t *testing.T) {
	r := varq.Request{Nodes: 2, Walltime: 100, Start: 1000}
	ok := varq.Plan{Request: r, Possible: true, Submit: 900, Walltime: 200, Prob: 0.8}
	late := varq.Plan{Request: r, Possible: true, Submit: 800, Walltime: 300, Prob: 0.6}
	outs := []Outcome{
		{Plan: ok, Submitted: ok, Ran: true, Started: 950, Success: true, Required: 200, Used: 2 * 150},
		{Plan: late, Submitted: late, Ran: true, Started: 1100, Required: 200, Used: 200},
		{Plan: varq.Plan{Request: r}},
		// Accepted, dropped before submission: a failure outside the
		// allocation sums.
		{Plan: ok, Submitted: varq.Plan{Request: r}, Required: 200},
	}
	s := summarize(outs)
	if s.Count != 3 || s.Refused != 1 || math.Abs(s.MeanPred-2.2/3) > 1e-12 || math.Abs(s.Success-1.0/3) > 1e-12 ||
		s.Required != 400 || s.Used != 500 || s.Ratio() != 1.25 {
		t.Errorf("summary %+v ratio %v", s, s.Ratio())
	}
	if s := summarize(outs[:3]); s.Count != 2 || s.Refused != 1 || math.Abs(s.MeanPred-0.7) > 1e-12 || s.Success != 0.5 ||
		s.Required != 400 || s.Used != 500 || s.Ratio() != 1.25 {
		t.Errorf("summary %+v ratio %v", s, s.Ratio())
	}
	if (Summary{}).Ratio() != 0 {
		t.Error("empty ratio")
	}
}
