package forecast

import (
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Online's size features read an unknown size (SWF's −1) as 1 processor,
// all of them, as the log of the size (x[5]) must: the share of the
// machine (x[9]) read −1/P, and the processors waiting ahead (x[3]) lost
// one for each such job. A job of unknown size has features of its own
// only on nodes, where its demand's cores size it in the simulation (on
// one pool the simulation rejects it and Online answers its class's
// naive median); a waiting one counts ahead of others on either. Checked:
// fails without the fix in features (x[9] −0.0625 against 0.0625, x[3]
// log1p(3/16) against log1p(5/16)).
func TestOnlineUnknownSizeFeatures(t *testing.T) {
	feats := func(size int64) [nFeatures]float64 {
		o, err := NewOnline(Config{Policy: sched.Config{Nodes: gpuNodes}}, 0)
		if err != nil {
			t.Fatal(err)
		}
		// A job holds a GPU; a 4-core job and one of the size wait
		// ahead of the job asked about, of the size.
		r := gpuJob(1, 0, 0, 1, 1000, 7200)
		r.RunTime = 7200
		must(t, o.Observe(replay.Arrive, &r))
		must(t, o.Observe(replay.Start, &r))
		a, b, q := gpuJob(2, 10, 0, 4, 2000, 600), gpuJob(3, 20, 0, 2, 0, 600), gpuJob(4, 30, 0, 2, 0, 600)
		b.AllocProcs, b.ReqProcs, q.AllocProcs, q.ReqProcs = size, size, size, size
		for _, j := range []*swf.Job{&a, &b, &q} {
			must(t, o.Observe(replay.Arrive, j))
		}
		if p, err := o.Predict(&q, 30); err != nil || !p.OK {
			t.Fatalf("size %d: answer %+v (%v)", size, p, err)
		}
		return o.x
	}
	unknown, one := feats(-1), feats(1)
	for _, k := range []int{3, 5, 9} {
		if unknown[k] != one[k] {
			t.Errorf("feature %d of a job of unknown size: %g, a 1-processor job's %g", k, unknown[k], one[k])
		}
	}
}

// The processors a running job holds, summed into the busy count (x[4])
// and the user's running processors (x[17]), are those the simulation
// holds: on nodes a job of unknown size (SWF's −1, or a GPU trace's CPU
// job of 0 processors) with a demand of 4 cores holds 4, as a 4-core job
// does; one whose 2 processors are GPUs holds its demand's 4 cores. The
// count was the size itself: checked that this fails without the fix
// (x[4] −1/16 and x[17] 0 for the job of unknown size, 2/16 and log1p(2)
// for the GPUs', against 4/16 and log1p(4)).
func TestOnlineUnknownSizeBusy(t *testing.T) {
	feats := func(size int64) [nFeatures]float64 {
		o, err := NewOnline(Config{Policy: sched.Config{Nodes: gpuNodes}}, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Job 1 of user 1 runs (4 cores, a GPU); job 2 of user 1 asks a
		// GPU, so it waits for job 1's.
		r := gpuJob(1, 0, 0, 4, 1000, 7200)
		r.RunTime = 7200
		r.AllocProcs, r.ReqProcs = size, size
		q := gpuJob(2, 10, 0, 4, 1000, 600)
		must(t, o.Observe(replay.Arrive, &r))
		must(t, o.Observe(replay.Start, &r))
		must(t, o.Observe(replay.Arrive, &q))
		if p, err := o.Predict(&q, 20); err != nil || !p.OK {
			t.Fatalf("size %d: answer %+v (%v)", size, p, err)
		}
		return o.x
	}
	four := feats(4)
	for _, size := range []int64{-1, 0, 2} {
		got := feats(size)
		for _, k := range []int{4, 17} {
			if got[k] != four[k] {
				t.Errorf("running job of size %d asking 4 cores: feature %d %g, a 4-core job's %g", size, k, got[k], four[k])
			}
		}
	}
	// The user's count goes back to none when the job ends.
	o, err := NewOnline(Config{Policy: sched.Config{Nodes: gpuNodes}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := gpuJob(1, 0, 0, 4, 1000, 7200)
	r.RunTime, r.AllocProcs, r.ReqProcs = 100, -1, -1
	for _, ev := range []replay.Event{replay.Arrive, replay.Start, replay.End} {
		must(t, o.Observe(ev, &r))
	}
	if len(o.userR) != 0 {
		t.Errorf("user counts after the only job ended: %v", o.userR)
	}
}

// heldSize is the size the simulation gives the job (Record.Size of the
// job as simJob hands it to sched), on nodes and on one pool, and never
// below 1 or above 2^40.
func TestHeldSizeAsSimulated(t *testing.T) {
	type c struct{ size, nodes, cores int64 }
	cases := []c{
		{-1, 1, 4}, {0, 1, 4}, {4, 1, 4}, {2, 1, 4}, // unknown, a CPU job of a GPU trace, cores, GPUs
		{3, 2, 2}, {4, 2, 2}, {5, 2, 2}, {-1, 2, 3}, {7, 0, 3}, // split or not among nodes; spread (Nodes 0)
		{6, 1, 0}, // a demand without cores: the size
	}
	for _, nodes := range []bool{true, false} {
		cfg := Config{Policy: sched.Config{MachineSize: 16}}
		if nodes {
			cfg.Policy = sched.Config{Nodes: gpuNodes}
		}
		f, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range cases {
			j := job(1, 0, 0, 100, k.size, 100, 1)
			j.Demand = &swf.Demand{Nodes: k.nodes, Cores: k.cores}
			held := f.heldSize(&j)
			if j.Size() <= 0 && !(nodes && demandCores(&j)) {
				if held != 1 {
					t.Errorf("%+v (nodes %v): held %d, want 1 for a job the simulation does not size", k, nodes, held)
				}
				continue
			}
			sim, err := sched.New(cfg.Policy)
			if err != nil {
				t.Fatal(err)
			}
			if err := sim.Load([]swf.Job{simJob(1, 0, &j, 100, 100)}); err != nil {
				t.Fatal(err)
			}
			res, err := sim.Finish()
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Records) != 1 {
				t.Fatalf("%+v (nodes %v): rejected %+v", k, nodes, res.Rejected)
			}
			if want := res.Records[0].Size; held != want {
				t.Errorf("%+v (nodes %v): held %d, simulated %d", k, nodes, held, want)
			}
		}
	}
	f, err := New(Config{Policy: sched.Config{MachineSize: 16}})
	if err != nil {
		t.Fatal(err)
	}
	j := job(1, 0, 0, 100, 1<<62, 100, 1)
	if h := f.heldSize(&j); h != maxMachine {
		t.Errorf("a job of 2^62 processors holds %d, want 2^40", h)
	}
}
