//go:build ignore

// rusage runs one command and prints what it cost the machine, from the
// kernel's accounting of that process (wait4's rusage), on one line:
//
//	CPU_SECONDS PEAK_RSS_KIB WALL_SECONDS
//
// CPU is user + system time in microseconds' resolution, which the 10 ms
// steps of /usr/bin/time's %U and %S cannot give for runs of 20–100 ms;
// peak RSS is ru_maxrss. The command's standard output is discarded and its
// standard error is kept and shown only when it fails (then rusage fails
// with its status), so that a broken run never counts as a fast one.
// scripts/bench-peers.sh builds and calls it:
//
//	go build -o rusage scripts/rusage.go
//	./rusage CMD [ARG...]
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rusage CMD [ARG...]")
		os.Exit(2)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rusage: %s: %v\n%s", os.Args[1], err, stderr.Bytes())
		os.Exit(1)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "rusage: no rusage on this system")
		os.Exit(1)
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	// ru_maxrss is in KiB on Linux.
	fmt.Printf("%.6f %d %.6f\n", cpu.Seconds(), ru.Maxrss, wall.Seconds())
}
