package convert

import (
	"strings"
	"testing"
)

// TestJobTableLimitWords: a mapped table's limit column exported from
// sacct holds Slurm's words: UNLIMITED and INFINITE (no limit), Partition_Limit
// (the partition's: Options.PartitionLimits when it has it), INVALID. They
// are read as Sacct reads them, noted; each was "not a number", an error
// and "unreadable limit".
func TestJobTableLimitWords(t *testing.T) {
	in := "id,sub,st,en,lim,procs,part\n"
	for i, w := range []string{"UNLIMITED", "INFINITE", "Partition_Limit", "INVALID", "60"} {
		in += string(rune('1'+i)) + ",1714557600,1714557900,1714561500," + w + ",4,p\n"
	}
	res, err := GPUTrace(strings.NewReader(in), Options{ColumnMap: map[string]string{"id": "id", "submit": "sub", "start": "st", "end": "en",
		"limit": "lim:min", "procs": "procs", "queue": "part"}, PartitionLimits: map[string]int64{"p": 7200}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{-1, -1, 7200, -1, 3600} {
		if got := res.Jobs[i].ReqTime; got != want {
			t.Errorf("job %s: requested time %d, want %d", res.IDs[i], got, want)
		}
	}
	a := res.Report.Anomalies
	if len(res.Report.Errors) != 0 || a[noteUnlimited] != 2 || a[notePartLimitUsed] != 1 || a[noteInvalidLimit] != 1 {
		t.Errorf("errors %v, anomalies %v", res.Report.Errors, a)
	}
}
