package schedtest

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/sched"
)

func TestBuiltins(t *testing.T) {
	for _, pr := range sched.Presets() {
		s := pr.New(8).Scheduler
		if s == nil {
			s = sched.EASYScheduler{}
		}
		name := fmt.Sprint(pr.Name)
		t.Run(name, func(t *testing.T) { Scheduler(t, func() sched.Scheduler { return s }) })
		if testing.Short() {
			break
		}
	}
	t.Run("user order", func(t *testing.T) {
		Scheduler(t, func() sched.Scheduler { return sched.EASYScheduler{Queue: byUser{}, Backfill: byUser{}} })
	})
}

// Every preset's Scheduler keeps the contract on machines of nodes too,
// as does a user's policy that stops at ErrNoFit.
func TestBuiltinsOnNodes(t *testing.T) {
	for _, pr := range sched.Presets() {
		s := pr.New(8).Scheduler
		if s == nil {
			s = sched.EASYScheduler{}
		}
		t.Run(pr.Name, func(t *testing.T) { NodeScheduler(t, func() sched.Scheduler { return s }) })
		if testing.Short() {
			break
		}
	}
	t.Run("user fcfs", func(t *testing.T) {
		NodeScheduler(t, func() sched.Scheduler { return schedFunc(fcfs) })
	})
}

type schedFunc func(*sched.Pass)

func (f schedFunc) Schedule(p *sched.Pass) { f(p) }

// A Schedule call that never returns (a policy that probes while
// Free() > 0 and ignores ErrNoFit loops forever on a machine of nodes)
// fails the check instead of hanging it. The stuck calls here wait on a
// channel, released at the end, so that none is left spinning.
func TestNodeSchedulerCatchesALoop(t *testing.T) {
	for name, v := range map[string]string{"rapid.nofailfile": "true", "rapid.shrinktime": "1ms"} {
		if f := flag.Lookup(name); f != nil {
			old := f.Value.String()
			flag.Set(name, v)
			defer flag.Set(name, old)
		}
	}
	defer func(d time.Duration) { runTimeout = d }(runTimeout)
	runTimeout = 200 * time.Millisecond
	release := make(chan struct{})
	defer close(release)
	r := &recorder{TB: t}
	check(r, func() sched.Scheduler { return schedFunc(func(*sched.Pass) { <-release }) }, true)
	if !r.failed || !strings.Contains(r.msg, "did not end") {
		t.Errorf("failed %v with %q, want a failure saying the run did not end", r.failed, r.msg)
	}
}

// byUser serves low user numbers first.
type byUser struct{}

func (byUser) Less(_ int64, a, b *sched.Job) bool { return a.User() < b.User() }
func (byUser) Name() string                       { return "by-user" }

// recorder is a rapid.TB that records a failure instead of failing.
type recorder struct {
	testing.TB
	msg    string
	failed bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Fatalf(f string, a ...any) { r.fail(fmt.Sprintf(f, a...)) }
func (r *recorder) Errorf(f string, a ...any) { r.fail(fmt.Sprintf(f, a...)) }
func (r *recorder) Fatal(a ...any)            { r.fail(fmt.Sprint(a...)) }
func (r *recorder) Error(a ...any)            { r.fail(fmt.Sprint(a...)) }
func (r *recorder) Fail()                     { r.failed = true }
func (r *recorder) FailNow()                  { r.failed = true }
func (r *recorder) Failed() bool              { return r.failed }
func (r *recorder) Logf(string, ...any)       {}
func (r *recorder) Log(...any)                {}
func (r *recorder) fail(m string)             { r.failed, r.msg = true, r.msg+m }
func (r *recorder) Name() string              { return "recorder" }
func (r *recorder) Skipf(f string, a ...any)  {}
func (r *recorder) Skip(...any)               {}
func (r *recorder) SkipNow()                  {}

// Each broken policy fails the check, naming what it broke.
func TestBrokenPolicies(t *testing.T) {
	// The failures are expected: no rapid fail file in testdata for them.
	if f := flag.Lookup("rapid.nofailfile"); f != nil {
		old := f.Value.String()
		flag.Set("rapid.nofailfile", "true")
		defer flag.Set("rapid.nofailfile", old)
	}
	for _, tc := range []struct {
		name, want string
		s          func() sched.Scheduler
	}{
		{"never starts", "stall", func() sched.Scheduler { return idle{} }},
		{"starts twice", "refused", func() sched.Scheduler { return twice{} }},
		{"reserves in the past", "refused", func() sched.Scheduler { return past{} }},
		{"keeps its Pass", "refused", func() sched.Scheduler { return &keeper{} }},
		{"not deterministic", "not deterministic", func() sched.Scheduler { return &flip{} }},
	} {
		r := &recorder{TB: t}
		check(r, tc.s, false)
		if !r.failed || !strings.Contains(r.msg, tc.want) {
			t.Errorf("%s: failed %v with %q, want a failure naming %q", tc.name, r.failed, r.msg, tc.want)
		}
	}
}

type idle struct{}

func (idle) Schedule(*sched.Pass) {}

// fcfs starts jobs in arrival order while they fit.
func fcfs(p *sched.Pass) {
	for j := range p.Waiting() {
		if p.Start(j) != nil {
			return
		}
	}
}

type twice struct{}

func (twice) Schedule(p *sched.Pass) {
	for j := range p.Waiting() {
		if p.Start(j) != nil {
			return
		}
		p.Start(j)
	}
}

type past struct{}

func (past) Schedule(p *sched.Pass) {
	for j := range p.Waiting() {
		if p.Start(j) != nil {
			p.Reserve(j, p.Now()-1)
			return
		}
	}
}

type keeper struct{ kept *sched.Pass }

func (k *keeper) Schedule(p *sched.Pass) {
	if k.kept != nil {
		for j := range p.Waiting() {
			k.kept.Reserve(j, p.Now())
		}
	}
	k.kept = p
	fcfs(p)
}

// flip starts jobs newest first at every third pass of any flip: its
// schedule depends on state shared between instances.
type flip struct{}

var flips int

func (*flip) Schedule(p *sched.Pass) {
	flips++
	var all []*sched.Job
	for j := range p.Waiting() {
		all = append(all, j)
	}
	if flips%3 == 0 {
		slices.Reverse(all)
	}
	for _, j := range all {
		p.Start(j)
	}
}
