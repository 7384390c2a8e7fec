package main

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// The SDSC-106 cleaning takes no job of a log where no user owns an
// estimate value, and user-less jobs (−1) are no user that owns one
// (checked: fails without the fix in withoutOwnedModes, the user-less
// jobs removed as the "owner" of the values only they give).
func TestOwnedModesNoUser(t *testing.T) {
	mk := func(users ...int64) []swf.Job {
		var jobs []swf.Job
		for i, u := range users {
			j := swf.NewJob()
			j.ID, j.User, j.ReqTime = int64(i+1), u, int64(600*(i%2+1))
			jobs = append(jobs, j)
		}
		return jobs
	}
	// Users 1 and 2 share both values; the user-less jobs give them too.
	if got := withoutOwnedModes(mk(1, 1, 2, 2, -1, -1)); len(got) != 6 {
		t.Errorf("no owned value: %d jobs left, want 6", len(got))
	}
	// Only user-less jobs give the two values: no user owns them.
	if got := withoutOwnedModes(mk(-1, -1, -1, -1)); len(got) != 4 {
		t.Errorf("user-less jobs only: %d jobs left, want 4", len(got))
	}
	// User 0 owns both values: its jobs go, the user-less ones stay.
	if got := withoutOwnedModes(mk(0, 0, -1)); len(got) != 1 || got[0].User != -1 {
		t.Errorf("user 0 owning both values: %d jobs left, want the user-less one", len(got))
	}
}
