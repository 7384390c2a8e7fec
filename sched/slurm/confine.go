package slurm

import (
	"fmt"
	"maps"
	"slices"

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

// confined reports whether some partition runs on only some nodes.
func (p *Policy) confined() bool {
	return slices.ContainsFunc(p.parts, func(pt part) bool { return pt.on != nil })
}

// confineMachine gives each node of the machine its partitions'
// resources (partKey), splitting node kinds where partitions part them.
func (p *Policy) confineMachine() []swf.Node {
	var out []swf.Node
	node := 0
	for _, kind := range p.mach.Nodes {
		for c := int64(0); c < kind.Count; c++ {
			named := maps.Clone(kind.Named)
			if named == nil {
				named = map[string]int64{}
			}
			for i, pt := range p.parts {
				if pt.on != nil && pt.on[node] {
					named[p.partKey(i)] = partAmount
				}
			}
			node++
			if k := len(out) - 1; k >= 0 && out[k].Name == kind.Name && maps.Equal(out[k].Named, named) &&
				out[k].Cores == kind.Cores && out[k].Memory == kind.Memory && out[k].GPUs == kind.GPUs && out[k].GPUModel == kind.GPUModel {
				out[k].Count++
				continue
			}
			nk := kind
			nk.Count, nk.Named = 1, named
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
