// Package slurmtest starts a single-node Slurm cluster on loopback for a
// test, with the script the README names (scripts/slurm-cluster.sh), and
// stops it by pid when the test ends (and, through the script's watchdog,
// when the test binary is killed first): as the script writes it (Start), or
// as a site configures it, with its own slurm.conf lines, QOS, accounts and
// users who submit their own jobs (Site.Start, Cmd). Drain waits for a
// workload to finish.
package slurmtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
// is stopped (`down`: every daemon by its pid) when the test ends, or by
// the script's watchdog when this process dies before (SLURM_CLUSTER_OWNER);
// its directory is kept, for its logs, when the test failed.
func Start(t testing.TB) (dir string, env []string) {
	t.Helper()
	return up(t, prepare(t), os.Getpid())
}

// ElsewhereEnv names the variable with which a go test leaves the live
// tests to another one run beside it (.ci/run runs them in a go test of
// their own, started early, so that their minutes of waiting on Slurm do
// not hold one of go test's package slots): its value is that go test's
// -run pattern. A test that starts a cluster and whose name the pattern
// selects is skipped, even with CI=true; one it does not select fails, as
// it would run in neither go test.
const ElsewhereEnv = "BATCHQ_SLURM_ELSEWHERE"

// prepare finds the script and skips (fails when CI=true) without Slurm
// or root, or when the test runs elsewhere (ElsewhereEnv).
func prepare(t testing.TB) string {
	t.Helper()
	if pattern := os.Getenv(ElsewhereEnv); pattern != "" {
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("%s=%s: %v", ElsewhereEnv, pattern, err)
		}
		top, _, _ := strings.Cut(t.Name(), "/")
		if !re.MatchString(top) {
			t.Fatalf("%s=%s: %s starts a Slurm cluster, and the go test that runs the live tests would not select it", ElsewhereEnv, pattern, top)
		}
		t.Skipf("%s=%s: the live tests run in a go test of their own", ElsewhereEnv, pattern)
	}
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

// up runs `slurm-cluster.sh up` in a new directory with owner as its
// SLURM_CLUSTER_OWNER, and `down` at cleanup, which fails the test when a
// process up recorded (the watchdog too) outlives it.
func up(t testing.TB, script string, owner int) (dir string, env []string) {
	t.Helper()
	// A short path: the munge and MariaDB sockets live in it (108 bytes at most).
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		before, _ := pids(dir)
		out, err := exec.Command(script, "down", dir).CombinedOutput()
		if left := running(before); err == nil && len(left) > 0 {
			t.Errorf("slurm-cluster.sh down left running: %s", strings.Join(left, ", "))
		}
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
	cmd := exec.CommandContext(ctx, script, "up", dir)
	cmd.Env = append(os.Environ(), "SLURM_CLUSTER_OWNER="+strconv.Itoa(owner))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("slurm-cluster.sh up: %v\n%s", err, out)
	}
	return dir, append(os.Environ(), "SLURM_CONF="+filepath.Join(dir, "etc", "slurm.conf"))
}

// pids reads the script's pid files, DIR/pids/NAME.pid, by NAME.
func pids(dir string) (map[string]int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "pids", "*.pid"))
	if err != nil {
		return nil, err
	}
	m := make(map[string]int, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		m[strings.TrimSuffix(filepath.Base(f), ".pid")] = pid
	}
	return m, nil
}

// running lists, sorted, the processes of m ("name pid") that still run: a
// process that exited but is not yet reaped (a zombie) does not count.
func running(m map[string]int) []string {
	var left []string
	for name, pid := range m {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			continue
		}
		// The state is the field after the command name, which may hold ") ".
		s := string(b)
		if i := strings.LastIndex(s, ") "); i >= 0 && len(s) > i+2 && (s[i+2] == 'Z' || s[i+2] == 'X') {
			continue
		}
		left = append(left, name+" "+strconv.Itoa(pid))
	}
	slices.Sort(left)
	return left
}
