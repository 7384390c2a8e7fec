package slurmtest

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWatchdog starts a cluster owned by a stand-in process (a sleep, in
// place of a test binary), kills that process with SIGKILL, as a CI
// timeout would kill a test, and checks that the script's watchdog stops
// every daemon and itself within watchdogBound. The cluster's own cleanup
// (`down`, then every recorded process gone) runs whatever happens.
func TestWatchdog(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a private Slurm (about 15 s)")
	}
	script := prepare(t)
	owner := exec.Command("sleep", "600")
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := false
	kill := func() {
		if !reaped {
			owner.Process.Kill()
			owner.Wait() // reaped: no zombie the watchdog would take for alive
			reaped = true
		}
	}
	t.Cleanup(kill)
	dir, _ := up(t, script, owner.Process.Pid)

	started, err := pids(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"munged", "mariadbd", "slurmdbd", "slurmctld", "slurmd", "watchdog"} {
		if _, ok := started[name]; !ok {
			t.Fatalf("no pid file %s.pid after up (have %v)", name, started)
		}
	}
	if left := running(started); len(left) != len(started) {
		t.Fatalf("not every process of up runs before the owner is killed: %v of %v", left, started)
	}

	kill()
	const watchdogBound = 60 * time.Second
	killed := time.Now()
	deadline := killed.Add(watchdogBound)
	left := running(started)
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		left = running(started)
	}
	if len(left) > 0 {
		log, _ := os.ReadFile(filepath.Join(dir, "log", "watchdog.log"))
		t.Fatalf("%s after the owner's SIGKILL, still running: %s\nwatchdog.log:\n%s",
			watchdogBound, strings.Join(left, ", "), log)
	}
	t.Logf("the %d processes of up gone %s after the owner's SIGKILL", len(started), time.Since(killed).Round(100*time.Millisecond))
	if m, err := pids(dir); err != nil || len(m) > 0 {
		t.Errorf("pid files left after the watchdog's down: %v (%v)", slices.Sorted(maps.Keys(m)), err)
	}
}
