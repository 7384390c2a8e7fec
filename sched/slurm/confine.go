package slurm

import (
	"fmt"
	"maps"
	"slices"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// A partition over some of the machine's nodes runs its jobs there only:
// Slurm's select plugin and backfill take a job's nodes from its
// partition's node bitmap. Without that a job of a partition of two
// nodes ran on any of four, where Slurm's waited for its two (site
// "parts" of examples/slurmcheck: partitions on n[1-2], n[2-4], n[3-4]).
//
// The machine (package sched) knows no partitions, so Run tells it
// through named resources: each node carries a plentiful resource per
// partition over it (partKey), and each job of such a partition asks one
// of its partition's on each of its nodes. The machine then places it on
// its partition's nodes only, refuses it (sched.ErrNoFit) where none of
// them fits, and the main scheduler counts its partition failed, as
// Slurm's does; backfill's named-node plan keeps it off the other nodes
// (nodeFit). The map from partitions' node names to the machine's nodes
// is Config.NodeNames: without it, partitions give only their node count.

// partAmount is each node's amount of its partitions' resources: more
// than the jobs a node can hold (each asks one, and at least a CPU).
const partAmount = 1 << 30

// partKey is the named resource of partition i.
func (p *Policy) partKey(i int) string { return "slurm partition " + p.parts[i].Name }

// mapNodes sets each partition's nodes (part.on) from Config.NodeNames on
// a machine of nodes; an error if the names do not number its nodes.
func (p *Policy) mapNodes() error {
	names := p.cfg.NodeNames
	if len(names) == 0 || len(p.mach.Nodes) == 0 {
		return nil
	}
	if int64(len(names)) != p.nodes {
		if !p.someSubset(names) {
			// Every partition spans every named node: nothing to
			// confine, and a nodes file that is not slurm.conf's
			// (another size, as a what-if on a bigger machine) is
			// no error: partitions give their node count, as before.
			return nil
		}
		return fmt.Errorf("slurm: %d NodeNames for a machine of %d nodes: they name its nodes in order", len(names), p.nodes)
	}
	at := make(map[string]int, len(names))
	for i, n := range names {
		at[n] = i
	}
	for i := range p.parts {
		pt := &p.parts[i]
		if pt.Nodes == nil {
			continue
		}
		on := make([]bool, len(names))
		n := int64(0)
		for _, name := range pt.Nodes {
			if k := at[name]; !on[k] { // Validate: every name is there
				on[k] = true
				n++
			}
		}
		pt.nodes = n
		if n < p.nodes {
			pt.on = on
		}
	}
	return nil
}

// someSubset reports whether some partition names fewer nodes than
// names holds (counting each name once).
func (p *Policy) someSubset(names []string) bool {
	all := make(map[string]bool, len(names))
	for _, n := range names {
		all[n] = true
	}
	for _, pt := range p.parts {
		if pt.Nodes == nil {
			continue
		}
		seen := make(map[string]bool, len(pt.Nodes))
		for _, n := range pt.Nodes {
			if all[n] {
				seen[n] = true
			}
		}
		if len(seen) < len(all) {
			return true
		}
	}
	return false
}

// confined reports whether some partition runs on only some nodes.
func (p *Policy) confined() bool {
	return slices.ContainsFunc(p.parts, func(pt part) bool { return pt.on != nil })
}

// confineMachine gives each node of the machine its partitions'
// resources (partKey), splitting node kinds where partitions part them
// (a new kind where a node's kind or partitions differ from the node
// before it: a kind's map is made once, not a node's).
func (p *Policy) confineMachine() []swf.Node {
	var out []swf.Node
	sig, prev := make([]bool, len(p.parts)), make([]bool, len(p.parts))
	node := 0
	for k, kind := range p.mach.Nodes {
		for c := int64(0); c < kind.Count; c++ {
			for i, pt := range p.parts {
				sig[i] = pt.on != nil && pt.on[node]
			}
			node++
			if c > 0 && slices.Equal(sig, prev) {
				out[len(out)-1].Count++
				continue
			}
			copy(prev, sig)
			nk := p.mach.Nodes[k]
			nk.Count, nk.Named = 1, maps.Clone(kind.Named)
			for i := range p.parts {
				if sig[i] {
					if nk.Named == nil {
						nk.Named = map[string]int64{}
					}
					nk.Named[p.partKey(i)] = partAmount
				}
			}
			out = append(out, nk)
		}
	}
	return out
}

// confine returns jobs with each job of a partition over some nodes, on
// some number of nodes, asking its partition's resource on each (a copy
// if any changes). A job spread over the machine (swf.Demand.Nodes 0, or
// no Demand) can ask no named resource and is left to run anywhere.
func (p *Policy) confine(jobs []swf.Job) []swf.Job {
	if !p.confined() {
		return jobs // no partition on some nodes: no job to look at
	}
	copied := false
	for i := range jobs {
		j := &jobs[i]
		k := p.partOf(j)
		if p.parts[k].on == nil || j.Demand == nil || j.Demand.Nodes < 1 {
			continue
		}
		if !copied {
			jobs, copied = slices.Clone(jobs), true
			j = &jobs[i]
		}
		d := *j.Demand
		d.Named = maps.Clone(d.Named)
		if d.Named == nil {
			d.Named = map[string]int64{}
		}
		d.Named[p.partKey(k)] = 1
		j.Demand = &d
	}
	return jobs
}

// partPlace is the placement of a run whose partitions lie on some
// nodes: while the main scheduler runs, the nodes of the partitions that
// failed in the run are out of it for every later job (_schedule takes
// each failed partition's node_bitmap out of avail_node_bitmap), so a job
// of a partition that shares some nodes with a failed one starts on its
// other nodes. removed marks them; a job starts only where it is false
// (room checks first that it fits there).
type partPlace struct {
	inner   sched.Placement
	removed []bool
	any     bool // some node is removed
	masked  bool // Choose keeps off the removed nodes
	buf     []sched.NodeFree
}

// Choose implements sched.Placement.
func (pp *partPlace) Choose(j *sched.Job, fits []sched.NodeFree) int {
	if !pp.masked {
		return pp.inner.Choose(j, fits)
	}
	pp.buf = pp.buf[:0]
	for _, f := range fits {
		if !pp.removed[f.Node] {
			pp.buf = append(pp.buf, f)
		}
	}
	if len(pp.buf) == 0 { // never: room found one
		return pp.inner.Choose(j, fits)
	}
	c := pp.inner.Choose(j, pp.buf)
	if c < 0 || c >= len(pp.buf) {
		c = 0
	}
	return slices.IndexFunc(fits, func(f sched.NodeFree) bool { return f.Node == pp.buf[c].Node })
}

// FirstFit passes the inner placement's first-fit jobs on to sched's
// first fit while no node is masked.
func (pp *partPlace) FirstFit(j *sched.Job) bool {
	f, ok := pp.inner.(interface{ FirstFit(*sched.Job) bool })
	return ok && !pp.masked && f.FirstFit(j)
}

// Name implements sched.Placement.
func (pp *partPlace) Name() string { return pp.inner.Name() }

// reset puts every node back, at the start of a main scheduler run.
func (pp *partPlace) reset() {
	if pp.any {
		clear(pp.removed)
		pp.any = false
	}
}

// fail takes partition pt's nodes out of the rest of the run.
func (pp *partPlace) fail(pt *part) {
	for n := range pp.removed {
		if pt.on == nil || pt.on[n] {
			pp.removed[n] = true
			pp.any = true
		}
	}
}

// room tells whether job r may be tried in this main scheduler run
// (try: its partition keeps at least its nodes outside the failed
// partitions'; otherwise _schedule fails its partition without trying
// it: min_nodes above the overlap, "goto fail_this_part") and whether it fits there now (fits: a node of its
// partition outside them has its CPUs, memory and GPUs free, or whole
// for an exclusive job; as many nodes as it asks).
func (p *Policy) room(pass *sched.Pass, r *jobRec) (try, fits bool) {
	pp, pt := p.pp, &p.parts[r.part]
	if !pp.any {
		return true, true
	}
	left := int64(0)
	for n, out := range pp.removed {
		if !out && (pt.on == nil || pt.on[n]) {
			left++
		}
	}
	if left < r.minNodes {
		return false, false
	}
	j := p.ptr(pass, r)
	if j == nil {
		return true, false
	}
	d := j.Demand()
	if d.Nodes < 1 {
		return true, true // spread over the machine: not confined (confine)
	}
	cores := d.Cores
	if cores == 0 {
		cores = (j.Size() + d.Nodes - 1) / d.Nodes
	}
	found := int64(0)
	for _, nf := range pass.Nodes() {
		n := nf.Node
		if pp.removed[n] || pt.on != nil && !pt.on[n] {
			continue
		}
		k := p.mach.Nodes[nf.Kind]
		if d.Exclusive {
			if nf.Cores == k.Cores && nf.Memory == k.Memory && nf.GPUs == 1000*k.GPUs {
				found++
			}
		} else if nf.Cores >= cores && nf.Memory >= d.Memory && nf.GPUs >= d.GPUs {
			found++
		}
	}
	return true, found >= d.Nodes
}
