package sched_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// On nodes, a job without a Demand spreads its cores over as many nodes
// as it takes, so a machine of P cores in nodes of any width schedules
// exactly as one pool of P processors whose EASY counts every job ending
// at the shadow (ShadowTies; on nodes, which of two jobs ending at one
// instant ends first has no meaning). Every EASY preset and FCFS, job by
// job, on a real log: the node model and its look-ahead against the
// pool's.
func TestNodesSpreadEqualsPool(t *testing.T) {
	jobs := tracetest.RanJobs(t, tracetest.KTH)
	const P = 100
	for _, p := range sched.Presets() {
		if p.Name == "Conservative" {
			continue
		}
		if testing.Short() && p.Name != "EASY++" && p.Name != "FCFS" {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			pool := p.New(P)
			pool.ShadowTies = true
			want, err := sched.Run(context.Background(), pool, jobs)
			if err != nil {
				t.Fatal(err)
			}
			nodes := p.New(0)
			nodes.Nodes, nodes.KeepShares = []swf.Node{{Name: "quad", Count: P / 4, Cores: 4}}, true
			got, err := sched.Run(context.Background(), nodes, jobs)
			if err != nil {
				t.Fatal(err)
			}
			if err := got.Check(); err != nil {
				t.Fatal(err)
			}
			samePoolSchedule(t, got, want)
		})
	}
}

// A hand-made machine: two GPU nodes (4 cores, 2 GPUs, model A), one CPU
// node (8 cores); shares of one GPU pack onto one GPU; a job asking for
// model B, or more than any node has, is rejected with its reason.
func TestNodesHand(t *testing.T) {
	nodes := []swf.Node{
		{Name: "cpu", Count: 1, Cores: 8, Memory: 128}, // first: the reasons come from the closest kind, not the first
		{Name: "gpu", Count: 2, Cores: 4, Memory: 64, GPUs: 2, GPUModel: "A"},
	}
	job := func(id, submit, run, cores int64, d *swf.Demand) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = id, submit, run, run, cores
		j.Demand = d
		return j
	}
	jobs := []swf.Job{
		job(1, 0, 100, 2, &swf.Demand{Nodes: 1, GPUs: 2000}),                          // a whole GPU node's GPUs
		job(2, 0, 100, 2, &swf.Demand{Nodes: 1, GPUs: 2000}),                          // the other one
		job(3, 1, 50, 1, &swf.Demand{Nodes: 1, GPUs: 500}),                            // waits for a GPU: until 100
		job(4, 2, 10, 8, nil),                                                         // spread: the CPU node is free
		job(5, 3, 10, 2, &swf.Demand{Nodes: 1, GPUs: 1000, GPUModels: []string{"B"}}), // no model B
		job(6, 3, 10, 1, &swf.Demand{Nodes: 1, Memory: 200}),                          // no node has 200
		job(7, 4, 50, 1, &swf.Demand{Nodes: 1, GPUs: 500}),                            // shares job 3's GPU
	}
	res, err := sched.Run(context.Background(), sched.Config{Nodes: nodes, Placement: sched.BestFit, KeepShares: true}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	// Job 1 holds both GPUs of one GPU node (best fit: the first of two
	// alike), and 2 cores of it.
	if sh := res.Shares(0); len(sh) != 1 || sh[0].Kind != 1 || sh[0].Cores != 2 || sh[0].GPUs != 2000 {
		t.Errorf("job 1's shares %+v, want one on a GPU node: 2 cores, 2000 thousandths of GPUs", sh)
	}
	start := map[int64]int64{}
	for _, r := range res.Records {
		start[r.Job.ID] = r.Start
	}
	for id, want := range map[int64]int64{1: 0, 2: 0, 3: 100, 4: 2, 7: 100} {
		if start[id] != want {
			t.Errorf("job %d started at %d, want %d", id, start[id], want)
		}
	}
	// Held over [0, 150): cores 2·100·2 + 8·10 + 1·50·2 = 580 of 16·150;
	// GPUs 2·100·2 + 0.5·50·2 = 450 of 4·150; no memory asked.
	if c, m, g := res.Use(0, 150); math.Abs(c-580.0/2400) > 1e-12 || m != 0 || math.Abs(g-0.75) > 1e-12 {
		t.Errorf("use: cores %g, memory %g, GPUs %g; want %g, 0, 0.75", c, m, g, 580.0/2400)
	}
	if n := res.Rejected.Count(sanitize.FitsNoNode); n != 2 || res.NoNode["GPU model"] != 1 || res.NoNode["memory"] != 1 {
		t.Errorf("rejected %d as fitting no node, by resource %v; want 2: GPU model 1, memory 1", n, res.NoNode)
	}
}

func TestNodesConfig(t *testing.T) {
	for _, c := range []sched.Config{
		{Nodes: []swf.Node{{Count: 0, Cores: 4}}},
		{Nodes: []swf.Node{{Count: 2, Cores: 4}}, MachineSize: 9},
		{Nodes: []swf.Node{{Count: 2, Cores: 4, GPUs: 65}}},
		{Nodes: []swf.Node{{Count: 2, Cores: 4}}, Peer: sched.PeerPyss},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: no error", c)
		} else if strings.Contains(err.Error(), "panic") || errors.Is(err, sched.ErrNoFit) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// SWF memory is counted in MiB per core, rounded up, field 10 before
// field 7; an absurd value fits no node instead of wrapping around.
func TestNodesCountMemory(t *testing.T) {
	job := func(id int64, req, used float64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs, j.ReqMemory, j.UsedMemory = id, 0, 10, 10, 2, req, used
		return j
	}
	jobs := []swf.Job{job(1, 1024, -1), job(2, -1, 2049), job(3, 1e300, -1), job(4, -1, -1)}
	cfg := sched.Config{Nodes: []swf.Node{{Count: 2, Cores: 2, Memory: 4}}, CountMemory: true, KeepShares: true}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	if res.NoNode["memory"] != 1 || len(res.Records) != 3 {
		t.Fatalf("rejected %v, %d records; want job 3 rejected for memory", res.NoNode, len(res.Records))
	}
	// Job 1: 1 MiB a core on one node; job 2: 3 MiB a core (2049 KB
	// rounded up), 6 MiB for its 2 cores: on two nodes (4 MiB each), so
	// after job 1; job 4 asks none.
	want := map[int64]int64{1: 0, 2: 10, 4: 0}
	for k, r := range res.Records {
		if r.Start != want[r.Job.ID] {
			t.Errorf("job %d started at %d, want %d (shares %+v)", r.Job.ID, r.Start, want[r.Job.ID], res.Shares(k))
		}
	}
}

// With exact predictions (PERFECT++'s oracle), no job starts after its
// first reservation, under EASY on one pool and on nodes, and under
// conservative backfilling; Check verifies it, and catches a schedule
// edited to break it.
func TestCheckReservations(t *testing.T) {
	jobs := tracetest.RanJobs(t, tracetest.KTH)[:3000]
	perfect, _ := sched.LookupPreset("PERFECT++")
	cons, _ := sched.LookupPreset("Conservative")
	for _, c := range []struct {
		name  string
		nodes bool
		cfg   sched.Config
	}{
		{"PERFECT++", false, perfect.New(100)},
		{"PERFECT++ on nodes", true, perfect.New(0)},
		{"conservative, exact", false, cons.New(100)},
		{"conservative on nodes, exact", true, cons.New(0)},
	} {
		cfg := c.cfg
		if c.nodes {
			cfg.Nodes, cfg.KeepShares = []swf.Node{{Count: 25, Cores: 4}}, true
		}
		if cfg.Predictor == nil {
			cfg.Predictor = exact{}
		}
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		reserved := -1
		for k, r := range res.Records {
			if r.FirstReservation > 0 && r.Start == r.FirstReservation {
				reserved = k
				break
			}
		}
		if reserved < 0 {
			t.Fatalf("%s: no job started at its reservation", c.name)
		}
		res.Records[reserved].FirstReservation-- // as if it started a second late

		if err := res.Check(); err == nil || !strings.Contains(err.Error(), "after its reservation") {
			t.Errorf("%s: a job started after its reservation passes Check: %v", c.name, err)
		}
	}
}

// exact predicts each job's run time (an oracle).
type exact struct{}

func (exact) Predict(j *swf.Job, _ int64) int64 { return j.RunTime }
func (exact) Terminated(*swf.Job, int64)        {}

// samePoolSchedule fails t unless a run on nodes (got) schedules every
// job as the run on one pool (want): start, end, backfilling, first
// reservation, and the same Summary.
func samePoolSchedule(t *testing.T, got, want *sched.Result) {
	t.Helper()
	if len(got.Records) != len(want.Records) {
		t.Fatalf("%d records on nodes, %d on the pool", len(got.Records), len(want.Records))
	}
	for k := range want.Records {
		g, w := &got.Records[k], &want.Records[k]
		if g.Start != w.Start || g.End != w.End || g.Backfilled != w.Backfilled || g.FirstReservation != w.FirstReservation {
			t.Fatalf("job %d: nodes start %d end %d backfilled %v reservation %d; pool %d %d %v %d",
				w.Job.ID, g.Start, g.End, g.Backfilled, g.FirstReservation, w.Start, w.End, w.Backfilled, w.FirstReservation)
		}
	}
	if got.Summary != want.Summary {
		t.Errorf("summary on nodes %+v\npool %+v", got.Summary, want.Summary)
	}
}

// A job no node holds for several named resources is counted under the
// first of them in name order, on every run: it was counted under the
// first its demand's map gave, so Result.NoNode changed from one run of
// the same log to the next.
func TestNodesNamedReasonStable(t *testing.T) {
	have, want := map[string]int64{}, map[string]int64{}
	for _, name := range []string{"lic-f", "lic-b", "lic-e", "lic-a", "lic-d", "lic-c"} {
		have[name], want[name] = 1, 2
	}
	nodes := []swf.Node{{Name: "n", Count: 2, Cores: 4, Named: have}}
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = 1, 0, 10, 10, 1
	j.Demand = &swf.Demand{Nodes: 1, Named: want}
	for range 20 {
		res, err := sched.Run(context.Background(), sched.Config{Nodes: nodes}, []swf.Job{j})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.NoNode) != 1 || res.NoNode["named resource lic-a"] != 1 {
			t.Fatalf("rejected by %v, want by named resource lic-a (the first lacking, by name)", res.NoNode)
		}
	}
}
