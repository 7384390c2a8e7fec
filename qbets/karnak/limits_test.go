package karnak

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The limits' worst case (limitsBytes) is bounded: a setting whose
// systems, full, would hold more than maxLimitsBytes is refused, naming
// the three limits and what they would hold; until this change any
// count was taken (MaxLiveJobs 2^40: no limit at all). The defaults,
// and the largest settings the tests use, are taken.
func TestLimitsBounded(t *testing.T) {
	if got := bytesText(limitsBytes(256, 64, 1<<18)); got != "102 GiB" {
		t.Errorf("the defaults hold %s at worst, want 102 GiB (as config.go and the README say)", got)
	}
	for _, c := range []Config{{}, {MaxSystems: 5000, MaxLiveJobs: 1 << 10}, {MaxSystems: 1101, MaxQueues: 700}, {MaxSystems: 1, MaxLiveJobs: 500_000_000}} {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v, want taken", c, err)
		}
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{MaxLiveJobs: 1 << 40}, "MaxSystems 256, MaxQueues 64 and MaxLiveJobs 1099511627776: every system full would hold"},
		{Config{MaxSystems: 1 << 62}, "MaxSystems 4611686018427387904, MaxQueues 64"},
		{Config{MaxSystems: 1 << 62, MaxQueues: 1 << 62, MaxLiveJobs: 1 << 62}, "EiB"},
		{Config{MaxQueues: 1 << 20}, "MaxQueues 1048576"},
		{Config{MaxSystems: 5000}, "MaxSystems 5000, MaxQueues 64 and MaxLiveJobs 262144: every system full would hold 1.95 TiB, more than 1 TiB (about 19.9 MiB a system, 80 KiB a queue, 1.5 KiB a live job): lower one"},
	} {
		if err := c.cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "karnak: ") {
			t.Errorf("%+v: %v, want an error with %q, \"karnak: \" first as Validate's others", c.cfg, err, c.want)
		}
	}
}

// The costs limitsBytes counts are upper bounds of what a system, a
// queue and a waiting job hold, and not more than twice it: measured
// here on the live heap (a few hundred of each; 0.3 s).
func TestLimitCosts(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	now := int64(testNow)
	s, err := NewServiceWith(nil, func() int64 { return now + 1e6 }, Config{Rate: -1, MaxSystems: 1000, MaxQueues: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ingest := func(evs ...Event) {
		if err := s.Ingest(evs); err != nil {
			t.Fatal(err)
		}
	}
	const systems, queues, jobs = 50, 100, 3000
	h0 := heap()
	for i := range systems {
		ingest(Event{Kind: "queue", System: fmt.Sprintf("s%d", i), Queue: "q", Time: now, Cores: 1024, WallTime: 86400})
	}
	h1 := heap()
	for i := range queues {
		ingest(Event{Kind: "queue", System: "big", Queue: fmt.Sprintf("q%d", i), Time: now, Cores: 1024, WallTime: 86400})
	}
	h2 := heap()
	var evs []Event
	for i := range jobs {
		evs = append(evs, Event{Kind: "submit", System: "big", Queue: "q1", Job: int64(i), Time: now,
			Cores: 4, WallTime: 3600, User: fmt.Sprintf("u%d", i%50), Project: "p", Name: "job"})
	}
	ingest(evs...)
	h3 := heap()
	job := float64(h3-h2) / jobs

	// The experiences of the IBL bases, which fill up to their capacity
	// (ibl.DefaultMaxSize each; 400 here) as jobs start: a job every
	// 100 s that waits 400 s, so that a snapshot (every 5 minutes) sees
	// each waiting; what the jobs that started leave in the queue's
	// history is counted with them (an upper bound).
	s2, err := NewServiceWith(nil, func() int64 { return now + 1e6 }, Config{Rate: -1, baseSize: 400, MaxForecastJobs: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Ingest([]Event{{Kind: "queue", System: "big", Queue: "q", Time: now, Cores: 1024, WallTime: 86400}}); err != nil {
		t.Fatal(err)
	}
	const started = 500
	evs = make([]Event, 0, 2*started)
	h4 := heap()
	for i := range started + 4 {
		t := now + int64(i)*100
		if i < started {
			evs = append(evs, Event{Kind: "submit", System: "big", Queue: "q", Job: int64(i), Time: t,
				Cores: 4, WallTime: 3600, User: fmt.Sprintf("u%d", i%50), Project: "p", Name: "job"})
		}
		if i >= 4 {
			evs = append(evs, Event{Kind: "start", System: "big", Job: int64(i - 4), Time: t})
		}
	}
	if err := s2.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	h5 := heap()
	sys := s2.systems["big"]
	exps := sys.notQueued.Len() + sys.queued.Len()
	if exps != 800 {
		t.Fatalf("%d experiences, want both bases full (800)", exps)
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(s2)
	for _, c := range []struct {
		what       string
		got, bound float64
	}{
		{"a system (with its first queue)", float64(h1-h0) / systems, emptySystemBytes},
		{"a queue", float64(h2-h1) / queues, queueBytes},
		{"a waiting job", job, liveJobBytes},
		{"an experience", float64(h5-h4) / float64(exps), experienceBytes},
	} {
		t.Logf("%s: %.0f bytes, counted as %.0f", c.what, c.got, c.bound)
		if c.got > c.bound || c.got < c.bound/2 {
			t.Errorf("%s: %.0f bytes, counted as %.0f: want the count an upper bound, at most twice it", c.what, c.got, c.bound)
		}
	}
}
