package agent

import (
	"errors"
	"fmt"
	"math"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

// SchedMachine is a varq.Machine over a sched simulation: the jobs it
// submits get IDs counting up from a base above the trace's, so the
// caller's observer can tell them apart. Not safe for concurrent use.
type SchedMachine struct {
	Sim    *sched.Sim
	nextID int64
	first  int64
}

var _ varq.Machine = (*SchedMachine)(nil)

// NewSchedMachine wraps s; the jobs it submits are numbered from firstID
// on (choose it above every ID the simulation loads), from 1 if firstID
// is below: sched numbers a job below 1 itself (the rule id_made_up, as a
// log's "-1" lines), and its observers would see another number than
// Submit returned.
func NewSchedMachine(s *sched.Sim, firstID int64) *SchedMachine {
	firstID = max(firstID, 1)
	return &SchedMachine{Sim: s, nextID: firstID, first: firstID}
}

// Owns reports whether id is a job this machine submitted.
func (m *SchedMachine) Owns(id int64) bool { return id >= m.first && id < m.nextID }

// Now is the simulation clock.
func (m *SchedMachine) Now() int64 { return m.Sim.Now() }

// At wakes fn at t, before t's scheduling pass.
func (m *SchedMachine) At(t int64, fn func()) { m.Sim.At(t, func(int64) { fn() }) }

// Submit makes a job of nodes processors arrive now, asking walltime
// seconds (its user estimate) and running runtime seconds.
func (m *SchedMachine) Submit(nodes int, walltime, runtime int64) (int64, error) {
	id := m.nextID
	if id == math.MaxInt64 {
		return 0, errors.New("agent: job IDs exhausted (the next would pass 2^63−1)")
	}
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.ReqTime = id, m.Sim.Now(), runtime, walltime
	j.AllocProcs, j.ReqProcs = int64(nodes), int64(nodes)
	if !m.Sim.Submit(j) {
		return 0, m.rejected(&j)
	}
	m.nextID++
	return id, nil
}

// rejected says why the simulator refused j: the sane-job predicate on
// the machine's size (the idle processors plus those the running jobs
// hold), else the one other reason, an ID the simulation already holds.
func (m *SchedMachine) rejected(j *swf.Job) error {
	p := m.Sim.Free()
	for _, r := range m.Sim.Queue().Running {
		p += r.Size
	}
	if r := sanitize.Check(j, p); r != sanitize.SaneJob {
		return fmt.Errorf("agent: simulator rejected job %d (%d processors, walltime %d s, runtime %d s) on a %d-processor machine: %v",
			j.ID, j.AllocProcs, j.ReqTime, j.RunTime, p, r)
	}
	return fmt.Errorf("agent: job ID %d is already held by the simulation (a loaded job still to arrive, waiting or running has it): "+
		"NewSchedMachine's firstID must be above every ID the simulation loads", j.ID)
}

// Cancel removes the queued job id or kills it if it runs.
func (m *SchedMachine) Cancel(id int64) error {
	if !m.Sim.Cancel(id) {
		return fmt.Errorf("agent: no job %d waits or runs", id)
	}
	return nil
}
