package sched_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

// endsNowJobs: two jobs end at 10 as predicted, and the job reserved at 10
// needs the processors of both. On 4 processors C (1, until 1000), A (2)
// and B (1) start at 0 and fill the machine; W (3 processors) reserves
// [10, 20) and Y (3) [20, 30). Every prediction is exact.
//
// With a pass per event, the pass after A's termination at 10 still sees
// B running, predicted to end at 10, its own termination still to come.
// It used to count B's processor free only from 11, as for a job that
// outlived its prediction (S3): W no longer fitted at 10, conservative
// backfilling re-placed it after Y's reservation (at 30) and Y took
// [10, 20) — W started at 20, after its reservation at 10, though every
// prediction was exact. B has not outlived its prediction: W keeps its
// slot, waits for B's termination at 10, and starts then.
func endsNowJobs() []swf.Job {
	return []swf.Job{
		djob(1, 0, 1000, 1, nil), // C
		djob(2, 0, 10, 2, nil),   // A
		djob(3, 0, 10, 1, nil),   // B
		djob(4, 1, 10, 3, nil),   // W
		djob(5, 2, 10, 3, nil),   // Y
	}
}

func TestEndsNowKeepsReservation(t *testing.T) {
	want := map[int64]int64{1: 0, 2: 0, 3: 0, 4: 10, 5: 20}
	for _, name := range []string{"EASY", "Conservative"} {
		for _, machine := range []string{"pool", "one node", "four nodes"} {
			for _, perEvent := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s %s perEvent=%v", name, machine, perEvent), func(t *testing.T) {
					p, _ := sched.LookupPreset(name)
					c := p.New(4)
					switch machine {
					case "one node":
						c = p.New(0)
						c.Nodes, c.KeepShares = []swf.Node{{Count: 1, Cores: 4}}, true
					case "four nodes":
						c = p.New(0)
						c.Nodes, c.KeepShares = []swf.Node{{Count: 4, Cores: 1}}, true
					}
					c.PerEventPass = perEvent
					res, err := sched.Run(context.Background(), c, endsNowJobs())
					if err != nil {
						t.Fatal(err)
					}
					if err := res.Check(); err != nil {
						t.Error(err)
					}
					if res.Refused != 0 {
						t.Errorf("%d actions refused", res.Refused)
					}
					for _, r := range res.Records {
						if r.Start != want[r.Job.ID] {
							t.Errorf("job %d started at %d, want %d (reserved at %d)", r.Job.ID, r.Start, want[r.Job.ID], r.FirstReservation)
						}
					}
				})
			}
		}
	}
}

// A policy written on Pass.Profile sees B's processor free at 10 while B
// still runs: W fits there, Start refuses it (ErrNoFit), and the policy
// reserves it at now, as Pass.Profile's doc says; it starts at the pass
// after B's termination.
func TestEndsNowUserProfile(t *testing.T) {
	var sawMore bool
	pol := profilePolicy{more: &sawMore}
	c := sched.Config{MachineSize: 4, Scheduler: pol, PerEventPass: true}
	res, err := sched.Run(context.Background(), c, endsNowJobs())
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Error(err)
	}
	if !sawMore {
		t.Error("no pass saw more processors free now in the profile than Free: the case is not exercised")
	}
	for _, r := range res.Records {
		if r.Job.ID == 4 && r.Start != 10 {
			t.Errorf("W started at %d, want 10", r.Start)
		}
	}
}

// profilePolicy is conservative backfilling in arrival order on
// Pass.Profile, a job refused now reserved at now.
type profilePolicy struct{ more *bool }

func (pp profilePolicy) Schedule(p *sched.Pass) {
	prof := p.Profile()
	if t, ok := prof.Fit(p.Free()+1, 1, p.Now()); ok && t == p.Now() {
		*pp.more = true
	}
	var waiting []*sched.Job
	for j := range p.Waiting() {
		waiting = append(waiting, j)
		if r := j.Reservation(); r >= 0 {
			prof.Allocate(max(r, p.Now()), max(j.Prediction(), 1), j.Size())
		}
	}
	for _, j := range waiting {
		d := max(j.Prediction(), 1)
		if r := j.Reservation(); r >= 0 {
			prof.Allocate(max(r, p.Now()), d, -j.Size())
		}
		t, _ := prof.Fit(j.Size(), d, p.Now())
		prof.Allocate(t, d, j.Size())
		if t != p.Now() || p.Start(j) != nil {
			p.Reserve(j, t)
		}
	}
}

// With exact predictions no job starts after its first reservation under
// conservative backfilling (Result.Check), with a pass per event as per
// timestamp: on the logs without estimates (S6 makes e = r), and on KTH
// with the oracle predictor, where every job ends as predicted.
func TestEndsNowTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: whole-trace runs")
	}
	for _, tc := range []struct {
		trace   string
		perfect bool
	}{{tracetest.Lublin, false}, {tracetest.OSC, false}, {tracetest.SDSCPar, false}, {tracetest.KTH, true}} {
		h, jobs, err := swf.ReadFile(tracetest.Path(t, tc.trace))
		if err != nil {
			t.Fatal(err)
		}
		P := h.MaxProcs
		if P <= 0 {
			P = h.MaxNodes
		}
		for _, name := range []string{"EASY", "Conservative"} {
			for _, perEvent := range []bool{false, true} {
				p, _ := sched.LookupPreset(name)
				c := p.New(P)
				c.PerEventPass = perEvent
				if tc.perfect {
					c.Predictor = predict.Perfect{}
				}
				res, err := sched.Run(context.Background(), c, jobs)
				if err != nil {
					t.Fatal(err)
				}
				if err := res.Check(); err != nil {
					t.Errorf("%s %s perEvent=%v: %v", tracetest.ShortName(tc.trace), name, perEvent, err)
				}
			}
		}
	}
}

// Pass.Profile with a job that outlived its prediction and one that ends
// now as predicted: on 4 processors O (predicted to end at 5, runs until
// 20), A and B (both end at 10 as predicted) and C (until 1000). At the
// pass after A's termination at 10, B's processor counts free from 10 and
// O's from 11 (S3): 2 processors free at 10, 3 from 11, though O comes
// before B among the running jobs (by predicted end).
func TestEndsNowProfileAfterOutlived(t *testing.T) {
	jobs := []swf.Job{
		djob(1, 0, 20, 1, nil), // O
		djob(2, 0, 10, 1, nil), // A
		djob(3, 0, 10, 1, nil), // B
		djob(4, 0, 1000, 1, nil),
		djob(5, 1, 10, 4, nil), // keeps the passes coming
	}
	jobs[0].ReqTime = 5
	p, _ := sched.LookupPreset("Conservative")
	c := p.New(4)
	pol := &profileAt{inner: c.Scheduler, now: 10, free: 1}
	c.Scheduler, c.PerEventPass = pol, true
	if _, err := sched.Run(context.Background(), c, jobs); err != nil {
		t.Fatal(err)
	}
	if want := []int64{10, 11}; !slices.Equal(pol.fits, want) {
		t.Errorf("2 and 3 processors fit from %v, want %v", pol.fits, want)
	}
}

// profileAt records, at the first pass at now with free processors free,
// where 2 and 3 processors fit for a second, then runs inner.
type profileAt struct {
	inner     sched.Scheduler
	now, free int64
	fits      []int64
}

func (pa *profileAt) Schedule(p *sched.Pass) {
	if p.Now() == pa.now && p.Free() == pa.free && pa.fits == nil {
		prof := p.Profile()
		for _, n := range []int64{2, 3} {
			at, _ := prof.Fit(n, 1, p.Now())
			pa.fits = append(pa.fits, at)
		}
	}
	pa.inner.Schedule(p)
}
