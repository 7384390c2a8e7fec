package main

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// policyRun is one simulation of a pod list under a policy and a
// placement, with its GPU replay.
type policyRun struct {
	name   string
	res    *sched.Result
	replay *gpuReplay
}

func runPolicy(t *testing.T, policy string, kinds []swf.Node, jobs []swf.Job, best bool) policyRun {
	t.Helper()
	pr, ok := sched.LookupPreset(policy)
	if !ok {
		t.Fatalf("no preset %q", policy)
	}
	cfg := pr.New(0)
	cfg.Nodes, cfg.KeepShares = kinds, true
	name := pr.Name + ", first fit"
	if best {
		cfg.Placement, name = sched.BestFit, pr.Name+", best fit"
	}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return policyRun{name: name, res: res, replay: newGPUReplay(kinds, res, best)}
}

// allWaits are the simulated waits of every started job.
func allWaits(res *sched.Result) waitStats {
	var w []int64
	for i := range res.Records {
		if res.Records[i].Start >= 0 {
			w = append(w, res.Records[i].Wait)
		}
	}
	return statsOf(w)
}

// overTime are the instants of the allocation table (seconds after the
// snapshot's submission).
var overTime = []int64{0, 600, 1800, 3600, 6 * 3600, 86400, 7 * 86400}

// TestReadmeAlibabaPolicies runs FCFS and EASY with first and best fit on
// the pod lists with run times, submitted at once (snapshot) and at their
// logged arrivals, and measures the GPUs allocated and Weng et al.'s
// fragmentation (frag_test.go) at time 0 of the snapshot; on the default
// list it follows both over time and draws them (alibaba-gpus.png, drawn
// again under BATCHQ_UPDATE_README=1). About 10 s of CPU.
func TestReadmeAlibabaPolicies(t *testing.T) {
	curves, classes := policiesTable(t, "alibaba-policies", alibabaLists[:1])
	overTimeTable(t, curves, classes)
}

// TestReadmeAlibabaPoliciesLong is TestReadmeAlibabaPolicies's table on
// the other pod lists with run times (BATCHQ_LONG=1; about 15 s of CPU).
func TestReadmeAlibabaPoliciesLong(t *testing.T) {
	if os.Getenv("BATCHQ_LONG") == "" {
		t.Skip("BATCHQ_LONG=1 runs it (about 15 s of CPU)")
	}
	policiesTable(t, "alibaba-policies-long", alibabaLists[1:4]) // multigpu20 has no times
}

// policiesTable writes region's table over lists and returns the default
// list's snapshot runs and task classes, if it is among them.
func policiesTable(t *testing.T, region string, lists []string) ([]policyRun, []fragClass) {
	var b strings.Builder
	fmt.Fprintln(&b, "| pod list | policy, placement | snapshot: mean wait (s) | p95 (s) | waited | GPUs allocated at 0 | fragmented at 0 (of all GPUs) | fragmentation rate at 0 (of free GPUs) | replay misses | logged arrivals: mean wait (s) | p95 (s) | waited |")
	fmt.Fprintln(&b, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var curves []policyRun
	var defaultClasses []fragClass
	for _, list := range lists {
		kinds, jobs := readAlibaba(t, list)
		classes := fragClasses(jobs)
		snap := snapshot(jobs)
		var logged *waitCompare
		for k, pc := range []struct {
			policy string
			best   bool
		}{{"fcfs", false}, {"fcfs", true}, {"easy", false}, {"easy", true}} {
			s := runPolicy(t, pc.policy, kinds, snap, pc.best)
			// At the logged arrivals only FCFS: EASY's runs are the
			// table above's.
			var lw *waitCompare
			if pc.policy == "fcfs" {
				l := runPolicy(t, pc.policy, kinds, jobs, pc.best)
				lw = compareWaits(l.res)
			}
			s.replay.advance(0)
			frag, free := s.replay.frag(classes)
			total := float64(s.replay.total)
			sw := allWaits(s.res)
			if logged == nil {
				logged = lw
			}
			cell := ""
			if k == 0 {
				cell = "`" + list + "`"
			}
			fmt.Fprintf(&b, "| %s | %s | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f | %d |", cell, s.name,
				sw.Mean, sw.P95, sw.Waited, float64(s.replay.held)/total, frag/total, frag/float64(free), s.replay.misses)
			if lw != nil {
				fmt.Fprintf(&b, " %.0f | %.0f | %.3f |\n", lw.Simulated.Mean, lw.Simulated.P95, lw.Simulated.Waited)
			} else {
				fmt.Fprintf(&b, " (first table) | | |\n")
			}
			if list == "default" {
				curves = append(curves, s)
				defaultClasses = classes
			}
		}
		fmt.Fprintf(&b, "| | logged (%d pods) | | | | | | | | %.0f | %.0f | %.3f |\n", logged.Jobs, logged.Logged.Mean, logged.Logged.P95, logged.Logged.Waited)
	}
	readme.Check(t, "README.md", region, []byte(b.String()))
	return curves, defaultClasses
}

// overTimeTable follows the default list's snapshot runs over time: the
// table of GPUs allocated and fragmented at overTime, and the figure.
func overTimeTable(t *testing.T, curves []policyRun, defaultClasses []fragClass) {
	var over strings.Builder
	fmt.Fprint(&over, "| policy, placement | |")
	for _, at := range overTime {
		fmt.Fprintf(&over, " %s |", hoursText(at))
	}
	fmt.Fprint(&over, "\n|---|---|")
	for range overTime {
		fmt.Fprint(&over, "---:|")
	}
	fmt.Fprintln(&over)
	// The default list over time: the replays restart from 0.
	kinds, _ := readAlibaba(t, "default")
	for i := range curves {
		curves[i].replay = newGPUReplay(kinds, curves[i].res, strings.HasSuffix(curves[i].name, "best fit"))
	}
	type series struct{ alloc, frag plotter.XYs }
	figure := make([]series, len(curves))
	const hours, step = 6, 300
	for i, c := range curves {
		var alloc, fragged []string
		total := float64(c.replay.total)
		at := 0
		for t := int64(0); t <= hours*3600 || at < len(overTime); t += step {
			// The table's instants fall on the figure's steps or after.
			for at < len(overTime) && overTime[at] <= t {
				c.replay.advance(overTime[at])
				f, _ := c.replay.frag(defaultClasses)
				alloc = append(alloc, fmt.Sprintf("%.3f", float64(c.replay.held)/total))
				fragged = append(fragged, fmt.Sprintf("%.3f", f/total))
				at++
			}
			if t > hours*3600 {
				if at < len(overTime) {
					t = overTime[at] - step
				}
				continue
			}
			c.replay.advance(t)
			f, _ := c.replay.frag(defaultClasses)
			figure[i].alloc = append(figure[i].alloc, plotter.XY{X: float64(t) / 3600, Y: float64(c.replay.held) / total})
			figure[i].frag = append(figure[i].frag, plotter.XY{X: float64(t) / 3600, Y: f / total})
		}
		fmt.Fprintf(&over, "| %s | GPUs allocated | %s |\n", c.name, strings.Join(alloc, " | "))
		fmt.Fprintf(&over, "| | fragmented | %s |\n", strings.Join(fragged, " | "))
	}
	empty := newGPUReplay(kinds, &sched.Result{}, false)
	f, _ := empty.frag(defaultClasses)
	fmt.Fprintf(&over, "\nOn the empty machine the measure is %.3f of the GPUs (%d task classes in the list).\n", f/float64(empty.total), len(defaultClasses))
	readme.Check(t, "README.md", "alibaba-over-time", []byte(over.String()))

	if os.Getenv("BATCHQ_UPDATE_README") == "" {
		if _, err := os.Stat("alibaba-gpus.png"); err != nil {
			t.Errorf("the figure: %v (BATCHQ_UPDATE_README=1 draws it)", err)
		}
		return
	}
	p := plot.New()
	p.Title.Text = "Alibaba GPU 2023, default pod list submitted at once, 6,212 GPUs"
	p.X.Label.Text = "hours after submission"
	p.Y.Label.Text = "share of the GPUs"
	p.Y.Min, p.Y.Max = 0, 1
	colors := []color.Color{color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255}, color.RGBA{204, 121, 167, 255}}
	for i, c := range curves {
		for k, xy := range []plotter.XYs{figure[i].alloc, figure[i].frag} {
			l, err := plotter.NewLine(xy)
			if err != nil {
				t.Fatal(err)
			}
			l.Color, l.Width = colors[i%len(colors)], vg.Points(1.2)
			name := c.name + ": allocated"
			if k == 1 {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				name = c.name + ": fragmented"
			}
			p.Add(l)
			p.Legend.Add(name, l)
		}
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	if err := p.Save(8*vg.Inch, 4.5*vg.Inch, "alibaba-gpus.png"); err != nil {
		t.Fatal(err)
	}
}

// hoursText is an instant of the allocation table.
func hoursText(s int64) string {
	switch {
	case s == 0:
		return "0"
	case s%86400 == 0:
		return fmt.Sprintf("%d d", s/86400)
	case s%3600 == 0:
		return fmt.Sprintf("%d h", s/3600)
	}
	return fmt.Sprintf("%d min", s/60)
}
