package varq

import "fmt"

// Request is one virtual advance reservation: Nodes processors for
// Walltime seconds, running from the absolute time Start (the thesis's D,
// "startDeadline") on.
type Request struct {
	Nodes    int
	Walltime int64
	Start    int64
}

// Validate reports a request that cannot be planned: Nodes ≤ 0, Walltime
// outside (0, 2^40 s] or Start outside ±2^40 s.
func (r Request) Validate() error {
	switch {
	case r.Nodes <= 0:
		return fmt.Errorf("varq: request needs Nodes > 0, got %d", r.Nodes)
	case r.Walltime <= 0 || r.Walltime > maxTime:
		return fmt.Errorf("varq: request needs Walltime in (0, 2^40 s], got %d", r.Walltime)
	case r.Start < -maxTime || r.Start > maxTime:
		return fmt.Errorf("varq: request Start %d outside ±2^40 s", r.Start)
	}
	return nil
}

// Padded returns the walltime to ask for when submitting at time submit:
// W + (D − submit), enough to hold the nodes from any start in
// [submit, D] until D + W.
func (r Request) Padded(submit int64) int64 {
	return r.Walltime + (r.Start - submit)
}
