// Package slurmtest starts a single-node Slurm cluster on loopback for a
// test, with the script the README names (scripts/slurm-cluster.sh), and
// stops it by pid when the test ends: as the script writes it (Start), or
// as a site configures it, with its own slurm.conf lines, QOS, accounts and
// users who submit their own jobs (Site.Start, Cmd). Drain waits for a
// workload to finish.
package slurmtest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Script finds scripts/slurm-cluster.sh above the working directory.
func Script() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "scripts", "slurm-cluster.sh")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("scripts/slurm-cluster.sh not found above the working directory")
		}
		dir = up
	}
}

// Start starts a cluster in a new directory and returns it with the
// environment its commands need (SLURM_CONF). Without Slurm installed, or
// without root, the test is skipped, and fails when CI=true. The cluster
// is stopped (`down`: every daemon by its pid) when the test ends; its
// directory is kept, for its logs, when the test failed.
func Start(t testing.TB) (dir string, env []string) {
	t.Helper()
	return up(t, prepare(t))
}

// prepare finds the script and skips (fails when CI=true) without Slurm
// or root.
func prepare(t testing.TB) string {
	t.Helper()
	script, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	missing := ""
	for _, b := range []string{"slurmctld", "slurmd", "slurmdbd", "munged", "mariadbd", "sbatch", "sacct"} {
		if _, err := exec.LookPath(b); err != nil {
			missing = b + " is not on PATH (scripts/slurm-cluster.sh install)"
			break
		}
	}
	if missing == "" && os.Geteuid() != 0 {
		missing = "the cluster needs root (slurmd launches jobs as their user)"
	}
	if missing != "" {
		skipOrFail(t, "no Slurm: "+missing)
	}
	return script
}

func skipOrFail(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and %s", why)
	}
	t.Skip(why)
}

// up runs `slurm-cluster.sh up` in a new directory, and `down` at cleanup.
func up(t testing.TB, script string) (dir string, env []string) {
	t.Helper()
	// A short path: the munge and MariaDB sockets live in it (108 bytes at most).
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		out, err := exec.Command(script, "down", dir).CombinedOutput()
		switch {
		case err != nil:
			t.Errorf("slurm-cluster.sh down: %v\n%s", err, out)
		case t.Failed():
			t.Logf("cluster directory kept for its logs: %s", dir)
		default:
			os.RemoveAll(dir)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, script, "up", dir).CombinedOutput(); err != nil {
		t.Fatalf("slurm-cluster.sh up: %v\n%s", err, out)
	}
	return dir, append(os.Environ(), "SLURM_CONF="+filepath.Join(dir, "etc", "slurm.conf"))
}
