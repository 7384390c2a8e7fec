package qbets

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// ClusterMode selects the explanatory key the Predictor clusters jobs on
// (spec §2.4, Q6). The zero value, ClusterFixedProcs, is the default: on
// every PWA log we replay it is the one partition that keeps the
// Binomial Method correct (≥ 0.95) while tightening the bounds of one
// queue-level history; the thesis's model-based clustering
// (ClusterTwoLevel and the single-key modes) costs up to 3 points of
// correctness there (see the package doc).
type ClusterMode int

const (
	// ClusterFixedProcs is the fixed processor-count partition of the
	// thesis's ref [5] (Config.FixedUppers; default {1–4, 5–16, 17–64,
	// 65+}, which is Q7's guess: the thesis does not print the ranges).
	// It is not re-fitted.
	ClusterFixedProcs ClusterMode = iota
	// ClusterTwoLevel is the thesis's model-based clustering as Q6
	// recommends: node count, then requested time inside each node
	// cluster, both by the 1-D interval clusterer with the minimum-size guard (the
	// thesis names both keys but says which it used only "for ease of
	// exposition").
	ClusterTwoLevel
	// ClusterNone keeps one history for the whole queue.
	ClusterNone
	// ClusterNodes clusters on the requested node count.
	ClusterNodes
	// ClusterReqTime clusters on the requested time (walltime).
	ClusterReqTime
	// ClusterNodeSeconds clusters on nodes × requested time.
	ClusterNodeSeconds
	numClusterModes
)

func (m ClusterMode) String() string {
	switch m {
	case ClusterTwoLevel:
		return "two-level"
	case ClusterNone:
		return "none"
	case ClusterNodes:
		return "nodes"
	case ClusterReqTime:
		return "reqtime"
	case ClusterNodeSeconds:
		return "node-seconds"
	case ClusterFixedProcs:
		return "fixed-procs"
	}
	return fmt.Sprintf("ClusterMode(%d)", int(m))
}

// defaultFixedUppers is Q7's {1–4, 5–16, 17–64, 65+} (unverified).
var defaultFixedUppers = []int64{4, 16, 64}

// KeyRange is an inclusive range of a key; math.MinInt64 and
// math.MaxInt64 stand for the open ends of a partition.
type KeyRange struct{ Lo, Hi int64 }

// full is the range of every value: the range of an axis a partition
// does not use.
var full = KeyRange{math.MinInt64, math.MaxInt64}

func (r KeyRange) has(v int64) bool { return r.Lo <= v && v <= r.Hi }

// Box is the set of requests a cluster covers: the jobs whose nodes,
// walltime and nodes × walltime (saturating) lie in the ranges. A key a
// partition does not use spans every value, {math.MinInt64, math.MaxInt64}.
type Box struct {
	Nodes, Walltime, NodeSeconds KeyRange
}

// Contains reports whether a request of nodes and walltime lies in b.
func (b Box) Contains(nodes int, walltime int64) bool {
	return b.Nodes.has(int64(nodes)) && b.Walltime.has(walltime) &&
		(b.NodeSeconds == full || b.NodeSeconds.has(nodeSeconds(nodes, walltime)))
}

// ClusterInfo describes one current cluster: its box and its sizes.
type ClusterInfo struct {
	Box
	Jobs    int // released jobs of the full history in the cluster
	History int // current (trimmed) history size
}

// Clusterer groups jobs by what they request (spec §2.4). The Predictor
// fits it on the full history of released jobs at the end of training and
// every Config.ReclusterEvery arrivals; minSize is the minimum history for
// a bound at the Predictor's (q, C) (a smaller cluster falls back to the
// queue-level history). Fit must not modify or keep jobs, and should be
// deterministic (a restored Predictor fits again). The Predictor calls it,
// and its Partition, under its own lock. The built-ins are the
// ClusterMode values; qbetstest.Clusterer checks an implementation.
type Clusterer interface {
	Fit(jobs []Observation, minSize int) Partition
}

// Partition maps every request to one cluster. Clusters are numbered
// 0..len(Boxes())−1; Cluster must return a number in that range for any
// nodes ≥ 0 and walltime ≥ 0, and Boxes()[Cluster(n, w)].Contains(n, w).
// After a re-fit, a cluster whose box is unchanged keeps its trimmed
// history; every other one is rebuilt from the full history (Q9).
type Partition interface {
	Cluster(nodes int, walltime int64) int
	Boxes() []Box
}

// Fit makes m a Clusterer: the fixed processor ranges {1–4, 5–16, 17–64,
// 65+} for ClusterFixedProcs, one cluster for ClusterNone, else the
// thesis's model-based clustering on m's key with at most 10 clusters per
// level (Config.FixedUppers and Config.MaxClusters change those).
func (m ClusterMode) Fit(jobs []Observation, minSize int) Partition {
	return builtin{mode: m}.Fit(jobs, minSize)
}

// builtin is a ClusterMode with its parameters.
type builtin struct {
	mode  ClusterMode
	fixed []int64 // nil: defaultFixedUppers
	kMax  int     // 0: 10
}

func (b builtin) Fit(jobs []Observation, minSize int) Partition {
	idx := map[[2]int64]int{}
	var pairs []pairStat
	for _, o := range jobs {
		k := [2]int64{int64(o.Nodes), o.Walltime}
		i, ok := idx[k]
		if !ok {
			i = len(pairs)
			idx[k] = i
			pairs = append(pairs, pairStat{nodes: o.Nodes, wall: o.Walltime})
		}
		pairs[i].n++
		pairs[i].s += float64(max(o.Start-o.Submit, 0)) + 1
	}
	return b.fit(pairs, minSize)
}

func (b builtin) fit(pairs []pairStat, minSize int) *partition {
	fixed, kMax := b.fixed, b.kMax
	if fixed == nil {
		fixed = defaultFixedUppers
	}
	if kMax <= 0 {
		kMax = 10
	}
	if minSize <= 0 {
		minSize = minHistoryOf(0.95, 0.95)
	}
	if b.mode != ClusterNone && b.mode != ClusterFixedProcs {
		// Pairs whose jobs were all forgotten (MaxHistory) do not count.
		live := pairs[:0:0]
		for _, x := range pairs {
			if x.n > 0 {
				live = append(live, x)
			}
		}
		pairs = live
	}
	return fitPartition(b.mode, pairs, fixed, minSize, kMax)
}

// nodeSeconds is the ClusterNodeSeconds key, nodes × walltime,
// saturating at math.MaxInt64 instead of overflowing.
func nodeSeconds(nodes int, wall int64) int64 {
	n := int64(nodes)
	if n > 0 && wall > math.MaxInt64/n {
		return math.MaxInt64
	}
	return n * wall
}

// pairStat aggregates the full history by (nodes, walltime): count and
// Σ(wait+1). Re-clustering then costs O(P log P) in the P distinct pairs,
// not in the number of jobs.
type pairStat struct {
	nodes int
	wall  int64
	n     int
	s     float64
}

// partition maps a job to its cluster. Single-level modes use outer only;
// two-level has, per node cluster o, walltime breakpoints inner[o] and
// flat indices first[o] ….
type partition struct {
	mode  ClusterMode
	outer []int64
	inner [][]int64
	first []int
	k     int
}

func (p *partition) key1(nodes int, wall int64) int64 {
	switch p.mode {
	case ClusterReqTime:
		return wall
	case ClusterNodeSeconds:
		return nodeSeconds(nodes, wall)
	}
	return int64(nodes)
}

// Cluster is the flat cluster index of a job.
func (p *partition) Cluster(nodes int, wall int64) int {
	if p.k == 1 {
		return 0
	}
	o := clusterIndex(p.outer, p.key1(nodes, wall))
	if p.inner == nil {
		return o
	}
	return p.first[o] + clusterIndex(p.inner[o], wall)
}

// span is the inclusive range of cluster j of uppers.
func span(uppers []int64, j int) KeyRange {
	r := full
	if j > 0 {
		r.Lo = uppers[j-1] + 1
	}
	if j < len(uppers) {
		r.Hi = uppers[j]
	}
	return r
}

// Boxes lists each flat cluster's key box, in index order.
func (p *partition) Boxes() []Box {
	out := make([]Box, 0, p.k)
	if p.k == 1 && p.mode != ClusterFixedProcs {
		return append(out, Box{Nodes: full, Walltime: full, NodeSeconds: full})
	}
	for o := 0; o <= len(p.outer); o++ {
		ci := Box{Nodes: full, Walltime: full, NodeSeconds: full}
		r := span(p.outer, o)
		switch p.mode {
		case ClusterReqTime:
			ci.Walltime = r
		case ClusterNodeSeconds:
			ci.NodeSeconds = r
		default:
			ci.Nodes = r
		}
		if p.inner == nil {
			out = append(out, ci)
			continue
		}
		for i := 0; i <= len(p.inner[o]); i++ {
			ci.Walltime = span(p.inner[o], i)
			out = append(out, ci)
		}
	}
	return out
}

// fitPartition clusters the full history's pair statistics under mode.
func fitPartition(mode ClusterMode, pairs []pairStat, fixed []int64, nMin, kMax int) *partition {
	switch mode {
	case ClusterNone:
		return &partition{mode: mode, k: 1}
	case ClusterFixedProcs:
		return &partition{mode: mode, outer: fixed, k: len(fixed) + 1}
	}
	p := &partition{mode: mode}
	ps := slices.Clone(pairs)
	key := func(x pairStat) int64 { return p.key1(x.nodes, x.wall) }
	slices.SortFunc(ps, func(a, b pairStat) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.wall, b.wall)
	})
	p.outer = fitIntervals(fold(ps, key), nMin, kMax).Uppers
	p.k = len(p.outer) + 1
	if mode != ClusterTwoLevel {
		return p
	}
	// Second level: requested time inside each node cluster. ps is
	// sorted by nodes, so each node cluster is a contiguous run.
	p.inner = make([][]int64, len(p.outer)+1)
	p.first = make([]int, len(p.outer)+1)
	p.k = 0
	lo := 0
	for o := range p.inner {
		hi := lo
		for hi < len(ps) && (o == len(p.outer) || int64(ps[hi].nodes) <= p.outer[o]) {
			hi++
		}
		sub := slices.Clone(ps[lo:hi])
		wall := func(x pairStat) int64 { return x.wall }
		slices.SortFunc(sub, func(a, b pairStat) int { return cmp.Compare(a.wall, b.wall) })
		p.inner[o] = fitIntervals(fold(sub, wall), nMin, kMax).Uppers
		p.first[o] = p.k
		p.k += len(p.inner[o]) + 1
		lo = hi
	}
	return p
}

// fold sums consecutive pairs (sorted by key) sharing a key value.
func fold(ps []pairStat, key func(pairStat) int64) []keyStat {
	var out []keyStat
	for _, x := range ps {
		k := key(x)
		if len(out) > 0 && out[len(out)-1].key == k {
			out[len(out)-1].n += x.n
			out[len(out)-1].s += x.s
			continue
		}
		out = append(out, keyStat{key: k, n: x.n, s: x.s})
	}
	return out
}
