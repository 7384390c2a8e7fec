package slurm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunIndexTies: starts keep p.running in cmpEnd's order (end, then
// ID) once it is sorted, many jobs ending at the same second among them,
// and runIndex finds each running job there, as slices.Index does, as
// jobs end in any order (the index is found by a binary search on the
// end, the ties by ID).
func TestRunIndexTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 40))
	for range 300 {
		p := &Policy{endsOK: true}
		now := int64(100)
		var all []*jobRec
		for _, id := range rng.Perm(20) {
			now += rng.Int64N(3) // often the same second
			r := &jobRec{id: int64(id), limit: 200 - now + rng.Int64N(3)}
			p.onStart(r, now)
			all = append(all, r)
			if !slices.IsSortedFunc(p.running, cmpEnd) {
				t.Fatalf("start of job %d (end %d): running not in end, ID order", r.id, r.start+r.limit)
			}
		}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		for _, r := range all {
			for _, q := range p.running {
				if got, want := p.runIndex(q), slices.Index(p.running, q); got != want {
					t.Fatalf("job %d (end %d): runIndex %d, at %d", q.id, q.start+q.limit, got, want)
				}
			}
			i := p.runIndex(r)
			p.running = slices.Delete(p.running, i, i+1)
		}
	}
}
