package sched

// jobsByID is Sim.byID: the waiting and running jobs by ID, for
// Pass.Job. A policy that names its jobs by ID (the Slurm policy) looks
// one up at every start and reservation, and the index gains a job at
// every arrival and loses one at every end: on SDSC-BLUE some 600k
// look-ups, 243k inserts and 243k deletes, which cost 140 M instructions
// in a map (a delete alone some 230). Archive logs number their jobs
// densely from 1, so IDs below denseJobIDs sit in a slice indexed by the
// ID and only the others in a map.
type jobsByID struct {
	dense []*Job
	other map[int64]*Job
}

// denseJobIDs bounds the slice: at most 8 bytes an ID below it (8 MiB),
// once an ID that high is seen; other IDs, negative ones included, go to
// the map.
const denseJobIDs = 1 << 20

func (x *jobsByID) get(id int64) *Job {
	if uint64(id) < uint64(len(x.dense)) {
		return x.dense[id]
	}
	if id >= 0 && id < denseJobIDs {
		return nil
	}
	return x.other[id]
}

func (x *jobsByID) put(j *Job) {
	if id := j.j.ID; id >= 0 && id < denseJobIDs {
		if id >= int64(len(x.dense)) {
			// Doubling, but never past denseJobIDs.
			n := int64(len(x.dense))
			x.dense = append(x.dense, make([]*Job, min(max(id+1-n, n), denseJobIDs-n))...)
		}
		x.dense[id] = j
		return
	}
	if x.other == nil {
		x.other = map[int64]*Job{}
	}
	x.other[j.j.ID] = j
}

func (x *jobsByID) del(id int64) {
	if uint64(id) < uint64(len(x.dense)) {
		x.dense[id] = nil
		return
	}
	delete(x.other, id)
}
