package sched

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Check verifies the schedule in the Result, independently of how it was
// made: every started job asked at most the machine's processors (and
// not a negative count), started at or after its submission and ended
// at start + run time (or was cancelled, not before its start nor after
// start + run time); at no instant are more processors in use than the
// machine has (a job ending at an instant frees its processors for one
// starting then; a job with no end holds them from its start on); and on
// a machine of nodes, no
// node gives more of any resource (cores, memory, each GPU, each named
// resource) than it has, every job has its node count, GPUs of a model it
// accepts, and whole nodes if it asked for them; and when every job ran
// exactly its prediction (none corrected, none re-predicted to another
// length while waiting), no job started after its first reservation
// under a policy that promises it (conservative backfilling, EASY with
// its holder in arrival order). It returns the first violation found
// (an over-allocation with what its instant holds), nil if none. On a
// machine of nodes it needs the shares Config.KeepShares keeps (an error
// says so without them), and a run with Config.SummaryOnly keeps no
// records to check (an error too, not a pass: nothing was verified);
// those two errors match errors.ErrUnsupported (errors.Is), so that a
// caller can tell them from a violation. A job of run time 0 is checked
// against the empty machine (it holds nothing for any time). It costs
// O(n log n) for n jobs, plus the shares' nodes on a machine of nodes.
func (r *Result) Check() error {
	if r.machine != nil && !r.keptShares {
		return uncheckable("sched: check: a machine of nodes is checked from its jobs' node shares: run with Config.KeepShares")
	}
	if r.folded != nil {
		return uncheckable("sched: check: a run with Config.SummaryOnly keeps no records to check")
	}
	type ev struct {
		t     int64
		start bool
		k     int
	}
	evs := make([]ev, 0, 2*len(r.Records))
	// A job of run time 0 holds nothing: the simulator ends it in the
	// instant it starts, and a later pass of that instant reuses what it
	// had. Its shares are checked against an empty machine.
	var zero []int
	for k := range r.Records {
		rec := &r.Records[k]
		if rec.Start < 0 {
			continue
		}
		if rec.Start < rec.Job.Submit {
			return fmt.Errorf("sched: check: job %d started at %d, before its submission at %d", rec.Job.ID, rec.Start, rec.Job.Submit)
		}
		// A hand-edited size: a negative one took processors back from
		// the jobs beside it, and two of 2^62 summed past 2^63 to a
		// negative count, both passed as fitting.
		if rec.Size < 0 || rec.Size > r.machineSize {
			return fmt.Errorf("sched: check: job %d of %d processors on a machine of %d", rec.Job.ID, rec.Size, r.machineSize)
		}
		if rec.End < 0 {
			// Not ended (Finish ends every started job): it holds what it
			// took from its start on.
			evs = append(evs, ev{rec.Start, true, k})
			continue
		}
		if rec.End < rec.Start {
			return fmt.Errorf("sched: check: job %d ended at %d, before its start at %d", rec.Job.ID, rec.End, rec.Start)
		}
		if !rec.Cancelled && rec.End-rec.Start != rec.RunTime {
			return fmt.Errorf("sched: check: job %d ran %d s, not its run time %d", rec.Job.ID, rec.End-rec.Start, rec.RunTime)
		}
		// A cancelled job was ended before its run time was up (a job that
		// reached it ended done): one that held its processors longer
		// than it would have run is a schedule the simulator never makes.
		if rec.Cancelled && rec.End-rec.Start > rec.RunTime {
			return fmt.Errorf("sched: check: job %d was cancelled after %d s, past its run time %d", rec.Job.ID, rec.End-rec.Start, rec.RunTime)
		}
		if rec.End == rec.Start {
			zero = append(zero, k)
			continue
		}
		evs = append(evs, ev{rec.Start, true, k}, ev{rec.End, false, k})
	}
	slices.SortFunc(evs, func(a, b ev) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		// At one instant the jobs that end give back what they held
		// before the jobs that start take theirs, as in the simulator
		// (S1): a job may start on what a job ending then frees. (A job
		// that ran 0 s has no events: it is checked apart, against the
		// empty machine.) Then record order, so that a report does not
		// depend on the sort.
		if a.start != b.start {
			if b.start {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.k, b.k)
	})
	m := r.machine
	var a, empty avail
	var used int64
	var seen []int // node → the last event that took a share there, +1 (checkShares)
	if m != nil {
		a.copyFrom(&m.cap)
		empty.copyFrom(&m.cap)
		seen = make([]int, len(m.kind))
	}
	for _, k := range zero {
		rec := &r.Records[k]
		if m != nil {
			shs := r.sharesOf(k)
			err := m.checkShares(&empty, rec, shs, seen, k+1)
			if err != nil {
				return fmt.Errorf("sched: check: at %d, job %d: %w", rec.Start, rec.Job.ID, err)
			}
			// back to the empty machine, on the nodes it took
			for x := range shs {
				for i := shs[x].node; i <= shs[x].node+int32(shs[x].more); i++ {
					copyNode(m, &empty, &m.cap, int(i))
				}
			}
		}
	}
	for i, e := range evs {
		rec := &r.Records[e.k]
		held := rec.Size
		if m != nil {
			held = 0
			for _, sh := range r.sharesOf(e.k) {
				held += sh.cores * sh.nodes()
			}
		}
		if !e.start {
			used -= held
			if m != nil {
				// given back node by node, as checkShares took it (apply
				// on a run moves cores and memory alone)
				n := needOf(rec.Job, rec.Size, m.countMemory)
				shs := r.sharesOf(e.k)
				for k := range shs {
					for x := int32(0); x <= int32(shs[k].more); x++ {
						sh := shs[k].one(x)
						m.apply(&a, &sh, &n, 1)
					}
				}
			}
			continue
		}
		used += held
		// The starts come last at their instant, so the count after the
		// last of them is what the instant holds (an earlier one would
		// report only part of it).
		if last := i+1 == len(evs) || evs[i+1].t != e.t; last && used > r.machineSize {
			return fmt.Errorf("sched: check: at %d, %d processors in use on a machine of %d", e.t, used, r.machineSize)
		}
		if m != nil {
			if err := m.checkShares(&a, rec, r.sharesOf(e.k), seen, len(r.Records)+i+1); err != nil {
				return fmt.Errorf("sched: check: at %d, job %d: %w", e.t, rec.Job.ID, err)
			}
		}
	}
	return r.checkReservations()
}

// uncheckable is Check's error for a Result it cannot verify (not a
// violation): it matches errors.ErrUnsupported.
type uncheckable string

func (e uncheckable) Error() string        { return string(e) }
func (e uncheckable) Is(target error) bool { return target == errors.ErrUnsupported }

// checkReservations reports a job that started after its first
// reservation where the policy promised it: conservative backfilling, and
// EASY whose holder is the first job in arrival order (under SJF or LXF&W
// another job may become the holder, as those policies mean), when every
// job ran exactly its prediction. A running job that outlives its
// prediction delays reservations (S3), and so does a waiting job whose
// propagated re-prediction grew, even back to its run time
// (Sim.repredicted: its record keeps the last prediction only); with
// exact predictions nothing may, with a pass per event too (a job whose termination at its
// predicted end is still to come has not outlived it, Config.PerEventPass).
func (r *Result) checkReservations() error {
	if !r.promises {
		return nil
	}
	for k := range r.Records {
		rec := &r.Records[k]
		if rec.Start >= 0 && (rec.Prediction != rec.RunTime || rec.Final != rec.RunTime || rec.Corrections > 0) {
			return nil // a prediction was off: reservations may move
		}
	}
	for k := range r.Records {
		rec := &r.Records[k]
		if rec.Start >= 0 && rec.FirstReservation >= 0 && rec.Start > rec.FirstReservation {
			return fmt.Errorf("sched: check: job %d started at %d, after its reservation at %d, though every prediction was exact",
				rec.Job.ID, rec.Start, rec.FirstReservation)
		}
	}
	return nil
}

// checkShares takes a starting job's shares from a and reports one that
// does not fit its demand or overdraws a node. A run of nodes (see share)
// is checked node by node. seen marks the nodes it took (stamp, unique
// to the call: one slice for every call, not a set per job).
func (m *machine) checkShares(a *avail, rec *Record, shs []share, seen []int, stamp int) error {
	n := needOf(rec.Job, rec.Size, m.countMemory)
	var cores, nodes int64
	for k := range shs {
		run := &shs[k]
		for x := int32(0); x <= int32(run.more); x++ {
			sh := run.one(x)
			i := int(sh.node)
			if i < 0 || i >= len(m.kind) || seen[i] == stamp {
				return fmt.Errorf("share on node %d: no such node, or twice", i)
			}
			seen[i] = stamp
			if n.excl && !m.idle(a, i) {
				return fmt.Errorf("asked for whole nodes, node %d is shared", i)
			}
			// The models a job accepts are of the GPUs it asks: a job of
			// none may run on any node (machine.lacks), and one that asks
			// for whole nodes holds their GPUs without asking them.
			if n.gpus > 0 && !acceptsModel(n.models, m.kinds[m.kind[i]].GPUModel) {
				return fmt.Errorf("GPU model %q on node %d not accepted", m.kinds[m.kind[i]].GPUModel, i)
			}
			if n.nodes > 0 && !n.excl && (sh.cores != n.cores || sh.mem != n.mem) {
				return fmt.Errorf("share on node %d of %d cores, %d memory; asked %d, %d", i, sh.cores, sh.mem, n.cores, n.mem)
			}
			m.apply(a, &sh, &n, -1)
			if a.cores[i] < 0 || a.mem[i] < 0 {
				return fmt.Errorf("node %d overdrawn: %d cores, %d memory free", i, a.cores[i], a.mem[i])
			}
			for g := m.gpuAt[i]; g < m.gpuAt[i+1]; g++ {
				if a.gpu[g] < 0 {
					return fmt.Errorf("node %d GPU %d overdrawn", i, g-m.gpuAt[i])
				}
			}
			if a.named != nil {
				over, found := "", false // the first by name, the same every run
				for name, v := range a.named[i] {
					if v < 0 && (!found || name < over) {
						over, found = name, true
					}
				}
				if found {
					return fmt.Errorf("node %d named resource %q overdrawn", i, over)
				}
			}
			cores += sh.cores
			nodes++
		}
	}
	switch {
	case n.nodes > 0 && nodes != n.nodes:
		return fmt.Errorf("on %d nodes, asked %d", nodes, n.nodes)
	case n.nodes == 0 && cores < n.cores:
		return fmt.Errorf("%d cores, asked %d", cores, n.cores)
	}
	return nil
}

// Use returns the share of the machine's cores, memory and GPUs that the
// jobs held over [from, to) (from ≥ to: from the first start to the last
// end), time-weighted: held resource-seconds over capacity × (to −
// from). On one pool only cores is given (processors), memory and gpus
// are 0; a machine without memory or GPUs gives 0 for them. A job holds
// what its shares took (a whole node for an exclusive one), not what it
// used.
func (r *Result) Use(from, to int64) (cores, memory, gpus float64) {
	if from >= to {
		from, to = int64(1<<62), int64(0)
		for k := range r.Records {
			if rec := &r.Records[k]; rec.Start >= 0 && rec.End >= 0 {
				from, to = min(from, rec.Start), max(to, rec.End)
			}
		}
		if from >= to {
			return 0, 0, 0
		}
	}
	var c, m, g float64
	for k := range r.Records {
		rec := &r.Records[k]
		if rec.Start < 0 || rec.End < 0 {
			continue
		}
		d := float64(max(0, min(rec.End, to)-max(rec.Start, from)))
		if d == 0 {
			continue
		}
		if r.machine == nil {
			c += float64(rec.Size) * d
			continue
		}
		if k < len(r.held) {
			h := &r.held[k]
			c += float64(h.cores) * d
			m += float64(h.mem) * d
			g += float64(h.gpus) / 1000 * d
		}
	}
	span := float64(to - from)
	if r.machine == nil {
		return c / (float64(r.machineSize) * span), 0, 0
	}
	var capC, capM, capG float64
	for i := range r.machine.kind {
		capC += float64(r.machine.cap.cores[i])
		capM += float64(r.machine.cap.mem[i])
	}
	capG = float64(len(r.machine.cap.gpu))
	ratio := func(x, y float64) float64 {
		if y == 0 {
			return 0
		}
		return x / (y * span)
	}
	return ratio(c, capC), ratio(m, capM), ratio(g, capG)
}

// held is what a job held on a machine of nodes, summed over its shares
// (cores, memory, thousandths of GPUs; Use), and where its shares are in
// the Result's arena (with Config.KeepShares; Check). It lives beside the
// records, not in them, so that a machine of one pool pays nothing.
type held struct {
	cores, mem, gpus int64
	at               int64
	n                int32
}

// sharesOf is record k's node shares (Config.KeepShares).
func (r *Result) sharesOf(k int) []share {
	if r.shares == nil || k >= len(r.held) || r.held[k].n == 0 {
		return nil
	}
	return r.shares.get(r.held[k].at, int(r.held[k].n))
}

// shareArena keeps the records' shares in blocks that never move (a
// growing slice would copy them all at each doubling): a job's shares are
// one run inside a block; a job with more shares than a block gets one of
// its own.
type shareArena struct {
	blocks [][]share
}

const shareBlock = 1 << 14

// add appends a job's shares and returns where they are.
func (a *shareArena) add(shs []share) int64 {
	n := len(a.blocks)
	if n == 0 || len(a.blocks[n-1])+len(shs) > cap(a.blocks[n-1]) {
		a.blocks = append(a.blocks, make([]share, 0, max(shareBlock, len(shs))))
		n++
	}
	b := &a.blocks[n-1]
	at := int64(n-1)<<32 | int64(len(*b))
	*b = append(*b, shs...)
	return at
}

// get returns the n shares at at.
func (a *shareArena) get(at int64, n int) []share {
	b := a.blocks[at>>32]
	i := int(at & (1<<32 - 1))
	return b[i : i+n]
}

// Shares returns the nodes record k's job ran on (indices into the
// machine's nodes, Config.Nodes kinds in order, each kind's Count nodes in
// a row) and what it held on each (cores, memory, thousandths of GPUs), on
// a machine of nodes run with Config.KeepShares; nil otherwise.
func (r *Result) Shares(k int) []NodeFree {
	shs := perNode(r.sharesOf(k))
	if len(shs) == 0 {
		return nil
	}
	out := make([]NodeFree, len(shs))
	for i, sh := range shs {
		out[i] = NodeFree{Node: int(sh.node), Kind: int(r.machine.kind[sh.node]), Cores: sh.cores, Memory: sh.mem,
			GPUs: sh.gpuThousandths()}
	}
	return out
}
