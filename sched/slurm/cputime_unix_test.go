//go:build unix

package slurm_test

import "syscall"

// cpuSeconds is the process's CPU time so far (user and system, every
// thread): on a machine shared with other work the benchmarks' wall
// time counts the waits for a core, their CPU time does not.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
