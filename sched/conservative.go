package sched

func (s *Sim) scheduleConservative() {}
func (s *Sim) reserveNew(*job)       {}

type profile struct{}
