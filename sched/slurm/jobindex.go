package slurm

import "github.com/batchq/batchq/internal/denseid"

// jobIndex finds the record of a waiting or running job by its ID (in a
// slice for archive logs' dense IDs: a map's insert, look-up and delete at
// every submission and end cost more), and counts them.
type jobIndex struct {
	x denseid.Index[*jobRec]
	n int
}

func (x *jobIndex) get(id int64) (*jobRec, bool) { return x.x.Get(id) }

// put adds r under r.id, which has no record.
func (x *jobIndex) put(r *jobRec) {
	x.n++
	x.x.Put(r.id, r)
}

// del removes the record of id, which has one.
func (x *jobIndex) del(id int64) {
	x.n--
	x.x.Del(id)
}

func (x *jobIndex) len() int { return x.n }

func (x *jobIndex) clear() {
	x.x.Clear()
	x.n = 0
}
