package forecast

import (
	"cmp"
	"slices"
)

// drainExcess fits the running jobs of a pool, f.jobs[:running], into
// machine processors when they hold more (a log's overlapping records:
// LANL-CM5's running jobs hold more than its 1,024 processors at 41% of
// the questions scored, examples/forecast's README). The excess cannot
// be real, so it is taken to be the first processors to free: the running
// jobs that end first (by the run times the simulation plays; ties in
// Running's order, the later first) are shrunk, or left out of f.jobs
// when all they hold is excess. Growing the pool instead, as this package once did, let the
// waiting jobs run together beyond the machine as soon as the first
// running job ended. It reports whether anything was taken.
func (f *Forecaster) drainExcess(running int, machine int64) bool {
	if !f.overMachine(running, machine) {
		return false
	}
	// Keep the processors of the jobs that end last.
	f.order = f.order[:0]
	for i := range running {
		f.order = append(f.order, i)
	}
	slices.SortFunc(f.order, func(a, b int) int {
		return cmp.Or(cmp.Compare(f.jobs[b].RunTime, f.jobs[a].RunTime), cmp.Compare(a, b))
	})
	room := machine
	for _, i := range f.order {
		j := &f.jobs[i]
		keep := min(j.AllocProcs, room)
		room -= keep
		j.AllocProcs, j.ReqProcs = keep, keep // 0: left out below
	}
	kept := f.jobs[:0]
	for i := range f.jobs {
		if i >= running || f.jobs[i].AllocProcs > 0 {
			kept = append(kept, f.jobs[i]) // (IDs unchanged: starts are indexed by them)
		}
	}
	f.jobs = kept
	return true
}

// overMachine reports whether the running jobs f.jobs[:running] hold more
// than machine processors together.
func (f *Forecaster) overMachine(running int, machine int64) bool {
	room := machine
	for i := range running {
		if f.jobs[i].AllocProcs > room {
			return true
		}
		room -= f.jobs[i].AllocProcs
	}
	return false
}
