package slurmtest

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
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

// TestWatchdogStandIns runs the script's watchdog (`watch`, as up starts
// it) over stand-in processes, without Slurm or root: up writes the
// watchdog's pid file just after starting it, and the watchdog may look
// first (here the file comes 300 ms late: it must wait, not leave); the
// owner dies while up still runs (the daemons stay until up ends); then
// up ends, and the watchdog stops the daemon by its pid file, and itself.
func TestWatchdogStandIns(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc: the script reads its processes' start times there")
	}
	script, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"pids", "log"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// run starts cmd and reaps it as soon as it ends (a zombie would
	// hold its pid for `down`'s kill -0); done closes then.
	run := func(cmd *exec.Cmd) (pid int, done chan struct{}) {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done = make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		t.Cleanup(func() { cmd.Process.Kill(); <-done })
		return cmd.Process.Pid, done
	}
	stopped := func(done chan struct{}) bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	owner, ownerDone := run(exec.Command("sleep", "600"))
	up, upDone := run(exec.Command("sleep", "600"))
	daemon, daemonDone := run(exec.Command("sleep", "600"))
	if err := os.WriteFile(filepath.Join(dir, "pids", "munged.pid"), []byte(strconv.Itoa(daemon)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := os.Create(filepath.Join(dir, "log", "watchdog.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	w := exec.Command(script, "watch", dir, strconv.Itoa(owner), procStart(t, owner), strconv.Itoa(up), procStart(t, up))
	w.Stdout, w.Stderr = log, log
	watchdog, watchdogDone := run(w)
	logged := func() string { b, _ := os.ReadFile(log.Name()); return string(b) }

	time.Sleep(300 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(dir, "pids", "watchdog.pid"), []byte(strconv.Itoa(watchdog)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if stopped(watchdogDone) {
		t.Fatalf("the watchdog left before up wrote its pid file:\n%s", logged())
	}
	syscall.Kill(owner, syscall.SIGKILL)
	<-ownerDone
	time.Sleep(1500 * time.Millisecond)
	if stopped(daemonDone) || stopped(watchdogDone) {
		t.Fatalf("the watchdog stopped the cluster while up still ran:\n%s", logged())
	}
	syscall.Kill(up, syscall.SIGKILL)
	<-upDone
	for _, c := range []struct {
		name string
		done chan struct{}
	}{{"daemon", daemonDone}, {"watchdog", watchdogDone}} {
		select {
		case <-c.done:
		case <-time.After(20 * time.Second):
			t.Fatalf("the %s still runs 20 s after up ended:\n%s", c.name, logged())
		}
	}
	if m, err := pids(dir); err != nil || len(m) > 0 {
		t.Errorf("pid files left after the watchdog's down: %v (%v)", slices.Sorted(maps.Keys(m)), err)
	}
}

// procStart is field 22 of /proc/PID/stat, the start time the script's
// proc_start reads.
func procStart(t *testing.T, pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndex(s, ") ")+2:])
	if len(f) < 20 {
		t.Fatalf("/proc/%d/stat: %q", pid, s)
	}
	return f[19]
}
