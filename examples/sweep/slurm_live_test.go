package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/slurmtest"
)

// TestSlurmArray submits a small sweep (28 runs) as a real Slurm job array,
// with the script `sweep slurm` prints, to a single-node cluster on
// loopback (scripts/slurm-cluster.sh), merges the shards the four tasks
// wrote, and compares the result byte for byte with the same sweep run
// here. It skips without Slurm and fails when CI=true (slurmtest.Start).
func TestSlurmArray(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a Slurm cluster")
	}
	dir, env := slurmtest.Start(t)
	spec, specPath := smallSpec(t, synthTrace(t, 600))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	bin := filepath.Join(dir, "sweep")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	results := filepath.Join(dir, "results")
	if err := os.Mkdir(results, 0o755); err != nil { // as the script's header says
		t.Fatal(err)
	}
	script := mustRun(t, "slurm", "-spec", specPath, "-tasks", "4", "-out", results, "-bin", bin, "-partition", "long", "-time", "5")
	scriptPath := filepath.Join(dir, "sweep.sbatch")
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	sb := exec.CommandContext(ctx, "sbatch", "--wait", "--parsable", scriptPath)
	sb.Env, sb.Dir = env, dir
	out, err := sb.CombinedOutput()
	if err != nil {
		logs, _ := filepath.Glob(filepath.Join(results, "slurm-*.log"))
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", l, b)
		}
		t.Fatalf("sbatch --wait: %v\n%s", err, out)
	}
	jobID := strings.TrimSpace(string(out))

	// Every task ran and completed, as slurmdbd saw it. slurmctld sends
	// the tasks' records to slurmdbd after sbatch --wait returns (on a
	// loaded machine seconds later, the array showing as one job "1"
	// until then), so ask for up to 60 s.
	var acct []byte
	for deadline := time.Now().Add(60 * time.Second); ; {
		sa := exec.CommandContext(ctx, "sacct", "-j", jobID, "-X", "-n", "-P", "-o", "JobID,State")
		sa.Env = env
		if acct, err = sa.Output(); err != nil {
			t.Fatal(err)
		}
		if lines := strings.Fields(string(acct)); len(lines) == 4 && strings.Count(string(acct), "|COMPLETED") == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("sacct -j %s: %q, want 4 COMPLETED array tasks", jobID, acct)
			break
		}
		time.Sleep(time.Second)
	}

	merged := mustRun(t, "merge", "-spec", specPath, results)
	local := t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", local)
	if want := read(t, filepath.Join(local, "small.shard-0-of-1.jsonl")); !bytes.Equal([]byte(merged), want) {
		t.Fatalf("the array's merged results differ from the local run (%d and %d bytes)", len(merged), len(want))
	}
	if n := strings.Count(merged, "\n"); n != len(spec.Expand()) {
		t.Errorf("%d merged runs, want %d", n, len(spec.Expand()))
	}
}
