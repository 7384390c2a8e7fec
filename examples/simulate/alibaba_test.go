package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// The Alibaba GPU 2023 trace's five pod lists, run on its full node list.
var alibabaLists = []string{"default", "gpuspec33", "gpushare40", "cpu050", "multigpu20"}

const alibabaDir = "alibaba-gpu-2023/"

// readAlibaba reads pod list name of the trace and the full node list.
func readAlibaba(t *testing.T, list string) ([]swf.Node, []swf.Job) {
	t.Helper()
	f, err := os.Open(tracetest.Path(t, alibabaDir+"openb_node_list_all_node.csv"))
	if err != nil {
		t.Fatal(err)
	}
	kinds, _, err := convert.Nodes(f, convert.Options{Strict: true})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	f, err = os.Open(tracetest.Path(t, alibabaDir+"openb_pod_list_"+list+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := convert.Alibaba(f, convert.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	return kinds, res.Jobs
}

// pooled is the machine as HPCOpt models it: one node holding every core
// and all the memory, the GPUs a cluster-wide pool of thousandths. sched
// caps a node at 64 GPUs (a bit each), so the pool is a named resource
// "gpu" in thousandths, and each job's GPUs move into it; GPU models are
// dropped (a pool has none).
func pooled(kinds []swf.Node, jobs []swf.Job) ([]swf.Node, []swf.Job) {
	pool := swf.Node{Name: "pool", Count: 1}
	var gpus int64
	for _, k := range kinds {
		pool.Cores += k.Count * k.Cores
		pool.Memory += k.Count * k.Memory
		gpus += k.Count * k.GPUs
	}
	pool.Named = map[string]int64{"gpu": 1000 * gpus}
	out := slices.Clone(jobs)
	for i := range out {
		if out[i].Demand == nil {
			continue
		}
		d := *out[i].Demand
		d.Named = maps.Clone(d.Named)
		if d.GPUs > 0 {
			if d.Named == nil {
				d.Named = map[string]int64{}
			}
			d.Named["gpu"] = d.GPUs
		}
		d.GPUs, d.GPUModels = 0, nil
		out[i].Demand = &d
	}
	return []swf.Node{pool}, out
}

// pooledGPUUse is the share of the pool's GPUs the jobs held over [from,
// to), as Result.Use gives it for a node's GPUs (from ≥ to: from the
// first start to the last end); the pool has them as a named resource.
func pooledGPUUse(res *sched.Result, pool swf.Node, from, to int64) float64 {
	if from >= to {
		from, to = int64(1<<62), int64(0)
		for i := range res.Records {
			if r := &res.Records[i]; r.Start >= 0 && r.End >= 0 {
				from, to = min(from, r.Start), max(to, r.End)
			}
		}
	}
	var held float64
	for i := range res.Records {
		r := &res.Records[i]
		if r.Start < 0 || r.End < 0 || r.Job.Demand == nil {
			continue
		}
		held += float64(r.Job.Demand.Named["gpu"]) * float64(max(0, min(r.End, to)-max(r.Start, from)))
	}
	if to <= from || pool.Named["gpu"] == 0 {
		return 0
	}
	return held / (float64(pool.Named["gpu"]) * float64(to-from))
}

// alibabaRun is one simulation of a pod list for the README.
type alibabaRun struct {
	machine   string
	simulated int
	noNode    map[string]int
	otherRej  map[sanitize.Reason]int
	waits     *waitCompare // logged beside simulated
	simulWait waitStats    // every simulated job's
	use       use
	atZero    use // the shares allocated over [0, 1): at time 0
}

func runAlibaba(t *testing.T, name string, kinds []swf.Node, jobs []swf.Job, pl sched.Placement, pool bool) alibabaRun {
	t.Helper()
	cfg := sched.EASY(0)
	cfg.Nodes, cfg.Placement, cfg.KeepShares = kinds, pl, true
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r := alibabaRun{machine: name, simulated: len(res.Records), noNode: res.NoNode, otherRej: map[sanitize.Reason]int{},
		waits: compareWaits(res), use: useOf(res)}
	waits := make([]int64, 0, len(res.Records))
	for i := range res.Records {
		waits = append(waits, res.Records[i].Wait)
	}
	r.simulWait = statsOf(waits)
	for _, e := range res.Rejected.Excluded {
		if e.Reason != sanitize.FitsNoNode {
			r.otherRej[e.Reason]++
		}
	}
	c, m, g := res.Use(0, 1)
	r.atZero = use{c, m, g}
	if pool {
		r.use.GPUs = pooledGPUUse(res, kinds[0], 0, 0)
		r.atZero.GPUs = pooledGPUUse(res, kinds[0], 0, 1)
	}
	return r
}

// TestReadmeAlibaba runs EASY on each pod list of the Alibaba GPU 2023
// trace on its 1,523 nodes with first fit and best fit, and on the pooled
// machine, and writes the README's table (BATCHQ_UPDATE_README=1).
func TestReadmeAlibaba(t *testing.T) {
	var b strings.Builder
	fmt.Fprintln(&b, "| pod list | machine | simulated | fit no node | mean wait (s) | p95 wait (s) | waited | cores held | memory held | GPUs held |")
	fmt.Fprintln(&b, "|---|---|---:|---|---:|---:|---:|---:|---:|---:|")
	for _, list := range alibabaLists {
		kinds, jobs := readAlibaba(t, list)
		pk, pj := pooled(kinds, jobs)
		runs := []alibabaRun{
			runAlibaba(t, "nodes, first fit", kinds, jobs, nil, false),
			runAlibaba(t, "nodes, best fit", kinds, jobs, sched.BestFit, false),
			runAlibaba(t, "pooled", pk, pj, nil, true),
		}
		for k, r := range runs {
			cells := []string{"", r.machine, fmt.Sprint(r.simulated), noNodeText(r.noNode)}
			if k == 0 {
				cells[0] = "`" + list + "`"
			}
			if w := r.waits; w != nil {
				s := &w.Simulated
				cells = append(cells, fmt.Sprintf("%.0f", s.Mean), fmt.Sprintf("%.0f", s.P95), fmt.Sprintf("%.3f", s.Waited))
			} else {
				cells = append(cells, "–", "–", "–")
			}
			cells = append(cells, fmt.Sprintf("%.4f", r.use.Cores), fmt.Sprintf("%.4f", r.use.Memory), fmt.Sprintf("%.4f", r.use.GPUs))
			fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
		}
		if w := runs[0].waits; w != nil {
			l := &w.Logged
			fmt.Fprintf(&b, "| | logged (the same %d pods) | | | %.0f | %.0f | %.3f | | | |\n", w.Jobs, l.Mean, l.P95, l.Waited)
		} else {
			fmt.Fprintf(&b, "| | logged | | | – | – | – | | | |\n")
		}
		if len(runs[0].otherRej) > 0 {
			var parts []string
			for _, r := range slices.Sorted(maps.Keys(runs[0].otherRej)) {
				parts = append(parts, fmt.Sprintf("%d %s", runs[0].otherRej[r], r))
			}
			fmt.Fprintf(&b, "| | rejected on every machine: %s | | | | | | | | |\n", strings.Join(parts, ", "))
		}
	}
	readme.Check(t, "README.md", "alibaba", []byte(b.String()))
}

// snapshot submits every pod at 0, in the list's order, each to run its
// logged time: the shape in which Weng et al. replay a pod list (their
// pods never leave; these do, after their logged run time).
func snapshot(jobs []swf.Job) []swf.Job {
	out := slices.Clone(jobs)
	for i := range out {
		out[i].Submit = 0
	}
	return out
}

// TestReadmeAlibabaSnapshot runs each pod list submitted at once
// (snapshot) on the nodes with first and best fit and on the pooled
// machine, and writes the README's table (BATCHQ_UPDATE_README=1).
func TestReadmeAlibabaSnapshot(t *testing.T) {
	var b strings.Builder
	fmt.Fprintln(&b, "| pod list | machine | simulated | fit no node | cores at 0 | memory at 0 | GPUs at 0 | mean wait (s) | p95 wait (s) | waited |")
	fmt.Fprintln(&b, "|---|---|---:|---|---:|---:|---:|---:|---:|---:|")
	for _, list := range alibabaLists {
		kinds, jobs := readAlibaba(t, list)
		jobs = snapshot(jobs)
		pk, pj := pooled(kinds, jobs)
		runs := []alibabaRun{
			runAlibaba(t, "nodes, first fit", kinds, jobs, nil, false),
			runAlibaba(t, "nodes, best fit", kinds, jobs, sched.BestFit, false),
			runAlibaba(t, "pooled", pk, pj, nil, true),
		}
		for k, r := range runs {
			cells := []string{"", r.machine, fmt.Sprint(r.simulated), noNodeText(r.noNode)}
			if k == 0 {
				cells[0] = "`" + list + "`"
			}
			cells = append(cells, fmt.Sprintf("%.3f", r.atZero.Cores), fmt.Sprintf("%.3f", r.atZero.Memory), fmt.Sprintf("%.3f", r.atZero.GPUs))
			if r.simulated > 0 {
				s := &r.simulWait
				cells = append(cells, fmt.Sprintf("%.0f", s.Mean), fmt.Sprintf("%.0f", s.P95), fmt.Sprintf("%.3f", s.Waited))
			} else {
				cells = append(cells, "–", "–", "–")
			}
			fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	readme.Check(t, "README.md", "alibaba-snapshot", []byte(b.String()))
}

// noNodeText lists the jobs that fit no node by the resource they lack.
func noNodeText(m map[string]int) string {
	if len(m) == 0 {
		return "0"
	}
	var parts []string
	n := 0
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		n += m[k]
	}
	return fmt.Sprintf("%d (%s)", n, strings.Join(parts, ", "))
}
