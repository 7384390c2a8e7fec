package main

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	rec, err := readRecording(os.Getenv("ZZ_REC"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := prepare(rec)
	if err != nil {
		t.Fatal(err)
	}
	s, err := runSlurm(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	bf := map[string]bool{}
	for _, l := range rec.Log {
		bf[l.ID] = l.Backfill
	}
	t0 := c.real[0].Submit
	for i, r := range c.real {
		w := rec.Workload[i]
		fmt.Printf("%3d sub %4d real %4d sim %4d d %+4d run %3d cpus %2d lim %3d %s/%s %s bf=%v prio %d\n", i, r.Submit-t0, r.Start-t0, s.starts[i]-t0, s.starts[i]-r.Start, r.End-r.Start, r.CPUs, r.Limit, w.User, w.Partition, w.QOS, bf[rec.IDs[i]], r.Priority)
	}
}
