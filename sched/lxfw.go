package sched

import "slices"

// LXF&W (Ch.3 §3.10, A31): priority (w+e)/e + 0.02·w with w and e in hours,
// recomputed at every pass. This policy scans and sorts the whole queue on
// every pass, as its definition requires.

func (s *Sim) computePriorities() {
	s.waitFCFS.Ascend(func(j *job) bool {
		w := float64(s.now-j.j.Submit) / 3600
		e := float64(max(j.e, 1)) / 3600
		j.prio = (w+e)/e + 0.02*w
		return true
	})
}

// ascendPriority visits waiting jobs by descending priority (ties by arrival).
func (s *Sim) ascendPriority(visit func(*job) bool) {
	var all []*job
	s.waitFCFS.Ascend(func(j *job) bool { all = append(all, j); return true })
	slices.SortStableFunc(all, func(a, b *job) int {
		switch {
		case a.prio > b.prio:
			return -1
		case a.prio < b.prio:
			return 1
		}
		return 0
	})
	for _, j := range all {
		if !visit(j) {
			return
		}
	}
}
