package convert

import (
	"strings"
	"testing"
)

// TestGPUTraceQuotedNewline: a Helios (or Acme) row whose quoted value
// holds a newline is one record of its lines, noted as the job tables'
// are (jobtable_join.go); it was split, its first line a malformed record
// and its second another.
func TestGPUTraceQuotedNewline(t *testing.T) {
	in := heliosHeader + "\n" +
		"1,u,v,1,1,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:05,2020-07-01 09:01:05,60,\"q\nline\"\n" +
		"2,u,v,1,1,1,COMPLETED,2020-07-01 09:00:00,2020-07-01 09:00:05,2020-07-01 09:01:05,60,5\n"
	res, err := GPUTrace(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounts(t, "joined", res.Report, len(res.Jobs))
	if len(res.Jobs) != 2 || res.Report.Records != 2 || res.Report.Skipped[skipMalformed] != 0 || res.Report.Anomalies[noteJoined] != 1 {
		t.Errorf("%d jobs, %+v", len(res.Jobs), res.Report)
	}
}

// TestJobTableUTCRowNoHeader: a row of names and times ending in " UTC"
// (one name that of the submit column) is a row, not another header
// line: " UTC" was no value to the header test, and the row, taken for a
// header, stopped the conversion ("ColumnMap id=id: the header has no
// such column").
func TestJobTableUTCRowNoHeader(t *testing.T) {
	m := map[string]string{"id": "id", "submit": "submit", "start": "start", "end": "end", "procs": "procs", "name": "name"}
	in := "id,submit,start,end,procs,name\n" +
		"a1,2023-01-02 00:10:00 UTC,2023-01-02 00:11:00 UTC,2023-01-02 00:20:00 UTC,x4,submit\n" +
		"a2,2023-01-02 00:10:00 UTC,2023-01-02 00:11:00 UTC,2023-01-02 00:20:00 UTC,4,b\n"
	res, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: m})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Skipped["another header line"] != 0 || res.Report.Records != 2 {
		t.Errorf("%d jobs, %+v", len(res.Jobs), res.Report)
	}
	if !isValue("2023-01-02 00:10:00 UTC") || isValue("UTC") {
		t.Errorf("isValue: want a time in UTC a value, UTC alone none")
	}
}
