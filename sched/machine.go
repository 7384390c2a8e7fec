package sched

import (
	"cmp"
	"fmt"
	"maps"
	"math/bits"
	"slices"

	"github.com/batchq/batchq/swf"
)

// A machine of nodes (Config.Nodes). Its free resources are an avail,
// flat slices indexed by node, so that EASY's look-ahead to the shadow
// time is a copy of a few slices, not of a node structure per node.

// avail is the free amount of every resource of every node.
type avail struct {
	cores, mem []int64
	gpu        []int32            // free thousandths of each GPU; node i's are gpu[gpuAt[i]:gpuAt[i+1]]
	named      []map[string]int64 // nil when no node kind has a named resource
}

func (a *avail) copyFrom(b *avail) {
	a.cores = append(a.cores[:0], b.cores...)
	a.mem = append(a.mem[:0], b.mem...)
	a.gpu = append(a.gpu[:0], b.gpu...)
	if b.named == nil {
		a.named = nil
		return
	}
	if len(a.named) != len(b.named) {
		a.named = make([]map[string]int64, len(b.named))
	}
	for i, m := range b.named {
		if a.named[i] == nil {
			a.named[i] = maps.Clone(m)
			continue
		}
		clear(a.named[i]) // a whole-node share clears the source's map
		maps.Copy(a.named[i], m)
	}
}

// need is a job's demand, normalised: shares of equal shape on nodes
// nodes, or (nodes == 0) cores spread over as many nodes as it takes.
type need struct {
	nodes  int64 // 0: spread
	cores  int64 // per node, or in all when spread
	mem    int64 // per node, or per core when spread
	gpus   int64 // thousandths of a GPU per node
	models []string
	named  map[string]int64
	excl   bool
}

// jobNodes is a live job's state on a machine of nodes: its demand, the
// shares it holds while running and what they hold. It sits behind a
// pointer in Job, allocated once per live Job on a machine of nodes and
// kept when the Job is reused, so that on one pool a Job stays small:
// activate writes each arriving job's Job in full, and that copy was most
// of what the node model added to a one-pool run.
type jobNodes struct {
	nd       need
	alloc    []share
	heldMem  int64 // the memory and thousandths of GPUs the shares hold
	heldGPUs int64 // (Result.Use)
	// resAlloc is the shares a conservative reservation holds, over
	// [res, res+max(p, 1)).
	resAlloc []share
}

// plainSpread reports whether the job's cores go on any nodes with
// their memory per core and nothing else (no whole nodes): a placement
// of it (placeIn) holds exactly its cores and their memory, whatever
// nodes they went on.
func (k *jobNodes) plainSpread() bool {
	return k.nd.nodes == 0 && !k.nd.excl && k.nd.gpus == 0 && len(k.nd.named) == 0
}

// heldCores is the cores the job's placement (alloc) holds: its cores
// when plainSpread, with no walk over its shares (a job spread over
// Curie's nodes has dozens), else their sum.
func (k *jobNodes) heldCores() int64 {
	if k.plainSpread() {
		return k.nd.cores
	}
	var c int64
	for i := range k.alloc {
		c += k.alloc[i].cores * k.alloc[i].nodes()
	}
	return c
}

// share is a job's allocation on one node. gpus lists the GPUs it holds
// (a bit per GPU), gpuPart the thousandths it holds of each.
//
// A share with more > 0 is a run: nodes node, node+1, …, node+more each
// hold cores and mem (and no GPUs). First fit makes them for a spread
// job of cores and their memory (machine.runs), which on a machine of
// alike nodes gets whole nodes in a row: on SDSC-BLUE's 1,152 one-core
// nodes 24 times fewer shares, on CEA-Curie's 5,544 nodes 7 times, each
// written when the job starts and read when it ends. Whatever reads
// shares node by node goes through apply (which takes runs) or one (a
// run's node k).
type share struct {
	node    int32
	gpuPart int16
	more    uint16
	cores   int64
	mem     int64
	gpus    uint64
}

// nodes is how many nodes sh covers.
func (sh *share) nodes() int64 { return int64(sh.more) + 1 }

// one is node k of sh (k ≤ sh.more) as a share of its own.
func (sh *share) one(k int32) share {
	o := *sh
	o.node += k
	o.more = 0
	return o
}

// gpuThousandths is what sh holds of GPUs, in thousandths of a GPU.
func (sh *share) gpuThousandths() int64 {
	return int64(bits.OnesCount64(sh.gpus)) * int64(sh.gpuPart) * sh.nodes()
}

// machine is the node model: capacity, free resources, placement.
type machine struct {
	kinds []swf.Node
	kind  []int32 // node → kind
	gpuAt []int32 // node → first GPU in avail.gpu; len nodes+1
	cap   avail
	free  avail
	place Placement
	best  bool // the built-in best fit
	cands []NodeFree
	maxC  int64 // the largest node's cores
	minC  int64 // the smallest (but 0)

	countMemory bool // Config.CountMemory
	// runs: first fit may give a job of cores alone runs of nodes (see
	// share); not under conservative backfilling, whose profile keeps
	// each share's node.
	runs bool
	// oneCore: every node has one core; minMem is the least memory of a
	// node (coresOnly).
	oneCore bool
	minMem  int64
	// hasFree has bit i set when node i has a free core in free: first
	// fit looks at those alone.
	hasFree []uint64
	// kindFirst is the first node of each kind.
	kindFirst []int
	ranked    []rankedNode  // best fit's scratch
	sharePool [65][][]share // getShares's free slices by capacity class
	// used[i] == stamp marks the nodes the job being placed already has.
	used  []uint32
	stamp uint32
}

// maxNodeGPUs bounds the GPUs of one node (a bit each in share.gpus).
const maxNodeGPUs = 64

func newMachine(kinds []swf.Node, p Placement) (*machine, int64, error) {
	m := &machine{kinds: kinds, place: p}
	if p == nil {
		m.place = firstFit
	}
	m.best = m.place == BestFit
	m.oneCore, m.minMem = true, int64(1<<62)
	var total int64
	named := false
	// Every kind is checked before the per-node slices are sized (a list
	// refused allocates nothing; 2^20 nodes of 64 GPUs are 290 MB), then
	// sized at once: a forecaster builds a machine per question, and on
	// the Alibaba trace's 1,523 nodes the appends' regrowth was half the
	// bytes a forecast allocated.
	nn, ng := 0, 0
	for i := range kinds {
		k := &kinds[i]
		if err := k.Validate(); err != nil {
			return nil, 0, fmt.Errorf("sched: Nodes[%d]: %w", i, err)
		}
		if k.GPUs > maxNodeGPUs {
			return nil, 0, fmt.Errorf("sched: Nodes[%d] %q: %d GPUs per node, above %d", i, k.Name, k.GPUs, maxNodeGPUs)
		}
		if nn+int(k.Count) > 1<<20 {
			return nil, 0, fmt.Errorf("sched: more than 2^20 nodes")
		}
		nn += int(k.Count)
		ng += int(k.Count * k.GPUs)
	}
	m.kind = make([]int32, 0, nn)
	m.cap.cores = make([]int64, 0, nn)
	m.cap.mem = make([]int64, 0, nn)
	m.cap.gpu = make([]int32, 0, ng)
	m.gpuAt = make([]int32, 1, nn+1) // gpuAt[0] = 0
	for i := range kinds {
		k := &kinds[i]
		named = named || len(k.Named) > 0
		m.kindFirst = append(m.kindFirst, len(m.kind))
		for range k.Count {
			m.kind = append(m.kind, int32(i))
			m.cap.cores = append(m.cap.cores, k.Cores)
			m.cap.mem = append(m.cap.mem, k.Memory)
			for range k.GPUs {
				m.cap.gpu = append(m.cap.gpu, 1000)
			}
			m.gpuAt = append(m.gpuAt, int32(len(m.cap.gpu)))
			total += k.Cores
		}
		m.maxC = max(m.maxC, k.Cores)
		if m.minC == 0 || k.Cores > 0 && k.Cores < m.minC {
			m.minC = k.Cores
		}
		m.oneCore = m.oneCore && k.Cores == 1
		m.minMem = min(m.minMem, k.Memory)
	}
	if len(m.kind) == 0 {
		return nil, 0, fmt.Errorf("sched: Nodes has no node")
	}
	if named {
		m.cap.named = make([]map[string]int64, len(m.kind))
		for i, k := range m.kind {
			m.cap.named[i] = maps.Clone(kinds[k].Named)
			if m.cap.named[i] == nil {
				m.cap.named[i] = map[string]int64{}
			}
		}
	}
	m.free.copyFrom(&m.cap)
	m.used = make([]uint32, len(m.kind))
	m.hasFree = make([]uint64, (len(m.kind)+63)/64)
	for i := range m.kind {
		m.markFree(i)
	}
	return m, total, nil
}

// needOf normalises a job's demand. A job without one asks for size
// cores spread, and with countMemory (Config.CountMemory) SWF's memory
// per processor, field 10 else field 7, in MiB per core.
func needOf(j *swf.Job, size int64, countMemory bool) need {
	d := j.Demand
	if d == nil {
		n := need{cores: size}
		if countMemory {
			kb := j.ReqMemory
			if kb <= 0 {
				kb = j.UsedMemory
			}
			if kb > 0 { // KB per processor → MiB per core, rounded up; a value past any
				// machine (a typing error, or hostile) fits no node rather than wrapping
				n.mem = int64(min(kb, 1<<50)+1023) / 1024
			}
		}
		return n
	}
	n := need{nodes: d.Nodes, cores: d.Cores, mem: d.Memory, gpus: d.GPUs, models: d.GPUModels, named: d.Named, excl: d.Exclusive}
	if n.cores == 0 {
		n.cores = size
		if n.nodes > 0 {
			n.cores = (size + n.nodes - 1) / n.nodes
		}
	}
	return n
}

// unfit returns why no node kind can ever hold the job ("" if one can):
// the resource no kind has enough of.
func (m *machine) unfit(n *need) string {
	if n.nodes > int64(len(m.kind)) {
		return "nodes"
	}
	if n.nodes == 0 {
		var usable, total int64
		for k := range m.kinds {
			c, mem := m.kinds[k].Cores, m.kinds[k].Memory
			total += m.kinds[k].Count * c
			if n.mem > 0 { // every core needs its memory beside it
				c = min(c, mem/n.mem)
			}
			usable += m.kinds[k].Count * c
		}
		switch {
		case total < n.cores:
			return "cores"
		case usable < n.cores:
			return "memory"
		}
		return ""
	}
	// Nodes of a kind are alike: one look per kind. The reason is that of
	// the kind that came closest (lacksRanked).
	why, rank := "", -1
	fit := int64(0)
	for k := range m.kinds {
		w, r := m.lacksRanked(&m.cap, m.kindFirst[k], n)
		if w == "" {
			if fit += m.kinds[k].Count; fit >= n.nodes {
				return ""
			}
		} else if r > rank {
			why, rank = w, r
		}
	}
	if why == "" {
		why = "nodes"
	}
	return why
}

// lacksRanked returns the first resource node i lacks in a for one share
// of n, "" if the share fits, and how many of its tests node i passed, so
// that a job no node holds is counted under the reason of the node that
// came closest: cores on the GPU nodes of its model rather than the GPU
// model of the others. The kinds of node a job cannot use at all (no GPU,
// not its GPU model) are told first, then the amounts. The models a job
// accepts are those of the GPUs it asks: a job that asks none runs on a
// node of any model, whole nodes (Exclusive) too, whose GPUs it then
// holds unused (Result.Check agrees). fits makes the same tests.
func (m *machine) lacksRanked(a *avail, i int, n *need) (string, int) {
	if n.gpus > 0 {
		k := &m.kinds[m.kind[i]]
		if k.GPUs == 0 {
			return "GPUs", 0
		}
		if !acceptsModel(n.models, k.GPUModel) {
			return "GPU model", 1
		}
	}
	if a.cores[i] < n.cores {
		return "cores", 2
	}
	if a.mem[i] < n.mem {
		return "memory", 3
	}
	if n.gpus > 0 && !m.gpusFit(a, i, n.gpus) {
		return "GPUs", 4
	}
	// The first lacking by name: the map's order made the reason
	// (Result.NoNode's key) change from one run to the next.
	lack, lacking := "", false
	for name, v := range n.named {
		if (a.named == nil || a.named[i][name] < v) && (!lacking || name < lack) {
			lack, lacking = name, true
		}
	}
	if lacking {
		return "named resource " + lack, 5
	}
	if n.excl && !m.idle(a, i) {
		return "whole node", 6
	}
	return "", 7
}

// acceptsModel is swf.Demand.AcceptsModel on a need's models.
func acceptsModel(models []string, m string) bool {
	return len(models) == 0 || slices.Contains(models, m)
}

// fits reports whether one share of n fits on node i in a.
func (m *machine) fits(a *avail, i int, n *need) bool {
	if a.cores[i] < n.cores || a.mem[i] < n.mem {
		return false
	}
	if n.gpus == 0 && len(n.named) == 0 && !n.excl {
		return true
	}
	// lacksRanked's tests without its reason: a failing node's reason
	// string ("named resource " + name) was built and dropped at every
	// look, the most of a search on nodes of partitions (sched/slurm's
	// BenchmarkConfinedNodes under callgrind: 13,260 M instructions,
	// 10,982 M with this twin of lacksRanked's tests; 11,588 M with one
	// rank function for both, which must walk every named resource for
	// the first lacking by name where this stops at any).
	if n.gpus > 0 {
		k := &m.kinds[m.kind[i]]
		if k.GPUs == 0 || !acceptsModel(n.models, k.GPUModel) || !m.gpusFit(a, i, n.gpus) {
			return false
		}
	}
	for name, v := range n.named {
		if a.named == nil || a.named[i][name] < v {
			return false
		}
	}
	return !n.excl || m.idle(a, i)
}

// gpusFit reports whether node i has g thousandths free: on one GPU for a
// share (g < 1000), on g/1000 whole free GPUs otherwise.
func (m *machine) gpusFit(a *avail, i int, g int64) bool {
	gs := a.gpu[m.gpuAt[i]:m.gpuAt[i+1]]
	if g < 1000 {
		for _, f := range gs {
			if int64(f) >= g {
				return true
			}
		}
		return false
	}
	want := g / 1000
	for _, f := range gs {
		if f == 1000 {
			want--
			if want == 0 {
				return true
			}
		}
	}
	return false
}

// idle reports whether node i is wholly free in a.
func (m *machine) idle(a *avail, i int) bool {
	if a.cores[i] != m.cap.cores[i] || a.mem[i] != m.cap.mem[i] {
		return false
	}
	for g := m.gpuAt[i]; g < m.gpuAt[i+1]; g++ {
		if a.gpu[g] != 1000 {
			return false
		}
	}
	if a.named != nil {
		for k, v := range m.cap.named[i] {
			if a.named[i][k] != v {
				return false
			}
		}
	}
	return true
}

// usable is how many of a spread job's cores node i can take in a.
func (m *machine) usable(a *avail, i int, n *need) int64 {
	if n.excl && !m.idle(a, i) { // whole nodes: take then holds all of it
		return 0
	}
	c := a.cores[i]
	if c <= 0 {
		return 0
	}
	if n.mem > 0 {
		// min(c, mem/n.mem) without the division when the memory
		// covers every core (EASY's look-ahead asks this twice per
		// share of every job ending by the shadow).
		mem := a.mem[i]
		if mem < 0 {
			return 0
		}
		if hi, lo := bits.Mul64(uint64(c), uint64(n.mem)); hi != 0 || lo > uint64(mem) {
			c = mem / n.mem
		}
	}
	return c
}

// getShares returns an empty share slice of capacity at least n, from
// the slices jobs gave back (putShares) when there is one: a job's shares
// are allocated once per size class, not once per job.
func (m *machine) getShares(n int) []share {
	c := bits.Len(uint(max(n, 1) - 1)) // 1<<c ≥ n
	if k := len(m.sharePool[c]); k > 0 {
		out := m.sharePool[c][k-1]
		m.sharePool[c] = m.sharePool[c][:k-1]
		return out
	}
	return make([]share, 0, 1<<c)
}

// appendShare appends sh to out, moving out to a pooled slice twice as
// large when it is full (and pooling the old one).
func (m *machine) appendShare(out []share, sh share) []share {
	if len(out) == cap(out) {
		out = m.growShares(out)
	}
	return append(out, sh)
}

func (m *machine) growShares(out []share) []share {
	grown := append(m.getShares(2*len(out)+1), out...)
	m.putShares(out)
	return grown
}

// putShares keeps a share slice for getShares.
func (m *machine) putShares(s []share) {
	if c := cap(s); c > 0 {
		k := bits.Len(uint(c)) - 1 // holds at least 1<<k
		m.sharePool[k] = append(m.sharePool[k], s[:0])
	}
}

// rankedNode is a node and best fit's key for it.
type rankedNode struct {
	key int64
	i   int
}

// markFree keeps node i's bit in hasFree.
func (m *machine) markFree(i int) {
	if m.free.cores[i] > 0 {
		m.hasFree[i>>6] |= 1 << (i & 63)
	} else {
		m.hasFree[i>>6] &^= 1 << (i & 63)
	}
}

// gain is what node i in a offers job need n: the cores a spread job
// can use there, or 1 if one share fits.
func (m *machine) gain(a *avail, i int, n *need) int64 {
	if n.nodes == 0 {
		return m.usable(a, i, n)
	}
	if m.fits(a, i, n) {
		return 1
	}
	return 0
}

// take removes one share of n (c cores of a spread job) on node i from
// every avail in as, and returns it. The GPUs are chosen in as[0] among
// those free in all.
func (m *machine) take(as []*avail, i int, n *need, c int64) share {
	sh := share{node: int32(i), cores: c, mem: n.mem}
	if n.nodes == 0 {
		sh.mem = n.mem * c
	}
	if n.excl {
		sh.cores, sh.mem = m.cap.cores[i], m.cap.mem[i]
	}
	if n.gpus > 0 || n.excl {
		g0 := m.gpuAt[i]
		want, part := n.gpus/1000, int32(1000)
		if n.gpus < 1000 {
			want, part = 1, int32(n.gpus)
		}
		if n.excl {
			want, part = int64(m.gpuAt[i+1]-g0), 1000
		}
		bestG := -1
		for g := g0; g < m.gpuAt[i+1] && want > 0; g++ {
			ok := true
			for _, a := range as {
				ok = ok && a.gpu[g] >= part
			}
			if !ok {
				continue
			}
			if part == 1000 {
				sh.gpus |= 1 << (g - g0)
				want--
				continue
			}
			// A share: first fit takes the first GPU it fits on, best
			// fit the fullest one.
			if bestG < 0 || m.best && as[0].gpu[g] < as[0].gpu[bestG] {
				bestG = int(g)
			}
			if !m.best {
				break
			}
		}
		if bestG >= 0 {
			sh.gpus = 1 << (int32(bestG) - g0)
		}
		sh.gpuPart = int16(part)
	}
	for _, a := range as {
		m.apply(a, &sh, n, -1)
	}
	return sh
}

// apply adds (sign 1) or removes (sign −1) share sh of a job needing n.
func (m *machine) apply(a *avail, sh *share, n *need, sign int64) {
	if sh.more > 0 { // a run: cores and memory alone
		for i := sh.node; i <= sh.node+int32(sh.more); i++ {
			a.cores[i] += sign * sh.cores
			a.mem[i] += sign * sh.mem
			if a == &m.free {
				m.markFree(int(i))
			}
		}
		return
	}
	i := sh.node
	a.cores[i] += sign * sh.cores
	if a == &m.free {
		m.markFree(int(i))
	}
	a.mem[i] += sign * sh.mem
	if sh.gpus == 0 && !n.excl && len(n.named) == 0 {
		return
	}
	if sh.gpus != 0 {
		g0 := m.gpuAt[i]
		for b := sh.gpus; b != 0; b &= b - 1 {
			g := g0 + int32(bits.TrailingZeros64(b))
			a.gpu[g] += int32(sign) * int32(sh.gpuPart)
		}
	}
	if n.excl && a.named != nil {
		if sign < 0 {
			clear(a.named[i])
		} else {
			maps.Copy(a.named[i], m.cap.named[i])
		}
		return
	}
	if len(n.named) > 0 {
		for k, v := range n.named {
			a.named[i][k] += sign * v
		}
	}
}

// placeIn places a job of need n in the avails as (all of which must have
// room on each chosen node; as[0] is the machine's free state now) by the
// placement policy, appending the shares to out. It takes nothing and
// returns false if the job does not fit. A job's shares go on distinct
// nodes. First fit is one scan of the nodes with a free core, best fit one
// scan and a sort; a user's Placement chooses share by share, a scan and
// a call each (O(shares × nodes) per job).
func (m *machine) placeIn(as []*avail, j *Job, n *need, out []share) ([]share, bool) {
	from := len(out)
	spread := n.nodes == 0
	left := n.nodes
	// hint is the shares the job's slice is made for: its node count, or
	// for a spread job as many nodes as its cores fill on the smallest
	// kind (an upper bound if the nodes are free): a slice grown share by
	// share (on the largest kind's count, Curie's 32-core nodes for jobs
	// that went on its 16-core ones) cost a tenth of EASY's time there.
	hint := int(n.nodes)
	if spread {
		left = n.cores
		hint = int(min(n.cores/max(m.minC, 1)+1, int64(len(m.kind))))
	}
	if from == 0 && cap(out) < hint {
		m.putShares(out)
		out = m.getShares(hint)
	}
	grant := func(i int) {
		c := n.cores
		if spread {
			c = min(left, m.usableIn(as, i, n))
			left -= c
		} else {
			left--
		}
		out = m.appendShare(out, m.take(as, i, n, c))
	}
	if m.place == firstFit && spread && n.mem == 0 && !n.excl && len(as) == 1 && as[0] == &m.free {
		// Cores alone, now (most of an SWF log's jobs): each node with a
		// free core gives what it has, in node order.
		free := m.free.cores
		for w := 0; w < len(m.hasFree) && left > 0; w++ {
			for bs := m.hasFree[w]; bs != 0 && left > 0; bs &= bs - 1 {
				i := w<<6 | bits.TrailingZeros64(bs)
				c := min(left, free[i])
				if free[i] -= c; free[i] == 0 {
					m.hasFree[w] &^= 1 << (i & 63)
				}
				left -= c
				if k := len(out) - 1; m.runs && k >= from && out[k].cores == c && out[k].more < 1<<16-1 && out[k].node+int32(out[k].more)+1 == int32(i) {
					out[k].more++ // the run goes on
					continue
				}
				out = m.appendShare(out, share{node: int32(i), cores: c})
			}
		}
	} else if m.place == firstFit && spread && !n.excl && len(as) == 1 && as[0] == &m.free {
		// Cores with their memory, now (an SWF log's jobs with
		// CountMemory): the same, each node giving the cores its memory
		// covers. It is grant's take without its tests for GPUs, named
		// resources and whole nodes, which a spread job has none of.
		free, mem := m.free.cores, m.free.mem
		for w := 0; w < len(m.hasFree) && left > 0; w++ {
			for bs := m.hasFree[w]; bs != 0 && left > 0; bs &= bs - 1 {
				i := w<<6 | bits.TrailingZeros64(bs)
				c := min(left, m.usable(&m.free, i, n))
				if c == 0 {
					continue
				}
				free[i] -= c
				mem[i] -= c * n.mem
				m.markFree(i)
				left -= c
				if k := len(out) - 1; m.runs && k >= from && out[k].cores == c && out[k].more < 1<<16-1 && out[k].node+int32(out[k].more)+1 == int32(i) {
					out[k].more++ // the run goes on (the same cores, so the same memory)
					continue
				}
				out = m.appendShare(out, share{node: int32(i), cores: c, mem: c * n.mem})
			}
		}
	} else if m.place == firstFit || m.firstFitFor(j) {
		if as[0] == &m.free { // only nodes with a free core can take a share
			for w := 0; w < len(m.hasFree) && left > 0; w++ {
				for bs := m.hasFree[w]; bs != 0 && left > 0; bs &= bs - 1 {
					if i := w<<6 | bits.TrailingZeros64(bs); m.fitsIn(as, i, n, spread) {
						grant(i)
					}
				}
			}
		} else {
			for i := 0; i < len(m.kind) && left > 0; i++ {
				if m.fitsIn(as, i, n, spread) {
					grant(i)
				}
			}
		}
	} else if m.place == BestFit {
		// One scan: the nodes with room, by what the share leaves free
		// (a spread job: by its usable cores), fullest first.
		m.ranked = m.ranked[:0]
		for i := range m.kind {
			if m.fitsIn(as, i, n, spread) {
				key := as[0].cores[i] - n.cores
				if spread {
					key = m.usableIn(as, i, n)
				}
				m.ranked = append(m.ranked, rankedNode{key, i})
			}
		}
		slices.SortFunc(m.ranked, func(a, b rankedNode) int {
			return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.i, b.i))
		})
		for _, r := range m.ranked {
			if left == 0 {
				break
			}
			grant(r.i)
		}
	} else {
		if m.stamp++; m.stamp == 0 { // wrapped: old marks could match
			clear(m.used)
			m.stamp = 1
		}
		for left > 0 {
			i := m.choose(as, j, n, spread)
			if i < 0 {
				break
			}
			m.used[i] = m.stamp
			grant(i)
		}
	}
	if left > 0 {
		m.undo(as, out[from:], n)
		if from == 0 { // a waiting job holds no slice
			m.putShares(out)
			return nil, false
		}
		return out[:from], false
	}
	return out, true
}

func (m *machine) undo(as []*avail, shs []share, n *need) {
	for k := range shs {
		for _, a := range as {
			m.apply(a, &shs[k], n, 1)
		}
	}
}

func (m *machine) usableIn(as []*avail, i int, n *need) int64 {
	c := m.usable(as[0], i, n)
	for _, a := range as[1:] {
		c = min(c, m.usable(a, i, n))
	}
	return c
}

func (m *machine) fitsIn(as []*avail, i int, n *need, spread bool) bool {
	for _, a := range as {
		if spread {
			if m.usable(a, i, n) == 0 {
				return false
			}
		} else if !m.fits(a, i, n) {
			return false
		}
	}
	if len(as) == 1 || n.gpus == 0 || n.excl {
		return true
	}
	// Each avail has the GPUs free; the share needs the same ones free in
	// all.
	part, want := int32(1000), n.gpus/1000
	if n.gpus < 1000 {
		part, want = int32(n.gpus), 1
	}
	for g := m.gpuAt[i]; g < m.gpuAt[i+1] && want > 0; g++ {
		ok := true
		for _, a := range as {
			ok = ok && a.gpu[g] >= part
		}
		if ok {
			want--
		}
	}
	return want == 0
}

// choose returns the node a user's Placement picks for the next share
// among the nodes not yet used by the job (m.used), -1 if none fits.
func (m *machine) choose(as []*avail, j *Job, n *need, spread bool) int {
	ok := func(i int) bool { return m.used[i] != m.stamp && m.fitsIn(as, i, n, spread) }
	m.cands = m.cands[:0]
	for i := range m.kind {
		if ok(i) {
			m.cands = append(m.cands, m.nodeFree(as[0], i))
		}
	}
	if len(m.cands) == 0 {
		return -1
	}
	k := m.place.Choose(j, m.cands)
	if k < 0 || k >= len(m.cands) {
		k = 0 // out of range: the first fit, as Placement's doc says
	}
	return m.cands[k].Node
}

// firstFitter is a Placement that places some jobs by first fit (its
// Choose would pick fits[0] for each of their shares): those are placed
// without the candidates built for each share, whose cost grows with the
// nodes times the shares (minutes for a day of jobs of hundreds of nodes
// each on a machine of a thousand).
type firstFitter interface{ FirstFit(j *Job) bool }

// firstFitFor reports whether the user's Placement places j by first fit.
func (m *machine) firstFitFor(j *Job) bool {
	f, ok := m.place.(firstFitter)
	return ok && j != nil && f.FirstFit(j)
}

// nodeFree is node i's free resources in a, as a Placement sees them.
func (m *machine) nodeFree(a *avail, i int) NodeFree {
	nf := NodeFree{Node: i, Kind: int(m.kind[i]), Cores: a.cores[i], Memory: a.mem[i]}
	for g := m.gpuAt[i]; g < m.gpuAt[i+1]; g++ {
		nf.GPUs += int64(a.gpu[g])
	}
	return nf
}

// Placement chooses the node each share of a job goes on, on a machine of
// nodes (Config.Nodes): the first-fit and best-fit built-ins, or a user's
// own. Choose gets the nodes where the next share fits now, in node
// order (never none), and returns an index into fits; a job on several
// nodes is placed share by share. It must be deterministic. An index out
// of range picks fits[0]. A Placement that also has a method
// FirstFit(j *Job) bool, returning true, places j by first fit without
// calls of Choose: the same nodes as a Choose returning 0 for each share,
// at a cost that does not grow with the nodes times the shares.
type Placement interface {
	Choose(j *Job, fits []NodeFree) int
	Name() string
}

// NodeFree is a node's resources: free, as a Placement and Pass.Nodes
// see them, or held by a job (Result.Shares). GPUs is in thousandths of
// a GPU, summed over its GPUs.
type NodeFree struct {
	Node, Kind          int // the node's index, its kind's index in Config.Nodes
	Cores, Memory, GPUs int64
}

type placement int

// BestFit is the built-in packing placement: each share on the node it
// leaves the fewest cores free on (ties: the first), a spread job's cores
// on the nodes with the fewest free cores first, a GPU share on the
// fullest GPU it fits on; it keeps whole nodes and GPUs free for the
// large jobs. The default, first fit (a nil Config.Placement), puts each
// share on the first node, in Config.Nodes order, where it fits.
const BestFit placement = 1

const firstFit placement = 0

// Choose implements Placement (the built-ins take a faster path).
func (p placement) Choose(_ *Job, fits []NodeFree) int {
	if p != BestFit {
		return 0
	}
	k := 0
	for i := range fits {
		if fits[i].Cores < fits[k].Cores {
			k = i
		}
	}
	return k
}

// Name implements Placement.
func (p placement) Name() string {
	if p == BestFit {
		return "best fit"
	}
	return "first fit"
}

// unfit returns why no node could ever hold job line j ("" if one can),
// on a machine of nodes.
func (s *Sim) unfit(j *swf.Job) string {
	if j.Demand != nil {
		if err := j.Demand.Validate(); err != nil {
			return "invalid demand"
		}
	}
	n := needOf(j, j.Size(), s.cfg.CountMemory)
	return s.m.unfit(&n)
}

// perNode returns shs with its runs cut into a share per node, or shs if
// it has none (a new slice otherwise: a Result's readers may run at once).
func perNode(shs []share) []share {
	k := 0
	for k < len(shs) && shs[k].more == 0 {
		k++
	}
	if k == len(shs) {
		return shs
	}
	out := shs[:k:k] // (full: append copies)
	for _, sh := range shs[k:] {
		for j := int32(0); j <= int32(sh.more); j++ {
			out = append(out, sh.one(j))
		}
	}
	return out
}

// placeNow places waiting job jb on the free nodes now, taking their
// resources into jb.alloc, and reports whether it fits. On one pool it
// only compares sizes.
func (s *Sim) placeNow(jb *Job) bool {
	if s.m == nil {
		return jb.n <= s.free
	}
	if jb.nd.nodes == 0 && jb.nd.cores > s.free {
		return false
	}
	as := [1]*avail{&s.m.free}
	var ok bool
	jb.alloc, ok = s.m.placeIn(as[:], jb, &jb.nd, jb.alloc[:0])
	return ok
}

// freeShares gives a running job's node shares back, on a machine of
// nodes.
func (s *Sim) freeShares(jb *Job) {
	m := s.m
	if jb.nd.gpus == 0 && !jb.nd.excl && len(jb.nd.named) == 0 { // cores and memory
		if jb.nd.mem == 0 { // cores alone (an SWF log's jobs but with CountMemory)
			for k := range jb.alloc {
				sh := &jb.alloc[k]
				for i := sh.node; i <= sh.node+int32(sh.more); i++ {
					m.free.cores[i] += sh.cores
					m.hasFree[i>>6] |= 1 << (i & 63)
				}
			}
			return
		}
		for k := range jb.alloc {
			if jb.alloc[k].more > 0 {
				m.apply(&m.free, &jb.alloc[k], &jb.nd, 1)
				continue
			}
			sh := &jb.alloc[k]
			m.free.cores[sh.node] += sh.cores
			m.free.mem[sh.node] += sh.mem
			m.hasFree[sh.node>>6] |= 1 << (sh.node & 63) // a share holds at least one core
		}
		return
	}
	for k := range jb.alloc {
		m.apply(&m.free, &jb.alloc[k], &jb.nd, 1)
	}
}
