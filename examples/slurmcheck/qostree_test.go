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
// policy's figures as the site is (killing at slurmctld's 30 s check), as
// before it modelled the check (killing at the limit at once), with the
// killed jobs given their real run time as their limit (so that the
// policy ends them where Slurm did, its plan holding their CPUs to
// then), and with each of the site's own keys
// set back to the live site's value, so that the region shows which keys
// the schedule and the priorities turn on.
func TestQOSTreeKeys(t *testing.T) {
	var b strings.Builder
	variants := []struct {
		name      string
		conf      func(string) string
		kill      bool
		killCheck int64
	}{
		{"the site as recorded", nil, false, 0},
		{"kills at the limit at once (KillCheck -1), not at the next 30 s check", nil, false, -1},
		{"the killed jobs' limit set to what they ran", nil, true, 0},
		{"PriorityMaxAge=0-0:04 (the live site's) for 0-0:01", func(s string) string {
			return strings.Replace(s, "PriorityMaxAge=0-0:01", "PriorityMaxAge=0-0:04", 1)
		}, false, 0},
		{"PriorityWeightQOS=1000 (the live site's) for 10000", func(s string) string {
			return strings.Replace(s, "PriorityWeightQOS=10000", "PriorityWeightQOS=1000", 1)
		}, false, 0},
		{"bf_resolution=10 (the live site's) for 60", func(s string) string {
			return strings.Replace(s, "bf_resolution=60", "bf_resolution=10", 1)
		}, false, 0},
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
			c.killCheck = v.killCheck
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

// TestTimeoutJobs: a job sacct shows TIMEOUT is taken (what it ran is its
// run time) only when its workload slept past its limit, as site
// qos-tree's killed jobs did; a TIMEOUT job that should have ended in
// time, or a killed job in any other state, is refused as before.
func TestTimeoutJobs(t *testing.T) {
	rec, c := readPrepared(t, qosTreePaths[0])
	killed, done := -1, -1
	for i, r := range c.real {
		switch {
		case r.State == "TIMEOUT" && killed < 0:
			killed = i
		case r.State == "COMPLETED" && done < 0:
			done = i
		}
	}
	if killed < 0 || done < 0 {
		t.Fatalf("%s: no TIMEOUT job (%d) or no COMPLETED one (%d)", qosTreePaths[0], killed, done)
	}
	if w := rec.Workload[killed]; w.Sleep <= w.Limit*60 {
		t.Fatalf("job %d ended TIMEOUT but sleeps %d s within its %d min", killed, w.Sleep, w.Limit)
	}
	for _, tc := range []struct {
		job        int
		from, to   string
		wantRefuse bool
	}{
		{done, "|COMPLETED|", "|TIMEOUT|", true}, // slept within its limit: not a kill
		{killed, "|TIMEOUT|", "|FAILED|", true},
		{killed, "|TIMEOUT|", "|TIMEOUT|", false},
	} {
		r2 := *rec
		var lines []string
		for _, l := range strings.Split(rec.Sacct, "\n") {
			if strings.HasPrefix(l, rec.IDs[tc.job]+"|") {
				l = strings.Replace(l, tc.from, tc.to, 1)
			}
			lines = append(lines, l)
		}
		r2.Sacct = strings.Join(lines, "\n")
		_, err := prepare(&r2)
		if (err != nil) != tc.wantRefuse {
			t.Errorf("job %d %s as %s: error %v, want refused %v", tc.job, tc.from, tc.to, err, tc.wantRefuse)
		}
	}
}
