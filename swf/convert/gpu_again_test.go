package convert

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestGPUTableGivenTwiceNoted: a Helios or Acme table given twice keeps
// both copies (no map of every job: TestGPUTraceMemory) but a Note says
// how many jobs repeat an earlier one in every field; it said only "job
// id reused", as of ids Slurm reuses, the load doubled without a word
// that the input was. A job of a reused id that differs (a later submit)
// is not counted in the Note.
func TestGPUTableGivenTwiceNoted(t *testing.T) {
	other := "3100208,uQx7a,vcW2k,12,64,2,COMPLETED,2020-07-01 09:06:01,2020-07-01 09:15:00,2020-07-01 13:15:00,14400,539\n"
	for _, c := range []struct {
		file, extra string
		jobs, rep   int
	}{{"gpu-helios.csv", other, 17, 8}, {"gpu-helios.csv", "", 16, 8}, {"gpu-acme-kalos.csv", "", 6, 3}} {
		b, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		res, err := GPUTrace(strings.NewReader(string(b)+string(b)+c.extra), Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("%d jobs repeat an earlier job's id, times, request, user and state (the table given twice?)", c.rep)
		var noted bool
		for _, n := range res.Report.Notes {
			noted = noted || strings.HasPrefix(n, want)
		}
		if res.Report.Jobs != c.jobs || !noted {
			t.Errorf("%s twice (+%q): %d jobs, notes %q; want %d jobs and a note %q", c.file, c.extra, res.Report.Jobs, res.Report.Notes, c.jobs, want)
		}
	}
}
