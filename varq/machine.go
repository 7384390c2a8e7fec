package varq

// Machine is the batch machine a simulation agent drives, seen from
// outside: a clock, timers, and the submit and cancel calls a user has.
// Simulations provide it with an adapter over a sched simulation; the
// adapter reports job starts to the agent (SimAgent.Started).
type Machine interface {
	// Now is the machine's clock.
	Now() int64
	// At calls fn when the clock reaches t ≥ Now().
	At(t int64, fn func())
	// Submit queues a job now: nodes processors, walltime seconds
	// requested (what the scheduler plans with), running runtime seconds
	// once started unless cancelled earlier.
	Submit(nodes int, walltime, runtime int64) (id int64, err error)
	// Cancel removes a queued job, or ends a running one now.
	Cancel(id int64) error
}
