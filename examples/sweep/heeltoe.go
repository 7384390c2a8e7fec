package main

import (
	"cmp"
	"slices"

	"github.com/batchq/batchq/swf"
)

// HeelToe is Tsafrir's measure of the heel-and-toe dynamics (thesis §3.4,
// Table 4.11). The head is the waiting job that holds the reservation; its
// real shadow S_h is the time it would start if every estimate suddenly
// became exact: walk the running jobs in actual termination order until
// enough processors are free. A backfill that moves S_h later is wild, and
// a head that suffers at least one wild backfill is stalled.
type HeelToe struct {
	// Heads counts the jobs that got a reservation and started as the
	// head (a cancelled head is not counted).
	Heads int `json:"heads"`
	// Stalled counts the heads pushed back by at least one wild backfill.
	Stalled int `json:"stalled"`
	// WildPushes sums the wild backfills over the stalled heads (the
	// thesis's thieves: their mean per stalled head is thieves#).
	WildPushes int `json:"wild_pushes"`
	// StallSeconds sums, over the stalled heads, the actual start minus
	// the first S_h computed when the job became the head.
	StallSeconds float64 `json:"stall_s"`
}

// heelToeObserver computes HeelToe as a sched.Observer. It keeps its own
// copy of the running set (size and actual end of each job), because the
// simulator's view orders running jobs by predicted end.
type heelToeObserver struct {
	free    int64
	running []runningJob // by actual end, then ID

	head     int64 // ID of the job holding the reservation; valid if hasHead
	hasHead  bool
	headSize int64
	firstSh  int64
	wild     int

	m HeelToe
}

type runningJob struct {
	id, size, end int64
}

func newHeelToeObserver(machine int64) *heelToeObserver {
	return &heelToeObserver{free: machine}
}

// realShadow is the earliest time n processors are free if every running
// job ends at its actual end.
func (h *heelToeObserver) realShadow(now, n int64) int64 {
	free := h.free
	if free >= n {
		return now
	}
	for _, r := range h.running {
		free += r.size
		if free >= n {
			return max(now, r.end)
		}
	}
	return now // the machine can never hold n: not a sane job
}

func (h *heelToeObserver) OnSubmit(int64, *swf.Job) {}

func (h *heelToeObserver) OnReservation(now int64, j *swf.Job, _ int64) {
	if h.hasHead && h.head == j.ID {
		return // the same head, its reservation moved
	}
	// A new head. Under FCFS order the previous head started first; under
	// another queue order it may have been overtaken, and its pushes so
	// far still count.
	h.closeHead(-1)
	h.head, h.hasHead, h.headSize, h.wild = j.ID, true, j.Size(), 0
	h.firstSh = h.realShadow(now, h.headSize)
	h.m.Heads++
}

func (h *heelToeObserver) OnStart(now int64, j *swf.Job, backfilled bool) {
	isHead := h.hasHead && j.ID == h.head
	var before int64
	if backfilled && h.hasHead && !isHead {
		before = h.realShadow(now, h.headSize)
	}
	// The run as simulated: with sched.Config.KillAtEstimate the simulator
	// has cut a killed job's run time to its estimate already, and it
	// never cuts a job whose estimate S6 filled in.
	run := j.RunTime
	r := runningJob{id: j.ID, size: j.Size(), end: now + run}
	i, _ := slices.BinarySearchFunc(h.running, r, func(a, b runningJob) int {
		if a.end != b.end {
			return cmp.Compare(a.end, b.end)
		}
		return cmp.Compare(a.id, b.id)
	})
	h.running = slices.Insert(h.running, i, r)
	h.free -= r.size
	if backfilled && h.hasHead && !isHead && h.realShadow(now, h.headSize) > before {
		h.wild++
	}
	if isHead {
		h.closeHead(now)
	}
}

func (h *heelToeObserver) OnEnd(_ int64, j *swf.Job, cancelled bool) {
	if i := slices.IndexFunc(h.running, func(r runningJob) bool { return r.id == j.ID }); i >= 0 {
		h.free += h.running[i].size
		h.running = slices.Delete(h.running, i, i+1)
		return
	}
	if cancelled && h.hasHead && j.ID == h.head {
		h.closeHead(-1)
	}
}

// closeHead ends the current head's turn; start < 0 means it did not
// start as the head (cancelled, or overtaken under a queue order other
// than FCFS) and is not counted, so that every stalled head has a stall.
func (h *heelToeObserver) closeHead(start int64) {
	if !h.hasHead {
		return
	}
	h.hasHead = false
	if start < 0 {
		h.m.Heads--
		return
	}
	if h.wild > 0 {
		h.m.Stalled++
		h.m.WildPushes += h.wild
		h.m.StallSeconds += float64(start - h.firstSh)
	}
}
