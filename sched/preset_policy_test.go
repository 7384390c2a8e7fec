package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Result.Policy names the Scheduler, not the preset (its doc): EASY++,
// EASY_SJBF and PERFECT++ share "EASY(queue=arrival,backfill=prediction)".
func TestPresetResultPolicy(t *testing.T) {
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqTime = 1, 0, 10, 1, 20
	for _, name := range []string{"EASY++", "EASY_SJBF", "PERFECT++"} {
		p, ok := sched.LookupPreset(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		res, err := sched.Run(context.Background(), p.New(4), []swf.Job{j})
		if err != nil {
			t.Fatal(err)
		}
		if want := "EASY(queue=arrival,backfill=prediction)"; res.Policy != want {
			t.Errorf("%s: Result.Policy %q, want %q", name, res.Policy, want)
		}
	}
}
