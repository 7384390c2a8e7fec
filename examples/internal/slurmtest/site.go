package slurmtest

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Site is a cluster as a site configures it, for the tests whose workload
// comes from several users: slurm.conf lines (priority weights,
// partitions, ...), the QOS, and the fair-share tree of accounts and
// users, each user a Unix account that submits its own jobs (slurmd starts
// a job as the user who submitted it, and fair share charges that user).
type Site struct {
	CPUs     int              // the node's CPUs (SLURM_CLUSTER_CPUS); 0: the script's default
	Conf     string           // slurm.conf lines (SLURM_CLUSTER_CONF)
	QOS      map[string]int64 // the QOS besides normal, with their priority
	Accounts []Account        // under root
}

// Account is an account of the fair-share tree, with its users.
type Account struct {
	Name   string
	Shares int64
	Users  []User
	// Parent is the account it lies under ("": root); a parent comes
	// before its children in Site.Accounts (sacctmgr adds them in order).
	Parent string
}

// User is a user's association with an account: its RawShares there and
// the QOS list it may use ("": normal only). A user may be in several
// accounts.
type User struct {
	Name   string
	Shares int64
	QOS    string
}

// Sacctmgr is the QOS, the accounts and the associations as sacctmgr
// commands, for slurm-cluster.sh's SLURM_CLUSTER_SACCTMGR (run before
// slurmctld starts, so that its first priority calculation knows them).
func (s *Site) Sacctmgr() string {
	var b strings.Builder
	for _, q := range slices.Sorted(maps.Keys(s.QOS)) {
		fmt.Fprintf(&b, "add qos %s priority=%d\n", q, s.QOS[q])
	}
	for _, a := range s.Accounts {
		fmt.Fprintf(&b, "add account %s fairshare=%d", a.Name, a.Shares)
		if a.Parent != "" {
			fmt.Fprintf(&b, " parent=%s", a.Parent)
		}
		b.WriteString("\n")
	}
	for _, a := range s.Accounts {
		for _, u := range a.Users {
			fmt.Fprintf(&b, "add user %s account=%s fairshare=%d", u.Name, a.Name, u.Shares)
			if u.QOS != "" {
				fmt.Fprintf(&b, " qos=%s", u.QOS)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Start starts the site's cluster as Start does, after making its users
// (system accounts without a home, once per machine: they stay for the
// next run). The workload is submitted with Cmd as its users, which
// needs runuser: without it the test is skipped, and fails when CI=true.
func (s *Site) Start(t testing.TB) (dir string, env []string) {
	t.Helper()
	script := prepare(t)
	if _, err := exec.LookPath("runuser"); err != nil {
		skipOrFail(t, "no runuser: the workload is submitted as several users")
	}
	seen := map[string]bool{}
	for _, a := range s.Accounts {
		for _, u := range a.Users {
			if seen[u.Name] {
				continue
			}
			seen[u.Name] = true
			if exec.Command("id", "-u", u.Name).Run() == nil {
				continue
			}
			out, err := exec.Command("useradd", "-r", "-M", "-d", "/nonexistent", "-s", "/usr/sbin/nologin", u.Name).CombinedOutput()
			// Another package's test (go test runs packages in parallel
			// processes) may have made the same user between id and
			// useradd: on a fresh machine CI failed so (useradd exit 9).
			if err != nil && exec.Command("id", "-u", u.Name).Run() != nil {
				t.Fatalf("useradd %s: %v: %s", u.Name, err, out)
			}
		}
	}
	files := t.TempDir()
	conf, mgr := filepath.Join(files, "site.conf"), filepath.Join(files, "site.sacctmgr")
	if err := os.WriteFile(conf, []byte(s.Conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mgr, []byte(s.Sacctmgr()), 0o644); err != nil {
		t.Fatal(err)
	}
	if s.CPUs > 0 {
		t.Setenv("SLURM_CLUSTER_CPUS", strconv.Itoa(s.CPUs))
	}
	t.Setenv("SLURM_CLUSTER_CONF", conf)
	t.Setenv("SLURM_CLUSTER_SACCTMGR", mgr)
	return up(t, script, os.Getpid())
}

// Cmd runs a Slurm command with the cluster's environment (times as Unix
// seconds), as user if not "" (runuser), and returns its output; an error
// names the command and carries its standard error.
func Cmd(ctx context.Context, env []string, user, name string, args ...string) (string, error) {
	var cmd *exec.Cmd
	if user != "" {
		cmd = exec.CommandContext(ctx, "runuser", slices.Concat([]string{"-u", user, "--", name}, args)...)
	} else {
		cmd = exec.CommandContext(ctx, name, args...)
	}
	cmd.Env = append(slices.Clone(env), "SLURM_TIME_FORMAT=%s")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out), nil
}

// Drain waits until the cluster's queue is empty (squeue shows no job)
// and ready holds (nil: at once), checking every second, and fails the
// test with what squeue shows when that takes longer than bound.
func Drain(t testing.TB, env []string, bound time.Duration, ready func() bool) {
	t.Helper()
	for end := time.Now().Add(bound); ; time.Sleep(time.Second) {
		out, err := Cmd(context.Background(), env, "", "squeue", "-h", "-o", "%i")
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(out) == "" && (ready == nil || ready()) {
			return
		}
		if time.Now().After(end) && strings.TrimSpace(out) == "" {
			t.Fatalf("the queue is empty, but the test's condition did not hold within %v", bound)
		}
		if time.Now().After(end) {
			t.Fatalf("the workload did not finish within %v: squeue shows %q", bound, out)
		}
	}
}
