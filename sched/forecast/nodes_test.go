package forecast

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// gpuNodes is a machine of two nodes of 8 cores and one GPU each.
var gpuNodes = []swf.Node{{Name: "gpu", Count: 2, Cores: 8, Memory: 64, GPUs: 1}}

// gpuJob is a job of one node asking cores and whole GPUs (thousandths).
func gpuJob(id, submit, wait, cores, gpus, est int64) swf.Job {
	j := job(id, submit, wait, -1, cores, est, 1)
	j.Demand = &swf.Demand{Nodes: 1, Cores: cores, GPUs: gpus}
	return j
}

// gpuSnapshot: at t = 10, two 1-core jobs hold both GPUs (estimates 100
// and 200 s, started at 0); a 1-core job asking one GPU waits. One pool of
// 16 cores sees 14 free and starts it now; the nodes have no GPU free
// until the first running job ends at 100.
func gpuSnapshot(size int64) *Snapshot {
	return &Snapshot{Now: 10, MachineSize: size,
		Running: []swf.Job{gpuJob(1, 0, 0, 1, 1000, 100), gpuJob(2, 0, 0, 1, 1000, 200)},
		Waiting: []swf.Job{gpuJob(3, 5, -1, 1, 1000, 50)},
	}
}

// The node path: the same snapshot, now on one pool, at 100 on the nodes
// (the GPU of the job ending first); a what-if job asking a GPU queues
// behind it (at 150, when job 3 ends, before job 2's 200), one asking
// none starts now, one asking more GPUs than a node has can never run.
func TestForecastNodesGPU(t *testing.T) {
	ctx := context.Background()
	pool, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := pool.Forecast(ctx, gpuSnapshot(16)); err != nil || !equal(got, []int64{10}) {
		t.Fatalf("pool: starts %v (%v), want [10]", got, err)
	}
	nodes, err := New(Config{Estimates: true, Policy: sched.Config{Nodes: gpuNodes}})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{0, 16} { // 0: the nodes' cores
		got, err := nodes.Forecast(ctx, gpuSnapshot(size))
		if err != nil || !equal(got, []int64{100}) {
			t.Fatalf("nodes, machine size %d: starts %v (%v), want [100]", size, got, err)
		}
	}
	s := gpuSnapshot(0)
	for _, c := range []struct {
		name string
		j    swf.Job
		want int64
	}{
		{"a GPU", gpuJob(9, 10, -1, 1, 1000, 10), 150},
		{"half a GPU", gpuJob(9, 10, -1, 1, 500, 10), 150},
		{"no GPU", gpuJob(9, 10, -1, 4, 0, 10), 10},
		{"two GPUs on a node", gpuJob(9, 10, -1, 1, 2000, 10), -1},
		{"no demand, 9 cores spread", job(9, 10, -1, -1, 9, 10, 1), 10},
	} {
		if at, err := nodes.WhatIf(ctx, s, c.j); err != nil || at != c.want {
			t.Errorf("what-if %s: %d (%v), want %d", c.name, at, err, c.want)
		}
	}
	// Memory too: a node's 64 are all taken by a running job on each.
	mem := gpuSnapshot(0)
	for i := range mem.Running {
		mem.Running[i].Demand = &swf.Demand{Nodes: 1, Cores: 1, Memory: 64}
	}
	mem.Waiting[0].Demand = &swf.Demand{Nodes: 1, Cores: 1, Memory: 1}
	if got, err := nodes.Forecast(ctx, mem); err != nil || !equal(got, []int64{100}) {
		t.Errorf("memory: starts %v (%v), want [100]", got, err)
	}
}

// A machine size that is not the nodes' cores is a bad snapshot (or a
// bad NewOnline), and a bad node list a bad Config.
func TestForecastNodesErrors(t *testing.T) {
	f, err := New(Config{Policy: sched.Config{Nodes: gpuNodes}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Forecast(context.Background(), gpuSnapshot(17)); !errors.Is(err, errSnapshot) {
		t.Errorf("machine size 17 on 16 cores: error %v", err)
	}
	if _, err := NewOnline(Config{Policy: sched.Config{Nodes: gpuNodes}}, 17); !errors.Is(err, errSnapshot) {
		t.Errorf("NewOnline 17 on 16 cores: error %v", err)
	}
	for _, c := range []Config{
		{Policy: sched.Config{Nodes: []swf.Node{{Name: "x", Count: 0, Cores: 1}}}},
		{Policy: sched.Config{Nodes: gpuNodes, MachineSize: 3}},
		{Policy: sched.Config{Nodes: gpuNodes, Peer: sched.PeerPyss}},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: valid", c.Policy)
		}
		if _, err := New(c); err == nil {
			t.Errorf("%+v: New accepted it", c.Policy)
		}
	}
	if err := (Config{Policy: sched.Config{Nodes: gpuNodes}}).Validate(); err != nil {
		t.Errorf("nodes, MachineSize 0: %v", err)
	}
}

// A running job that no node could ever hold (a snapshot of another
// machine) is a bad snapshot: sched would reject it and the forecast free
// what it holds. One that fits a node but not beside the others (three
// jobs on two GPUs) waits as the head of the queue.
func TestForecastNodesRunningUnfit(t *testing.T) {
	ctx := context.Background()
	f, err := New(Config{Estimates: true, Policy: sched.Config{Nodes: gpuNodes}})
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]swf.Job{
		"two GPUs on a node": gpuJob(1, 0, 0, 1, 2000, 100),
		"17 cores on 16":     job(1, 0, 0, -1, 17, 100, 1),
	} {
		s := gpuSnapshot(0)
		s.Running[0] = r
		if got, err := f.Forecast(ctx, s); !errors.Is(err, errSnapshot) {
			t.Errorf("running job of %s: starts %v, error %v", name, got, err)
		}
		if _, err := f.WhatIf(ctx, s, gpuJob(9, 10, -1, 1, 0, 10)); !errors.Is(err, errSnapshot) {
			t.Errorf("running job of %s: what-if error %v", name, err)
		}
	}
	// Job 4 (estimate 50) waits for job 1's GPU at 100, job 3 for job 4's
	// end at 140.
	s := gpuSnapshot(0)
	s.Running = append(s.Running, gpuJob(4, 0, 0, 1, 1000, 50))
	if got, err := f.Forecast(ctx, s); err != nil || !equal(got, []int64{140}) {
		t.Errorf("three GPU jobs running on two GPUs: starts %v (%v), want [140]", got, err)
	}
	// The forecaster is reusable after the error.
	if got, err := f.Forecast(ctx, gpuSnapshot(0)); err != nil || !equal(got, []int64{100}) {
		t.Errorf("after the error: starts %v (%v), want [100]", got, err)
	}
}

// Online on the nodes: its uncorrected answer (NoCorrection) is the
// simulated wait, 90 s for the job of gpuSnapshot that a pool starts at
// once; NewOnline's machine size 0 is the nodes' cores.
func TestOnlineNodesGPU(t *testing.T) {
	s := gpuSnapshot(0)
	for _, c := range []struct {
		cfg  Config
		size int64
		want float64
	}{
		{Config{Estimates: true, NoCorrection: true}, 16, 0},
		{Config{Estimates: true, NoCorrection: true, Policy: sched.Config{Nodes: gpuNodes}}, 0, 90},
		{Config{Estimates: true, NoCorrection: true, Policy: sched.Config{Nodes: gpuNodes}}, 16, 90},
	} {
		o, err := NewOnline(c.cfg, c.size)
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Running {
			r := s.Running[i]
			r.RunTime = 1000 // (Online keeps a started job with a run time; it plays the estimate)
			must(t, o.Observe(replay.Arrive, &r))
			must(t, o.Observe(replay.Start, &r))
		}
		w := s.Waiting[0]
		must(t, o.Observe(replay.Arrive, &w))
		p, err := o.Predict(&w, s.Now)
		if err != nil || !p.OK || p.Point != c.want {
			t.Errorf("nodes %v: answer %+v (%v), want %v", c.cfg.Policy.Nodes != nil, p, err, c.want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// linear.grow is exact: a fit on d features that grows to d+1 after
// samples whose new feature was 0 answers bit for bit as a fit on d+1
// features from the start (what lets Online add the demand feature only
// when a job with a demand line arrives).
func TestLinearGrowExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 6))
	a, b := newLinear(4, 3, 0.99), newLinear(3, 3, 0.99)
	x, y, outA, outB := make([]float64, 4), make([]float64, 3), make([]float64, 3), make([]float64, 3)
	for i := range 300 {
		if i == 150 {
			b.grow(4)
		}
		for k := range x {
			x[k] = rng.NormFloat64()
		}
		if i < 150 {
			x[3] = 0
		}
		for k := range y {
			y[k] = float64(rng.IntN(2))
		}
		a.add(x, y)
		b.add(x, y)
		if i%7 == 0 {
			a.predict(x, outA)
			b.predict(x, outB)
			for k := range outA {
				if outA[k] != outB[k] {
					t.Fatalf("sample %d, output %d: %v from the start, %v grown", i, k, outA[k], outB[k])
				}
			}
		}
	}
}

// A job with a demand line arriving mid-replay grows every ladder made so
// far (global, per class, per queue) by the demand feature: the answers
// are then bit for bit those of an Online that had the feature from the
// start (a log's demand-less jobs have it at 0), and the ladders made
// after it have it too.
func TestOnlineGrowMidReplay(t *testing.T) {
	jobs := synthetic(t, 3000, 21)
	rng := rand.New(rand.NewPCG(21, 2))
	for i := range jobs {
		jobs[i].Queue = 1 + int64(rng.IntN(2)) // queue ladders made before the growth
		if i < 1500 {
			continue
		}
		if rng.IntN(3) > 0 { // some ask no GPU, the feature's 1
			jobs[i].Demand = &swf.Demand{Nodes: 1, Cores: jobs[i].Size(), GPUs: int64(rng.IntN(2)) * 1000}
		}
		jobs[i].Queue += 2 * int64(rng.IntN(2)) // and after it
	}
	run := func(jobs []swf.Job, fromStart bool) (*Online, map[int64]float64) {
		o, err := NewOnline(Config{Train: 50}, 64)
		if err != nil {
			t.Fatal(err)
		}
		if fromStart {
			o.grow()
		}
		return o, answers(t, o, jobs)
	}
	grown, a := run(jobs, false)
	_, b := run(jobs, true)
	plain := slices.Clone(jobs)
	for i := range plain {
		plain[i].Demand = nil
	}
	_, c := run(plain, false)
	differ := 0
	for id, p := range b {
		if a[id] != p {
			t.Fatalf("job %d: %v grown mid-replay, %v with the feature from the start", id, a[id], p)
		}
		if p != c[id] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the demand feature changed no answer")
	}
	t.Logf("%d of %d answers changed by the feature", differ, len(b))
	ls := []*ladder{grown.global}
	for _, l := range grown.class {
		ls = append(ls, l)
	}
	for _, l := range grown.queue {
		ls = append(ls, l)
	}
	for _, l := range ls {
		if l.m.d != nFeatures {
			t.Errorf("a ladder on %d features after the growth", l.m.d)
		}
	}
}

// Online re-places the running jobs in start order, where first fit put
// them, not in its list's order (that of swaps on removal): on two nodes
// of 10 cores, jobs of 6, 6, 3 and 3 cores started in that order fill 9
// of each; after two earlier jobs end the list is 3, 3, 6, 6, which first
// fit places 3+3 on one node and 6 on the other, leaving the last 6 to
// wait and 4 cores free on each node for a 4-core job that cannot start
// before the first running job ends (at 1001).
func TestOnlineNodesStartOrder(t *testing.T) {
	nodes := []swf.Node{{Name: "c", Count: 2, Cores: 10, Memory: 64}}
	o, err := NewOnline(Config{Estimates: true, NoCorrection: true, Policy: sched.Config{Nodes: nodes}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	early := []swf.Job{gpuJob(5, 0, 0, 1, 0, 10), gpuJob(6, 0, 0, 1, 0, 10)}
	for i := range early {
		early[i].RunTime = 5
		must(t, o.Observe(replay.Arrive, &early[i]))
		must(t, o.Observe(replay.Start, &early[i]))
	}
	for i, c := range []int64{6, 6, 3, 3} {
		j := gpuJob(int64(i+1), int64(i+1), 0, c, 0, 1000)
		j.RunTime = 1000
		must(t, o.Observe(replay.Arrive, &j))
		must(t, o.Observe(replay.Start, &j))
	}
	for i := range early {
		must(t, o.Observe(replay.End, &early[i]))
	}
	if ids := []int64{o.running[0].ID, o.running[1].ID, o.running[2].ID, o.running[3].ID}; !equal(ids, []int64{4, 3, 1, 2}) {
		t.Fatalf("running list %v, want the swapped order [4 3 1 2]", ids)
	}
	w := gpuJob(9, 10, -1, 4, 0, 10)
	must(t, o.Observe(replay.Arrive, &w))
	if p, err := o.Predict(&w, 10); err != nil || !p.OK || p.Point != 991 {
		t.Errorf("answer %+v (%v), want 991", p, err)
	}
}

// A running job with no size is a bad snapshot named for that cause, on
// one pool (where sched used to reject it and the forecast leave it out
// silently) and on nodes (where it was said to fit no node).
func TestRunningNoSize(t *testing.T) {
	ctx := context.Background()
	for name, cfg := range map[string]Config{"one pool": {}, "nodes": {Policy: sched.Config{Nodes: gpuNodes}}} {
		f, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := gpuSnapshot(16)
		s.Running[1] = job(2, 0, 0, -1, -1, 200, 1)
		s.Running[1].AllocProcs, s.Running[1].ReqProcs = 0, -1
		got, err := f.Forecast(ctx, s)
		if !errors.Is(err, errSnapshot) || !strings.Contains(err.Error(), "running job 2 has no size") {
			t.Errorf("%s: starts %v, error %v; want a bad snapshot naming job 2 and its size", name, got, err)
		}
		if _, err := f.WhatIf(ctx, s, job(9, 10, -1, -1, 1, 10, 1)); !errors.Is(err, errSnapshot) {
			t.Errorf("%s: what-if error %v", name, err)
		}
	}
}

// A running CPU job of a GPU trace (no processors, a demand of 8 cores)
// holds its node on the node path: the waiting GPU job cannot use that
// node's GPU and starts when the GPU job on the other node ends, at 100,
// not now, as it would if the CPU job were left out. Online keeps it
// among the running jobs too; one pool still refuses such a snapshot.
func TestRunningCPUJobOnNodes(t *testing.T) {
	ctx := context.Background()
	cpu := job(2, 0, 0, -1, 0, 200, 1)
	cpu.ReqProcs = -1
	cpu.Demand = &swf.Demand{Nodes: 1, Cores: 8}
	s := &Snapshot{Now: 10, Running: []swf.Job{gpuJob(1, 0, 0, 1, 1000, 100), cpu}, Waiting: []swf.Job{gpuJob(3, 5, -1, 1, 1000, 50)}}
	nodes, err := New(Config{Estimates: true, Policy: sched.Config{Nodes: gpuNodes}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := nodes.Forecast(ctx, s); err != nil || !equal(got, []int64{100}) {
		t.Errorf("nodes: starts %v (%v), want [100]", got, err)
	}
	pool, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	s.MachineSize = 16
	if _, err := pool.Forecast(ctx, s); !errors.Is(err, errSnapshot) {
		t.Errorf("one pool: error %v, want a bad snapshot", err)
	}
	o, err := NewOnline(Config{Estimates: true, NoCorrection: true, Policy: sched.Config{Nodes: gpuNodes}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Running {
		r := s.Running[i]
		r.RunTime = 1000
		must(t, o.Observe(replay.Arrive, &r))
		must(t, o.Observe(replay.Start, &r))
	}
	w := s.Waiting[0]
	must(t, o.Observe(replay.Arrive, &w))
	if p, err := o.Predict(&w, s.Now); err != nil || !p.OK || p.Point != 90 {
		t.Errorf("Online on nodes: answer %+v (%v), want 90 s", p, err)
	}
}

// A running job of no processors whose demand asks cores on more than
// 2^20 nodes is no size to sched (not a job that fits no node): the
// snapshot is refused under that cause, as for a job of no demand.
func TestRunningNoSizeHugeNodes(t *testing.T) {
	cpu := job(2, 0, 0, -1, 0, 200, 1)
	cpu.ReqProcs = -1
	cpu.Demand = &swf.Demand{Nodes: 1<<20 + 1, Cores: 1}
	s := &Snapshot{Now: 10, Running: []swf.Job{cpu}}
	nodes, err := New(Config{Estimates: true, Policy: sched.Config{Nodes: gpuNodes}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nodes.Forecast(context.Background(), s); !errors.Is(err, errSnapshot) || !strings.Contains(err.Error(), "no size") {
		t.Errorf("error %v, want a bad snapshot: no size", err)
	}
}
