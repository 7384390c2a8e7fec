package convert

import (
	"strings"
	"testing"
)

// TestSacctDelimiterInTextColumns: a '|' in a text column other than
// JobName (a --constraint "intel|amd") is joined back into that column
// when the header has one text column; with several (JobName and
// Constraints) which one holds it cannot be told, and the line is
// malformed, counted with that reason. The extra fields were joined into
// JobName, the columns after it shifted: job 2's state read "INTEL"
// ("unknown state"), and job 3 (constraint "1|2") written with its start
// as its submit and its end as its start (wait 8, run 1, not 1 and 8).
func TestSacctDelimiterInTextColumns(t *testing.T) {
	one := "JobID|State|Constraints|Submit|Start|End|AllocCPUS\n" +
		"1|COMPLETED|intel|amd|1704067200|1704067201|1704067209|2\n"
	res, err := Sacct(strings.NewReader(one), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.Jobs[0].RunTime != 8 || res.Jobs[0].Status != 1 {
		t.Errorf("one text column: %+v, report %+v", res.Jobs, res.Report)
	}
	two := "JobID|JobName|State|Constraints|ReqCPUS|Submit|Start|End|AllocCPUS\n" +
		"1|a|b|COMPLETED|intel|2|1704067200|1704067201|1704067209|2\n" +
		"2|ab|COMPLETED|intel|amd|2|1704067200|1704067201|1704067209|2\n" +
		"3|x|COMPLETED|1|2|1704067200|1704067201|1704067209|1704067210|2\n" +
		"4|x|COMPLETED|intel|2|1704067200|1704067201|1704067209|2\n"
	res, err = Sacct(strings.NewReader(two), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.IDs[0] != "4" || res.Report.Skipped[skipMalformed] != 3 {
		t.Errorf("two text columns: ids %v, report %+v", res.IDs, res.Report)
	}
	for _, e := range res.Report.Errors {
		if !strings.Contains(e.Error(), "a '|' in one of its 2 text columns") {
			t.Errorf("%v", e)
		}
	}
}

// TestSacctJobNamedLikeHeader: a job named "x|State|Submit" is a job line,
// not a header line whose columns would apply to the lines after it
// (the line of 9 fields was read as a header of 9 columns without JobID,
// an error that stopped the conversion).
func TestSacctJobNamedLikeHeader(t *testing.T) {
	in := "JobID|JobName|State|Submit|Start|End|AllocCPUS\n" +
		"1|x|State|Submit|COMPLETED|1704067200|1704067201|1704067209|2\n" +
		"2|y|FAILED|1704067300|1704067301|1704067309|4\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 2 || res.Jobs[0].Status != 1 || res.Jobs[1].Status != 0 || res.Jobs[1].AllocProcs != 4 ||
		strings.Contains(strings.Join(res.Report.Notes, "\n"), "another header line") {
		t.Errorf("jobs %+v, report %+v", res.Jobs, res.Report)
	}
}
