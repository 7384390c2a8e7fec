package ibl

import "testing"

// unmix inverts splitmix64's mix (priority's with seed 0): the key whose
// hash is z.
func unmix(z uint64) uint64 {
	unshift := func(y uint64, k uint) uint64 {
		x := y
		for range 64/k + 1 {
			x = y ^ x>>k
		}
		return x
	}
	inverse := func(a uint64) uint64 { // of an odd a, mod 2^64 (Newton)
		v := a
		for range 6 {
			v *= 2 - a*v
		}
		return v
	}
	z = unshift(z, 31)
	z *= inverse(0x94d049bb133111eb)
	z = unshift(z, 27)
	z *= inverse(0xbf58476d1ce4e5b9)
	return unshift(z, 30)
}

// depth is the list's tree's height.
func (l *waitList) depth() int {
	type at struct {
		x int32
		d int
	}
	most, stack := 0, []at{{l.root, 1}}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.x == 0 {
			continue
		}
		most = max(most, a.d)
		stack = append(stack, at{l.nodes[a.x].l, a.d + 1}, at{l.nodes[a.x].r, a.d + 1})
	}
	return most
}

// TestWaitListChosenIDs puts jobs whose numbers were chosen so that the
// hash without a seed rises with the key: without the list's seed the
// treap is a list of n levels (each put O(n)); with it, a few times log n.
func TestWaitListChosenIDs(t *testing.T) {
	const n = 4096
	jobs := make([]*tracked, n)
	for i := range jobs {
		submit := int64(i)
		id := int64(unmix(uint64(i+1)<<40) ^ uint64(submit)*0x9e3779b97f4a7c15)
		jobs[i] = &tracked{Job: Job{ID: id, Submit: submit, Cores: 1, ReqTime: 60}}
		if p := priority(submit, id, 0); p != uint64(i+1)<<40 {
			t.Fatalf("job %d: priority %#x, want %#x (unmix is wrong)", i, p, uint64(i+1)<<40)
		}
	}
	unseeded := &waitList{nodes: []wnode{{}}} // (seed 0: the mix alone)
	var seeded waitList
	for _, j := range jobs {
		unseeded.put(j)
		seeded.put(j)
	}
	if d := unseeded.depth(); d != n {
		t.Fatalf("the chosen numbers without a seed: depth %d, want %d (the attack this test is about)", d, n)
	}
	t.Logf("%d jobs of chosen numbers: depth %d without the seed, %d with it", n, unseeded.depth(), seeded.depth())
	if d := seeded.depth(); d > 60 {
		t.Errorf("the chosen numbers with the list's seed: depth %d for %d jobs, want a few times log2 n (12)", d, n)
	}
}
