package convert

import (
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestSacctColumnTwice: a --format naming a field twice gives a header
// with a column name twice. The first is read and a note names the column, as the CSV tables
// do; the last was read without a word. (Here the copies differ, as no
// sacct prints them, to tell which is read.)
func TestSacctColumnTwice(t *testing.T) {
	in := "JobID|State|Submit|Start|End|AllocCPUS|state|AllocCPUS\n" +
		"1|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|4|FAILED|8\n"
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 1 || res.Jobs[0].Status != swf.StatusCompleted || res.Jobs[0].AllocProcs != 4 {
		t.Fatalf("jobs %+v, want one, COMPLETED on 4 CPUs (the first columns)", res.Jobs)
	}
	for _, want := range []string{`line 1: column 7 repeats "state": ignored, the first is read`,
		`line 1: column 8 repeats "AllocCPUS": ignored, the first is read`} {
		if !slices.Contains(res.Report.Notes, want) {
			t.Errorf("notes %q, want %q", res.Report.Notes, want)
		}
	}
}
