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
