// Package varqtest provides a fake batch machine for testing VARQ and
// CO-VARQ agents without a scheduler simulation: jobs start after a delay
// the test chooses, never wait for each other, and record their occupancy.
// To start: a FakeMachine with a Delay, handed to the agent as its
// varq.Machine; Run (or RunUntil) plays the events, and Jobs holds what each
// job did (see the example).
package varqtest

import (
	"container/heap"
	"fmt"
)

// Job is one job submitted to a FakeMachine.
type Job struct {
	Nodes             int
	Walltime, Runtime int64
	Submit, Start     int64
	End               int64 // when it left the machine, if Ended
	Started, Ended    bool
	Cancelled         bool // removed while queued
}

// Occupancy is the node-seconds the job held the machine.
func (j *Job) Occupancy() int64 {
	if !j.Started || !j.Ended {
		return 0
	}
	return int64(j.Nodes) * (j.End - j.Start)
}

// FakeMachine implements varq.Machine. Delay gives each job's queue wait
// (a negative wait: it never starts); OnStart, if set, is told of every
// start. The zero value starts every job at once.
type FakeMachine struct {
	Delay   func(nodes int, walltime int64) int64
	OnStart func(id int64, t int64)
	Jobs    []*Job

	now    int64
	seq    int
	events events
}

// Now is the fake clock.
func (m *FakeMachine) Now() int64 { return m.now }

// At schedules fn at t; times in the past are a test bug and panic.
func (m *FakeMachine) At(t int64, fn func()) {
	if t < m.now {
		panic(fmt.Sprintf("varqtest: At(%d) in the past (now %d)", t, m.now))
	}
	m.seq++
	heap.Push(&m.events, event{t, m.seq, fn})
}

// Submit queues a job; it starts after Delay and ends after
// min(runtime, walltime) unless cancelled.
func (m *FakeMachine) Submit(nodes int, walltime, runtime int64) (int64, error) {
	if nodes <= 0 || walltime <= 0 {
		return 0, fmt.Errorf("varqtest: bad job %d nodes × %d s", nodes, walltime)
	}
	j := &Job{Nodes: nodes, Walltime: walltime, Runtime: runtime, Submit: m.now}
	id := int64(len(m.Jobs))
	m.Jobs = append(m.Jobs, j)
	var d int64
	if m.Delay != nil {
		d = m.Delay(nodes, walltime)
	}
	if d < 0 {
		return id, nil
	}
	m.At(m.now+d, func() {
		if j.Cancelled {
			return
		}
		j.Started, j.Start = true, m.now
		m.At(m.now+min(runtime, walltime), func() { j.end(m.now) })
		if m.OnStart != nil {
			m.OnStart(id, m.now)
		}
	})
	return id, nil
}

func (j *Job) end(t int64) {
	if !j.Ended {
		j.Ended, j.End = true, t
	}
}

// Cancel removes a queued job or ends a running one; cancelling a job
// that already ended is an error, as on a real machine.
func (m *FakeMachine) Cancel(id int64) error {
	if id < 0 || id >= int64(len(m.Jobs)) {
		return fmt.Errorf("varqtest: no job %d", id)
	}
	j := m.Jobs[id]
	switch {
	case j.Ended || j.Cancelled:
		return fmt.Errorf("varqtest: job %d already gone", id)
	case j.Started:
		j.end(m.now)
	default:
		j.Cancelled = true
	}
	return nil
}

// RunUntil processes the events up to and including time t.
func (m *FakeMachine) RunUntil(t int64) {
	for m.events.Len() > 0 && m.events[0].t <= t {
		e := heap.Pop(&m.events).(event)
		m.now = e.t
		e.fn()
	}
	m.now = max(m.now, t)
}

// Run processes every event.
func (m *FakeMachine) Run() {
	for m.events.Len() > 0 {
		e := heap.Pop(&m.events).(event)
		m.now = e.t
		e.fn()
	}
}

type event struct {
	t   int64
	seq int
	fn  func()
}

type events []event

func (h events) Len() int { return len(h) }
func (h events) Less(i, j int) bool {
	return h[i].t < h[j].t || h[i].t == h[j].t && h[i].seq < h[j].seq
}
func (h events) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *events) Push(x any)   { *h = append(*h, x.(event)) }
func (h *events) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
