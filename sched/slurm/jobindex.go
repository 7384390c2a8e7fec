package slurm

// jobIndex finds the record of a waiting or running job by its ID. Job
// IDs are most often small and dense (an archive log numbers its jobs
// from 1), so those below denseIDs sit in a slice, indexed by the ID, and
// only the others in a map: a map's insert, look-up and delete at every
// submission and end cost more than the slice's.
type jobIndex struct {
	dense []*jobRec
	other map[int64]*jobRec
	n     int
}

// denseIDs bounds the slice: at most 8 bytes an ID below it (8 MiB), once
// an ID that high is seen; other IDs, negative ones included, go to the map.
const denseIDs = 1 << 20

func (x *jobIndex) get(id int64) (*jobRec, bool) {
	if uint64(id) < uint64(len(x.dense)) {
		r := x.dense[id]
		return r, r != nil
	}
	if id >= 0 && id < denseIDs {
		return nil, false
	}
	r, ok := x.other[id]
	return r, ok
}

// put adds r under r.id, which has no record.
func (x *jobIndex) put(r *jobRec) {
	x.n++
	if id := r.id; id >= 0 && id < denseIDs {
		if id >= int64(len(x.dense)) {
			// Doubling, but never past denseIDs: the slice stays within
			// 8 bytes an ID below it.
			n := int64(len(x.dense))
			x.dense = append(x.dense, make([]*jobRec, min(max(id+1-n, n), denseIDs-n))...)
		}
		x.dense[id] = r
		return
	}
	if x.other == nil {
		x.other = map[int64]*jobRec{}
	}
	x.other[r.id] = r
}

// del removes the record of id, which has one.
func (x *jobIndex) del(id int64) {
	x.n--
	if id >= 0 && id < denseIDs {
		x.dense[id] = nil
		return
	}
	delete(x.other, id)
}

func (x *jobIndex) len() int { return x.n }

func (x *jobIndex) clear() {
	clear(x.dense)
	clear(x.other)
	x.n = 0
}
