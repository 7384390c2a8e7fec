package slurm

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// nodeSpace is a backfill cycle's plan on named nodes, for a machine of
// several nodes whose jobs each ask one node: Slurm 22.05's node_space in
// _attempt_backfill (src/plugins/sched/backfill/backfill.c). There a
// reservation is a set of nodes taken out of every later job's
// avail_bitmap from the job's start to its end (both rounded down to
// bf_resolution, at least one bf_resolution: _add_reservation), whatever
// CPUs the job asks of them; a later job may use only the nodes free of
// reservations over its whole [start, start + time limit] (the loop that
// bit_ands node_space[j].avail_bitmap for every record with end_time >
// start_res and begin_time <= end_time), and the select plugin's will-run
// test finds its earliest start on those nodes from the running jobs'
// ends at their limits (_try_sched). A job that can start now starts on
// those nodes only (_start_job excludes the others through
// exc_node_bitmap). A running job, even one backfill just started, holds
// no reservation unless it has its nodes whole (_bf_reserve_running).
//
// On a machine whose nodes declare memory or GPUs (a site of
// CR_CPU_Memory and gres/gpu) the plan holds them too, as cons_tres's
// will-run test does: a node's free memory and GPUs now and what each
// running job gives back at its end, and a job fits a node only where
// its CPUs, memory and GPUs all are free. With CPUs alone the plan found
// a job of most of a node's memory startable on a node whose CPUs were
// free, the start failed, and the job reserved that node from the next
// second for its whole limit, keeping backfill off a node Slurm left
// open (TestNodePlanMemory).
//
// GPUs are devices, as gres/gpu's are in Slurm and in sched's machine: a
// job of k GPUs fits a node only where k GPUs are wholly free, a share
// of one GPU (below 1000 thousandths: the Alibaba trace's, which Slurm
// has only with shards or MPS) only where one GPU has that much left.
// Pass.Nodes gives a node's GPUs summed, so the plan keeps which GPUs
// each running job holds (gpuUse), chosen as the machine chooses them
// (machine.take: the first free GPUs; a share the first GPU it fits on),
// and checks the sums against Pass.Nodes each cycle (the pool plan
// serves if they differ). Summed, a job of whole GPUs was planned on the
// fragments shares left, the machine refused the start and the job
// reserved the node from the next second (TestNodePlanWholeGPUs).
//
// An exclusive job (swf.Demand.Exclusive: --exclusive, or a partition of
// OverSubscribe=EXCLUSIVE under Run) fits only a node wholly free, holds
// all of its CPUs, memory and GPUs, as the machine does, and gives them
// back at its end (TestNodePlanExclusive).
//
// The pool plan (plan.go) counts CPUs instead: a reservation holds a
// node's CPUs somewhere, so a later job may use the reserved node's
// CPUs if the machine as a whole has enough, and Slurm's keeps it off.
type nodeSpace struct {
	// node is the node each running job went on (recorded by nodePlace
	// at its start); -1 for a job whose node is not known (placed over
	// several nodes): while one runs, cycles use the pool plan.
	node map[*jobRec]int32
	// held is what each running job on one node holds beyond its CPUs
	// asked (noteStart; absent: nothing more): memory, GPUs, or the whole
	// node.
	held map[*jobRec]hold
	// The last share nodePlace placed: the job's ID and node (-1: a job
	// not on one node), and its memory, GPUs and exclusivity.
	lastID   int64
	lastNode int32
	lastNeed jobNeed
	// The machine's nodes: each one's CPUs and memory, where its GPUs
	// begin in gpuUse (len nodes+1), and the thousandths of each GPU the
	// running jobs hold, as the machine placed them (noteStart, release).
	capCores, capMem []int64
	gpuAt            []int32
	gpuUse           []int32
	// drift counts the cycles gpuUse's sums differed from Pass.Nodes's
	// GPUs (the pool plan served), refused the starts the plan found room
	// for now and the machine refused: neither happens while the plan's
	// choice of GPUs is the machine's (TestNodePlanGPUsFollowMachine; the
	// sums alone miss a share put on another GPU).
	drift, refused int
	// mask, during a backfill start, is the nodes the job may not use
	// (true); nil otherwise. maskBuf holds it between starts.
	mask, maskBuf []bool

	// A cycle's state: each node's free CPUs now and its running jobs'
	// ends (at their limits, ascending), and the reservations made.
	free []int64
	rel  [][]release
	// mg: the machine's nodes declare memory or GPUs, whose free amounts
	// now are freeMem (per node) and freeG (thousandths, per GPU, as
	// gpuUse); need is what the job nodeFit plans asks beyond CPUs (set
	// by backfillNodes), chk whether it asks anything (mg, or whole
	// nodes).
	mg      bool
	chk     bool
	freeMem []int64
	freeG   []int32
	need    jobNeed
	resv    []nodeResv
	// byNode[n] is node n's reservations (in resv too): reserved and
	// overlaps, asked of every node at each try of every job, scan
	// those of the node only, not the cycle's (on 256 nodes, with a
	// reservation per job tested, a cycle scanning them all took
	// seconds).
	byNode [][]nodeResv
	// willRun's: every node's running jobs' ends in order of time, and
	// each node's CPUs as they are taken off.
	all    []nodeRelease
	fut    []int64
	futMem []int64
	futG   []int32
	tmpG   []int32 // mgFitsAt's
	ends   []int64 // the reservations' ends, ascending (later_start)
	fits   []sched.NodeFree
	// usable is nodeFit's: the nodes no reservation holds over the span
	// tried; allOK that all is built for the cycle (from rel).
	usable []bool
	allOK  bool
}

// release is a running job's end (at its limit) and the CPUs, memory
// and GPUs it gives back: part thousandths of each GPU of the node in
// the mask gpus (bit i: the node's GPU i).
type release struct {
	t, cpus, mem int64
	gpus         uint64
	part         int32
}

// hold is what a running job holds on its node (release's fields).
type hold struct {
	cpus, mem int64
	gpus      uint64
	part      int32
}

// jobNeed is what a job asks of one node beyond its CPUs: memory,
// thousandths of GPUs (per node) and the whole node.
type jobNeed struct {
	mem, gpus int64
	excl      bool
}

// newNodeSpace is the plan of a machine of nodes kinds.
func newNodeSpace(kinds []swf.Node) *nodeSpace {
	ns := &nodeSpace{node: map[*jobRec]int32{}, lastNode: -1, gpuAt: []int32{0}}
	for _, k := range kinds {
		for range k.Count {
			ns.capCores = append(ns.capCores, k.Cores)
			ns.capMem = append(ns.capMem, k.Memory)
			ns.gpuAt = append(ns.gpuAt, ns.gpuAt[len(ns.gpuAt)-1]+int32(k.GPUs))
		}
	}
	ns.gpuUse = make([]int32, ns.gpuAt[len(ns.gpuAt)-1])
	return ns
}

// nodeResv takes node out of the plan over [from, to).
type nodeResv struct {
	node     int
	from, to int64
}

// nodePlace is the machine's Placement seen through the named-node plan:
// it records where each share goes and, during a backfill start, keeps
// it off the nodes the plan reserved.
type nodePlace struct {
	inner sched.Placement
	ns    *nodeSpace
}

// FirstFit passes the inner placement's first-fit jobs on to sched's
// first fit (see consTres.FirstFit) outside a backfill start, where no
// node is masked: Choose would take the inner's fits[0] then, and notes
// no node for a job on several nodes.
func (n *nodePlace) FirstFit(j *sched.Job) bool {
	f, ok := n.inner.(interface{ FirstFit(*sched.Job) bool })
	return ok && n.ns.mask == nil && f.FirstFit(j)
}

// Choose implements sched.Placement.
func (n *nodePlace) Choose(j *sched.Job, fits []sched.NodeFree) int {
	ns := n.ns
	k := -1
	if ns.mask != nil {
		ns.fits = ns.fits[:0]
		for _, f := range fits {
			if f.Node < len(ns.mask) && !ns.mask[f.Node] {
				ns.fits = append(ns.fits, f)
			}
		}
		if len(ns.fits) > 0 {
			c := n.inner.Choose(j, ns.fits)
			if c < 0 || c >= len(ns.fits) {
				c = 0
			}
			k = slices.IndexFunc(fits, func(f sched.NodeFree) bool { return f.Node == ns.fits[c].Node })
		}
	}
	if k < 0 {
		k = n.inner.Choose(j, fits)
		if k < 0 || k >= len(fits) {
			k = 0
		}
	}
	ns.lastID, ns.lastNode, ns.lastNeed = j.ID(), -1, jobNeed{}
	if d := j.Demand(); d.Nodes == 1 {
		ns.lastNode, ns.lastNeed = int32(fits[k].Node), jobNeed{d.Memory, d.GPUs, d.Exclusive}
	}
	return k
}

// Name implements sched.Placement.
func (n *nodePlace) Name() string { return n.inner.Name() }

// usesNodePlan reports whether Run plans backfill on named nodes:
// Config.NamedNodes on a machine of several nodes, every partition over
// all of them or over nodes Config.NodeNames names (part.on).
func (p *Policy) usesNodePlan() bool {
	if !p.cfg.NamedNodes || len(p.mach.Nodes) == 0 || p.nodes < 2 {
		return false
	}
	for _, pt := range p.parts {
		if pt.on == nil && pt.nodes != p.nodes {
			return false
		}
	}
	return true
}

// noteStart records the node running job r went on. The jobs that
// ended are dropped once they outnumber those running (plus a margin):
// a start is the one place entries come in, whether or not backfill
// cycles run, so the map stays within twice the running jobs, and a
// sweep's cost is paid for by the starts since the last.
func (ns *nodeSpace) noteStart(r *jobRec, running int) {
	if len(ns.node) > 2*running+64 {
		for q := range ns.node {
			if !q.running || q.gone {
				ns.release(q)
				delete(ns.node, q)
			}
		}
	}
	delete(ns.held, r) // (a record of an earlier job)
	if ns.lastID == r.id {
		ns.node[r] = ns.lastNode
		if ns.lastNeed != (jobNeed{}) && int(ns.lastNode) < len(ns.capCores) {
			if ns.held == nil {
				ns.held = map[*jobRec]hold{}
			}
			ns.held[r] = ns.take(int(ns.lastNode), r.cpus, ns.lastNeed)
		}
	} else {
		ns.node[r] = -1
	}
}

// take is what a job of cpus and need holds on node n, its GPUs chosen
// as sched's machine chooses them (machine.take: the first wholly free
// GPUs; a share on the first GPU it fits on; all of them for a whole
// node), and marks them in gpuUse.
func (ns *nodeSpace) take(n int, cpus int64, need jobNeed) hold {
	h := hold{cpus: cpus, mem: need.mem, part: 1000}
	gs := ns.gpuUse[ns.gpuAt[n]:ns.gpuAt[n+1]]
	switch {
	case need.excl:
		h.cpus, h.mem = ns.capCores[n], ns.capMem[n]
		h.gpus = 1<<len(gs) - 1
	case need.gpus >= 1000:
		want := need.gpus / 1000
		for i, u := range gs {
			if want > 0 && u == 0 {
				h.gpus |= 1 << i
				want--
			}
		}
	case need.gpus > 0:
		h.part = int32(need.gpus)
		for i, u := range gs {
			if u+h.part <= 1000 {
				h.gpus = 1 << i
				break
			}
		}
	}
	for b := h.gpus; b != 0; b &= b - 1 {
		gs[bits.TrailingZeros64(b)] += h.part
	}
	return h
}

// release gives back what running job r held (take), at its end.
func (ns *nodeSpace) release(r *jobRec) {
	h, ok := ns.held[r]
	if !ok {
		return
	}
	delete(ns.held, r)
	if n, ok := ns.node[r]; ok && n >= 0 && int(n) < len(ns.capCores) {
		gs := ns.gpuUse[ns.gpuAt[n]:ns.gpuAt[n+1]]
		for b := h.gpus; b != 0; b &= b - 1 {
			gs[bits.TrailingZeros64(b)] -= h.part
		}
	}
}

// ready prepares a cycle at now from the pass's free nodes and the
// running jobs; false if some running job's node is unknown or some
// waiting job asks other than one node (the pool plan then serves).
func (p *Policy) nodeReady(pass *sched.Pass, now int64) bool {
	ns := p.ns
	for _, r := range p.queue {
		if r.running || r.gone {
			continue
		}
		if r.minNodes != 1 {
			return false
		}
		// A job spread over nodes (no node count: minNodes 1 too) would
		// be planned on one node and placed on several, some reserved.
		if j := p.ptr(pass, r); j == nil || j.Demand().Nodes != 1 {
			return false
		}
	}
	nodes := pass.Nodes()
	if len(nodes) == 0 {
		return false
	}
	ns.free, ns.freeMem, ns.mg = ns.free[:0], ns.freeMem[:0], false
	for _, nf := range nodes {
		ns.free = append(ns.free, nf.Cores)
		ns.freeMem = append(ns.freeMem, nf.Memory)
		ns.mg = ns.mg || p.mach.Nodes[nf.Kind].Memory > 0 || p.mach.Nodes[nf.Kind].GPUs > 0
	}
	if len(nodes) != len(ns.capCores) {
		return false
	}
	if ns.mg {
		// Each GPU's free thousandths, from where the running jobs' went;
		// their sums must be the machine's.
		ns.freeG = ns.freeG[:0]
		for n, nf := range nodes {
			var sum int64
			for _, u := range ns.gpuUse[ns.gpuAt[n]:ns.gpuAt[n+1]] {
				ns.freeG = append(ns.freeG, 1000-u)
				sum += int64(1000 - u)
			}
			if sum != nf.GPUs {
				ns.drift++
				return false
			}
		}
	}
	if len(ns.rel) < len(nodes) {
		ns.rel = make([][]release, len(nodes))
	}
	ns.rel = ns.rel[:len(nodes)]
	for i := range ns.rel {
		ns.rel[i] = ns.rel[i][:0]
	}
	for t, r := range p.runningEnds(now) { // ascending: each node's list sorted
		n, ok := ns.node[r]
		if !ok || n < 0 || int(n) >= len(nodes) {
			return false
		}
		h, ok := ns.held[r]
		if !ok {
			h.cpus = r.cpus
		}
		ns.rel[n] = append(ns.rel[n], release{t, h.cpus, h.mem, h.gpus, h.part})
	}
	ns.resv, ns.ends = ns.resv[:0], ns.ends[:0]
	if len(ns.byNode) < len(nodes) {
		ns.byNode = make([][]nodeResv, len(nodes))
	}
	ns.byNode = ns.byNode[:len(nodes)]
	for i := range ns.byNode {
		ns.byNode[i] = ns.byNode[i][:0]
	}
	if len(ns.maskBuf) != len(nodes) {
		ns.maskBuf = make([]bool, len(nodes))
		ns.usable = make([]bool, len(nodes))
	}
	ns.allOK = false
	return true
}

// freeAt is node n's free CPUs at t, the running jobs ending at their
// limits.
func (ns *nodeSpace) freeAt(n int, t int64) int64 {
	f := ns.free[n]
	for _, r := range ns.rel[n] {
		if r.t > t {
			break
		}
		f += r.cpus
	}
	return f
}

// mgFitsAt reports whether node n, with cores CPUs free at t, has what
// the job planned asks beyond CPUs (need) free at t; always for a job
// that asks nothing more (chk).
func (ns *nodeSpace) mgFitsAt(n int, cores, t int64) bool {
	if !ns.chk {
		return true
	}
	mem := int64(0)
	var g []int32
	if ns.mg {
		mem = ns.freeMem[n]
		g = append(ns.tmpG[:0], ns.freeG[ns.gpuAt[n]:ns.gpuAt[n+1]]...)
		ns.tmpG = g
	}
	for _, r := range ns.rel[n] {
		if r.t > t {
			break
		}
		mem += r.mem
		for b := r.gpus; b != 0 && g != nil; b &= b - 1 {
			g[bits.TrailingZeros64(b)] += r.part
		}
	}
	return ns.fitsNode(n, cores, mem, g)
}

// fitsNode reports whether node n, with cores CPUs, mem memory and its
// GPUs' free thousandths g, holds what the job planned asks beyond its
// CPUs (need): all of it free for a whole node; on a machine without
// memory or GPUs (mg) only the CPUs count.
func (ns *nodeSpace) fitsNode(n int, cores, mem int64, g []int32) bool {
	if ns.need.excl && (cores != ns.capCores[n] ||
		ns.mg && (mem != ns.capMem[n] || slices.ContainsFunc(g, func(f int32) bool { return f != 1000 }))) {
		return false
	}
	// A whole node must hold the memory and GPUs the job asks too (nodes
	// of different sizes: the machine refuses it on a smaller one).
	return !ns.mg || mem >= ns.need.mem && gpusFree(g, ns.need.gpus)
}

// gpusFree reports whether GPUs of free thousandths g hold k thousandths
// of GPUs: k/1000 wholly free GPUs, or a share (below 1000) on one GPU
// (sched's machine.gpusFit).
func gpusFree(g []int32, k int64) bool {
	if k <= 0 {
		return true
	}
	if k < 1000 {
		return slices.ContainsFunc(g, func(f int32) bool { return int64(f) >= k })
	}
	want := k / 1000
	for _, f := range g {
		if f == 1000 {
			if want--; want == 0 {
				return true
			}
		}
	}
	return false
}

// reserved reports whether node n is reserved somewhere in [s, e]
// (Slurm's test of a job's nodes over its span: a record ending after s
// and beginning at or before e).
func (ns *nodeSpace) reserved(n int, s, e int64) bool {
	for _, v := range ns.byNode[n] {
		if v.to > s && v.from <= e {
			return true
		}
	}
	return false
}

// overlaps reports whether node n is reserved somewhere in [s, e):
// _test_resv_overlap's test (a record ending after s and beginning
// before e), s and e the job's start and end rounded down to
// bf_resolution. Unlike reserved's, a reservation that begins at e is
// not in the way.
func (ns *nodeSpace) overlaps(n int, s, e int64) bool {
	for _, v := range ns.byNode[n] {
		if v.to > s && v.from < e {
			return true
		}
	}
	return false
}

// addResv adds reservation v to the plan.
func (ns *nodeSpace) addResv(v nodeResv) {
	ns.resv = append(ns.resv, v)
	i, _ := slices.BinarySearch(ns.ends, v.to)
	ns.ends = slices.Insert(ns.ends, i, v.to)
	ns.byNode[v.node] = append(ns.byNode[v.node], v)
}

// nodeFit finds where job r (cpus, time limit) goes in the plan, as
// _attempt_backfill's TRY_LATER loop does: from start_res = now, the
// nodes free of reservations over [start_res, start_res + limit] are
// usable, and cons_tres's will-run test (willRun) gives the job's start
// on them, no earlier than start_res; if that is after a reservation ends
// (later_start), or the chosen node is reserved over the job's own span
// (_test_resv_overlap), it tries again from there. It returns the start
// and the node (-1 if none within bound: by is the latest start looked
// for, beyond which it returns the first start found with node -1).
func (p *Policy) nodeFit(r *jobRec, now, by int64) (int64, int) {
	ns := p.ns
	ns.sortEnds()
	if len(ns.usable) != len(ns.free) {
		ns.usable = make([]bool, len(ns.free))
	}
	startRes := now
	for range 2*len(ns.resv) + 2 {
		end := startRes + r.limit
		later := int64(never)
		if i, _ := slices.BinarySearch(ns.ends, startRes+1); i < len(ns.ends) {
			later = ns.ends[i]
		}
		// Only the partition's nodes (_attempt_backfill starts from
		// part_ptr->node_bitmap).
		on := p.parts[r.part].on
		for n := range ns.usable {
			ns.usable[n] = (on == nil || on[n]) && !ns.reserved(n, startRes, end)
		}
		best := ns.willRun(r.cpus, now, p.epoch)
		if best == never {
			if later == never {
				return never, -1
			}
			startRes = later
			continue
		}
		start := max(best, startRes)
		if later != never && start > later {
			startRes = later
			continue
		}
		if start > by {
			return start, -1
		}
		// The node: cons_tres's choice among the usable nodes with the
		// CPUs at the start, by their free CPUs then.
		ns.fits = ns.fits[:0]
		for n := range ns.free {
			if !ns.usable[n] {
				continue
			}
			if f := ns.freeAt(n, start); f >= r.cpus && ns.mgFitsAt(n, f, start) {
				ns.fits = append(ns.fits, sched.NodeFree{Node: n, Cores: f})
			}
		}
		if len(ns.fits) == 0 { // never: willRun found the resources on one
			return never, -1
		}
		node := ns.fits[chooseNode(p.mach.Placement, ns.fits)].Node
		if start > now && ns.overlaps(node, p.floorRes(start), p.floorRes(start+r.limit)) {
			startRes = start
			continue
		}
		return start, node
	}
	return never, -1
}

// willRun is cons_tres's will-run test on the usable nodes
// (_will_run_test, src/plugins/select/cons_common/job_test.c, Slurm
// 22.05): the job starts now if one of them has its CPUs free; otherwise
// the running jobs are taken off in order of their ends (at their time
// limits) in groups, the job tested after each group, and its start is
// the end of the last job of the first group after which it fits, not
// the first end that frees its CPUs. The first group holds the jobs
// ending up to the first multiple of 30 s (of Unix time: epoch is its
// time 0) after the first end on a usable node, plus a window of 30 s;
// the window then doubles until it reaches the next end, and each
// further group holds the jobs ending within it. Jobs on nodes not
// usable are skipped (one right after such a job is taken off whatever
// its end, as Slurm's loop does). On a machine of memory or GPUs (mg) a
// node fits where the job's (need) are free too; for a whole node
// (need.excl), where all of it is.
func (ns *nodeSpace) willRun(cpus, now, epoch int64) int64 {
	for n, f := range ns.free {
		if ns.usable[n] && f >= cpus && ns.mgFits(ns.free, ns.freeMem, ns.freeG, n) {
			return now
		}
	}
	ns.fut = append(ns.fut[:0], ns.free...)
	if ns.mg {
		ns.futMem = append(ns.futMem[:0], ns.freeMem...)
		ns.futG = append(ns.futG[:0], ns.freeG...)
	}
	const window0 = 30
	all := ns.all
	barrier, window := int64(never), int64(window0)
	for i := 0; i < len(all); {
		// A group. No usable node had the CPUs before it, so one has
		// them after it only if it took off a job of that node's: the
		// test needs no pass over the nodes.
		last, fits := -1, false
		for i < len(all) {
			e := &all[i] // (not a copy: 40 bytes with the memory and GPUs)
			i++
			if !ns.usable[e.node] {
				continue
			}
			if barrier == never {
				u := (e.t + epoch) % window0
				if u < 0 {
					u += window0
				}
				barrier = e.t + window0 - u
			}
			last = i - 1
			ns.fut[e.node] += e.cpus
			if ns.mg {
				ns.futMem[e.node] += e.mem
				g := ns.futG[ns.gpuAt[e.node]:]
				for b := e.gpus; b != 0; b &= b - 1 {
					g[bits.TrailingZeros64(b)] += e.part
				}
			}
			fits = fits || ns.fut[e.node] >= cpus && ns.mgFits(ns.fut, ns.futMem, ns.futG, e.node)
			if i < len(all) && all[i].t > barrier+window {
				break
			}
		}
		if fits {
			return all[last].t
		}
		for window *= 2; i < len(all) && all[i].t > barrier+window; window *= 2 {
		}
	}
	return never
}

// mgFits is fitsNode on node n of the free CPUs, memory and GPUs
// given; always for a job that asks nothing beyond CPUs (chk).
func (ns *nodeSpace) mgFits(cores, mem []int64, g []int32, n int) bool {
	if !ns.chk {
		return true
	}
	if !ns.mg {
		return ns.fitsNode(n, cores[n], 0, nil)
	}
	return ns.fitsNode(n, cores[n], mem[n], g[ns.gpuAt[n]:ns.gpuAt[n+1]])
}

// nodeRelease is a running job's end (at its time limit) on node.
type nodeRelease struct {
	release
	node int
}

// sortEnds makes ns.all every node's running jobs' ends in order of
// time, ties by node then in the node's own order: once a cycle
// (nodeStarted keeps it so).
func (ns *nodeSpace) sortEnds() {
	if ns.allOK {
		return
	}
	ns.all = ns.all[:0]
	for n, rs := range ns.rel {
		for _, r := range rs {
			ns.all = append(ns.all, nodeRelease{r, n})
		}
	}
	slices.SortStableFunc(ns.all, func(a, b nodeRelease) int { return cmp.Compare(a.t, b.t) })
	ns.allOK = true
}

// floorRes rounds t down to bf_resolution on Unix time (Config.UnixStart).
func (p *Policy) floorRes(t int64) int64 {
	off := p.epoch % p.bfRes
	return floorTo(t+off, p.bfRes) - off
}

// nodeResvEnd is the end of the named-node plan's reservation from t of
// a job of time limit limit, begin the cycle's first grid point:
// max(⌊t+limit⌋, max(⌊t⌋, begin) + bf_resolution), ⌊⌋ floorRes
// (_add_reservation: at least one bf_resolution).
func (p *Policy) nodeResvEnd(t, limit, begin int64) int64 {
	return max(p.floorRes(t+limit), max(p.floorRes(t), begin)+p.bfRes)
}

// chooseNode is consTres's choice on one-node jobs (the Placement for
// a user's own is not asked: it wants a sched.Job), the first otherwise.
func chooseNode(pl sched.Placement, fits []sched.NodeFree) int {
	if np, ok := pl.(*nodePlace); ok {
		pl = np.inner
	}
	if _, ok := pl.(consTres); !ok {
		return 0
	}
	return tightestRun(fits)
}

// nodeStarted updates the plan for job r started now on node n: its
// CPUs, and what noteStart found it holds (held: memory, GPUs, the whole
// node). It returns the CPUs taken.
func (ns *nodeSpace) nodeStarted(r *jobRec, n int, now int64) int64 {
	h, ok := ns.held[r]
	if !ok {
		h.cpus = r.cpus
	}
	ns.free[n] -= h.cpus
	if ns.mg {
		ns.freeMem[n] -= h.mem
		g := ns.freeG[ns.gpuAt[n]:]
		for b := h.gpus; b != 0; b &= b - 1 {
			g[bits.TrailingZeros64(b)] -= h.part
		}
	}
	rel := release{max(r.start+r.limit, now+1), h.cpus, h.mem, h.gpus, h.part} // started now: not overdue
	i, _ := slices.BinarySearchFunc(ns.rel[n], rel, func(a, b release) int {
		if a.t < b.t {
			return -1
		}
		if a.t > b.t {
			return 1
		}
		return 0
	})
	ns.rel[n] = slices.Insert(ns.rel[n], i, rel)
	if ns.allOK {
		// In sortEnds's order: before the ends at the same time on this
		// node, as in rel[n], and after those on the nodes before it.
		k, _ := slices.BinarySearchFunc(ns.all, rel, func(a nodeRelease, b release) int {
			return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.node, n))
		})
		ns.all = slices.Insert(ns.all, k, nodeRelease{rel, n})
	}
	return h.cpus
}

// backfillNodes is backfill's loop on the named-node plan: each job in
// Slurm's order, up to bf_max_job_test (and bf_max_job_user per user),
// starts now on the nodes no reservation holds over its time limit, or
// reserves the node where it can start first within bf_window.
func (p *Policy) backfillNodes(pass *sched.Pass, now int64, freeNow int64) {
	ns := p.ns
	clear(p.perUsr)
	begin := p.floorRes(now)
	tested := int64(0)
	reserved := false
	for i, r := range p.queue {
		if tested >= p.bfTest || freeNow < p.least[i] {
			break
		}
		if p.bfSkips(r) {
			continue
		}
		// Every job is fitted, as Slurm's _try_sched tests each: the pool
		// plan's shortcut (beyondOf) does not hold here, where a job's
		// start turns on its partition's nodes, memory and GPUs too.
		tested++
		ns.need = jobNeed{excl: r.excl}
		if ns.mg {
			if j := p.ptr(pass, r); j != nil {
				d := j.Demand()
				ns.need = jobNeed{d.Memory, d.GPUs, d.Exclusive}
			}
		}
		ns.chk = ns.mg || ns.need.excl
		t, node := p.nodeFit(r, now, now+p.bfWin)
		if t == never {
			continue
		}
		if node < 0 {
			p.bfBeyond = min(p.bfBeyond, t)
			continue
		}
		if t == now {
			p.bfStill = false
			// Keep the start off the nodes reserved over its span: those
			// nodeFit's last try, from now, found not usable.
			ns.mask = ns.maskBuf
			for n, u := range ns.usable {
				ns.mask[n] = !u
			}
			ok := p.start(pass, r, reserved)
			ns.mask = nil
			if ok {
				n := node
				if ns.lastID == r.id && ns.lastNode >= 0 {
					n = int(ns.lastNode)
				}
				freeNow -= ns.nodeStarted(r, n, now)
				continue
			}
			// The plan found room the machine did not (memory, GPUs):
			// plan it at the next second, as the pool plan does.
			ns.refused++
			t = now + 1
		}
		ns.addResv(nodeResv{node, max(p.floorRes(t), now), p.nodeResvEnd(t, r.limit, begin)})
		reserved = true
		if t != r.res {
			if j := p.ptr(pass, r); j != nil && pass.Reserve(j, t) == nil {
				r.res = t
			}
		}
	}
	clear(p.perUsr)
}
