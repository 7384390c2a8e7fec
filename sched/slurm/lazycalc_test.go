package slurm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestLazyCalcSame checks that Run's lazy calculations (no wake-up for a
// calculation while no job can start, priorities at the last one due)
// change no schedule: on random workloads and sites, every start (time,
// backfilled, the priority it starts with), reservation and end is the
// same as with a wake-up at every calculation.
func TestLazyCalcSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 9))
	var still stillCount
	for round := range lazyRounds() {
		P := int64(4 + rng.IntN(60))
		var jobs []swf.Job
		at := int64(rng.IntN(500))
		for i := range 20 + rng.IntN(120) {
			at += int64(rng.IntN(400))
			limit := int64(60 + rng.IntN(7200))
			jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: at, RunTime: 1 + rng.Int64N(limit),
				ReqTime: limit, AllocProcs: 1 + rng.Int64N(P), ReqProcs: -1, User: rng.Int64N(6),
				Group: rng.Int64N(2), Queue: -1, Partition: -1, Status: 1})
		}
		site := Config{WeightAge: rng.Int64N(3) * 1000, WeightFairshare: rng.Int64N(3) * 10000,
			WeightJobSize: rng.Int64N(2) * 1000, CalcPeriod: []int64{0, 30, 60, 97}[rng.IntN(4)],
			BackfillInterval: []int64{0, 7, 30}[rng.IntN(3)], SchedInterval: []int64{0, 13, 60}[rng.IntN(3)],
			DecayHalfLife: []int64{0, 3600}[rng.IntN(2)], EnforceLimits: rng.IntN(2) == 0,
			Epilog: rng.IntN(2) == 0, BackfillMaxJobUser: rng.Int64N(3), MaxAge: []int64{0, 2000}[rng.IntN(2)]}
		site.ClassicFairshare = rng.IntN(2) == 0
		site.SchedMinInterval = []int64{0, 0, 1, 2, 5, 400}[rng.IntN(6)]
		run := func(eager bool) ([]string, int64) {
			p, err := New(site, sched.Config{MachineSize: P})
			if err != nil {
				t.Fatal(err)
			}
			p.eagerCalc = eager
			var log []string
			obs := logHooks(p, &log)
			if _, err := p.Run(context.Background(), jobs, obs); err != nil {
				t.Fatal(err)
			}
			return log, p.wakes
		}
		eager, ew := run(true)
		lazy, lw := run(false)
		sameLog(t, fmt.Sprintf("round %d (%+v, P %d)", round, site, P), eager, lazy)
		still.note(site, ew, lw)
	}
	still.check(t)
}

// stillCount counts the rounds under SchedMinInterval whose lazy run woke
// less often than the eager one (stillspan.go passed calculations over):
// the tests compare something only if some do.
type stillCount struct{ rounds, fewer int }

func (c *stillCount) note(site Config, eagerWakes, lazyWakes int64) {
	if site.SchedMinInterval > 0 {
		c.rounds++
		if lazyWakes < eagerWakes {
			c.fewer++
		}
	}
}

func (c *stillCount) check(t *testing.T) {
	t.Helper()
	t.Logf("under SchedMinInterval: %d of %d rounds woke less often lazily", c.fewer, c.rounds)
	if c.fewer == 0 {
		t.Errorf("no round under SchedMinInterval (of %d) passed a calculation's wake-up over", c.rounds)
	}
}

// lazyRounds is the number of random workloads of the lazy-calculation
// tests: 300, or 60 under -short, which CI runs with -race (at 5–10× the
// cost: the 300 took 93–102 s each at load 15); CI's plain run does 300.
func lazyRounds() int {
	if testing.Short() {
		return 60
	}
	return 300
}

// sameLog fails t at the first event where the eager and lazy runs' logs
// differ.
func sameLog(t *testing.T, what string, eager, lazy []string) {
	t.Helper()
	for i := range min(len(eager), len(lazy)) {
		if eager[i] != lazy[i] {
			t.Fatalf("%s: event %d: eager %q, lazy %q", what, i, eager[i], lazy[i])
		}
	}
	if len(eager) != len(lazy) {
		t.Fatalf("%s: %d events eager, %d lazy", what, len(eager), len(lazy))
	}
}

// TestLazyCalcSameSites is TestLazyCalcSame on richer sites: machines of
// nodes (jobs asking nodes, cores per node, memory, some with more or
// fewer CPUs than their nodes × cores), partitions with tiers and limits,
// QOS, an account tree, backfill limits, the builtin scheduler, a pass
// per event; arrivals and run times on the calculation grid, so that jobs
// arrive, start and end at the very second of a calculation. It logs the
// priority of every waiting job at every event an observer sees, not only
// that of the job starting. Some jobs ask no CPUs or more than the machine,
// some partitions own a few nodes, and some jobs are cancelled, waiting or
// running, at a submission or at a time of their own.
func TestLazyCalcSameSites(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 10))
	var still stillCount
	for round := range lazyRounds() {
		var mach sched.Config
		var P, nodes, cores int64
		kind := rng.IntN(3) // 0: a pool of CPUs; 1, 2: nodes (2: jobs ask nodes)
		if kind == 0 {
			P = 4 + rng.Int64N(60)
			mach.MachineSize = P
		} else {
			nodes, cores = 2+rng.Int64N(8), 1+rng.Int64N(6)
			P = nodes * cores
			mach.Nodes = []swf.Node{{Name: "n", Count: nodes, Cores: cores, Memory: 64}}
		}
		mach.PerEventPass = rng.IntN(3) == 0
		period := []int64{0, 30, 60, 97}[rng.IntN(4)]
		grid := or(period, 300)
		var jobs []swf.Job
		at := int64(rng.IntN(500))
		for i := range 20 + rng.IntN(120) {
			at += int64(rng.IntN(400))
			if rng.IntN(3) == 0 {
				at = floorTo(at, grid) + grid // on a calculation
			}
			limit := int64(60 + rng.IntN(7200))
			run := 1 + rng.Int64N(limit)
			if rng.IntN(3) == 0 {
				run = max(1, min(limit, run/grid*grid)) // ends on the grid if it starts on it
			}
			j := swf.Job{ID: int64(i + 1), Submit: at, RunTime: run, ReqTime: limit,
				AllocProcs: 1 + rng.Int64N(P), ReqProcs: -1, User: rng.Int64N(6), Group: rng.Int64N(3),
				Queue: rng.Int64N(3) - 1, Partition: rng.Int64N(3) - 1, Status: 1}
			if kind == 2 && rng.IntN(2) == 0 {
				n := 1 + rng.Int64N(nodes)
				c := 1 + rng.Int64N(cores)
				j.AllocProcs = []int64{n * c, 1 + rng.Int64N(P), n}[rng.IntN(3)]
				j.Demand = &swf.Demand{Nodes: n, Cores: c, Memory: rng.Int64N(2) * 40}
			}
			if rng.IntN(20) == 0 {
				j.ReqTime = -1 // the partition's DefaultTime
			}
			switch rng.IntN(40) { // sizes the simulator or the policy may refuse
			case 0:
				j.AllocProcs = 0 // no size
			case 1:
				j.AllocProcs = P + 1 + rng.Int64N(P) // more than the machine
			}
			jobs = append(jobs, j)
		}
		// Waiting or running jobs cancelled at times of their own (passes
		// Run did not ask for, in quiet stretches too) and at submissions.
		cancels := map[int64]int64{}
		for range rng.IntN(6) {
			cancels[1+rng.Int64N(int64(len(jobs)))] = jobs[0].Submit + rng.Int64N(at-jobs[0].Submit+1)
		}
		site := Config{WeightAge: rng.Int64N(3) * 1000, WeightFairshare: rng.Int64N(3) * 10000,
			WeightJobSize: rng.Int64N(2) * 1000, WeightPartition: rng.Int64N(2) * 2000, WeightQOS: rng.Int64N(2) * 5000,
			WeightAssoc: rng.Int64N(2) * 300, FavorSmall: rng.IntN(2) == 0, CalcPeriod: period,
			BackfillInterval: []int64{0, 7, 30}[rng.IntN(3)], SchedInterval: []int64{0, 13, 60}[rng.IntN(3)],
			BackfillWindow: []int64{0, 600, 3600}[rng.IntN(3)], BackfillResolution: []int64{0, 1, 60}[rng.IntN(3)],
			BackfillMaxJobTest: rng.Int64N(4), BackfillContinue: rng.IntN(2) == 0, Builtin: rng.IntN(5) == 0,
			NamedNodes: rng.IntN(2) == 0, BatchSchedDelay: []int64{0, 3}[rng.IntN(2)], OverTimeLimit: rng.Int64N(2) * 60,
			DecayHalfLife: []int64{0, 3600, 60}[rng.IntN(3)], EnforceLimits: rng.IntN(2) == 0,
			Epilog: rng.IntN(2) == 0, BackfillMaxJobUser: rng.Int64N(3), MaxAge: []int64{0, 2000, 100}[rng.IntN(3)],
			QOS: map[string]int64{"0": 10, "1": 3}}
		site.ClassicFairshare = rng.IntN(2) == 0
		site.SchedMinInterval = []int64{0, 0, 1, 2, 5, 400}[rng.IntN(6)]
		if rng.IntN(2) == 0 {
			site.Partitions = []Partition{
				{Name: "0", MaxTime: 4000, DefaultTime: 600, PriorityJobFactor: 10, PriorityTier: 1 + rng.Int64N(2), Default: true},
				{Name: "1", DefaultTime: 3600, PriorityJobFactor: 1, PriorityTier: 1},
			}
			if kind != 0 && rng.IntN(2) == 0 { // partitions over some nodes, apart or overlapping
				site.Partitions[0].Nodes = []string{"a", "b"}
				site.Partitions[1].Nodes = [][]string{{"c"}, {"b", "c", "d"}}[rng.IntN(2)]
			}
		}
		if rng.IntN(2) == 0 {
			site.Associations = []Association{{Account: "a"}, {Account: "b", Parent: "a", Shares: 3}, {Account: "c", Shares: 2}}
			for u := range 6 {
				acct := []string{"a", "b", "c"}[u%3]
				sh := 1 + rng.Int64N(3)
				if rng.IntN(8) == 0 {
					sh = -1
				}
				site.Associations = append(site.Associations, Association{Account: acct, User: fmt.Sprint(u), Shares: sh, RawUsage: float64(rng.IntN(2)) * 1e5})
			}
			site.AccountNames = map[int64]string{0: "a", 1: "b", 2: "c"}
		}
		run := func(eager bool) ([]string, int64) {
			return prioLog(t, fmt.Sprint("round ", round), site, mach, jobs, cancels, true, eager)
		}
		eager, ew := run(true)
		lazy, lw := run(false)
		sameLog(t, fmt.Sprintf("round %d (%+v, %+v)", round, site, mach), eager, lazy)
		still.note(site, ew, lw)
	}
	still.check(t)
}

// TestLazyCalcCancel checks that a Run stopped by its context leaves the
// priorities (Policy.Priority) of the calculations due by then, as a
// wake-up at each would have, not those of the last event: two jobs wait
// behind a running one, their age factor rising at each calculation, and
// the run is cancelled in the quiet stretch after the second submission,
// as by another goroutine an hour into the simulation (clockCancel: the
// eager run wakes at every calculation, the lazy one does not, so a
// cancellation heard at the next instant would stop them at different
// times).
func TestLazyCalcCancel(t *testing.T) {
	job := func(id, submit, run int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, RunTime: run, ReqTime: 2 * run, AllocProcs: 4, ReqProcs: -1,
			User: id, Queue: -1, Partition: -1, Status: 1}
	}
	jobs := []swf.Job{job(1, 0, 20000), job(2, 10, 100), job(3, 20, 100), job(4, 9000, 100)}
	var got [2][2]int64
	for k, eager := range []bool{true, false} {
		p, err := New(Config{WeightAge: 100000, MaxAge: 7200, CalcPeriod: 60}, sched.Config{MachineSize: 4})
		if err != nil {
			t.Fatal(err)
		}
		p.eagerCalc = eager
		ctx := newClockCancel(p, 3600)
		if _, err = p.Run(ctx, jobs, sched.Hooks{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("eager %v: err %v, want context.Canceled", eager, err)
		}
		if now := p.sim.Now(); now != 3600 {
			t.Fatalf("eager %v: stopped at %d, want 3600", eager, now)
		}
		got[k][0], _ = p.Priority(2)
		got[k][1], _ = p.Priority(3)
	}
	if got[0] != got[1] || got[0][0] <= 1 {
		t.Errorf("priorities after a cancelled run: eager %v, lazy %v", got[0], got[1])
	}
}

// clockCancel is a context cancelled when its Err is read once p's
// simulation clock has reached at: a cancellation by another goroutine,
// heard at a chosen simulated time.
type clockCancel struct {
	context.Context
	cancel context.CancelFunc
	p      *Policy
	at     int64
}

func newClockCancel(p *Policy, at int64) *clockCancel {
	ctx, cancel := context.WithCancel(context.Background())
	return &clockCancel{ctx, cancel, p, at}
}

func (c *clockCancel) Err() error {
	if c.p.sim != nil && c.p.sim.Now() >= c.at {
		c.cancel()
	}
	return c.Context.Err()
}

// logHooks writes every start (with its backfill flag and the job's
// priority at that moment), reservation and end the policy p makes into
// *log, one line each: two runs' logs are equal when they did the same.
func logHooks(p *Policy, log *[]string) sched.Hooks {
	return sched.Hooks{
		Start: func(now int64, j *swf.Job, bf bool) {
			pr, _ := p.Priority(j.ID)
			*log = append(*log, fmt.Sprint("start ", now, " ", j.ID, " ", bf, " ", pr))
		},
		Reservation: func(now int64, j *swf.Job, at int64) {
			*log = append(*log, fmt.Sprint("resv ", now, " ", j.ID, " ", at))
		},
		End: func(now int64, j *swf.Job, c bool) { *log = append(*log, fmt.Sprint("end ", now, " ", j.ID, " ", c)) },
	}
}

// prioLog runs jobs under site on mach, with the eager or the lazy
// calculations, cancelling each job of cancels at its time (and, with
// ninth, at each ninth job's submission the job four before it: waiting,
// running or gone), and returns a line for each submission, start,
// reservation and end with the priority of every job waiting then, and
// the wake-ups Run made.
func prioLog(t *testing.T, label string, site Config, mach sched.Config, jobs []swf.Job, cancels map[int64]int64, ninth, eager bool) ([]string, int64) {
	t.Helper()
	return prioLogP(t, label, site, mach, jobs, cancels, ninth, eager, nil)
}

// prioLogP is prioLog with set, if not nil, called on the policy before
// it runs (a test's switches; its counters read after).
func prioLogP(t *testing.T, label string, site Config, mach sched.Config, jobs []swf.Job, cancels map[int64]int64, ninth, eager bool, set func(*Policy)) ([]string, int64) {
	t.Helper()
	p, err := New(site, mach)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	p.eagerCalc = eager
	if set != nil {
		set(p)
	}
	var log []string
	waiting := map[int64]bool{}
	prios := func(what string, now, id int64) {
		s := fmt.Sprint(what, " ", now, " ", id, ":")
		for _, j := range jobs {
			if waiting[j.ID] {
				pr, ok := p.Priority(j.ID)
				s += fmt.Sprint(" ", j.ID, "=", pr, ok)
			}
		}
		log = append(log, s)
	}
	armed := false
	obs := sched.Hooks{
		Submit: func(now int64, j *swf.Job) {
			waiting[j.ID] = true
			prios("submit", now, j.ID)
			if !armed {
				armed = true
				for id, at := range cancels {
					p.sim.At(at, func(int64) { p.sim.Cancel(id) })
				}
			}
			if ninth && j.ID%9 == 0 {
				p.sim.Cancel(j.ID - 4)
			}
		},
		Start: func(now int64, j *swf.Job, bf bool) {
			prios(fmt.Sprint("start ", bf), now, j.ID)
			delete(waiting, j.ID)
		},
		Reservation: func(now int64, j *swf.Job, at int64) { prios(fmt.Sprint("resv ", at), now, j.ID) },
		End: func(now int64, j *swf.Job, c bool) {
			delete(waiting, j.ID)
			prios(fmt.Sprint("end ", c), now, j.ID)
		},
	}
	if _, err := p.Run(context.Background(), jobs, obs); err != nil && !errors.Is(err, sched.ErrStall) {
		t.Fatalf("%s: %v", label, err)
	}
	return log, p.wakes
}
