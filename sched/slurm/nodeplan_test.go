package slurm

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// nodePolicy is a Policy on len(cores) nodes of the given sizes with a
// named-node plan ready at now = 0: every node free, no running job, no
// reservation (the tests set them).
func nodePolicy(t interface {
	Helper()
	Fatal(...any)
}, site Config, cores ...int64) *Policy {
	t.Helper()
	var kinds []swf.Node
	for i, c := range cores {
		kinds = append(kinds, swf.Node{Name: fmt.Sprint("n", i), Count: 1, Cores: c})
	}
	p, err := New(site, sched.Config{Nodes: kinds})
	if err != nil {
		t.Fatal(err)
	}
	p.ns = newNodeSpace(kinds)
	p.ns.free, p.ns.rel, p.ns.byNode = append([]int64(nil), cores...), make([][]release, len(cores)), make([][]nodeResv, len(cores))
	return p
}

// TestNodeFit pins nodeFit's rules on hand-made plans, each worked out
// from _attempt_backfill (bf_resolution 60 s, now 0): a later job may use
// only the nodes no reservation holds over [start_res, start_res +
// limit], a reservation that begins the second the job would end
// included; its start is the earliest one of them has its CPUs (running
// jobs ending at their limits); a start after a reservation's end tries
// again from that end (later_start); and a node chosen for a later start
// that a reservation holds within [⌊start⌋, ⌊start+limit⌋) — one
// beginning at ⌊start+limit⌋ is not — sends it to try again from that
// start (_test_resv_overlap).
func TestNodeFit(t *testing.T) {
	type res = nodeResv
	cases := []struct {
		name        string
		free        []int64     // per node, now
		rel         [][]release // per node
		resv        []nodeResv
		cpus, limit int64
		by          int64
		start       int64
		node        int
	}{
		// Node 0 is free but reserved over [600, 1200); node 1 is busy to
		// 1000. A job of 900 s would hold node 0 into the reservation: it
		// waits for node 1. One of 500 s ends before it: node 0 now.
		{"over its span", []int64{8, 0}, [][]release{nil, {{1000, 8, 0, 0, 0}}}, []res{{0, 600, 1200}}, 4, 900, 1 << 40, 1000, 1},
		{"ends before", []int64{8, 0}, [][]release{nil, {{1000, 8, 0, 0, 0}}}, []res{{0, 600, 1200}}, 4, 500, 1 << 40, 0, 0},
		// Ending at 600, the second the reservation begins: in its way
		// (begin_time <= end_time).
		{"ends as it begins", []int64{8, 0}, [][]release{nil, {{1000, 8, 0, 0, 0}}}, []res{{0, 600, 1200}}, 4, 600, 1 << 40, 1000, 1},
		// Node 0 reserved over [0, 300), node 1 busy to 5000: from now
		// only node 1 (5000, after the reservation's end, 300), so it
		// tries again from 300, where node 0 is free.
		{"later start", []int64{8, 0}, [][]release{nil, {{5000, 8, 0, 0, 0}}}, []res{{0, 0, 300}}, 8, 100, 1 << 40, 300, 0},
		// Node 0 busy to 100, node 1 to 1000, node 0 reserved over
		// [600, 1200). A job of 520 s: from now both nodes are free of
		// reservations over [0, 520]; node 0 has its CPUs first, at 100,
		// and [⌊100⌋, ⌊620⌋) = [60, 600) misses the reservation: node 0
		// at 100.
		{"overlap misses", []int64{0, 0}, [][]release{{{100, 8, 0, 0, 0}}, {{1000, 8, 0, 0, 0}}}, []res{{0, 600, 1200}}, 8, 520, 1 << 40, 100, 0},
		// 560 s: [60, 660) meets it; from 100, node 0 is reserved over
		// [100, 660], so node 1 at 1000.
		{"overlap", []int64{0, 0}, [][]release{{{100, 8, 0, 0, 0}}, {{1000, 8, 0, 0, 0}}}, []res{{0, 600, 1200}}, 8, 560, 1 << 40, 1000, 1},
		// Beyond the window: the start found, no node.
		{"beyond", []int64{8, 0}, [][]release{nil, {{1000, 8, 0, 0, 0}}}, []res{{0, 600, 1200}}, 4, 900, 500, 1000, -1},
		// Nodes of different sizes: 8 CPUs only on node 1, later.
		{"sizes", []int64{4, 4}, [][]release{nil, {{50, 12, 0, 0, 0}}}, nil, 8, 10, 1 << 40, 50, 1},
		// Larger than any node, or zero-CPU nodes: never.
		{"too large", []int64{4, 4}, [][]release{nil, nil}, nil, 5, 10, 1 << 40, never, -1},
		{"no CPUs", []int64{0, 0}, [][]release{nil, nil}, nil, 1, 10, 1 << 40, never, -1},
		// Every node reserved for ever: never (no later start).
		{"all reserved", []int64{8, 8}, [][]release{nil, nil}, []res{{0, 0, never}, {1, 0, never}}, 1, 10, 1 << 40, never, -1},
	}
	for _, c := range cases {
		p := nodePolicy(t, Config{BackfillResolution: 60}, 8, 8)
		copy(p.ns.free, c.free)
		p.ns.rel = c.rel
		for _, v := range c.resv {
			p.ns.addResv(v)
		}
		r := &jobRec{cpus: c.cpus, limit: c.limit, minNodes: 1}
		start, node := p.nodeFit(r, 0, c.by)
		if start != c.start || node != c.node {
			t.Errorf("%s: start %d on node %d; want %d on %d", c.name, start, node, c.start, c.node)
		}
	}
}

// TestChooseNode: on cons_tres, the run of consecutive nodes with the
// fewest free CPUs, then its node with the fewest (TestConsTresPlacement's
// case: nodes 0, 1 and 3 with 8, 2 and 3 free give node 3); another
// Placement takes the first.
func TestChooseNode(t *testing.T) {
	fits := []sched.NodeFree{{Node: 0, Cores: 8}, {Node: 1, Cores: 2}, {Node: 3, Cores: 3}}
	if k := chooseNode(consTres{}, fits); k != 2 {
		t.Errorf("cons_tres: %d; want 2", k)
	}
	if k := chooseNode(&nodePlace{inner: consTres{}}, fits); k != 2 {
		t.Errorf("cons_tres wrapped: %d; want 2", k)
	}
	fits[2].Node = 2 // one run {0, 1, 2} of 13: node 1 in it
	if k := chooseNode(consTres{}, fits); k != 1 {
		t.Errorf("one run: %d; want 1", k)
	}
	if k := chooseNode(sched.BestFit, fits); k != 0 {
		t.Errorf("best fit: %d; want 0", k)
	}
}

// nodeJob is a job of cpus CPUs on one node, running run seconds of a
// limit limit.
func nodeJob(id, submit, cpus, run, limit int64) swf.Job {
	j := swf.NewJob()
	j.ID, j.Submit, j.User, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, submit, 1, cpus, cpus, run, limit
	j.Demand = &swf.Demand{Nodes: 1}
	return j
}

// TestNodePlanKeepsReservedNode: a backfilled job keeps off the node a
// reservation holds over its span, which the plan counting CPUs lets it
// take. Three nodes of 4 CPUs: job 1 fills node 0 to 1000, job 2 holds 3
// on node 1 to 500, job 3 2 on node 2 to 2000 (cons_tres: node 1 has but
// one free). Job 4 (4 CPUs, submitted at 10) fits on no node now: the
// main scheduler stops at it, and the cycle reserves node 1 from 500 (job
// 2's limit). Job 5 (1 CPU, 600 s, at 11) fits on node 1 or 2; cons_tres
// would take node 1 (the fewest free), where it would hold job 4's node
// past 500, so it goes on node 2 and job 4 starts at 500. (Pooled, 2 CPUs
// are free at 500 besides job 4's reserved node, so job 5 may go on node
// 1, and job 4 waits for it.)
func TestNodePlanKeepsReservedNode(t *testing.T) {
	jobs := []swf.Job{nodeJob(1, 0, 4, 1000, 1000), nodeJob(2, 0, 3, 500, 500), nodeJob(3, 0, 2, 2000, 2000),
		nodeJob(4, 10, 4, 100, 100), nodeJob(5, 11, 1, 600, 600)}
	p, err := New(Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 3, Cores: 4}}, KeepShares: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range res.Records {
		sh := res.Shares(k)
		switch r.Job.ID {
		case 5:
			if len(sh) != 1 || sh[0].Node != 2 || r.Start > 100 {
				t.Errorf("job 5 at %d on %+v; want node 2 at a cycle before 100", r.Start, sh)
			}
		case 4:
			if len(sh) != 1 || sh[0].Node != 1 || r.Start < 500 || r.Start > 510 {
				t.Errorf("job 4 at %d on %+v; want node 1 at 500", r.Start, sh)
			}
		}
	}
}

// TestNodeMapBounded: the plan's record of where each job runs keeps
// the running jobs only, give or take a margin, even when no backfill
// cycle runs (nothing waits): 2000 jobs one after another on two nodes.
func TestNodeMapBounded(t *testing.T) {
	var jobs []swf.Job
	for i := range int64(2000) {
		jobs = append(jobs, nodeJob(i+1, i*10, 2, 5, 10))
	}
	p, err := New(Config{NamedNodes: true}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	if n := len(p.ns.node); n > 2*len(p.running)+65 {
		t.Errorf("%d jobs recorded after 2000 starts; want at most %d", n, 2*len(p.running)+65)
	}
}

// TestNodeFitProperties: on random plans, nodeFit's node has the job's
// CPUs at its start, from now on, within the bound; a node a reservation
// holds is never the one for a start now (over [now, now + limit]) or
// later (within [⌊start⌋, ⌊start+limit⌋)); and a job that some node
// free of reservations over its span can take now starts now.
func TestNodeFitProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		nodes := rapid.IntRange(1, 5).Draw(rt, "nodes")
		cores := make([]int64, nodes)
		for i := range cores {
			cores[i] = rapid.Int64Range(0, 8).Draw(rt, "cores")
		}
		p := nodePolicy(rt, Config{BackfillResolution: rapid.Int64Range(1, 60).Draw(rt, "res")}, cores...)
		ns := p.ns
		now := rapid.Int64Range(0, 100).Draw(rt, "now")
		for n := range cores {
			busy := rapid.Int64Range(0, cores[n]).Draw(rt, "busy")
			ns.free[n] = cores[n] - busy
			t0 := now
			for busy > 0 {
				c := rapid.Int64Range(1, busy).Draw(rt, "release")
				t0 += rapid.Int64Range(1, 500).Draw(rt, "gap")
				ns.rel[n] = append(ns.rel[n], release{t0, c, 0, 0, 0})
				busy -= c
			}
		}
		for range rapid.IntRange(0, 6).Draw(rt, "resv") {
			from := now + rapid.Int64Range(0, 1000).Draw(rt, "from")
			ns.addResv(nodeResv{rapid.IntRange(0, nodes-1).Draw(rt, "node"), from, from + rapid.Int64Range(1, 1000).Draw(rt, "len")})
		}
		r := &jobRec{cpus: rapid.Int64Range(1, 9).Draw(rt, "cpus"), limit: rapid.Int64Range(1, 800).Draw(rt, "limit"), minNodes: 1}
		by := now + rapid.Int64Range(0, 3000).Draw(rt, "window")
		start, node := p.nodeFit(r, now, by)
		if node >= 0 {
			switch {
			case start < now || start > by:
				rt.Fatalf("start %d outside [%d, %d]", start, now, by)
			case ns.freeAt(node, start) < r.cpus:
				rt.Fatalf("node %d has %d CPUs at %d; the job asks %d", node, ns.freeAt(node, start), start, r.cpus)
			case start == now && ns.reserved(node, now, now+r.limit):
				rt.Fatalf("starts now on node %d, reserved over [%d, %d]", node, now, now+r.limit)
			case start > now && ns.overlaps(node, floorTo(start, p.bfRes), floorTo(start+r.limit, p.bfRes)):
				rt.Fatalf("starts at %d on node %d, reserved within its span", start, node)
			}
		} else if start != never && start <= by {
			rt.Fatalf("start %d within the bound %d but no node", start, by)
		}
		for n := range cores {
			if ns.free[n] >= r.cpus && !ns.reserved(n, now, now+r.limit) && (start != now || node < 0) {
				rt.Fatalf("node %d can take the job now; got %d on %d", n, start, node)
			}
		}
	})
}

// spyPlace is cons_tres, noting a start the plan kept off some nodes
// that is offered one of them (nodePlace offers the others when any
// fits).
type spyPlace struct {
	p       **Policy
	onResvd *int
}

func (s spyPlace) Choose(j *sched.Job, fits []sched.NodeFree) int {
	if ns := (*s.p).ns; ns != nil && ns.mask != nil {
		for _, f := range fits {
			if ns.mask[f.Node] {
				*s.onResvd++
			}
		}
	}
	return consTres{}.Choose(j, fits)
}

func (spyPlace) Name() string { return "spy" }

// TestNodePlanRuns: random machines of nodes of different sizes, jobs on
// one node asking CPUs only (some spread over nodes, which send cycles to
// the pool plan): Run ends with every job run, never panics, and a job
// backfill starts never goes on a node a reservation holds over its span.
func TestNodePlanRuns(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		kinds := make([]swf.Node, rapid.IntRange(1, 3).Draw(rt, "kinds"))
		largest := int64(0)
		for i := range kinds {
			kinds[i] = swf.Node{Name: fmt.Sprint("k", i), Count: rapid.Int64Range(1, 3).Draw(rt, "count"), Cores: rapid.Int64Range(1, 8).Draw(rt, "cores")}
			largest = max(largest, kinds[i].Cores)
		}
		var jobs []swf.Job
		at := int64(0)
		for i := range rapid.IntRange(1, 40).Draw(rt, "jobs") {
			at += rapid.Int64Range(0, 20).Draw(rt, "gap")
			limit := rapid.Int64Range(1, 300).Draw(rt, "limit")
			j := nodeJob(int64(i+1), at, rapid.Int64Range(1, largest).Draw(rt, "cpus"), rapid.Int64Range(1, limit).Draw(rt, "run"), limit)
			j.User = rapid.Int64Range(1, 3).Draw(rt, "user")
			if rapid.IntRange(0, 9).Draw(rt, "spread") == 0 {
				j.Demand = nil
			}
			jobs = append(jobs, j)
		}
		var p *Policy
		onResvd := 0
		site := Config{NamedNodes: true, BackfillInterval: rapid.Int64Range(1, 30).Draw(rt, "bf_interval"),
			BackfillResolution: rapid.Int64Range(1, 60).Draw(rt, "bf_resolution"),
			BackfillWindow:     rapid.Int64Range(60, 600).Draw(rt, "bf_window"),
			BackfillMaxJobTest: rapid.Int64Range(1, 10).Draw(rt, "bf_max_job_test"),
			BackfillMaxJobUser: rapid.Int64Range(0, 3).Draw(rt, "bf_max_job_user")}
		p, err := New(site, sched.Config{Nodes: kinds, Placement: spyPlace{&p, &onResvd}})
		if err != nil {
			rt.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			rt.Fatal(err)
		}
		if len(res.Records) != len(jobs) {
			rt.Fatalf("%d jobs ran of %d", len(res.Records), len(jobs))
		}
		if onResvd > 0 {
			rt.Fatalf("%d starts offered a node the plan reserved", onResvd)
		}
	})
}

// TestWillRunGroups pins willRun's grouping, worked out from cons_tres's
// _will_run_test (now 0, two nodes of 8 CPUs, both usable unless said):
// the running jobs are taken off in groups, the first up to the first
// multiple of 30 s after the first end plus 30 s, and the start is the
// end of the last job of the group after which the job fits.
func TestWillRunGroups(t *testing.T) {
	cases := []struct {
		name   string
		free   []int64
		rel    [][]release
		usable []bool
		cpus   int64
		epoch  int64
		want   int64
	}{
		// 4 CPUs free at 100 on node 0, 8 at 140 on node 1: the first
		// group runs to 120 + 30 and holds both, so the start is 140,
		// not 100.
		{"group", []int64{0, 0}, [][]release{{{100, 4, 0, 0, 0}}, {{140, 8, 0, 0, 0}}}, nil, 4, 0, 140},
		// With the second end at 160 the group ends before it: 100.
		{"next group", []int64{0, 0}, [][]release{{{100, 4, 0, 0, 0}}, {{160, 8, 0, 0, 0}}}, nil, 4, 0, 100},
		// On Unix time 20 s later the barrier is 130 (Unix 150), the
		// group reaches 160: 160.
		{"epoch", []int64{0, 0}, [][]release{{{100, 4, 0, 0, 0}}, {{160, 8, 0, 0, 0}}}, nil, 4, 20, 160},
		// Node 1 not usable: its end, 140, is skipped, and the end after
		// it, node 0's 200, is taken off in the same group (Slurm's loop
		// checks the window only after a job it took off): 200.
		{"unusable", []int64{0, 0}, [][]release{{{100, 2, 0, 0, 0}, {200, 2, 0, 0, 0}}, {{140, 8, 0, 0, 0}}}, []bool{true, false}, 4, 0, 200},
		// The window doubles after a group: the first (to 150) holds
		// 100 only; the second, to 120 + 60, holds 160, which frees the
		// CPUs, and 175 with it: 175 (with a window of 30, 160).
		{"doubled", []int64{0, 0}, [][]release{{{100, 4, 0, 0, 0}, {160, 4, 0, 0, 0}}, {{175, 1, 0, 0, 0}}}, nil, 8, 0, 175},
		// CPUs free now on a usable node: now.
		{"now", []int64{4, 8}, [][]release{nil, nil}, []bool{false, true}, 8, 0, 0},
		// Never enough.
		{"never", []int64{0, 0}, [][]release{{{100, 4, 0, 0, 0}}, {{140, 4, 0, 0, 0}}}, nil, 8, 0, never},
	}
	for _, c := range cases {
		p := nodePolicy(t, Config{BackfillResolution: 60}, 8, 8)
		copy(p.ns.free, c.free)
		p.ns.rel = c.rel
		p.ns.usable = []bool{true, true}
		if c.usable != nil {
			p.ns.usable = c.usable
		}
		p.ns.sortEnds()
		if got := p.ns.willRun(c.cpus, 0, c.epoch); got != c.want {
			t.Errorf("%s: %d; want %d", c.name, got, c.want)
		}
	}
}

// TestNodeStartedKeepsEnds checks that nodeStarted keeps willRun's ends
// as sortEnds builds them (ties included: they decide a group's jobs).
func TestNodeStartedKeepsEnds(t *testing.T) {
	p := nodePolicy(t, Config{}, 64, 64, 64, 64)
	ns := p.ns
	rng := rand.New(rand.NewPCG(3, 33))
	for n := range ns.rel {
		for k := range 5 {
			ns.rel[n] = append(ns.rel[n], release{int64(10 * (k + rng.IntN(3))), 1 + rng.Int64N(4), 0, 0, 0})
		}
		slices.SortStableFunc(ns.rel[n], func(a, b release) int { return cmp.Compare(a.t, b.t) })
	}
	ns.sortEnds()
	for i := range 40 {
		r := &jobRec{id: int64(i), cpus: 1 + rng.Int64N(4), start: 0, limit: 10 * (1 + rng.Int64N(8))}
		ns.nodeStarted(r, rng.IntN(len(ns.rel)), 0)
		got := slices.Clone(ns.all)
		ns.allOK = false
		ns.sortEnds()
		if !slices.Equal(got, ns.all) {
			t.Fatalf("start %d: ends %v; sortEnds gives %v", i, got, ns.all)
		}
	}
}
