package slurm

import (
	"context"
	"errors"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// doneAfter is a context whose deadline passes at its after+1-th look.
type doneAfter struct {
	context.Context
	looks, after int
}

func (c *doneAfter) Err() error {
	c.looks++
	if c.looks > c.after {
		return context.DeadlineExceeded
	}
	return nil
}

// Run's passes over the jobs before the load (limits, exclusive) hear
// ctx every loadEvery jobs, as Load does: a deadline that passes during
// one stops it there, not after its last job. Checked: fails without the
// looks in the passes (each returns the whole log and no error).
func TestPassesHearContext(t *testing.T) {
	jobs := make([]swf.Job, 3*loadEvery)
	for i := range jobs {
		jobs[i] = swf.NewJob()
		jobs[i].ID, jobs[i].Submit, jobs[i].AllocProcs, jobs[i].ReqProcs, jobs[i].RunTime = int64(i+1), int64(i), 1, 1, 10
		// (ReqTime −1: limits fills in the partition's limit)
	}
	p, err := New(Config{Partitions: []Partition{{Name: "x", Default: true, Exclusive: true, MaxTime: 3600}}},
		sched.Config{Nodes: []swf.Node{{Name: "n", Count: 2, Cores: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, pass := range []struct {
		name string
		run  func(context.Context, []swf.Job) ([]swf.Job, error)
	}{{"limits", p.limits}, {"exclusive", p.exclusive}} {
		ctx := &doneAfter{Context: context.Background(), after: 1}
		out, err := pass.run(ctx, jobs)
		if !errors.Is(err, context.DeadlineExceeded) || out != nil || ctx.looks != 2 {
			t.Errorf("%s with a deadline at its second look: %d jobs, %v, %d looks; want none, DeadlineExceeded at the second (after %d jobs)",
				pass.name, len(out), err, ctx.looks, 2*loadEvery)
		}
		out, err = pass.run(context.Background(), jobs)
		if err != nil || len(out) != len(jobs) {
			t.Errorf("%s without a deadline: %d jobs, %v; want %d", pass.name, len(out), err, len(jobs))
		}
	}
}
