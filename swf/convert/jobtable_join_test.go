package convert

import (
	"fmt"
	"strings"
	"testing"
)

// TestJobTableQuotedNewline: a quoted value holding a newline makes one
// record of its lines (noted); a quote that never closes leaves its line
// malformed and the lines behind it read as rows. The record was split:
// its first line malformed, the second a job of the id `x"`.
func TestJobTableQuotedNewline(t *testing.T) {
	rows := func(n int) string {
		var sb strings.Builder
		for k := range n {
			fmt.Fprintf(&sb, "r%d,1700000000,1700000010,1700000100,4,b\n", k)
		}
		return sb.String()
	}
	m := map[string]string{"id": "id", "submit": "submit", "start": "start", "end": "end", "procs": "procs", "name": "name"}
	h := "id,submit,start,end,procs,name\n"
	in := h + "\"1\nx\",1700000000,1700000010,1700000100,4,a\n" +
		"2,1700000000,1700000010,1700000100,4,\"say \"\"hi\"\"\n\nand bye\"\n" + // (a blank line inside)
		"3,1700000000,1700000010,1700000100,4,c\n"
	res, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	checkTableAccounts(t, "joined", res.Report, len(res.Jobs))
	if len(res.Jobs) != 3 || res.Report.Records != 3 || res.Report.Anomalies[noteJoined] != 2 || res.IDs[0] != "1\nx" {
		t.Errorf("%d jobs %q, %+v", len(res.Jobs), res.IDs, res.Report)
	}
	// Never closed: at the end of the input, and past maxJoinLines.
	for _, c := range []struct {
		name, in        string
		jobs, malformed int
	}{
		{"at the end", h + "1,1700000000,1700000010,1700000100,4,\"open\n2,1700000000,1700000010,1700000100,4,b\n", 1, 1},
		{"past the bound", h + "1,1700000000,1700000010,1700000100,4,\"open\n" + rows(maxJoinLines+5), maxJoinLines + 5, 1},
		// Two open quotes that close each other into no record: each
		// line malformed, the row between them a job. They were one
		// malformed record of three lines, the job between lost in it.
		{"opened again", h + "1,1700000000,1700000010,1700000100,4,\"open\n2,1700000000,1700000010,1700000100,4,\"again\n" + rows(1), 1, 2},
		// The second open quote begins a record of two lines: it stays open.
		{"then a record of two lines", h + "1,1700000000,1700000010,1700000100,4,\"open\n" + rows(1) +
			"2,1700000000,1700000010,1700000100,4,\"two\nlines\"\n3,1700000000,1700000010,1700000100,4,c\n", 3, 1},
		{"a row between", h + "1,1700000000,1700000010,1700000100,4,\"open\n" + rows(1) + "2,1700000000,1700000010,1700000100,4,\"again\n3,1700000000,1700000010,1700000100,4,c\n", 2, 2},
	} {
		res, err := GPUTrace(strings.NewReader(c.in), Options{ColumnMap: m})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkTableAccounts(t, c.name, res.Report, len(res.Jobs))
		if len(res.Jobs) != c.jobs || res.Report.Skipped[skipMalformed] != c.malformed {
			t.Errorf("%s: %d jobs, %+v", c.name, len(res.Jobs), res.Report)
		}
	}
}
