//go:build !unix

package slurm_test

// cpuSeconds is not measured here: the CPU metrics read 0.
func cpuSeconds() float64 { return 0 }
