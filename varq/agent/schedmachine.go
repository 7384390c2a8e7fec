package agent

import (
	"fmt"

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
// on (choose it above every ID the simulation loads).
func NewSchedMachine(s *sched.Sim, firstID int64) *SchedMachine {
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
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.ReqTime = id, m.Sim.Now(), runtime, walltime
	j.AllocProcs, j.ReqProcs = int64(nodes), int64(nodes)
	if !m.Sim.Submit(j) {
		return 0, fmt.Errorf("agent: simulator rejected a %d-processor job", nodes)
	}
	m.nextID++
	return id, nil
}

// Cancel removes the queued job id or kills it if it runs.
func (m *SchedMachine) Cancel(id int64) error {
	if !m.Sim.Cancel(id) {
		return fmt.Errorf("agent: no job %d waits or runs", id)
	}
	return nil
}
