package sched_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// idle never starts anything.
type idle struct{}

func (idle) Schedule(*sched.Pass) {}

// A Scheduler that never starts a job ends the run with jobs waiting on
// an idle machine: Run returns ErrStall naming the first of them, with the
// Result (issue 31: it was a clean run, every start −1).
func TestStallIsAnError(t *testing.T) {
	cfg := sched.EASY(8)
	cfg.Scheduler = idle{}
	res, err := sched.Run(context.Background(), cfg, []swf.Job{job(7, 0, 10, 2, 10), job(8, 5, 10, 2, 10)})
	if !errors.Is(err, sched.ErrStall) || !strings.Contains(err.Error(), "job 7 ") {
		t.Fatalf("Run = %v, want ErrStall naming job 7", err)
	}
	if res == nil || len(res.Records) != 2 || res.Records[0].Start != -1 {
		t.Fatalf("result %+v, want both records, never started", res)
	}
	// A policy that only starts jobs of 2 processors or fewer stalls on
	// the 4-processor one, the step-wise API too.
	s, _ := sched.New(sched.Config{MachineSize: 8, Scheduler: small{}})
	if err := s.Load([]swf.Job{job(1, 0, 10, 2, 10), job(2, 1, 10, 4, 10), job(3, 2, 10, 1, 10)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Finish(); !errors.Is(err, sched.ErrStall) || !strings.Contains(err.Error(), "job 2 ") {
		t.Errorf("Finish = %v, want ErrStall naming job 2", err)
	}
}

type small struct{}

func (small) Schedule(p *sched.Pass) {
	for j := range p.Waiting() {
		if j.Size() <= 2 {
			p.Start(j)
		}
	}
}

// keeper keeps the first Pass it is given and acts on it in later passes.
type keeper struct {
	kept *sched.Pass
	errs []error
}

func (k *keeper) Schedule(p *sched.Pass) {
	if k.kept == nil {
		k.kept = p
	}
	for j := range p.Waiting() {
		if p != k.kept {
			k.errs = append(k.errs, k.kept.Start(j), k.kept.Reserve(j, p.Now()+1))
		}
		p.Start(j)
	}
}

// A Scheduler that keeps a *Pass and acts on it in a later pass is
// refused with ErrStalePass, and counted (issue 31: it succeeded).
func TestStalePassRefused(t *testing.T) {
	k := &keeper{}
	res, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: k},
		[]swf.Job{job(1, 0, 10, 8, 10), job(2, 5, 10, 8, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if len(k.errs) == 0 {
		t.Fatal("no later pass")
	}
	for _, err := range k.errs {
		if !errors.Is(err, sched.ErrStalePass) {
			t.Errorf("action on a kept Pass: %v, want ErrStalePass", err)
		}
	}
	if res.Refused != len(k.errs) {
		t.Errorf("Refused = %d, want %d", res.Refused, len(k.errs))
	}
	if res.Records[1].Start != 10 || res.Records[1].FirstReservation != -1 {
		t.Errorf("job 2 start %d, reservation %d: want 10 and none", res.Records[1].Start, res.Records[1].FirstReservation)
	}
}

// distinct records every Pass it is given and, from the 600th pass on,
// acts on the first one.
type distinct struct {
	seen  map[*sched.Pass]bool
	first *sched.Pass
	n     int
	stale int // actions on the first Pass
	errs  []error
}

func (d *distinct) Schedule(p *sched.Pass) {
	d.n++
	if d.seen[p] {
		d.errs = append(d.errs, fmt.Errorf("pass %d: a *Pass handed out before", d.n))
	}
	d.seen[p] = true
	if d.first == nil {
		d.first = p
	}
	for j := range p.Waiting() {
		if d.n >= 600 {
			d.stale++
			if err := d.first.Start(j); !errors.Is(err, sched.ErrStalePass) {
				d.errs = append(d.errs, fmt.Errorf("pass %d: the first Pass's Start: %v, want ErrStalePass", d.n, err))
			}
		}
		p.Start(j)
	}
}

// Every pass has a *Pass of its own, over several of the blocks they are
// allocated in, and the first stays ended (a Pass used again would let a
// kept one act in a later pass).
func TestPassHandedOutOnce(t *testing.T) {
	var jobs []swf.Job
	for i := range 400 { // each waits for the one before: a pass at each arrival and end
		jobs = append(jobs, job(int64(i+1), int64(10*i), 15, 8, 15))
	}
	d := &distinct{seen: map[*sched.Pass]bool{}}
	if _, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: d}, jobs); err != nil {
		t.Fatal(err)
	}
	if d.n < 600 || d.stale == 0 { // (the passes of three blocks of 256)
		t.Fatalf("%d passes, %d actions on the first Pass: want at least 600 and some", d.n, d.stale)
	}
	for _, err := range d.errs {
		t.Error(err)
	}
}

// probe records the outcomes of actions on waiting jobs.
type probe struct{ errs map[string]error }

func (pr *probe) Schedule(p *sched.Pass) {
	var first *sched.Job
	for j := range p.Waiting() {
		first = j
		break
	}
	if err := p.Start(first); err != nil {
		pr.errs["start"] = err
		pr.errs["reserve max"] = p.Reserve(first, math.MaxInt64)
		pr.errs["reserve min"] = p.Reserve(first, math.MinInt64)
		pr.errs["reserve past"] = p.Reserve(first, p.Now()-1)
		pr.errs["reserve now"] = p.Reserve(first, p.Now())
		pr.errs["reserve nil"] = p.Reserve(nil, p.Now())
		return
	}
	pr.errs["again"] = p.Start(first)
	pr.errs["backfill again"] = p.Backfill(first)
}

// Pass's outcomes are typed: ErrNoFit, ErrNotWaiting, ErrOutOfRange (a
// reservation at ±2^63 was accepted, issue 31).
func TestPassOutcomes(t *testing.T) {
	pr := &probe{errs: map[string]error{}}
	res, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: pr},
		[]swf.Job{job(1, 0, 10, 6, 10), job(2, 5, 10, 4, 10)})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]error{
		"start": sched.ErrNoFit, "again": sched.ErrNotWaiting, "backfill again": sched.ErrNotWaiting,
		"reserve max": sched.ErrOutOfRange, "reserve min": sched.ErrOutOfRange, "reserve past": sched.ErrOutOfRange,
		"reserve now": nil, "reserve nil": sched.ErrNotWaiting,
	} {
		if got := pr.errs[name]; !errors.Is(got, want) || (want == nil) != (got == nil) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if r := res.Records[1].FirstReservation; r != 5 {
		t.Errorf("job 2's first reservation %d, want 5 (the one in range)", r)
	}
	// again, backfill again (job 1, then job 2), three reservations out of range, one of nil
	if res.Refused != 8 {
		t.Errorf("Refused = %d, want 8", res.Refused)
	}
}

// finder checks at every pass that Pass.Job finds each waiting and
// running job by its ID, the handle Waiting and Running yield, and
// nothing for the other IDs; then it starts jobs first come first served.
type finder struct {
	ids    []int64
	bad    []string
	passes int
}

func (f *finder) Schedule(p *sched.Pass) {
	f.passes++
	here := map[int64]bool{}
	check := func(j *sched.Job) bool {
		here[j.ID()] = true
		if got := p.Job(j.ID()); got != j {
			f.bad = append(f.bad, fmt.Sprintf("at %d job %d: Job gave %p, want %p", p.Now(), j.ID(), got, j))
		}
		return true
	}
	p.Waiting()(check)
	p.Running()(check)
	for _, id := range f.ids {
		if !here[id] && p.Job(id) != nil {
			f.bad = append(f.bad, fmt.Sprintf("at %d job %d neither waits nor runs, Job gave it", p.Now(), id))
		}
	}
	for j := range p.Waiting() {
		if p.Start(j) != nil {
			break
		}
	}
}

// Pass.Job finds the waiting and running jobs by ID (the look-up a
// Scheduler that keeps jobs by ID needs), before and after a Cancel
// makes the simulator keep every admitted ID, and with IDs that do not
// rise from the start.
func TestPassJob(t *testing.T) {
	for _, ids := range [][]int64{{1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1}} {
		f := &finder{ids: append(ids, 99)}
		s, err := sched.New(sched.Config{MachineSize: 8, Scheduler: f})
		if err != nil {
			t.Fatal(err)
		}
		var jobs []swf.Job
		for k, id := range ids {
			jobs = append(jobs, job(id, int64(k)*5, 20, 4, 30))
		}
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		if err := s.RunUntil(22); err != nil { // the first job ended at 20
			t.Fatal(err)
		}
		if !s.Cancel(ids[3]) { // waiting since 15
			t.Fatalf("IDs %v: job %d not cancelled", ids, ids[3])
		}
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range f.bad {
			t.Errorf("IDs %v: %s", ids, b)
		}
		if f.passes < 6 || res.Records[5].Start < 0 {
			t.Errorf("IDs %v: %d passes, last start %d", ids, f.passes, res.Records[5].Start)
		}
	}
}
