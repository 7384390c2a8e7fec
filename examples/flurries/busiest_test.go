package main

import (
	"math"
	"testing"

	"github.com/batchq/batchq/swf"
)

// The flurry of an existing user goes to the busiest user of the window,
// never to the user-less jobs (−1), whose flurry DetectFlurries never
// flags; user 0 is a user; a window without a user's job gets a new user
// (checked: fails without the fix in busiest, user −1 chosen).
func TestBusiestNoUser(t *testing.T) {
	mk := func(users ...int64) []swf.Job {
		jobs := make([]swf.Job, len(users))
		for i, u := range users {
			jobs[i] = swf.NewJob()
			jobs[i].ID, jobs[i].Submit, jobs[i].User = int64(i+1), int64(i), u
		}
		return jobs
	}
	for _, c := range []struct {
		users []int64
		want  int64
	}{
		{[]int64{-1, -1, -1, 0, 3}, 0},
		{[]int64{-1, -1, -1}, 1},
		{[]int64{-1, 5, 5, -1, -1}, 5},
	} {
		if got := busiest(mk(c.users...), 0, 10); got != c.want {
			t.Errorf("users %v: busiest %d, want %d", c.users, got, c.want)
		}
	}
	// A log whose largest id is 2^63−1: one past it wrapped to −2^63, a
	// negative (no) user.
	if got := newUser(mk(-1, math.MaxInt64, 0, 1)); got != 2 {
		t.Errorf("new user beside 2^63−1, 0 and 1: %d, want 2", got)
	}
}
