package sched

import (
	"errors"
	"fmt"

	"github.com/batchq/batchq/swf"
)

// Config describes one simulated scheduler. The zero value plus a machine
// size is the thesis's vanilla EASY: user estimates as predictions, FCFS
// backfilling order, no correction, one scheduling pass per timestamp
// after the instant's events (S1), the first running job that frees
// enough processors fixes the shadow (S2), stale predictions used as they
// are (S3), jobs built from SWF lines by the thesis's rules (S4–S6: jobs
// that are not sane are rejected and counted in Result.Rejected, missing
// estimates become the largest one), jobs run their logged run time (S9),
// bounded slowdown threshold 10 s; the averages cover the S7 set
// (Summary). The fields below say what each rule is and what changes it.
type Config struct {
	// MachineSize is the number of processors P (required; take it from
	// swf.Header.MachineSize and override as needed, e.g. 512 for CTC).
	MachineSize int64
	// Scheduler decides, at each scheduling pass, which waiting jobs start.
	// nil means EASYScheduler{} (EASY, FCFS backfilling). The built-ins are
	// EASYScheduler (also SJBF, SJF and LXF&W orders) and the schedulers
	// presets FCFS and Conservative set; any value implementing Scheduler
	// works.
	Scheduler Scheduler
	// Predictor gives each job's prediction p at arrival. nil means the
	// user estimate (p = e). Package sched/predict has the thesis's.
	Predictor RuntimePredictor
	// Corrector changes p of a running job still alive at start+p. nil means
	// no correction: an expired prediction is used as it is (S3), and EASY
	// and conservative backfilling then differ. EASY's holder keeps its
	// place at the head of the queue until the overrunning job ends (a
	// long overrun freezes the queue); conservative backfilling re-places
	// the spoiled reservation after those that still hold (the queue flows
	// around it). docs/decisions.md S3 gives the measured effect;
	// Summary.Overran counts such jobs.
	Corrector Corrector
	// CorrectionTarget multiplies the estimate the corrector jumps to and
	// grows from: 0 or 1 is e, 2 is the doubled estimate of X2+ (S16).
	CorrectionTarget int64
	// PerEventPass runs a scheduling pass after every event instead of once
	// per timestamp batch. Either way the events of one instant are
	// handled as terminations, prediction expiries, arrivals (by submit
	// time, then ID), At wake-ups, then the pass (S1). pyss passes per
	// event, predictsim per timestamp. A pass between two terminations
	// of one instant sees a job predicted to end then whose own
	// termination is still to come: it has not outlived its prediction
	// (S3 applies only to a job still running after the instant's
	// terminations), so the free-processor profile counts its processors
	// from now, and a job planned on them waits, reserved at now, for the
	// pass after that termination (Pass.Profile).
	PerEventPass bool
	// BoundedSlowdownThreshold is the τ of max(1, (w+r)/max(τ, r)); 0 means 10 s.
	BoundedSlowdownThreshold int64
	// MaxEstimate replaces missing user estimates (S6). 0 means the largest
	// estimate of every line given to the simulation (Load's and Submit's
	// so far), the lines rejected as not sane included; if no line has
	// one, e := r.
	MaxEstimate int64
	// ShadowTies adds to EASY's extra processors every running job whose
	// predicted end equals the shadow, not only the first one that frees
	// enough processors (S2; pyss and predictsim do this). The thesis's
	// rule, the default, stops at the first.
	ShadowTies bool
	// KillAtEstimate ends a job at start + estimate when it would run
	// longer, as production schedulers do (the SWF definition of field 9).
	// Killed jobs are counted in Summary.Killed and written with status 0.
	// A job is killed only at an estimate its user gave: a job without one
	// (field 9 ≤ 0, counted in Summary.NoEstimate) runs its full time,
	// planned with the estimate S6 filled in, which is the simulator's
	// guess, not a limit anyone set. The default runs every job for its
	// logged run time (S9): the archive logs already reflect their own
	// kills.
	//
	// The cut run time is the job's run time from its arrival on, for all
	// that may look at it: an oracle predictor (predict.Perfect, X2_perf)
	// predicts the run that will happen, not the logged one; a history
	// predictor learns it at termination, as a real scheduler would; the
	// accuracy of predictions (§3.4) is measured against it; and
	// Observers and Job.SWF see it in RunTime. A job cancelled before it
	// started is not counted as killed. With KillCheck the kill time
	// depends on the start, so the run is cut at the start instead.
	KillAtEstimate bool
	// KillCheck makes KillAtEstimate kill a job at the first multiple of
	// KillCheck seconds (from simulated time 0) at or after start +
	// estimate, as a production scheduler that checks time limits
	// periodically does (Slurm's slurmctld every 30 s): a job whose
	// estimate ends on a check is killed at it, one that ends on its own
	// before the check is not killed. The run time is then cut when the
	// job starts, so until then observers, an oracle predictor
	// (predict.Perfect) and the accuracy of predictions made while it
	// waits see the logged run time, not the cut one; a history
	// predictor still learns the cut run at termination. 0 (the
	// default) kills at start + estimate, cut at arrival; at most 2^40.
	KillCheck int64
	// Peer builds jobs from SWF lines the way a peer simulator does (see
	// Peer), so that schedules can be compared job by job. With PeerPyss
	// and PerEventPass it also handles each instant's events in pyss's
	// order (see Peer); WithPeer sets the peer's other options too.
	Peer Peer

	// Nodes makes the machine a set of nodes with cores, memory, GPUs and
	// named resources (swf.Node kinds, in order), on which each job's
	// swf.Demand is placed: shares of one shape on Demand.Nodes distinct
	// nodes, whole GPUs or a share of one GPU (thousandths: many jobs share
	// a GPU up to 1000), only GPU models the job accepts, whole nodes
	// (Exclusive; a job that asks no GPUs runs on a node of any model,
	// whole or not: its models are those of the GPUs it asks). nil is one
	// pool of MachineSize processors, the papers' machine, and nothing
	// below applies. MachineSize may then be 0: it becomes the cores of
	// all nodes (a value given must equal it). A job without a Demand asks
	// for Size() cores spread over as many nodes as it takes; a job whose
	// Demand gives its cores is sized as them,
	// Nodes × Cores, unless its processors are those cores per node split
	// among its nodes, rounded up (a log's 10 CPUs on 3 nodes stay 10):
	// Record.Size, counted under the rule size_from_demand (a GPU trace's
	// jobs, whose processors are GPUs, its CPU jobs' none). A job no node could ever
	// hold is rejected, counted as sanitize.FitsNoNode, with the resource
	// it lacks in Result.NoNode.
	//
	// The contract: EASY, its presets and FCFS start, reserve and backfill
	// over every resource. The holder's reservation is the first predicted
	// end after which enough nodes have room for its shares
	// (Pass.Earliest; jobs ending at that instant all count as ended); a
	// job may backfill if it fits now and ends by then, or leaves the
	// holder room at that time on any nodes (the extra processors of one
	// pool, §2.2, node by node). A machine of nodes whose jobs ask cores
	// alone schedules exactly as one pool with ShadowTies, job by job
	// (TestNodesSpreadEqualsPool). A user's Scheduler sees free resources
	// (Pass.Nodes) and demands (Job.Demand); Pass.Start places by
	// Placement, ErrNoFit if no node has room; Pass.Free, Shadow and
	// Profile count cores alone. Not with Peer: the peers have one pool.
	Nodes []swf.Node
	// Placement chooses the nodes of each job on a machine of Nodes: nil
	// is first fit (each share on the first node, in Nodes order, where it
	// fits), BestFit packs, or a user's own (ExamplePlacement). With
	// KeepShares, Result.Check verifies the schedule (no node overdrawn,
	// every demand met) and Result.Use gives the share of each resource
	// held.
	Placement Placement
	// CountMemory gives a job without a Demand the memory SWF records,
	// field 10 (requested, KB per processor) or else field 7 (used), in
	// MiB per core, on a machine of Nodes whose Memory is in MiB. Without
	// it, such a job asks no memory.
	CountMemory bool
	// KeepShares keeps every job's node shares in the Result, so that
	// Result.Check can verify them on a machine of Nodes. They cost 32
	// bytes a share (a job has one per node it runs on), which on a large
	// machine is most of a Result: off by default.
	KeepShares bool
	// SummaryOnly keeps no Record: Result.Records is empty, and each job's
	// outcome is folded into the Summary and the counts (Rejected,
	// Changed) once it has ended, then forgotten. Memory is then that of
	// the jobs to arrive, waiting or running, plus about 20 bytes per
	// completed job (S7's averages run in termination order over a
	// window known only at the end, so each job is kept encoded until
	// Finish). A job given to Load is not referenced once it has arrived
	// (or was rejected), so that a caller can Load a trace piece by piece
	// and reuse a piece once the clock has passed its submit times,
	// keeping O(queue) jobs (examples/simulate does). The Summary is the one the records
	// give, bit for bit (below 2^53 processor-seconds of utilization's
	// window, beyond which its last bits may differ). WriteSWF and
	// Utilization see no job, and Result.Check returns an error (there is
	// nothing to verify). Not with Nodes.
	SummaryOnly bool
}

// Validate reports an unusable configuration.
func (c Config) Validate() error {
	_, err := c.validate()
	return err
}

// validate is Validate that returns the machine of Nodes it built (nil on
// one pool), so that New builds it once: on a machine of 1,523 nodes the
// second build was 57% of a forecast's cost (sched/forecast simulates
// every question on a new Sim).
func (c Config) validate() (*machine, error) {
	var m *machine
	if len(c.Nodes) > 0 {
		if c.SummaryOnly {
			return nil, errors.New("sched: SummaryOnly with Nodes: Result.Use and Check need the records")
		}
		if c.Peer != PeerNone {
			return nil, errors.New("sched: Nodes with a Peer mode: the peers have one pool of processors")
		}
		if c.MachineSize < 0 {
			return nil, errors.New("sched: negative MachineSize")
		}
		var err error
		if m, err = c.nodeMachine(); err != nil {
			return nil, err
		}
	} else if c.MachineSize <= 0 {
		return nil, errors.New("sched: MachineSize must be positive")
	}
	if c.MachineSize > 1<<40 {
		return nil, fmt.Errorf("sched: MachineSize %d above 2^40", c.MachineSize)
	}
	if c.CorrectionTarget < 0 || c.BoundedSlowdownThreshold < 0 || c.MaxEstimate < 0 {
		return nil, errors.New("sched: negative CorrectionTarget, BoundedSlowdownThreshold or MaxEstimate")
	}
	if c.KillCheck < 0 || c.KillCheck > 1<<40 {
		return nil, fmt.Errorf("sched: KillCheck %d outside 0 to 2^40", c.KillCheck)
	}
	if c.Peer < PeerNone || c.Peer > PeerPredictsim {
		return nil, fmt.Errorf("sched: unknown peer %d", c.Peer)
	}
	if v, ok := c.Scheduler.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (c Config) bsldThreshold() int64 {
	if c.BoundedSlowdownThreshold == 0 {
		return 10
	}
	return c.BoundedSlowdownThreshold
}

// nodeMachine builds the machine of Nodes and checks MachineSize against
// its cores.
func (c Config) nodeMachine() (*machine, error) {
	m, total, err := newMachine(c.Nodes, c.Placement)
	if err != nil {
		return nil, err
	}
	if c.MachineSize != 0 && c.MachineSize != total {
		return nil, fmt.Errorf("sched: MachineSize %d, but the Nodes have %d cores", c.MachineSize, total)
	}
	if total > 1<<40 {
		return nil, fmt.Errorf("sched: the Nodes have %d cores, above 2^40", total)
	}
	return m, nil
}
