package forecast

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func job(id, submit, wait, run, size, est, user int64) swf.Job {
	j := swf.NewJob()
	j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime = id, submit, wait, run, size, size, est
	j.User, j.Status = user, 1
	return j
}

// A hand-checked EASY forecast with user estimates as run times: the
// running job (10 processors, estimate 100, started at 0) ends at 100; A
// starts then, B (10) is reserved for A's end at 150, C backfills at 100
// (it ends at 120 ≤ 150).
func TestForecastByHand(t *testing.T) {
	f, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{Now: 40, MachineSize: 10,
		Running: []swf.Job{job(1, 0, 0, -1, 10, 100, 1)},
		Waiting: []swf.Job{job(2, 10, -1, -1, 5, 50, 1), job(3, 20, -1, -1, 10, 30, 1), job(4, 30, -1, -1, 5, 20, 1)},
	}
	got, err := f.Forecast(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{100, 150, 100}; !equal(got, want) {
		t.Errorf("starts %v, want %v", got, want)
	}
	// One processor for 10 s fits when C ends at 120, before B's 150.
	if at, err := f.WhatIf(context.Background(), s, job(9, 40, -1, -1, 1, 10, 2)); err != nil || at != 120 {
		t.Errorf("what-if start %d (%v), want 120", at, err)
	}
	if at, err := f.WhatIf(context.Background(), s, job(9, 40, -1, -1, 11, 10, 2)); err != nil || at != -1 {
		t.Errorf("what-if larger than the machine: %d (%v), want −1", at, err)
	}
	// Conservative backfilling as the policy: C no longer jumps the queue
	// unless it fits before every reservation — it does here (100–120).
	cons, _ := sched.LookupPreset("conservative")
	fc, _ := New(Config{Estimates: true, Policy: cons.New(10)})
	if got, _ := fc.Forecast(context.Background(), s); !equal(got, []int64{100, 150, 100}) {
		t.Errorf("conservative starts %v", got)
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSnapshotErrors(t *testing.T) {
	f, _ := New(Config{})
	for _, s := range []*Snapshot{
		{Now: 10, MachineSize: 0},
		{Now: 10, MachineSize: 4, Running: []swf.Job{job(1, 5, 10, 1, 1, 1, 1)}}, // starts at 15 > now
		{Now: 10, MachineSize: 4, Running: []swf.Job{job(1, 5, -1, 1, 1, 1, 1)}}, // no start
	} {
		if _, err := f.Forecast(context.Background(), s); !errors.Is(err, errSnapshot) {
			t.Errorf("%+v: error %v", s, err)
		}
	}
	for _, c := range []Config{{Train: -1}, {Forget: 2}, {Forget: -1}} {
		if _, err := New(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if _, err := NewOnline(Config{}, 0); err == nil {
		t.Error("machine 0 accepted")
	}
}

// synthetic is a busy random workload on 64 processors with waits from an
// EASY simulation (the truth a replay scores against).
func synthetic(t testing.TB, n int, seed uint64) []swf.Job {
	rng := rand.New(rand.NewPCG(seed, 1))
	var jobs []swf.Job
	now := int64(0)
	for i := range n {
		now += int64(rng.ExpFloat64() * 150)
		run := int64(math.Exp(4 + 4*rng.Float64()))
		est := run * (1 + rng.Int64N(4))
		jobs = append(jobs, job(int64(i+1), now, -1, run, 1<<rng.IntN(6), est, rng.Int64N(20)))
	}
	res, err := sched.Run(context.Background(), sched.EASY(64), jobs)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]swf.Job, 0, len(res.Records))
	for _, r := range res.Records {
		out = append(out, r.SWF())
	}
	return out
}

// predictions replays jobs through a fresh Online and returns its answer
// (the point) for each job, by ID.
func predictions(t *testing.T, jobs []swf.Job) map[int64]float64 {
	o, err := NewOnline(Config{Train: 50}, 64)
	if err != nil {
		t.Fatal(err)
	}
	return answers(t, o, jobs)
}

// answers replays jobs through o and returns its answer for each job.
func answers(t *testing.T, o *Online, jobs []swf.Job) map[int64]float64 {
	got := map[int64]float64{}
	_, err := replay.Run(context.Background(), jobs, replay.Options{PredictAll: true, OnPredict: func(_ int, j *swf.Job, _ int64, p []replay.Prediction) {
		got[j.ID] = p[0].Point
	}}, o)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Causality: a job's forecast depends on nothing after its submission —
// not on later jobs (the replay of a prefix gives the same answers), and
// not on its own wait and run time.
func TestOnlineCausal(t *testing.T) {
	jobs := synthetic(t, 3000, 7)
	full := predictions(t, jobs)
	m := 2000
	for jobs[m].Submit == jobs[m-1].Submit {
		m++
	}
	prefix := append([]swf.Job(nil), jobs[:m]...)
	last := &prefix[m-1]
	last.Wait, last.RunTime = last.Wait*7+12345, last.RunTime*3+999
	part := predictions(t, prefix)
	for _, j := range prefix {
		if full[j.ID] != part[j.ID] {
			t.Fatalf("job %d: %v on the whole log, %v on the prefix with the last job's wait and run changed", j.ID, full[j.ID], part[j.ID])
		}
	}
}

// On a workload whose waits come from EASY itself, the simulation with the
// right policy is a strong feature: the forecaster beats the naive
// baseline within ×2.
func TestOnlineBeatsNaive(t *testing.T) {
	jobs := synthetic(t, 6000, 3)
	o, _ := NewOnline(Config{}, 64)
	sc, err := replay.Run(context.Background(), jobs, replay.Options{}, o, &Naive{})
	if err != nil {
		t.Fatal(err)
	}
	w := func(s *replay.Score) float64 {
		ok := 0
		for _, a := range s.Answers {
			if math.Abs(math.Log2(max(a.Point, floor)/max(float64(a.Wait), floor))) <= 1 {
				ok++
			}
		}
		return float64(ok) / float64(len(s.Answers))
	}
	f, n := w(&sc[0]), w(&sc[1])
	t.Logf("within ×2: forecast %.3f, naive %.3f", f, n)
	if f < n+0.05 {
		t.Errorf("forecast %.3f within ×2, not 5 points above naive %.3f", f, n)
	}
}

// A job of unknown size (−1, 0) is of a class of its own, not of the
// 1-processor jobs' (it was class 0), and past every power of two.
func TestSizeClass(t *testing.T) {
	for n, want := range map[int64]int{-1: unknownSize, 0: unknownSize, math.MinInt64: unknownSize, math.MaxInt64: 63, 1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 1024: 10, 1025: 11} {
		if got := sizeClass(n); got != want {
			t.Errorf("sizeClass(%d) = %d, want %d", n, got, want)
		}
	}
}

// The naive baseline is the median of the class's last 100 waits.
func TestNaive(t *testing.T) {
	var b Naive
	if p, _ := b.Predict(&swf.Job{AllocProcs: 4}, 0); p.OK {
		t.Error("answered without history")
	}
	for i := range 150 {
		j := job(int64(i), 0, int64(i), 1, 4, 1, 1)
		b.Observe(replay.Start, &j)
	}
	j := job(999, 0, 0, 1, 3, 1, 1)
	b.Observe(replay.Start, &j)                                         // class 2 (3–4 processors): waits 50…149 and 0
	if p, _ := b.Predict(&swf.Job{AllocProcs: 4}, 0); p.Point != 99.5 { // 51…149 and 0 → (99+100)/2
		t.Errorf("median %v, want 99.5", p.Point)
	}
	if p, _ := b.Predict(&swf.Job{AllocProcs: 64}, 0); !p.OK { // no class yet: all jobs
		t.Error("no fallback to all jobs")
	}
}

// Jobs of unknown size (SWF's −1 or 0) do not move the 1-processor
// jobs' median, and are answered from their own: they shared class 0, so
// that 1-processor jobs that waited 10 s were answered an hour after the
// unknown-size jobs that waited an hour.
func TestNaiveUnknownSize(t *testing.T) {
	var b Naive
	id := int64(0)
	start := func(size, wait int64) {
		id++
		j := swf.Job{ID: id, Wait: wait, AllocProcs: size, ReqProcs: size}
		b.Observe(replay.Start, &j)
	}
	for range 3 {
		start(1, 10)
	}
	for range 5 {
		start(0, 3600)
		start(-1, 3600)
	}
	if p, _ := b.Predict(&swf.Job{AllocProcs: 1, ReqProcs: 1}, 0); p.Point != 10 {
		t.Errorf("1-processor job: %v, want 10 (the unknown-size jobs' waits are not theirs)", p.Point)
	}
	for _, n := range []int64{0, -1} {
		if p, _ := b.Predict(&swf.Job{AllocProcs: n, ReqProcs: n}, 0); p.Point != 3600 {
			t.Errorf("size %d: %v, want 3600 (its class's)", n, p.Point)
		}
	}
}

// UserRatio scales the estimate by the user's learned ratio and caps it.
func TestUserRatio(t *testing.T) {
	var u UserRatio
	j := job(1, 0, 0, 600, 1, 3600, 7)
	if p := u.Predict(&j, 0); p != 3600 {
		t.Errorf("no history: %d, want the estimate", p)
	}
	u.Terminated(&j, 600) // ran 1/6 of its estimate
	k := job(2, 0, 0, -1, 1, 7200, 7)
	if p := u.Predict(&k, 0); p != 1200 {
		t.Errorf("after one job at 1/6: %d, want 1200", p)
	}
	other := job(3, 0, 0, -1, 1, 600, 8) // a new user: everybody's ratio
	if p := u.Predict(&other, 0); p != 100 {
		t.Errorf("new user: %d, want 100", p)
	}
	over := job(4, 0, 0, 5000, 1, 1000, 9) // ran past its estimate: ratio capped at 1
	u.Terminated(&over, 5000)
	next := job(5, 0, 0, -1, 1, 1000, 9)
	if p := u.Predict(&next, 0); p != 1000 {
		t.Errorf("capped: %d, want 1000", p)
	}
	none := job(6, 0, 0, -1, 1, -1, 7) // no estimate: the user's run time
	if p := u.Predict(&none, 0); p != 600 {
		t.Errorf("no estimate: %d, want 600", p)
	}
}

// shortcutCheck simulates every question Online answers without a
// simulation (startsNow) and checks the simulation would start it now.
type shortcutCheck struct {
	*Online
	t       *testing.T
	checked int
}

func (c *shortcutCheck) Predict(j *swf.Job, now int64) (replay.Prediction, error) {
	c.compact() // (as Online.Predict does first)
	pos := len(c.waiting) - 1
	busy := int64(0)
	for i := range c.running {
		busy += c.running[i].Size()
	}
	if pos >= 0 && c.waiting[pos].ID == j.ID && c.startsNow(j, pos, busy) {
		c.checked++
		s := &Snapshot{Now: now, MachineSize: c.machine, Running: c.running, Waiting: c.waiting[:pos+1]}
		got, err := c.f.Forecast(context.Background(), s)
		if err != nil {
			c.t.Fatal(err)
		}
		if got[pos] != now {
			c.t.Fatalf("job %d: skipped the simulation as starting at %d, the simulation starts it at %d", j.ID, now, got[pos])
		}
	}
	return c.Online.Predict(j, now)
}

// The simulation Online skips (a job at the head of the queue that fits)
// would have started the job at once.
func TestStartsNowShortcut(t *testing.T) {
	for seed := range uint64(3) {
		o, _ := NewOnline(Config{}, 64)
		c := &shortcutCheck{Online: o, t: t}
		if _, err := replay.Run(context.Background(), synthetic(t, 3000, seed+11), replay.Options{}, c); err != nil {
			t.Fatal(err)
		}
		if c.checked < 100 {
			t.Errorf("seed %d: only %d questions took the shortcut", seed, c.checked)
		}
	}
}

// The same on random snapshots where jobs wait ahead although they fit
// (a log's scheduler may hold jobs: partitions, holds), which a replay of
// an EASY log never shows.
func TestStartsNowAhead(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	o, _ := NewOnline(Config{}, 64)
	shortcuts, ahead := 0, 0
	for range 2000 {
		o.running, o.waiting = o.running[:0], o.waiting[:0]
		busy := int64(0)
		for id := int64(1); busy < 64 && rng.IntN(4) > 0; id++ {
			n := min(int64(1+rng.IntN(16)), 64-busy)
			o.running = append(o.running, job(id, 0, int64(rng.IntN(50)), -1, n, int64(100+rng.IntN(1000)), int64(rng.IntN(3))))
			busy += n
		}
		for id := int64(100); len(o.waiting) < 1+rng.IntN(6); id++ {
			o.waiting = append(o.waiting, job(id, 50, -1, -1, int64(1+rng.IntN(24)), int64(100+rng.IntN(1000)), int64(rng.IntN(3))))
		}
		got, err := o.f.Forecast(context.Background(), &Snapshot{Now: 60, MachineSize: 64, Running: o.running, Waiting: o.waiting})
		if err != nil {
			t.Fatal(err)
		}
		for pos := range o.waiting {
			if !o.startsNow(&o.waiting[pos], pos, busy) {
				continue
			}
			shortcuts++
			if pos > 0 {
				ahead++
			}
			if got[pos] != 60 {
				t.Fatalf("waiting job %d of %v (running %v): shortcut says now, the simulation %d", pos, o.waiting, o.running, got[pos])
			}
		}
	}
	if ahead < 100 {
		t.Errorf("only %d shortcuts (%d with jobs ahead)", shortcuts, ahead)
	}
}

// With queues, the per-queue ladders answer too: once a queue and size
// class has learnt from Train jobs (and not from all of its class), the
// answer is the average distribution's; in one queue and without users
// it never is (its ladders are the class's and the global one). Causal,
// too.
func TestOnlineQueueLadders(t *testing.T) {
	jobs := synthetic(t, 3000, 7)
	// averaged replays jobs and returns each answer and how many came
	// from the average of the three distributions (o.mix, zeroed before
	// each question).
	averaged := func(jobs []swf.Job) (map[int64]float64, int) {
		o, err := NewOnline(Config{Train: 50}, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, n := map[int64]float64{}, 0
		_, err = replay.Run(context.Background(), jobs, replay.Options{PredictAll: true, OnPredict: func(_ int, j *swf.Job, _ int64, p []replay.Prediction) {
			got[j.ID] = p[0].Point
			if o.mix != ([nThresholds]float64{}) {
				n++
				if want := min(decide(&o.mix, false), float64(max(o.maxWait, floor))); p[0].Point != want {
					t.Fatalf("job %d: %v, the average's answer %v", j.ID, p[0].Point, want)
				}
				o.mix = [nThresholds]float64{}
			}
		}}, o)
		if err != nil {
			t.Fatal(err)
		}
		return got, n
	}
	// (Without users, so that no user's ladder joins the average either.)
	single := slices.Clone(jobs)
	for i := range single {
		single[i].User = -1
	}
	if _, n := averaged(single); n != 0 {
		t.Fatalf("one queue: %d answers from the average", n)
	}
	for i := range jobs {
		jobs[i].Queue = jobs[i].User % 3
	}
	three, n := averaged(jobs)
	t.Logf("three queues: %d of %d answers from the average", n, len(jobs))
	if n == 0 {
		t.Fatal("three queues: no answer from the average")
	}
	m := 2000
	for jobs[m].Submit == jobs[m-1].Submit {
		m++
	}
	part := predictions(t, jobs[:m:m])
	for _, j := range jobs[:m] {
		if three[j.ID] != part[j.ID] {
			t.Fatalf("job %d: %v on the whole log, %v on a prefix", j.ID, three[j.ID], part[j.ID])
		}
	}
}

// TestOnlineQueueCap: jobs without a queue (−1) get no queue ladders; a
// log that numbers a queue per job (hostile, or a
// converter's job IDs in field 15) gets ladders for the first
// maxQueueModels queues only, so memory stays bounded, and its later
// queues are answered by their class's model.
func TestOnlineQueueCap(t *testing.T) {
	jobs := synthetic(t, 3000, 7)
	for i := range jobs {
		jobs[i].Queue = -1 // no queue: no ladders of their own
	}
	o, err := NewOnline(Config{Train: 50}, 64)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, o); err != nil {
		t.Fatal(err)
	}
	if len(o.queue) != 0 {
		t.Fatalf("jobs without a queue: %d ladders of queues", len(o.queue))
	}
	for i := range jobs {
		jobs[i].Queue = jobs[i].ID
	}
	o, err = NewOnline(Config{Train: 50}, 64)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, o); err != nil {
		t.Fatal(err)
	}
	queues := map[int64]bool{}
	for k := range o.queue {
		queues[k[0]] = true
	}
	if o.queues != maxQueueModels || len(queues) != maxQueueModels {
		t.Fatalf("%d queues with ladders (counted %d), want %d of %d", len(queues), o.queues, maxQueueModels, len(jobs))
	}
}

// A replayed job with no size that starts holds no processors: Online
// keeps it out of its snapshots, which the simulation would refuse (a
// running job with no size is a bad snapshot), and asks the simulation
// about the job behind the full machine as if it were not there.
func TestOnlineRunningNoSize(t *testing.T) {
	jobs := []swf.Job{job(1, 0, 0, 100, 4, 100, 1), job(2, 0, 0, 100, -1, 100, 2), job(3, 10, 90, 10, 2, 10, 3)}
	jobs[1].AllocProcs, jobs[1].ReqProcs = 0, 0
	o, err := NewOnline(Config{Estimates: true}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{PredictAll: true}, o); err != nil {
		t.Fatal(err)
	}
	if _, ok := o.runAt[2]; ok {
		t.Error("job 2, of no size, among the running jobs")
	}
}

// A job without a user (−1) is a user never seen: everybody's ratio, not
// that of the user-less jobs pooled as one user (checked: fails without
// the fix in UserRatio: 100, user −1's own ratio).
func TestUserRatioNoUser(t *testing.T) {
	var u UserRatio
	a := job(1, 0, 0, 600, 1, 6000, -1) // a user-less job ran 1/10
	u.Terminated(&a, 600)
	b := job(2, 0, 0, 6000, 1, 6000, 7) // user 7 ran its whole estimate
	u.Terminated(&b, 6000)
	// Everybody's ratio: exp(0.7·log(1/10)) ≈ 0.1995, of 1000 s 200 s;
	// the pooled user −1's would be 1/10: 100 s.
	c := job(3, 0, 0, -1, 1, 1000, -1)
	if p := u.Predict(&c, 0); p != 200 {
		t.Errorf("a user-less job: %d, want everybody's 200", p)
	}
	// User 0 is a user: its own ratio, 1/10 of 1000 s.
	var z UserRatio
	a.User, b.User, c.User = 0, 7, 0
	z.Terminated(&a, 600)
	z.Terminated(&b, 6000)
	if p := z.Predict(&c, 0); p != 100 {
		t.Errorf("a job of user 0: %d, want user 0's 100", p)
	}
}
