package clitest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// PAITables (and PhillyJobs's file) is where the hand-written Alibaba PAI 2020 job and task
// tables (and the other GPU traces' samples) are, from a command's directory (examples/NAME).
const PAITables = "../../swf/convert/testdata/"

// PAIFile converts the hand-written PAI 2020 tables (job and task table
// together, as convert -from gpu reads them) and writes the SWF trace in
// a temporary directory, returning its path: the log simulate's and
// forecast's tests check the commands accept.
func PAIFile(t testing.TB) string {
	t.Helper()
	var in bytes.Buffer
	for _, n := range []string{"gpu-pai-job.csv", "gpu-pai-task.csv"} {
		data, err := os.ReadFile(PAITables + n)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(data)
	}
	res, err := convert.GPUTrace(&in, convert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := swf.WriteAll(&out, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pai.swf")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// PhillyJobs is the hand-written Microsoft Philly job log of
// swf/convert's testdata, converted with its times in UTC.
func PhillyJobs(t testing.TB) *convert.Result {
	t.Helper()
	f, err := os.Open(PAITables + "gpu-philly.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := convert.GPUTrace(f, convert.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
