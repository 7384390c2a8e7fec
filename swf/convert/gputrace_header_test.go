package convert

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// Tables concatenated, each with its header (Acme's Seren and Kalos, a
// table exported again with its columns in another order): a later header
// that is not the first repeated applies its columns from there on. It was
// a malformed record and so was every row behind it (Kalos: "17 fields,
// the header has 13"), or, as many fields, those rows were read by the
// first header's columns. A header of the other table is an error.
func TestGPUTraceOtherHeader(t *testing.T) {
	seren, err := os.ReadFile("testdata/gpu-acme-seren.csv")
	if err != nil {
		t.Fatal(err)
	}
	kalos, err := os.ReadFile("testdata/gpu-acme-kalos.csv")
	if err != nil {
		t.Fatal(err)
	}
	one := func(text string) *Result {
		t.Helper()
		res, err := GPUTrace(strings.NewReader(text), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, k := one(string(seren)), one(string(kalos))
	both := one(string(seren) + string(kalos))
	rep := both.Report
	if rep.Jobs != a.Report.Jobs+k.Report.Jobs || rep.Skipped[skipMalformed] != 0 || rep.Skipped["another header line"] != 1 ||
		rep.Records != a.Report.Records+k.Report.Records+1 {
		t.Errorf("Seren then Kalos: %d records, %d jobs, skipped %v; want %d jobs (%d + %d), none malformed, the header counted",
			rep.Records, rep.Jobs, rep.Skipped, a.Report.Jobs+k.Report.Jobs, a.Report.Jobs, k.Report.Jobs)
	}
	// The same table with its columns in another order: the same jobs.
	lines := strings.Split(strings.TrimSpace(string(seren)), "\n")
	swapped := make([]string, len(lines))
	for i, l := range lines {
		f := strings.Split(l, ",")
		f[0], f[1] = f[1], f[0] // job_id and user
		swapped[i] = strings.Join(f, ",")
	}
	twice := one(string(seren) + strings.Join(swapped, "\n") + "\n")
	if len(twice.Jobs) != 2*len(a.Jobs) {
		t.Fatalf("%d jobs, want %d", len(twice.Jobs), 2*len(a.Jobs))
	}
	for i, id := range twice.IDs {
		if id != a.IDs[i/2] || twice.Jobs[i].User != a.Jobs[i/2].User {
			t.Errorf("job %d: id %q user %d, want %q and %d (columns of the second header)", i+1, id, twice.Jobs[i].User, a.IDs[i/2], a.Jobs[i/2].User)
		}
	}
	helios, err := os.ReadFile("testdata/gpu-helios.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = GPUTrace(strings.NewReader(string(seren)+string(helios)), Options{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != len(lines)+1 || !strings.Contains(err.Error(), "Helios") {
		t.Errorf("Seren then Helios: %v; want an error at line %d naming Helios's header", err, len(lines)+1)
	}
}

// A row holding columns' names as values is a row, not a header whose
// columns (its numbers and times) would apply to the rows behind it.
func TestGPUTraceRowLikeHeader(t *testing.T) {
	const table = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration\n" +
		"j1,u1,vc1,1,2,1,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:01:00,2020-04-01 01:00:00,3540\n" +
		"job_id,submit_time,vc1,gpu_num,2,1,COMPLETED,2020-04-01 00:00:00,start_time,2020-04-01 01:00:00,3540\n" +
		"j3,u1,vc1,1,2,1,COMPLETED,2020-04-01 00:02:00,2020-04-01 00:03:00,2020-04-01 01:00:00,3420\n"
	res, err := GPUTrace(strings.NewReader(table), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.Jobs != 2 || rep.Skipped[skipMalformed] != 1 || rep.Skipped["another header line"] != 0 || res.IDs[1] != "j3" {
		t.Errorf("%d jobs %v, skipped %v; want j1 and j3, the odd row malformed (gpu_num)", rep.Jobs, res.IDs, rep.Skipped)
	}
}
