package main

import (
	"slices"
	"strings"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// The GPU fragmentation measure of Weng et al. (ATC'23, "Beware of
// Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
// Gradient Descent", §3), computed over a schedule of sched.
//
// For a node n and a task class m, F_n(m) is the unallocated GPU
// capacity of n that m cannot use: all of it when m cannot run on n (too
// few free cores, too few GPUs with room for its per-GPU share, a GPU
// model it does not accept, or m asks no GPU at all), and otherwise the
// free capacity of the GPUs whose free part is below m's per-GPU share.
// The node's fragmentation is F_n = Σ_m p_m F_n(m), p_m the share of the
// pods of class m in the workload, and the cluster's is Σ_n F_n. This is
// the measure of their simulator's NodeGpuShareFragAmountScore (the
// quadrants Q1, Q2, Q4, "no access" and both x-axis cases count the whole
// free capacity, Q3 the GPUs too small), with two differences: the
// classes are every pod of the list (they keep the most popular classes
// only, up to a popularity threshold), and memory is ignored as they
// ignore it.

// fragClass is a task class: what one pod asks of one node.
type fragClass struct {
	cores  int64
	part   int64 // thousandths of a GPU on each GPU it uses (1000: whole GPUs)
	count  int64 // GPUs it uses
	models string
	p      float64
}

// fragClasses are the classes of the jobs' demands with their shares.
func fragClasses(jobs []swf.Job) []fragClass {
	type key struct {
		cores, part, count int64
		models             string
	}
	n := map[key]int{}
	total := 0
	for i := range jobs {
		d := jobs[i].Demand
		if d == nil {
			continue
		}
		k := key{cores: d.Cores, models: strings.Join(d.GPUModels, "|")}
		switch {
		case d.GPUs >= 1000:
			k.part, k.count = 1000, d.GPUs/1000
		case d.GPUs > 0:
			k.part, k.count = d.GPUs, 1
		}
		n[k]++
		total++
	}
	var out []fragClass
	for k, c := range n {
		out = append(out, fragClass{k.cores, k.part, k.count, k.models, float64(c) / float64(total)})
	}
	slices.SortFunc(out, func(a, b fragClass) int { // a deterministic sum
		if a.p != b.p {
			if a.p > b.p {
				return -1
			}
			return 1
		}
		return strings.Compare(fmtClass(a), fmtClass(b))
	})
	return out
}

func fmtClass(c fragClass) string {
	return strings.Join([]string{itoa(c.cores), itoa(c.part), itoa(c.count), c.models}, "/")
}

// gpuNode is one node's state in the replay: its free cores and the free
// thousandths of each of its GPUs.
type gpuNode struct {
	model string
	cores int64
	free  []int64
}

// nodeFrag is F_n(M): the node's expected fragmented thousandths of a GPU.
func nodeFrag(n *gpuNode, classes []fragClass) float64 {
	var free int64
	for _, f := range n.free {
		free += f
	}
	if free == 0 {
		return 0
	}
	var frag float64
	for _, c := range classes {
		if c.count == 0 || n.cores < c.cores || (c.models != "" && !slices.Contains(strings.Split(c.models, "|"), n.model)) {
			frag += c.p * float64(free) // x-axis, lacks cores, no access
			continue
		}
		var fit, small int64
		for _, f := range n.free {
			if f >= c.part {
				fit++
			} else {
				small += f
			}
		}
		if fit < c.count {
			frag += c.p * float64(free) // lacks GPUs
			continue
		}
		frag += c.p * float64(small) // Q3: the GPUs too small for its share
	}
	return frag
}

// gpuReplay replays a schedule on a machine of nodes GPU by GPU, to know
// which GPU each share holds (sched.Result.Shares gives a node's GPUs in
// thousandths summed). Whole GPUs go on the first free ones, a share on
// the first GPU with room (first fit) or the fullest (best fit), as sched
// places them when nothing is reserved; where sched chose otherwise (a
// reservation kept a GPU free) the replay may find no room: the share
// then goes on the GPU with the most room and is counted in misses.
type gpuReplay struct {
	nodes  []gpuNode
	events []gpuEvent
	next   int
	best   bool
	misses int
	total  int64 // the machine's GPUs in thousandths
	held   int64 // thousandths held now
	where  map[int][]int
}

type gpuEvent struct {
	t     int64
	start bool
	rec   int
	node  int
	cores int64
	part  int64
	count int64
}

func newGPUReplay(kinds []swf.Node, res *sched.Result, best bool) *gpuReplay {
	g := &gpuReplay{best: best, where: map[int][]int{}}
	for _, k := range kinds {
		for range k.Count {
			g.nodes = append(g.nodes, gpuNode{model: k.GPUModel, cores: k.Cores, free: slices.Repeat([]int64{1000}, int(k.GPUs))})
			g.total += 1000 * k.GPUs
		}
	}
	for i := range res.Records {
		r := &res.Records[i]
		if r.Start < 0 || r.End < 0 || r.End == r.Start {
			continue
		}
		for _, sh := range res.Shares(i) {
			e := gpuEvent{rec: i, node: sh.Node, cores: sh.Cores}
			if d := r.Job.Demand; d != nil && d.GPUs > 0 {
				if d.GPUs >= 1000 {
					e.part, e.count = 1000, sh.GPUs/1000
				} else {
					e.part, e.count = sh.GPUs, 1
				}
			}
			e.t, e.start = r.Start, true
			g.events = append(g.events, e)
			e.t, e.start = r.End, false
			g.events = append(g.events, e)
		}
	}
	// Ends before starts at one instant, as sched frees before it starts.
	slices.SortStableFunc(g.events, func(a, b gpuEvent) int {
		if a.t != b.t {
			return int(min(max(a.t-b.t, -1), 1))
		}
		if a.start != b.start {
			if a.start {
				return 1
			}
			return -1
		}
		return 0
	})
	return g
}

// advance applies every event at or before t: the state over [t, t+1).
func (g *gpuReplay) advance(t int64) {
	for ; g.next < len(g.events) && g.events[g.next].t <= t; g.next++ {
		e := &g.events[g.next]
		n := &g.nodes[e.node]
		key := e.rec<<20 | e.node
		if !e.start {
			n.cores += e.cores
			for _, k := range g.where[key] {
				n.free[k] += e.part
				g.held -= e.part
			}
			delete(g.where, key)
			continue
		}
		n.cores -= e.cores
		var got []int
		if e.part == 1000 {
			for k := range n.free {
				if len(got) < int(e.count) && n.free[k] == 1000 {
					got = append(got, k)
				}
			}
		} else if e.count == 1 {
			b := -1
			for k, f := range n.free {
				if f >= e.part && (b < 0 || g.best && f < n.free[b]) {
					b = k
					if !g.best {
						break
					}
				}
			}
			if b >= 0 {
				got = append(got, b)
			}
		}
		for len(got) < int(e.count) { // a miss: the GPUs with the most room
			g.misses++
			b := 0
			for k, f := range n.free {
				if f > n.free[b] && !slices.Contains(got, k) {
					b = k
				}
			}
			got = append(got, b)
		}
		for _, k := range got {
			n.free[k] -= e.part
			g.held += e.part
		}
		g.where[key] = got
	}
}

// frag is the cluster's fragmentation Σ_n F_n now, in thousandths of a
// GPU, and the free thousandths.
func (g *gpuReplay) frag(classes []fragClass) (frag float64, free int64) {
	for i := range g.nodes {
		frag += nodeFrag(&g.nodes[i], classes)
		for _, f := range g.nodes[i].free {
			free += max(f, 0)
		}
	}
	return frag, free
}
