package convert

import (
	"os"
	"strings"
	"testing"
)

// Real Slurm 22.05 outputs of the job features users use (arrays,
// heterogeneous, requeued, suspended, held jobs, names with newlines...),
// trimmed to the jobs each test needs: testdata/slurm-22.05/features
// (its README says how they were made).
const featuresDir = "testdata/slurm-22.05/features/"

func readFeature(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(featuresDir + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSacctNewlineInName: sacct prints a job name holding a newline
// (sbatch -J $'new\nline') as it is, cutting the job's line in two; the
// two lines are one record. They were two malformed records, the job lost
// and its step counted "of jobs not in the input".
func TestSacctNewlineInName(t *testing.T) {
	in := readFeature(t, "sacct-newline-name.txt")
	res, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if strings.Join(res.IDs, " ") != "15 16 17" || rep.Skipped[skipMalformed] != 0 || rep.Steps != 3 ||
		rep.Records != rep.Jobs+rep.Steps || len(rep.Notes) != 0 {
		t.Fatalf("ids %v, report %+v", res.IDs, rep)
	}
	if j := res.Jobs[1]; j.Wait != 154 || j.RunTime != 2 || j.AllocProcs != 1 || j.Status != 1 ||
		j.Executable != 2 || res.Jobs[2].Executable != 3 {
		t.Errorf("job 16: %+v", j)
	}
	// A line cut short that the next does not complete is malformed,
	// once, and the next line read alone (here the job's step, of a job
	// not read); one at the end of the input too.
	i := strings.Index(in, "\nline|")
	j := i + 1 + strings.Index(in[i+1:], "\n")
	res, err = Sacct(strings.NewReader(in[:i]+in[j:]+"18|18|cut\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep = res.Report
	if strings.Join(res.IDs, " ") != "15 17" || rep.Skipped[skipMalformed] != 2 || rep.Steps != 3 ||
		rep.Records != rep.Jobs+rep.Steps+2 || len(rep.Notes) != 1 {
		t.Errorf("cut: ids %v, report %+v", res.IDs, rep)
	}
}
