package slurm

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// refPriority is priority written out as priority/multifactor states it,
// with none of the calculation's shortcuts: every factor in [0, 1] (Fair
// Tree's from a full walk of the tree, not rerank or the table by rank),
// times its weight, summed in Slurm's order.
func refPriority(rt *rapid.T, p *Policy, r *jobRec, now int64) int64 {
	c := &p.cfg
	var age, assocF, fs float64
	if c.WeightAge > 0 {
		if diff := max(now-r.submit, 0); diff < p.maxAge {
			age = float64(diff) / float64(p.maxAge)
		} else {
			age = 1
		}
	}
	if c.WeightFairshare > 0 {
		if c.ClassicFairshare {
			fs = p.tree.classicFactor(r.assoc)
		} else {
			t := p.tree
			t.reorder()
			// The siblings' order is that of the keys alone (what lets a
			// calculation leave it to the first that reads a factor).
			for i := range t.a {
				if kids := t.a[i].children; !slices.IsSortedFunc(kids, func(x, y int) int {
					if t.before(x, y) {
						return -1
					}
					return 1
				}) {
					rt.Fatalf("association %d's children %v: not in _cmp_level_fs's order", i, kids)
				}
			}
			t.allStale = true
			t.fairTree()
			fs = float64(t.ft[r.assoc].rank) / float64(t.users)
		}
	}
	if c.WeightAssoc > 0 && p.tree.maxPrio > 0 {
		assocF = float64(p.tree.a[r.assoc].prio) / float64(p.tree.maxPrio)
	}
	prio := age*float64(c.WeightAge) + assocF*float64(c.WeightAssoc) + fs*float64(c.WeightFairshare) + r.jsW + r.partW + r.qosW
	if prio < 1 {
		prio = 1
	}
	return min(int64(prio), 1<<32-1)
}

// TestPriorityAsReference checks the calculation's priorities (the table
// of Fair Tree's weighted factors by rank, the inlined common case, the
// siblings' order left to the first read) against refPriority, bit for
// bit, on random sites: both fair-share algorithms, weights 0, odd or
// near 2^32 (sums that round), an assoc factor, QOS, partitions, a tree
// with Fairshare=parent and initial usage, and users the tree gains as
// jobs arrive. At every submission each waiting job's priority is
// computed both ways.
func TestPriorityAsReference(t *testing.T) {
	// 55 and 99: rank/users×w and rank×w/users truncate apart for some
	// of the users' counts drawn (1/u·55 for u = 11 is not 5).
	weight := rapid.SampledFrom([]int64{0, 0, 1, 3, 55, 99, 1000, 65537, 999983, 1<<32 - 1})
	rapid.Check(t, func(rt *rapid.T) {
		site := Config{
			WeightAge: weight.Draw(rt, "wage"), WeightFairshare: weight.Draw(rt, "wfs"), WeightJobSize: weight.Draw(rt, "wjs"),
			WeightPartition: weight.Draw(rt, "wpart"), WeightQOS: weight.Draw(rt, "wqos"), WeightAssoc: weight.Draw(rt, "wassoc"),
			MaxAge:        rapid.SampledFrom([]int64{0, 1, 97, 3600}).Draw(rt, "maxage"),
			DecayHalfLife: rapid.SampledFrom([]int64{-1, 0, 60, 7200}).Draw(rt, "hl"),
			CalcPeriod:    rapid.SampledFrom([]int64{0, 1, 30, 97}).Draw(rt, "calc"),
			FavorSmall:    rapid.Bool().Draw(rt, "small"), ClassicFairshare: rapid.Bool().Draw(rt, "classic"),
			QOS:            map[string]int64{"normal": 0, "high": rapid.Int64Range(0, 7).Draw(rt, "qos")},
			QOSNames:       map[int64]string{1: "high"},
			PartitionNames: map[int64]string{0: "p0", 1: "p1"},
			AccountNames:   map[int64]string{1: "a", 2: "b"},
		}
		shares := rapid.SampledFrom([]int64{-1, 0, 1, 3})
		if rapid.Bool().Draw(rt, "tree") {
			bParent := rapid.SampledFrom([]string{"", "a"}).Draw(rt, "b's parent")
			site.Associations = []Association{
				{Account: "a", Shares: max(shares.Draw(rt, "sa"), 0), Priority: rapid.Int64Range(0, 9).Draw(rt, "pa")},
				{Account: "b", Parent: bParent, Shares: shares.Draw(rt, "sb"), Priority: rapid.Int64Range(0, 9).Draw(rt, "pb")},
			}
			for u := range rapid.IntRange(1, 4).Draw(rt, "users") {
				site.Associations = append(site.Associations, Association{
					Account: rapid.SampledFrom([]string{"a", "b"}).Draw(rt, "account"), User: string(rune('a' + u)),
					Shares: shares.Draw(rt, "su"), Priority: rapid.Int64Range(0, 9).Draw(rt, "pu"),
					RawUsage: float64(rapid.SampledFrom([]int64{0, 0, 100, 100, 12345}).Draw(rt, "usage")),
				})
			}
		}
		for i := range rapid.IntRange(0, 2).Draw(rt, "partitions") {
			site.Partitions = append(site.Partitions, Partition{Name: []string{"p0", "p1"}[i], Default: i == 0,
				PriorityJobFactor: rapid.Int64Range(0, 5).Draw(rt, "jf"), PriorityTier: rapid.Int64Range(0, 1).Draw(rt, "tier")})
		}
		var jobs []swf.Job
		at := int64(0)
		for i := range rapid.IntRange(1, 40).Draw(rt, "jobs") {
			at += rapid.SampledFrom([]int64{0, 1, 7, 30, 61, 400}).Draw(rt, "gap")
			j := swf.NewJob()
			run := rapid.Int64Range(0, 2000).Draw(rt, "run")
			j.ID, j.Submit, j.RunTime, j.ReqTime = int64(i+1), at, run, run+rapid.Int64Range(0, 100).Draw(rt, "slack")
			j.AllocProcs = rapid.Int64Range(1, 16).Draw(rt, "size")
			j.ReqProcs = j.AllocProcs
			j.User, j.Group = rapid.Int64Range(1, 12).Draw(rt, "user"), rapid.Int64Range(-1, 2).Draw(rt, "group")
			j.Queue, j.Partition = rapid.Int64Range(-1, 1).Draw(rt, "queue"), rapid.Int64Range(-1, 1).Draw(rt, "qosnum")
			jobs = append(jobs, j)
		}
		site.UserNames = map[int64]string{1: "a", 2: "b", 3: "c", 4: "d"}
		p, err := New(site, sched.Config{MachineSize: 16})
		if err != nil {
			rt.Fatal(err)
		}
		obs := sched.Hooks{Submit: func(now int64, _ *swf.Job) {
			for _, r := range slices.Clone(p.queue) {
				if r.running || r.gone {
					continue
				}
				got := p.priority(r, now)
				if want := refPriority(rt, p, r, now); got != want {
					rt.Fatalf("t=%d job %d: priority %d, the reference %d", now, r.id, got, want)
				}
				// The table by rank, bit for bit: a product rounded
				// otherwise shows in the sum only when it truncates apart.
				if tr := p.tree; tr.fsByRank != nil && site.WeightFairshare > 0 && !site.ClassicFairshare {
					for rank, v := range tr.fsByRank {
						if want := float64(rank) / float64(tr.users) * float64(site.WeightFairshare); v != want {
							rt.Fatalf("Fair Tree's table: rank %d of %d users, weight %d: %v, want %v", rank, tr.users, site.WeightFairshare, v, want)
						}
					}
				}
			}
		}}
		if _, err := p.Run(context.Background(), jobs, obs); err != nil {
			rt.Fatal(err)
		}
	})
}

// TestSortNearly: sortNearly, within its budget, gives the queue a general
// sort gives (less is a total order on jobs of distinct IDs); past it, it
// stops, leaving a permutation, having moved at most the budget and
// scanned one insertion more; a reversed queue, the worst a calculation
// can do, stops it after O(budget) work, not O(n²).
func TestSortNearly(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(0, 60).Draw(rt, "n")
		q := make([]*jobRec, n)
		for i := range q {
			q[i] = &jobRec{id: int64(i), tier: rapid.Int64Range(0, 1).Draw(rt, "tier"), prio: rapid.Int64Range(0, 5).Draw(rt, "prio"),
				submit: rapid.Int64Range(0, 3).Draw(rt, "submit")}
		}
		want := slices.Clone(q)
		slices.SortFunc(want, less)
		// Start from the order, a few adjacent swaps away, or anywhere.
		got := slices.Clone(want)
		switch rapid.IntRange(0, 2).Draw(rt, "start") {
		case 0:
			for range rapid.IntRange(0, n).Draw(rt, "swaps") {
				if n > 1 {
					k := rapid.IntRange(0, n-2).Draw(rt, "at")
					got[k], got[k+1] = got[k+1], got[k]
				}
			}
		case 1:
			got = slices.Clone(q)
		case 2:
			slices.Reverse(got)
		}
		budget := rapid.IntRange(0, 4*n).Draw(rt, "budget")
		if sortNearly(got, budget) {
			if !slices.Equal(got, want) {
				rt.Fatalf("sortNearly within budget %d: not the sorted queue", budget)
			}
			return
		}
		slices.SortFunc(got, less)
		if !slices.Equal(got, want) {
			rt.Fatal("sortNearly left no permutation of the queue")
		}
	})
	// The worst case: a reversed queue of n jobs needs n(n−1)/2 moves.
	// sortNearly's budget (4n) bounds what it does before it gives up: on
	// 10^5 jobs, quadratic work would be 5·10^9 comparisons (many
	// seconds), linear about 10^6 (a millisecond; the bound of 2 s leaves
	// room for a loaded machine and -race).
	const n = 100_000
	q := make([]*jobRec, n)
	for i := range q {
		q[i] = &jobRec{id: int64(i), prio: int64(i)} // the highest priority last
	}
	begin := time.Now()
	if sortNearly(q, 4*n) {
		t.Fatal("sortNearly sorted a reversed queue within 4n moves")
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("sortNearly gave up on a reversed queue of %d jobs after %v: quadratic", n, d)
	}
}
