package varq

// Cost returns the allocation the plan commits to, in node-seconds
// (processors × seconds when the machine counts processors): required is
// the work the user asked for, N·W, and worstExtra the most the padding
// can cost on top, N·(D − s), paid when the job starts the moment it is
// submitted, the only overhead VARQ reports in advance (thesis Ch. 5,
// spec §3). Both are zero for NOT_POSSIBLE.
func (p Plan) Cost() (required, worstExtra int64) {
	if !p.Possible {
		return 0, 0
	}
	return int64(p.Nodes) * p.Request.Walltime, int64(p.Nodes) * (p.Start - p.Submit)
}

// ActualExtra is the overhead actually paid when the submitted job started
// at start: N·(D − start) while it spins until D. A job starting after D
// missed the reservation and spins for nothing, so its extra is 0; what a
// missed job is charged is the caller's policy (Q17).
func (p Plan) ActualExtra(start int64) int64 {
	if !p.Possible || start > p.Start {
		return 0
	}
	return int64(p.Nodes) * (p.Start - start)
}
