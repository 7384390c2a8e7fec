package sched_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

func genJobs(t *rapid.T, P int64) []swf.Job {
	n := rapid.IntRange(1, 60).Draw(t, "n")
	jobs := make([]swf.Job, n)
	var sub int64
	for i := range jobs {
		sub += rapid.Int64Range(0, 50).Draw(t, "gap")
		r := rapid.Int64Range(0, 200).Draw(t, "run")
		e := r + rapid.Int64Range(-20, 200).Draw(t, "slack") // some overrun
		if e <= 0 {
			e = 1
		}
		jobs[i] = job(int64(i+1), sub, r, rapid.Int64Range(1, P).Draw(t, "size"), e)
		jobs[i].User = rapid.Int64Range(1, 3).Draw(t, "user")
	}
	return jobs
}

// capacity checks that running jobs never exceed the machine.
type capacity struct {
	t    *rapid.T
	P    int64
	used int64
}

func (c *capacity) OnSubmit(int64, *swf.Job) {}
func (c *capacity) OnStart(now int64, j *swf.Job, _ bool) {
	c.used += j.Size()
	if c.used > c.P {
		c.t.Fatalf("t=%d: %d processors in use on a machine of %d", now, c.used, c.P)
	}
}
func (c *capacity) OnEnd(_ int64, j *swf.Job, _ bool)    { c.used -= j.Size() }
func (c *capacity) OnReservation(int64, *swf.Job, int64) {}

var variantNames = []string{"FCFS", "EASY", "EASY_PRED", "EASY_PCOR", "EASY_SJBF", "EASY+", "EASY++",
	"PERFECT++", "X2", "X2+", "SJF", "SJF+", "LXF&W", "Conservative"}

func TestPropertiesRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 16).Draw(t, "P")
		jobs := genJobs(t, P)
		name := rapid.SampledFrom(variantNames).Draw(t, "variant")
		cfg := preset(name)(P)
		cfg.PerEventPass = rapid.Bool().Draw(t, "perEvent")
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Observe(&capacity{t: t, P: P})
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if r.Start < r.Job.Submit {
				t.Fatalf("job %d starts at %d before its arrival %d", r.Job.ID, r.Start, r.Job.Submit)
			}
			if r.End != r.Start+r.Job.RunTime {
				t.Fatalf("job %d runs %d, not its runtime %d", r.Job.ID, r.End-r.Start, r.Job.RunTime)
			}
		}
		if name == "FCFS" {
			for i := 1; i < len(res.Records); i++ {
				if res.Records[i].Start < res.Records[i-1].Start {
					t.Fatalf("FCFS reordered jobs %d and %d", res.Records[i-1].Job.ID, res.Records[i].Job.ID)
				}
			}
		}
		// determinism: a second run with a fresh config gives the same records.
		cfg2 := preset(name)(P)
		cfg2.PerEventPass = cfg.PerEventPass
		res2, err := sched.Run(context.Background(), cfg2, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Records, res2.Records) {
			t.Fatal("two runs differ")
		}
	})
}

// With exact predictions, EASY never starts the holder after its (first)
// reservation.
func TestEASYExactReservationRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 16).Draw(t, "P")
		jobs := genJobs(t, P)
		cfg := preset("PERFECT++")(P)
		if rapid.Bool().Draw(t, "fcfsOrder") {
			cfg.Scheduler = sched.EASYScheduler{}
		}
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if r.FirstReservation >= 0 && r.Start > r.FirstReservation {
				t.Fatalf("job %d reserved at %d started at %d", r.Job.ID, r.FirstReservation, r.Start)
			}
		}
	})
}

// Agents: a job submitted by an agent at t arrives at t, and cancelling a
// waiting job removes it.
func TestAgentSubmitCancel(t *testing.T) {
	s, err := sched.New(sched.EASY(4))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load([]swf.Job{job(1, 0, 100, 4, 100)}); err != nil {
		t.Fatal(err)
	}
	s.At(10, func(now int64) {
		s.Submit(job(2, -1, 50, 4, 50))
		s.Submit(job(3, -1, 50, 4, 50))
	})
	s.At(20, func(now int64) {
		if !s.Cancel(2) {
			t.Error("cancel of waiting job 2 failed")
		}
	})
	if err := s.RunUntil(50); err != nil {
		t.Fatal(err)
	}
	q := s.Queue()
	if s.Now() != 50 || len(q.Waiting) != 1 || q.Waiting[0].ID != 3 || len(q.Running) != 1 || q.Free != 0 {
		t.Fatalf("at 50: %+v", q)
	}
	res, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]int64{}
	for _, r := range res.Records {
		got[r.Job.ID] = r.Start
		if r.Job.ID == 2 && !r.Cancelled {
			t.Error("job 2 not marked cancelled")
		}
	}
	if got[1] != 0 || got[2] != -1 || got[3] != 100 {
		t.Fatalf("starts %v", got)
	}
	if res.Summary.Cancelled != 1 {
		t.Fatalf("cancelled %d", res.Summary.Cancelled)
	}
}

// Lockstep RunUntil in small steps gives the same schedule as Run.
func TestLockstepEqualsRun(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 16).Draw(t, "P")
		jobs := genJobs(t, P)
		want, err := sched.Run(context.Background(), preset("EASY++")(P), jobs)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := sched.New(preset("EASY++")(P))
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		step := rapid.Int64Range(1, 100).Draw(t, "step")
		for now := int64(0); now < 10000; now += step {
			if err := s.RunUntil(now); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := s.Finish()
		if !reflect.DeepEqual(want.Records, got.Records) {
			t.Fatal("lockstep differs from Run")
		}
	})
}

// With exact predictions, conservative backfilling never starts a job after
// its first reservation: every reservation is a guarantee.
func TestConservativeExactReservationRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 16).Draw(t, "P")
		jobs := genJobs(t, P)
		cfg := preset("Conservative")(P)
		cfg.Predictor = predict.Perfect{}
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if r.FirstReservation >= 0 && r.Start > r.FirstReservation {
				t.Fatalf("job %d reserved at %d started at %d", r.Job.ID, r.FirstReservation, r.Start)
			}
		}
	})
}

// preset returns the constructor of a named preset; it panics on a typo in
// a test.
func preset(name string) func(int64) sched.Config {
	p, ok := sched.LookupPreset(name)
	if !ok {
		panic("unknown preset " + name)
	}
	return p.New
}

// At's callbacks each run once, at their own time, when their slots are
// used again: by one asked from a callback at its own time (same batch),
// and by ones asked later while others still wait.
func TestAtSlotsReused(t *testing.T) {
	s, err := sched.New(sched.EASY(4))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load([]swf.Job{job(1, 0, 100, 4, 100)}); err != nil {
		t.Fatal(err)
	}
	var got []string
	at := func(name string, t int64, then func()) {
		s.At(t, func(now int64) {
			got = append(got, fmt.Sprintf("%s@%d", name, now))
			if then != nil {
				then()
			}
		})
	}
	at("a", 10, func() {
		at("a2", 10, nil) // a's slot, freed before a runs
		at("c", 30, func() { at("e", 40, nil) })
	})
	at("b", 20, func() { at("d", 25, nil) })
	at("f", 35, nil)
	if err := s.RunUntil(50); err != nil {
		t.Fatal(err)
	}
	want := "[a@10 a2@10 b@20 d@25 c@30 f@35 e@40]"
	if fmt.Sprint(got) != want {
		t.Fatalf("callbacks ran %v, want %s", got, want)
	}
}

// arrivalOrder is arrival order as a user's Order: EASY then takes its
// generic path (a sort of the queue per pass, no memo, no blocks).
type arrivalOrder struct{}

func (arrivalOrder) Less(int64, *sched.Job, *sched.Job) bool { return false }
func (arrivalOrder) Name() string                            { return "arrival (a user's)" }

// walkJobs draws up to maxN jobs of up to P processors arriving a few
// seconds apart, so that queues grow hundreds of jobs long (blocks of
// every kind, squeezes), of three users.
func walkJobs(t *rapid.T, P int64, maxN int) []swf.Job {
	jobs := make([]swf.Job, rapid.IntRange(1, maxN).Draw(t, "n"))
	var sub int64
	for i := range jobs {
		sub += rapid.Int64Range(0, 5).Draw(t, "gap")
		r := rapid.Int64Range(0, 300).Draw(t, "run")
		e := max(1, r+rapid.Int64Range(-20, 300).Draw(t, "slack"))
		jobs[i] = job(int64(i+1), sub, r, rapid.Int64Range(1, P).Draw(t, "size"), e)
		jobs[i].User = rapid.Int64Range(1, 3).Draw(t, "user")
	}
	return jobs
}

// sameStarts fails unless every job of a starts when, as and after the
// reservation it does in b, b's by the generic path.
func sameStarts(t *rapid.T, a, b *sched.Result) {
	if len(a.Records) != len(b.Records) {
		t.Fatalf("%d records, by the generic path %d", len(a.Records), len(b.Records))
	}
	for k := range a.Records {
		x, y := &a.Records[k], &b.Records[k]
		if x.Start != y.Start || x.Backfilled != y.Backfilled || x.FirstReservation != y.FirstReservation {
			t.Fatalf("job %d: start %d, backfilled %v, reserved %d; by the generic path %d, %v, %d",
				x.Job.ID, x.Start, x.Backfilled, x.FirstReservation, y.Start, y.Backfilled, y.FirstReservation)
		}
	}
}

// TestEASYWalkRapid: EASY's own walk of the waiting queue, with its memo
// and the blocks of the queue it skips (fifo.blk), starts the jobs that
// the generic path of the same order starts, on queues hundreds of jobs
// long (blocks of every kind, squeezes).
func TestEASYWalkRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 64).Draw(t, "P")
		jobs := walkJobs(t, P, 400)
		own := sched.EASY(P)
		own.ShadowTies = rapid.Bool().Draw(t, "ties")
		user := own
		user.Scheduler = sched.EASYScheduler{Queue: arrivalOrder{}, Backfill: arrivalOrder{}}
		a, err := sched.Run(context.Background(), own, jobs)
		if err != nil {
			t.Fatal(err)
		}
		b, err := sched.Run(context.Background(), user, jobs)
		if err != nil {
			t.Fatal(err)
		}
		sameStarts(t, a, b)
	})
}

// TestEASYWalkChangesRapid: as TestEASYWalkRapid, with what can change a
// waiting queue's blocks between passes: predictions by a history (that
// propagates or not), corrections, EstimateSafe, users' cancellations of
// waiting and running jobs and submissions mid-run; and holders in
// another order than arrival (the walk is still by arrival), so that a
// holder waits in the middle of the queue and, no longer the holder at a
// later pass, may backfill: its block's bound must cover it.
func TestEASYWalkChangesRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 32).Draw(t, "P")
		jobs := walkJobs(t, P, 250)
		changes := drawChanges(t, jobs, P)
		queue := []sched.Order{nil, sched.ByPrediction, sched.ByLXFW, wrapped{sched.ByPrediction}}[rapid.IntRange(0, 3).Draw(t, "queue")]
		safe := rapid.Bool().Draw(t, "estimateSafe")
		pred := rapid.IntRange(0, 2).Draw(t, "predictor") // estimate, history, propagating history
		corr := rapid.Bool().Draw(t, "corrector")
		ties := rapid.Bool().Draw(t, "ties")
		// On a machine of nodes (easy_nodes.go) too: P one-core nodes, or
		// nodes of 4 cores (P rounded up), where a job spreads.
		nodes := rapid.IntRange(0, 2).Draw(t, "nodes") // none, one-core, four-core
		run := func(q, b sched.Order) *sched.Result {
			cfg := sched.EASY(P)
			switch nodes {
			case 1:
				cfg = sched.EASY(0)
				cfg.Nodes = []swf.Node{{Count: P, Cores: 1}}
			case 2:
				cfg = sched.EASY(0)
				cfg.Nodes = []swf.Node{{Count: (P + 3) / 4, Cores: 4}}
			}
			cfg.ShadowTies = ties
			cfg.Scheduler = sched.EASYScheduler{Queue: q, Backfill: b, EstimateSafe: safe}
			if pred > 0 {
				h, err := predict.NewUserHistory(predict.HistoryConfig{Window: 2, Partial: true, Propagate: pred == 2})
				if err != nil {
					t.Fatal(err)
				}
				cfg.Predictor = h
			}
			if corr {
				cfg.Corrector = sched.EstimateCorrector{}
			}
			s := loadWithChanges(t, cfg, jobs, changes)
			res, err := s.Finish()
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		generic := queue
		if queue == nil {
			generic = arrivalOrder{}
		}
		sameStarts(t, run(queue, nil), run(generic, arrivalOrder{}))
	})
}

// walkChange is a user's cancellation (cancel, a job's ID) or submission
// (job) at a time, between a rapid walk test's passes.
type walkChange struct {
	at     int64
	cancel int64 // a job's ID, or 0: submit
	job    swf.Job
}

// drawChanges draws up to 30 changes over jobs' submissions and 300 s
// after, on a machine of P processors.
func drawChanges(t *rapid.T, jobs []swf.Job, P int64) []walkChange {
	sub := jobs[len(jobs)-1].Submit
	changes := make([]walkChange, rapid.IntRange(0, 30).Draw(t, "changes"))
	for k := range changes {
		c := &changes[k]
		c.at = rapid.Int64Range(0, sub+300).Draw(t, "at")
		if rapid.Bool().Draw(t, "cancel") {
			c.cancel = rapid.Int64Range(1, int64(len(jobs))).Draw(t, "id")
			continue
		}
		r := rapid.Int64Range(0, 300).Draw(t, "subRun")
		c.job = job(int64(len(jobs)+1+k), 0, r, rapid.Int64Range(1, P).Draw(t, "subSize"), r+1)
		c.job.User = rapid.Int64Range(1, 3).Draw(t, "subUser")
	}
	return changes
}

// loadWithChanges makes a simulation of cfg with jobs loaded and changes
// applied at their times.
func loadWithChanges(t *rapid.T, cfg sched.Config, jobs []swf.Job, changes []walkChange) *sched.Sim {
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(jobs); err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		s.At(c.at, func(int64) {
			if c.cancel != 0 {
				s.Cancel(c.cancel)
			} else {
				s.Submit(c.job)
			}
		})
	}
	return s
}
