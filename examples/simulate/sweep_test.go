package main

import (
	"strings"
	"testing"
)

// Robustness sweep (h-sweep): flags and slurm.conf files nobody chose.

// An empty -slurm-conf or -shares (or an empty name in -shares' list) is
// a usage error, not a silent run of EASY or of Slurm without shares.
func TestSweepEmptySlurmFlags(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n")
	conf := writeTrace(t, dir, "slurm.conf", "PriorityType=priority/multifactor\n")
	for _, args := range [][]string{
		{"-slurm-conf", "", trace},
		{"-slurm-conf", conf, "-shares", "", trace},
		{"-slurm-conf", conf, "-shares", ",", trace},
		{"-slurm-conf", conf, "-shares", conf + ",", trace},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 2 || !strings.HasPrefix(errs, "simulate: -") {
			t.Errorf("%q: exit %d, %q; want 2 and a usage error naming the flag", args, code, errs)
		}
	}
}

// A file -slurm-conf or -shares cannot open is named with its flag.
func TestSweepMissingSlurmFiles(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n")
	conf := writeTrace(t, dir, "slurm.conf", "PriorityType=priority/multifactor\n")
	for _, c := range []struct{ flag, want string }{
		{"-slurm-conf", "simulate: -slurm-conf " + dir + "/none: "},
		{"-shares", "simulate: -shares " + dir + "/none: "},
	} {
		args := []string{"-slurm-conf", conf, trace}
		if c.flag == "-slurm-conf" {
			args[1] = dir + "/none"
		} else {
			args = append(args, "-shares", dir+"/none")
		}
		code, _, errs := runCmd(t, args...)
		if code != 1 || !strings.HasPrefix(errs, c.want) {
			t.Errorf("%q: exit %d, %q; want 1 and %q", args, code, errs, c.want)
		}
	}
}

// A log whose queues (SWF field 15, the partition) name no partition of
// slurm.conf has every job cancelled "unknown partition" (the CTC log's
// LoadLeveler classes under any site's file: 77,222 of 77,222): the
// message says where a job's partition comes from and which partitions
// the file has.
func TestSweepUnknownPartitionHint(t *testing.T) {
	dir := t.TempDir()
	// Job 2's queue 0, which nothing names, ran in the default partition:
	// not among the queues the hint names (it said "astro, 0").
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 4\n; Queue: 3 astro\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 3 -1 -1 -1\n"+
		"2 5 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 0 -1 -1 -1\n")
	conf := writeTrace(t, dir, "slurm.conf", "PartitionName=batch Nodes=ALL Default=YES\nPartitionName=debug Nodes=ALL\n")
	code, _, errs := runCmd(t, "-slurm-conf", conf, trace)
	want := "simulate: slurm: a job's partition is its SWF queue (field 15, named by the header's Queue lines: astro); slurm.conf " + conf + " has the partitions batch, debug\n"
	if code != 0 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, %q; want %q", code, errs, want)
	}
}
