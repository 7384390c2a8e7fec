package replay_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// An archive job whose size is unknown in both fields (−1, as KTH-SP2's job
// 27313) or whose requested time is unknown is replayed through IBL as 0
// cores or 0 s, as the other predictors take it, instead of stopping the
// whole replay on ibl's refusal of negative cores.
func TestIBLUnknownSize(t *testing.T) {
	jobs := make([]swf.Job, 40)
	for i := range jobs {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime = int64(i+1), int64(i)*600, 120, 300
		j.AllocProcs, j.ReqProcs, j.ReqTime, j.User, j.Queue = 4, 4, 900, 1, 1
		jobs[i] = j
	}
	jobs[20].AllocProcs, jobs[20].ReqProcs = -1, -1
	jobs[25].ReqTime = -1
	b, err := replay.NewIBL(ibl.Config{}, ibl.Config{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := replay.Run(context.Background(), jobs, replay.Options{From: 0, To: len(jobs), Snapshot: 300}, b)
	if err != nil {
		t.Fatalf("replay stopped on a job of unknown size: %v", err)
	}
	if len(s) != 1 {
		t.Fatalf("%d scores, want 1", len(s))
	}
}

// An empty, non-nil Features is Table IV for the queued base, as nil is:
// ibl.New reads any empty Features as Table III since its zero Config
// became the paper's default, and the queued base then refused the first
// snapshot's Table IV query in the middle of the replay ("ibl: query has
// 12 inputs for 7 features"; before, ibl.New refused the empty Features).
func TestIBLEmptyFeaturesQueued(t *testing.T) {
	jobs := make([]swf.Job, 40)
	for i := range jobs {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime = int64(i+1), int64(i)*600, 900, 300
		j.AllocProcs, j.ReqProcs, j.ReqTime, j.User, j.Queue = 4, 4, 900, 1, 1
		jobs[i] = j
	}
	b, err := replay.NewIBL(ibl.Config{Features: []ibl.Feature{}}, ibl.Config{Features: []ibl.Feature{}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := replay.Run(context.Background(), jobs, replay.Options{From: 0, To: len(jobs), Snapshot: 300}, b)
	if err != nil {
		t.Fatalf("empty Features: %v", err)
	}
	if s[0].Queued == nil || s[0].Queued.Answered() == 0 {
		t.Fatalf("no queued prediction scored: %+v", s[0].Queued)
	}
}
