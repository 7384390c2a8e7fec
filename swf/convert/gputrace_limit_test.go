package convert

import (
	"os"
	"strings"
	"testing"
)

// TestGPUTraceJobLimit: a table of more jobs than the records' int32
// indices hold is refused with the line that went over, in both readers
// (the CSV tables and Philly's JSON), not wrapped. The limit is lowered to
// the fixtures' size less one.
func TestGPUTraceJobLimit(t *testing.T) {
	for _, name := range []string{"gpu-helios.csv", "gpu-philly.json"} {
		full := gpuFile(t, name, Options{})
		old := maxGPUJobs
		maxGPUJobs = len(full.Jobs) - 1
		f, err := os.Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = GPUTrace(f, Options{})
		f.Close()
		maxGPUJobs = old
		if err == nil || !strings.Contains(err.Error(), "jobs in one table") {
			t.Errorf("%s with a limit of %d jobs: %v, want the limit's error", name, len(full.Jobs)-1, err)
		}
	}
}
