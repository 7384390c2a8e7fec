package forecast

import (
	"container/list"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// userHabits is a stream in which the same features mean opposite
// things for two users: user 1's long jobs (estimate 2 h) wait an hour
// and their short ones (10 min) start at once, user 2's the other way
// round. Jobs of one processor on a machine of 1,000 (the simulated wait
// is always 0), one queue, estimates drawn at random (so the user's last
// wait tells nothing about the next).
func userHabits(n int) []swf.Job {
	rng := rand.New(rand.NewPCG(3, 1))
	var jobs []swf.Job
	for i := range n {
		user := int64(1 + rng.IntN(2))
		long := rng.IntN(2) == 0
		est, wait := int64(600), int64(0)
		if long {
			est = 7200
		}
		if long == (user == 1) {
			wait = 3600
		}
		j := job(int64(i+1), int64(i)*120, wait, est/2, 1, est, user)
		j.Queue = 1
		jobs = append(jobs, j)
	}
	return jobs
}

// TestOnlineUserLadders: a user's own ladder learns what a user's habits
// make of the same features, which the size class's linear model, fitted
// on both users, cannot (their effects cancel). On 4,000 jobs of
// userHabits the forecast is within ×2 for 94.5% of the scored jobs with
// the users' ladders; with none (maxUserModels at 0, checked), for 51.9%:
// a coin.
func TestOnlineUserLadders(t *testing.T) {
	jobs := userHabits(4000)
	o, err := NewOnline(Config{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := replay.Run(context.Background(), jobs, replay.Options{}, o)
	if err != nil {
		t.Fatal(err)
	}
	ok, n := 0, 0
	for _, a := range sc[0].Answers {
		if math.Abs(math.Log10(max(a.Point, floor)/max(float64(a.Wait), floor))) <= math.Log10(2)+1e-12 {
			ok++
		}
		n++
	}
	t.Logf("within ×2: %d of %d", ok, n)
	if o.user.len() != 2 {
		t.Errorf("%d users' ladders, want 2", o.user.len())
	}
	if float64(ok) < 0.9*float64(n) {
		t.Errorf("within ×2 for %d of %d jobs, want at least 90%%", ok, n)
	}
}

// TestOnlineUserCap: jobs without a user (−1) get no user ladder; a log
// that numbers a user per job keeps maxUserModels users' ladders at most,
// so memory stays bounded.
func TestOnlineUserCap(t *testing.T) {
	jobs := synthetic(t, 3000, 7)
	for i := range jobs {
		jobs[i].User = -1
	}
	o, err := NewOnline(Config{Train: 50}, 64)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, o); err != nil {
		t.Fatal(err)
	}
	if o.user.len() != 0 {
		t.Fatalf("jobs without a user: %d users' ladders", o.user.len())
	}
	for i := range jobs {
		jobs[i].User = jobs[i].ID
	}
	o, err = NewOnline(Config{Train: 50}, 64)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, o); err != nil {
		t.Fatal(err)
	}
	if o.user.len() != maxUserModels || o.user.l.Len() != maxUserModels {
		t.Fatalf("%d users' ladders (%d listed), want %d of %d", o.user.len(), o.user.l.Len(), maxUserModels, len(jobs))
	}
}

// TestOnlineUserEviction: past maxUserModels users, a new user's ladder
// replaces the one of the user whose last job started longest ago, so a
// service run for months learns the users it has now. 700 users submit
// one job each, then user 5000 submits 300: with the first 512 users kept
// for good, user 5000 never had a ladder; now theirs has learnt from their
// jobs, and the oldest users' ladders are gone.
func TestOnlineUserEviction(t *testing.T) {
	var jobs []swf.Job
	for i := range int64(1000) {
		user := i + 1
		if i >= 700 {
			user = 5000
		}
		jobs = append(jobs, job(i+1, i*120, 0, 60, 1, 600, user))
	}
	o, err := NewOnline(Config{Train: 50}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, o); err != nil {
		t.Fatal(err)
	}
	if o.user.len() != maxUserModels || o.user.l.Len() != maxUserModels {
		t.Fatalf("%d users' ladders (%d listed), want %d", o.user.len(), o.user.l.Len(), maxUserModels)
	}
	// (The replay ends at the last arrival: the last job's start is not
	// seen.)
	if l := o.user.get(5000); l == nil || (*l).seen != 299 {
		t.Fatalf("the newest user's ladder: %v, want one learnt from 299 of their 300 jobs", l != nil)
	}
	// The first 100 jobs are the replay's training, never asked about:
	// users 101…700 were learnt from, and the 89 who started first of
	// them (101…189) made room for 190…700 and 5000.
	for _, u := range []int64{101, 189} {
		if o.user.get(u) != nil {
			t.Errorf("user %d, the least recent, kept their ladder", u)
		}
	}
	if o.user.get(190) == nil || o.user.get(700) == nil {
		t.Errorf("users 190 and 700 lost their ladders")
	}
	key := func(e *list.Element) int64 { return e.Value.(*lruEntry[int64, *ladder]).key }
	if f, b := key(o.user.l.Front()), key(o.user.l.Back()); f != 5000 || b != 190 {
		t.Errorf("users by their last start: %d first, %d last, want 5000 and 190", f, b)
	}
}

// TestLadderReset: an evicted user's ladder, emptied for the next user,
// answers bit for bit as a new ladder fed the same jobs.
func TestLadderReset(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	sample := func() ([]float64, int64) {
		x := make([]float64, nPlain)
		x[0] = 1
		for i := 1; i < nPlain; i++ {
			x[i] = rng.NormFloat64()
		}
		return x, int64(rng.IntN(86400))
	}
	used, fresh := newLadder(0.995, nPlain), newLadder(0.995, nPlain)
	for range 300 {
		x, w := sample()
		used.add(x, w)
	}
	x, _ := sample()
	used.fill(x) // (a factorization of the old samples)
	used.reset()
	for range 250 {
		x, w := sample()
		used.add(x, w)
		fresh.add(x, w)
	}
	for range 5 {
		x, _ := sample()
		used.fill(x)
		fresh.fill(x)
		if used.F != fresh.F || used.seen != fresh.seen {
			t.Fatalf("reset ladder (seen %d) answers %v, a new one (seen %d) %v", used.seen, used.F, fresh.seen, fresh.F)
		}
	}
}

// A job without a user (SWF's −1, every job of a trace that has none, as
// Alibaba's GPU pods) has the user features of a user never seen: no last
// wait of its own, no other jobs waiting, no running processors. Pooled
// as one user, every user-less job read the last wait of any user-less
// job and counted all of them waiting and running as its own (checked:
// fails without the fix in features, x[12] 1 and x[16], x[17] > 0).
func TestOnlineNoUser(t *testing.T) {
	feats := func(user int64) [nFeatures]float64 {
		o, err := NewOnline(Config{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		// Two jobs start after 10 min and run; a third waits behind them.
		a, b, c := job(1, 0, 600, 7200, 4, 7200, -1), job(2, 0, 600, 7200, 4, 7200, -1), job(3, 700, 0, 600, 4, 600, -1)
		for _, j := range []*swf.Job{&a, &b, &c} {
			if err := o.Observe(replay.Arrive, j); err != nil {
				t.Fatal(err)
			}
		}
		for _, j := range []*swf.Job{&a, &b} {
			if err := o.Observe(replay.Start, j); err != nil {
				t.Fatal(err)
			}
		}
		q := job(4, 800, 0, 600, 4, 600, user)
		if err := o.Observe(replay.Arrive, &q); err != nil {
			t.Fatal(err)
		}
		if _, err := o.Predict(&q, 800); err != nil {
			t.Fatal(err)
		}
		return o.x
	}
	none, fresh := feats(-1), feats(99)
	for _, k := range []int{12, 13, 16, 17} {
		if none[k] != fresh[k] {
			t.Errorf("feature %d of a job without a user: %g, a new user's %g", k, none[k], fresh[k])
		}
	}
	if none[12] != 0 || none[16] != 0 || none[17] != 0 {
		t.Errorf("user features of a job without a user: %g, %g, %g, want 0", none[12], none[16], none[17])
	}
}
