// Package denseid indexes values by an int64 ID. Archive logs number
// their jobs (and users) densely from 1, so IDs in [0, Limit) sit in a
// slice indexed by the ID and only the others in a map: a map's insert,
// look-up and delete at every arrival and end cost several times a
// slice's (sched's Pass.Job index: 140 M instructions of the Slurm
// policy's SDSC-BLUE run in a map).
package denseid

// Limit bounds an Index's slice: at most 8 bytes an ID below it (8 MiB
// for pointers), once an ID that high is seen; other IDs, negative ones
// included, go to the map.
const Limit = 1 << 20

// Index maps IDs to values of a comparable type whose zero value means
// "none" (a nil pointer). The zero Index is empty and ready.
type Index[T comparable] struct {
	dense []T
	other map[int64]T
}

// Get returns id's value and whether it has one.
func (x *Index[T]) Get(id int64) (T, bool) {
	var none T
	if uint64(id) < uint64(len(x.dense)) {
		v := x.dense[id]
		return v, v != none
	}
	if id >= 0 && id < Limit {
		return none, false
	}
	v, ok := x.other[id]
	return v, ok
}

// Put sets id's value (not the zero value).
func (x *Index[T]) Put(id int64, v T) {
	if uint64(id) < uint64(len(x.dense)) { // (the common case, small enough to inline)
		x.dense[id] = v
		return
	}
	x.putSlow(id, v)
}

// putSlow is Put for an ID past the slice: the slice grows to hold it, or
// the map takes it.
func (x *Index[T]) putSlow(id int64, v T) {
	if id >= 0 && id < Limit {
		x.dense = Grow(x.dense, id, Limit)
		x.dense[id] = v
		return
	}
	if x.other == nil {
		x.other = map[int64]T{}
	}
	x.other[id] = v
}

// Del removes id's value, if any.
func (x *Index[T]) Del(id int64) {
	if uint64(id) < uint64(len(x.dense)) {
		var none T
		x.dense[id] = none
		return
	}
	delete(x.other, id)
}

// Clear removes every value, keeping the slice's memory.
func (x *Index[T]) Clear() {
	clear(x.dense)
	clear(x.other)
}

// Grow returns s long enough to index i (0 ≤ i < limit): itself if it
// is, else extended with zero values, doubling but never past limit, so
// that a slice indexed by IDs stays within limit entries.
func Grow[T any](s []T, i, limit int64) []T {
	if n := int64(len(s)); i >= n {
		s = append(s, make([]T, min(max(i+1-n, n), limit-n))...)
	}
	return s
}
