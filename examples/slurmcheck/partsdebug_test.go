package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// sizeError is the mean signed start error (simulated − Slurm's) of the
// jobs of partition part asking at least (big) or fewer than (not big)
// 12 CPUs, three quarters of a node, and how many there are.
func sizeError(c *checked, starts []int64, part string, big bool) (float64, int) {
	sum, n := 0.0, 0
	for i, r := range c.real {
		if r.Partition == part && (r.CPUs >= 12) == big {
			sum += float64(starts[i] - r.Start)
			n++
		}
	}
	return sum / float64(max(n, 1)), n
}

// deepStarts counts the backfill starts of c's slurmctld log that a
// sprio sample before them ranks behind at least bf_max_job_test jobs still
// pending when the cycle began (started no earlier than 100 ms before
// it: the cycle's own earlier starts are among those it tested), with no
// recalculation of priorities between sample and start; and the starts
// so rated. A cycle that counted every job it tested toward
// bf_max_job_test, as the policy's does, could not reach such a job.
func deepStarts(t *testing.T, c *checked) (deep, rated int) {
	cfg, _, err := siteConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	rec, maxTest := c.rec, int(cfg.BackfillMaxJobTest)
	start := map[string]int64{}
	for _, l := range rec.Log {
		start[l.ID] = l.Start
	}
	for _, l := range rec.Log {
		if !l.Backfill {
			continue
		}
		k := -1
		for i, s := range rec.Samples {
			if s.T <= l.Start {
				k = i
			}
		}
		if k < 0 || slices.ContainsFunc(rec.Decays, func(d int64) bool { return d > rec.Samples[k].T && d <= l.Start }) {
			continue
		}
		ps, err := parseSprio(rec.Samples[k].Sprio)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(ps, func(p prio) bool { return p.ID == l.ID })
		if i < 0 {
			continue
		}
		rated++
		ahead := 0
		for _, p := range ps {
			if s, ok := start[p.ID]; ok && p.Priority > ps[i].Priority && s >= l.Start-100 && p.ID != l.ID {
				ahead++
			}
		}
		if ahead >= maxTest {
			deep++
		}
	}
	return deep, rated
}

// TestPartsDebug generates the README's region partsdebug, what the
// search for why the policy starts debug's jobs early on site parts
// measured: the signed start error by partition and job size, the
// policy's beside the other Slurm run's, the policy's debug error as
// bf_max_job_test varies, how many of Slurm's backfill starts lay deeper
// in its queue than bf_max_job_test (deepStarts; site live's for
// contrast), and the error by partition of the policy whose backfill
// plans on the pool of CPUs (README.md, "A held-out site").
func TestPartsDebug(t *testing.T) {
	var cs []*checked
	for _, path := range partsPaths {
		_, c := readPrepared(t, path)
		cs = append(cs, c)
	}
	var b strings.Builder
	b.WriteString("| run | partition | jobs of ≥ 12 CPUs | policy | other Slurm run | jobs of fewer | policy | other Slurm run |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|\n")
	for k, c := range cs {
		s, err := runSlurm(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		o := otherRun("", c, cs[1-k], 0)
		for _, part := range []string{"batch", "debug", "long"} {
			fmt.Fprintf(&b, "| %d (%s) | %s |", k+1, partsPaths[k], part)
			for _, big := range []bool{true, false} {
				pe, n := sizeError(c, s.starts, part, big)
				oe, _ := sizeError(c, o.starts, part, big)
				fmt.Fprintf(&b, " %d | %+.1f s | %+.1f s |", n, pe, oe)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\nThe policy's mean signed start error of debug's jobs as bf_max_job_test varies (the site's is 20):")
	for k, path := range partsPaths {
		fmt.Fprintf(&b, " run %d", k+1)
		for j, v := range []int{10, 20, 40, 500} {
			_, c := readPrepared(t, path)
			c.rec.Conf = strings.Replace(c.rec.Conf, "bf_max_job_test=20", fmt.Sprintf("bf_max_job_test=%d", v), 1)
			s, err := runSlurm(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			for _, pe := range byPartition(c.real, s.starts) {
				if pe.Partition == "debug" {
					sep := ","
					if j == 0 {
						sep = ""
					}
					fmt.Fprintf(&b, "%s %d: %+.1f s", sep, v, pe.Mean)
				}
			}
		}
		if k == 0 {
			b.WriteString(";")
		}
	}
	b.WriteString(".\n\nSlurm's backfill starts that its sprio samples rank behind at least bf_max_job_test (20) jobs pending when the cycle began, of the starts so rated (no recalculation between the sample and the start):")
	for k, c := range cs {
		deep, rated := deepStarts(t, c)
		sep := ","
		if k == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s run %d %d of %d", sep, k+1, deep, rated)
	}
	b.WriteString("; on site live (every partition on every node, bf_max_job_test 50)")
	for k, path := range []string{recordPath, secondPath} {
		_, c := readPrepared(t, path)
		deep, rated := deepStarts(t, c)
		sep := ","
		if k == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s run %d %d of %d", sep, k+1, deep, rated)
	}
	b.WriteString(".\n\nThe mean signed start error by partition of the policy with backfill planning on the pool of CPUs (slurm.Config.NamedNodes false) instead of on named nodes:")
	for k, c := range cs {
		s, err := runSlurmPlan(context.Background(), c, false)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, " run %d", k+1)
		for j, pe := range byPartition(c.real, s.starts) {
			sep := ","
			if j == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %s %+.1f s", sep, pe.Partition, pe.Mean)
		}
		if k == 0 {
			b.WriteString(";")
		}
	}
	b.WriteString(".\n")
	readme.Check(t, "README.md", "partsdebug", []byte(b.String()))
}
