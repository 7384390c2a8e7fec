package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// qosTreePaths are the two recorded runs of the second held-out site: the
// QOS weight dominant, PriorityMaxAge binding, bf_resolution of a minute,
// bf_continue, a deeper account tree and jobs killed at their limit
// (qosTreeSite; BATCHQ_SLURMCHECK_SITE=qos-tree).
var qosTreePaths = [2]string{"testdata/qostree.json", "testdata/qostree2.json"}

// TestQOSTreeKeys generates the README's region qostreekeys: on each run
// of site qos-tree, when Slurm ended the jobs it killed at their time
// limit (seconds past the limit, and past the recording's origin modulo
// 30 s: slurmctld checks the limits every PERIODIC_TIMEOUT, 30 s); the
// policy's figures as the site is, with the killed jobs given their
// real run time as their limit (so that the policy, which kills at the
// limit, ends them where Slurm did), and with each of the site's own keys
// set back to the live site's value, so that the region shows which keys
// the schedule and the priorities turn on.
func TestQOSTreeKeys(t *testing.T) {
	var b strings.Builder
	variants := []struct {
		name string
		conf func(string) string
		kill bool
	}{
		{"the site as recorded", nil, false},
		{"the killed jobs' limit set to what they ran", nil, true},
		{"PriorityMaxAge=0-0:04 (the live site's) for 0-0:01", func(s string) string {
			return strings.Replace(s, "PriorityMaxAge=0-0:01", "PriorityMaxAge=0-0:04", 1)
		}, false},
		{"PriorityWeightQOS=1000 (the live site's) for 10000", func(s string) string {
			return strings.Replace(s, "PriorityWeightQOS=10000", "PriorityWeightQOS=1000", 1)
		}, false},
		{"bf_resolution=10 (the live site's) for 60", func(s string) string {
			return strings.Replace(s, "bf_resolution=60", "bf_resolution=10", 1)
		}, false},
	}
	b.WriteString("| run | the policy with | competing pairs in Slurm's order | started within bf_interval | mean \\|start error\\| | mean \\|priority error\\| |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|\n")
	var kills []string
	for k, path := range qosTreePaths {
		_, c := readPrepared(t, path)
		var lag, phase []string
		for i, r := range c.real {
			if r.State == "TIMEOUT" {
				lag = append(lag, fmt.Sprintf("%d", r.End-r.Start-c.jobs[i].ReqTime))
				phase = append(phase, fmt.Sprintf("%d", (r.End-c.origin)%30))
			}
		}
		kills = append(kills, fmt.Sprintf("run %d: %d jobs, ended %s s after their limit, at %s s past a multiple of 30 s from the origin",
			k+1, len(lag), strings.Join(lag, ", "), strings.Join(phase, ", ")))
		for _, v := range variants {
			_, c := readPrepared(t, path)
			if v.conf != nil {
				conf := v.conf(c.rec.Conf)
				if conf == c.rec.Conf {
					t.Fatalf("%s: %q changes nothing", path, v.name)
				}
				c.rec.Conf = conf
			}
			if v.kill {
				c.jobs = slices.Clone(c.jobs)
				for i, r := range c.real {
					if r.State == "TIMEOUT" {
						c.jobs[i].ReqTime = c.jobs[i].RunTime
					}
				}
			}
			s, err := runSlurm(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			f, err := score(c, s)
			if err != nil {
				t.Fatal(err)
			}
			prio := "n/a"
			if f.PrioAbs != nil {
				prio = fmt.Sprintf("%.0f (%.1f%%)", *f.PrioAbs, 100**f.PrioRel)
			}
			fmt.Fprintf(&b, "| %d (%s) | %s | %.1f%% | %.1f%% | %.1f s | %s |\n", k+1, path, v.name, 100*f.Agree, 100*f.Within, f.MeanError, prio)
		}
	}
	fmt.Fprintf(&b, "\nThe jobs Slurm killed at their time limit (sacct's End): %s.\n", strings.Join(kills, "; "))
	readme.Check(t, "README.md", "qostreekeys", []byte(b.String()))
}
