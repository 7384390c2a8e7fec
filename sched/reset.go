package sched

// Reset makes s a new simulation of cfg, the one New(cfg) returns, keeping
// the memory of the old one's jobs (their live states and records) for
// the jobs of the new one. A caller that runs many simulations one after
// another — sched/forecast runs one per question, a parameter sweep one
// per setting — allocates them once instead of at each: the live states
// were half the bytes sched/forecast's BenchmarkOnlineFlurry allocated,
// the records a fifth. On error (cfg invalid) s is unchanged.
//
// What the old simulation handed out must no longer be used: the Result
// of its Finish (its records are overwritten), the jobs and passes its
// observers and scheduler were shown.
func (s *Sim) Reset(cfg Config) error {
	if _, err := cfg.validate(); err != nil {
		return err
	}
	// The live states: the recycled ones and those still waiting or
	// running (each in one of the three); a job ended and not yet
	// recycled is left to the collector.
	spare := s.spare
	s.waitFCFS.Ascend(func(j *Job) bool { spare = append(spare, j); return true })
	s.run.Ascend(func(j *Job) bool { spare = append(spare, j); return true })
	// admit fills a record in place, trusting the capacity past its
	// length to be zero: all of it is cleared.
	recs := s.recs[:cap(s.recs)]
	clear(recs)
	ended, arr := s.ended[:0], s.arr[:cap(s.arr)]
	clear(arr)
	*s = Sim{}
	if err := s.init(cfg); err != nil {
		return err // (validated above)
	}
	// A live state from a machine of nodes keeps its node state for the
	// next, less the old machine's shares; on one pool it has none, as a
	// new one: Job.Demand reads it (sched/slurm's policies on a pool
	// too), and activate rewrites it only on nodes.
	for _, jb := range spare {
		switch {
		case jb.jobNodes == nil:
		case s.m == nil:
			jb.jobNodes = nil
		default:
			jb.alloc, jb.resAlloc = nil, nil
		}
	}
	s.spare, s.recs, s.ended, s.arr = spare, recs[:0], ended, arr[:0]
	return nil
}
