package slurm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/schedtest"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

func run(t testing.TB, site slurm.Config, machine sched.Config, jobs []swf.Job) (*sched.Result, *slurm.Policy) {
	t.Helper()
	p, err := slurm.New(site, machine)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	return res, p
}

func starts(res *sched.Result) map[int64]int64 {
	m := map[int64]int64{}
	for _, r := range res.Records {
		m[r.Job.ID] = r.Start
	}
	return m
}

// TestMainStopsPartition: on 10 processors, job 1 holds 6 from 3 (the
// main scheduler's first run: slurmctld starts at 0 and its background
// loop waits batch_sched_delay, 3 s) until 1003, when its end queues a
// run that starts jobs at once (the last was the periodic one at 960);
// job 2 (8 processors) cannot start, so its partition fails and job 3 (2
// processors, lower priority, same partition) does not start with
// sched/builtin although it fits. A job of a partition over other nodes
// still starts; one over the same nodes does not.
func TestMainStopsPartition(t *testing.T) {
	site := slurm.Config{Builtin: true,
		Partitions: []slurm.Partition{
			{Name: "a", Nodes: []string{"n1", "n2"}, Default: true},
			{Name: "b", Nodes: []string{"n3"}},
			{Name: "c", Nodes: []string{"n2"}},
		},
		PartitionNames: map[int64]string{1: "a", 2: "b", 3: "c"},
	}
	jobs := []swf.Job{
		mkJob(1, 0, 1, 6, 1000, 1000),
		mkJob(2, 10, 1, 8, 100, 100),
		mkJob(3, 20, 1, 2, 100, 100),
		mkJob(4, 30, 1, 1, 100, 100),
		mkJob(5, 40, 1, 1, 100, 100),
	}
	jobs[3].Queue, jobs[4].Queue = 2, 3
	res, _ := run(t, site, sched.Config{MachineSize: 10}, jobs)
	s := starts(res)
	if s[2] != 1003 || s[3] != 1003 {
		t.Errorf("jobs 2, 3 start at %d, %d; want 1003, 1003 (job 3 blocked behind job 2 in its partition)", s[2], s[3])
	}
	if s[4] != 30 {
		t.Errorf("job 4 (partition over other nodes) starts at %d, want 30", s[4])
	}
	if s[5] != 1103 {
		t.Errorf("job 5 (partition over the failed one's nodes) starts at %d, want 1103", s[5])
	}

	// With backfill, job 3 ends (at 20+100+cycle) before job 2's
	// reservation at 1003, so a backfill cycle starts it; it must not
	// start before the first cycle after its submission (cycles every
	// bf_interval, 30 s, from slurmctld's start at 0).
	site.Builtin = false
	res, _ = run(t, site, sched.Config{MachineSize: 10}, jobs)
	s = starts(res)
	if s[3] != 30 || s[2] != 1003 {
		t.Errorf("with backfill jobs 2, 3 start at %d, %d; want 1003, 30 (the cycle at 30)", s[2], s[3])
	}
}

// TestBackfillMaxJobTest: job 1 holds 9 of 10 processors from 3 (the
// main scheduler's first run, batch_sched_delay after slurmctld's start)
// until 1003;
// jobs 2 and 3 need 10 and cannot start; job 4 (1 processor, 100 s) fits
// before any of their reservations. bf_max_job_test 2 never reaches it
// while jobs 2 and 3 wait; 3 does at the first cycle. bf_max_job_user 1
// tests one job of user 1 (job 2) and then job 4 of user 2.
func TestBackfillMaxJobTest(t *testing.T) {
	jobs := []swf.Job{
		mkJob(1, 0, 1, 9, 1000, 1000),
		mkJob(2, 1, 1, 10, 100, 100),
		mkJob(3, 2, 1, 10, 100, 100),
		mkJob(4, 3, 2, 1, 100, 100),
	}
	m := sched.Config{MachineSize: 10}
	for _, c := range []struct {
		test, user int64
		want       int64
	}{{2, 0, 1203}, {3, 0, 30}, {0, 1, 30}, {2, 1, 30}} {
		res, _ := run(t, slurm.Config{BackfillMaxJobTest: c.test, BackfillMaxJobUser: c.user}, m, jobs)
		if got := starts(res)[4]; got != c.want {
			t.Errorf("bf_max_job_test %d, bf_max_job_user %d: job 4 starts at %d, want %d", c.test, c.user, got, c.want)
		}
	}
}

// TestZeroWeightsFIFO: with every weight 0 all priorities are 1 and the
// order is submission then job ID; sched/builtin then starts jobs in that
// order (a start never precedes an earlier-submitted job's).
func TestZeroWeightsFIFO(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		jobs := drawJobs(rt, 16)
		p, err := slurm.New(slurm.Config{Builtin: true, BatchSchedDelay: -1}, sched.Config{MachineSize: 16})
		if err != nil {
			rt.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			rt.Fatal(err)
		}
		last := int64(-1)
		for _, r := range res.Records { // Load order is submission order
			if r.Start < last {
				rt.Fatalf("job %d (submitted %d) starts at %d, before an earlier job's start %d", r.Job.ID, r.Job.Submit, r.Start, last)
			}
			last = r.Start
		}
	})
}

func drawJobs(rt *rapid.T, P int64) []swf.Job {
	n := rapid.IntRange(1, 30).Draw(rt, "jobs")
	var at int64
	jobs := make([]swf.Job, n)
	for i := range jobs {
		at += rapid.SampledFrom([]int64{0, 0, 7, 30, 61, 400}).Draw(rt, "gap")
		est := rapid.Int64Range(1, 2000).Draw(rt, "estimate")
		jobs[i] = mkJob(int64(i+1), at, rapid.Int64Range(1, 3).Draw(rt, "user"), rapid.Int64Range(1, P).Draw(rt, "size"), est, est)
	}
	return jobs
}

// TestBackfillKeepsPlans: with run times equal to limits, every weight 0
// (so later jobs never outrank earlier ones), bf_resolution 1 and a
// backfill cycle every second something changed, a backfilled job never
// delays the planned start of a job tested before it: every job starts no
// later than the first start backfill planned for it (its first
// reservation). (With a longer bf_interval a plan can be missed without
// any backfill: a job planned to start when a running job ends, behind a
// higher-priority job that still does not fit, is not started by the main
// scheduler, whose partition stopped at that job, and waits for the next
// cycle; Slurm's plans are not reservations.)
func TestBackfillKeepsPlans(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		jobs := drawJobs(rt, 16)
		site := slurm.Config{BackfillResolution: 1, BackfillWindow: 1 << 30, BackfillMaxJobTest: 1000, BackfillInterval: 1}
		p, err := slurm.New(site, sched.Config{MachineSize: 16})
		if err != nil {
			rt.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			rt.Fatal(err)
		}
		if err := res.Check(); err != nil {
			rt.Fatal(err)
		}
		for _, r := range res.Records {
			if r.FirstReservation >= 0 && r.Start > r.FirstReservation {
				for _, q := range res.Records {
					rt.Logf("job %d submit %d size %d limit %d start %d first reservation %d backfilled %v", q.Job.ID, q.Job.Submit, q.Size, q.Estimate, q.Start, q.FirstReservation, q.Backfilled)
				}
				rt.Fatalf("job %d planned at %d starts at %d", r.Job.ID, r.FirstReservation, r.Start)
			}
		}
	})
}

// TestConformance runs sched/schedtest's contract check on the policy as
// a plain sched.Scheduler, on one pool and on nodes.
func TestConformance(t *testing.T) {
	mk := func() sched.Scheduler {
		p, err := slurm.New(slurm.Config{WeightAge: 1000, WeightJobSize: 100, CalcPeriod: 60, BackfillInterval: 10},
			sched.Config{MachineSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	schedtest.Scheduler(t, mk)
	if !testing.Short() {
		schedtest.NodeScheduler(t, mk)
	}
}

func TestUnrunnable(t *testing.T) {
	site := slurm.Config{
		Partitions:     []slurm.Partition{{Name: "short", MaxTime: 600, MaxNodes: 4, Default: true}},
		PartitionNames: map[int64]string{1: "short", 2: "nope"},
	}
	jobs := []swf.Job{mkJob(1, 0, 1, 2, 100, 700), mkJob(2, 0, 1, 8, 100, 100), mkJob(3, 0, 1, 1, 100, 100), mkJob(4, 0, 1, 1, 100, 100)}
	jobs[3].Queue = 2
	res, p := run(t, site, sched.Config{MachineSize: 16}, jobs)
	u := p.Unrunnable()
	if u["time limit above the partition's MaxTime"] != 1 || u["more nodes than the partition's MaxNodes"] != 1 || u["unknown partition"] != 1 {
		t.Errorf("Unrunnable = %v", u)
	}
	// Job 3 starts at the main scheduler's first run, at 3.
	if res.Summary.Cancelled != 3 || starts(res)[3] != 3 {
		t.Errorf("cancelled %d (want 3), job 3 starts at %d", res.Summary.Cancelled, starts(res)[3])
	}
}

// A job of SWF queue 0 (SWF's interactive jobs, which archive logs write
// for "no queue") runs in the default partition, as a −1 does, and is
// counted (Defaulted); it was cancelled as "unknown partition". A name for
// 0, in PartitionNames or a partition called "0", still makes it one.
func TestQueueZeroDefaultPartition(t *testing.T) {
	jobs := func() []swf.Job {
		js := []swf.Job{mkJob(1, 0, 1, 2, 100, 100), mkJob(2, 0, 1, 2, 100, 100), mkJob(3, 0, 1, 2, 100, 100)}
		js[0].Queue, js[1].Queue, js[2].Queue = 0, -1, 1
		return js
	}
	parts := []slurm.Partition{{Name: "batch", Default: true}, {Name: "debug"}}
	site := slurm.Config{Partitions: parts, PartitionNames: map[int64]string{1: "debug"}}
	res, p := run(t, site, sched.Config{MachineSize: 16}, jobs())
	if res.Summary.Cancelled != 0 || len(p.Unrunnable()) != 0 || p.Defaulted()["queue_0_no_partition"] != 1 || len(p.Defaulted()) != 1 {
		t.Errorf("cancelled %d, Unrunnable %v, Defaulted %v; want none cancelled, one queue_0_no_partition",
			res.Summary.Cancelled, p.Unrunnable(), p.Defaulted())
	}
	// Named 0: a partition, unknown to this site or its own.
	site.PartitionNames = map[int64]string{0: "interactive", 1: "debug"}
	res, p = run(t, site, sched.Config{MachineSize: 16}, jobs())
	if res.Summary.Cancelled != 1 || p.Unrunnable()["unknown partition"] != 1 || len(p.Defaulted()) != 0 {
		t.Errorf("0 named: cancelled %d, Unrunnable %v, Defaulted %v", res.Summary.Cancelled, p.Unrunnable(), p.Defaulted())
	}
	site = slurm.Config{Partitions: append(parts, slurm.Partition{Name: "0"})}
	res, p = run(t, site, sched.Config{MachineSize: 16}, jobs())
	if res.Summary.Cancelled != 1 || p.Unrunnable()["unknown partition"] != 1 || len(p.Defaulted()) != 0 {
		t.Errorf("partition \"0\": cancelled %d (job 3's \"1\"), Unrunnable %v, Defaulted %v", res.Summary.Cancelled, p.Unrunnable(), p.Defaulted())
	}
	// Without partitions nothing is counted.
	if _, p = run(t, slurm.Config{}, sched.Config{MachineSize: 16}, jobs()); len(p.Defaulted()) != 0 {
		t.Errorf("no partitions: Defaulted %v", p.Defaulted())
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  slurm.Config
		want string
	}{
		{slurm.Config{WeightAge: -1}, "WeightAge"},
		{slurm.Config{BackfillResolution: -5}, "BackfillResolution"},
		{slurm.Config{DecayHalfLife: -2}, "DecayHalfLife"},
		{slurm.Config{UnixStart: -1}, "UnixStart"},
		{slurm.Config{UnixStart: 1<<63 - 1}, "UnixStart"},
		{slurm.Config{Partitions: []slurm.Partition{{Name: "a"}, {Name: "a"}}}, "twice"},
		{slurm.Config{Partitions: []slurm.Partition{{}}}, "no Name"},
		{slurm.Config{Partitions: []slurm.Partition{{Name: "a", MaxTime: 10, DefaultTime: 20}}}, "DefaultTime"},
		{slurm.Config{QOS: map[string]int64{"q": -1}}, "QOS"},
		{slurm.Config{Associations: []slurm.Association{{Account: "x", Parent: "y"}}}, "not in the tree"},
		{slurm.Config{Associations: []slurm.Association{{Account: "x", Parent: "y"}, {Account: "y", Parent: "x"}}}, "cycle"},
		{slurm.Config{Associations: []slurm.Association{{User: "u"}}}, "no Account"},
	} {
		err := c.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %q", c.cfg, err, c.want)
		}
		if _, err := slurm.New(c.cfg, sched.Config{MachineSize: 4}); err == nil {
			t.Errorf("New accepted %+v", c.cfg)
		}
	}
	if err := (slurm.Config{}).Validate(); err != nil {
		t.Errorf("zero Config: %v", err)
	}
	if _, err := slurm.New(slurm.Config{}, sched.Config{MachineSize: 4, Scheduler: sched.EASYScheduler{}}); err == nil {
		t.Error("New accepted a machine with a Scheduler")
	}
	if _, err := slurm.New(slurm.Config{}, sched.Config{}); err == nil {
		t.Error("New accepted a machine without size")
	}
	p, _ := slurm.New(slurm.Config{}, sched.Config{MachineSize: 4})
	if _, err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(context.Background(), nil); err == nil {
		t.Error("a Policy ran twice")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, _ = slurm.New(slurm.Config{}, sched.Config{MachineSize: 4})
	if _, err := p.Run(ctx, []swf.Job{mkJob(1, 0, 1, 1, 10, 10)}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestHostile runs random sites (weights, partitions with limits and node
// sets, QOS, a fair-share tree, both algorithms, backfill parameters) on
// random machines and jobs with missing fields: every run ends without
// error, its schedule passes sched's Check, every job either ran or was
// cancelled as unrunnable, and the reasons add up.
func TestHostile(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		site := slurm.Config{
			WeightAge: rapid.Int64Range(0, 1e6).Draw(rt, "wage"), WeightFairshare: rapid.Int64Range(0, 1e6).Draw(rt, "wfs"),
			WeightJobSize: rapid.Int64Range(0, 1e6).Draw(rt, "wjs"), WeightPartition: rapid.Int64Range(0, 1e6).Draw(rt, "wpart"),
			WeightQOS: rapid.Int64Range(0, 1e6).Draw(rt, "wqos"), WeightAssoc: rapid.Int64Range(0, 1e6).Draw(rt, "wassoc"),
			MaxAge: rapid.Int64Range(0, 1e5).Draw(rt, "maxage"), DecayHalfLife: rapid.Int64Range(-1, 1e5).Draw(rt, "hl"),
			CalcPeriod: rapid.Int64Range(0, 600).Draw(rt, "calc"), FavorSmall: rapid.Bool().Draw(rt, "small"),
			ClassicFairshare: rapid.Bool().Draw(rt, "classic"), Builtin: rapid.Bool().Draw(rt, "builtin"),
			BackfillInterval: rapid.Int64Range(0, 100).Draw(rt, "bfi"), BackfillWindow: rapid.Int64Range(0, 1e5).Draw(rt, "bfw"),
			BackfillResolution: rapid.Int64Range(0, 300).Draw(rt, "bfr"), BackfillMaxJobTest: rapid.Int64Range(0, 20).Draw(rt, "bft"),
			BackfillMaxJobUser: rapid.Int64Range(0, 5).Draw(rt, "bfu"), SchedInterval: rapid.Int64Range(0, 100).Draw(rt, "si"),
			SchedMinInterval: rapid.Int64Range(-1, 10).Draw(rt, "smi"), OverTimeLimit: rapid.Int64Range(0, 100).Draw(rt, "otl"),
			BatchSchedDelay: rapid.Int64Range(-1, 10).Draw(rt, "bsd"), Epilog: rapid.Bool().Draw(rt, "epilog"),
			EnforceLimits:  rapid.Bool().Draw(rt, "limits"),
			QOS:            map[string]int64{"normal": 0, "high": rapid.Int64Range(0, 100).Draw(rt, "qos")},
			QOSNames:       map[int64]string{1: "high", 2: "unknown"},
			PartitionNames: map[int64]string{0: "p0", 1: "p1", 2: "p2"},
			AccountNames:   map[int64]string{1: "a", 2: "b"},
			Associations: []slurm.Association{{Account: "a", Shares: rapid.Int64Range(0, 5).Draw(rt, "sa")},
				{Account: "b", Parent: "a", Priority: rapid.Int64Range(0, 5).Draw(rt, "pb")}, {Account: "a", User: "1"}, {Account: "b", User: "2", Shares: 3}},
		}
		if rapid.Bool().Draw(rt, "no tree") {
			site.Associations = nil
		}
		for i := range rapid.IntRange(0, 3).Draw(rt, "partitions") {
			pt := slurm.Partition{Name: []string{"p0", "p1", "p2"}[i], MaxTime: rapid.Int64Range(0, 3000).Draw(rt, "maxtime"),
				MaxNodes: rapid.Int64Range(0, 8).Draw(rt, "maxnodes"), PriorityJobFactor: rapid.Int64Range(0, 10).Draw(rt, "jf"),
				PriorityTier: rapid.Int64Range(0, 2).Draw(rt, "tier"), Default: rapid.Bool().Draw(rt, "default")}
			if pt.MaxTime > 0 {
				pt.DefaultTime = rapid.Int64Range(0, pt.MaxTime).Draw(rt, "deftime")
			}
			if rapid.Bool().Draw(rt, "node set") {
				pt.Nodes = []string{[]string{"n1", "n2"}[i%2]}
			}
			site.Partitions = append(site.Partitions, pt)
		}
		machine := sched.Config{MachineSize: 16}
		if rapid.Bool().Draw(rt, "nodes") {
			machine = sched.Config{Nodes: []swf.Node{{Name: "n", Count: rapid.Int64Range(1, 4).Draw(rt, "count"), Cores: 8}}, KeepShares: true}
		}
		jobs := drawJobs(rt, 8)
		for i := range jobs {
			j := &jobs[i]
			j.Group, j.Queue, j.Partition = rapid.Int64Range(-1, 3).Draw(rt, "group"), rapid.Int64Range(-1, 3).Draw(rt, "queue"), rapid.Int64Range(-1, 2).Draw(rt, "qos")
			if rapid.IntRange(0, 4).Draw(rt, "no limit") == 0 {
				j.ReqTime = -1
			}
			j.RunTime = rapid.Int64Range(0, 3000).Draw(rt, "run")
		}
		p, err := slurm.New(site, machine)
		if err != nil {
			rt.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			rt.Fatal(err)
		}
		if err := res.Check(); err != nil {
			rt.Fatal(err)
		}
		n := 0
		for _, c := range p.Unrunnable() {
			n += c
		}
		if n != res.Summary.Cancelled {
			rt.Fatalf("%d unrunnable, %d cancelled", n, res.Summary.Cancelled)
		}
		for _, r := range res.Records {
			if r.Start < 0 && !r.Cancelled {
				rt.Fatalf("job %d never started", r.Job.ID)
			}
		}
	})
}

// TestReuse: one Policy plugged into successive simulations (as
// sched/forecast does, from one snapshot after another) schedules each
// as a fresh Policy would: a clock that goes back starts a new
// simulation from the configuration's usage.
func TestReuse(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		site := slurm.Config{WeightAge: 100, WeightFairshare: 1000, WeightJobSize: 10, CalcPeriod: 60, BackfillInterval: 10}
		a, b := drawJobs(rt, 8), drawJobs(rt, 8)
		mk := func() *slurm.Policy {
			p, err := slurm.New(site, sched.Config{MachineSize: 8})
			if err != nil {
				rt.Fatal(err)
			}
			return p
		}
		p := mk()
		if _, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: p}, a); err != nil {
			rt.Fatal(err)
		}
		last := int64(0)
		for _, j := range a {
			last = max(last, j.Submit)
		}
		for i := range b { // b's clock goes back below a's last pass
			b[i].Submit = b[i].Submit * last / (last + 1000)
		}
		got, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: p}, b)
		if err != nil {
			rt.Fatal(err)
		}
		want, err := sched.Run(context.Background(), sched.Config{MachineSize: 8, Scheduler: mk()}, b)
		if err != nil {
			rt.Fatal(err)
		}
		for i := range want.Records {
			if got.Records[i].Start != want.Records[i].Start {
				for k := range want.Records {
					rt.Logf("job %d submit %d size %d est %d: reused %d fresh %d", want.Records[k].Job.ID, want.Records[k].Job.Submit, want.Records[k].Size, want.Records[k].Estimate, got.Records[k].Start, want.Records[k].Start)
				}
				rt.Fatalf("job %d starts at %d in the reused Policy, at %d in a fresh one", want.Records[i].Job.ID, got.Records[i].Start, want.Records[i].Start)
			}
		}
	})
}

// TestWholeNodeReservation: backfill reserves whole nodes, as Slurm's
// node_space does. Job 1 holds 6 of 8 CPUs from 3 (the main scheduler's
// first run) until 1003; job 2 (4 CPUs) is planned at 1003; job 3 (2
// CPUs for 2000 s) fits now. On one node of
// 8 CPUs job 2's plan holds the node, so job 3 waits for job 2's start;
// on one pool of 8 processors (8 nodes of one CPU) job 2 holds only 4 and
// job 3 starts at the first backfill cycle.
func TestWholeNodeReservation(t *testing.T) {
	jobs := []swf.Job{mkJob(1, 0, 1, 6, 1000, 1000), mkJob(2, 1, 1, 4, 100, 100), mkJob(3, 2, 1, 2, 2000, 2000)}
	res, _ := run(t, slurm.Config{}, sched.Config{Nodes: []swf.Node{{Name: "n", Count: 1, Cores: 8}}, KeepShares: true}, jobs)
	if s := starts(res); s[2] != 1003 || s[3] != 1003 {
		t.Errorf("one node: jobs 2, 3 start at %d, %d; want 1003, 1003", s[2], s[3])
	}
	res, _ = run(t, slurm.Config{}, sched.Config{MachineSize: 8}, jobs)
	if s := starts(res); s[2] != 1003 || s[3] != 30 {
		t.Errorf("one pool: jobs 2, 3 start at %d, %d; want 1003, 30", s[2], s[3])
	}
}

// TestBuiltinIsFCFS: with every weight 0 and sched/builtin, Slurm's main
// scheduler is first come, first served; without batch_sched_delay (a
// queued run is made at the second it is asked) it schedules exactly as
// sched's FCFS preset, job by job, both killing jobs at the 30 s limit
// check.
func TestBuiltinIsFCFS(t *testing.T) {
	fcfs, ok := sched.LookupPreset("FCFS")
	if !ok {
		t.Fatal("no FCFS preset")
	}
	rapid.Check(t, func(rt *rapid.T) {
		jobs := drawJobs(rt, 16)
		for i := range jobs {
			jobs[i].RunTime = rapid.Int64Range(0, 2*jobs[i].ReqTime).Draw(rt, "run")
		}
		p, err := slurm.New(slurm.Config{Builtin: true, BatchSchedDelay: -1}, sched.Config{MachineSize: 16})
		if err != nil {
			rt.Fatal(err)
		}
		got, err := p.Run(context.Background(), jobs)
		if err != nil {
			rt.Fatal(err)
		}
		cfg := fcfs.New(16)
		cfg.KillAtEstimate, cfg.KillCheck = true, 30
		want, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			rt.Fatal(err)
		}
		for i := range want.Records {
			if got.Records[i].Start != want.Records[i].Start {
				rt.Fatalf("job %d starts at %d, FCFS at %d", want.Records[i].Job.ID, got.Records[i].Start, want.Records[i].Start)
			}
		}
	})
}

// TestMainSchedulerTiming: a submission or an end without an Epilog only
// queues a main scheduler run, which slurmctld's background loop makes
// batch_sched_delay (3 s) after its last run; the periodic run every
// sched_interval (60 s) is one. On one processor job 1 starts at 3
// (batch_sched_delay after slurmctld's start at 0) and ends at 121; the
// periodic run at 120 found nothing to start, so job 2 starts at 123.
// With an Epilog the end runs the main scheduler at once (121); with
// batch_sched_delay=0 a queued run is made at once: job 1 at 0, job 2 at
// its end, 118.
func TestMainSchedulerTiming(t *testing.T) {
	jobs := []swf.Job{mkJob(1, 0, 1, 1, 118, 200), mkJob(2, 1, 1, 1, 10, 10)}
	for _, c := range []struct {
		site       slurm.Config
		at1, want2 int64
	}{
		{slurm.Config{Builtin: true}, 3, 123},
		{slurm.Config{Builtin: true, Epilog: true}, 3, 121},
		{slurm.Config{Builtin: true, BatchSchedDelay: -1}, 0, 118},
	} {
		res, _ := run(t, c.site, sched.Config{MachineSize: 1}, jobs)
		if s := starts(res); s[1] != c.at1 || s[2] != c.want2 {
			t.Errorf("Epilog %v, BatchSchedDelay %d: jobs 1, 2 start at %d, %d; want %d, %d",
				c.site.Epilog, c.site.BatchSchedDelay, s[1], s[2], c.at1, c.want2)
		}
	}
}

// TestBackfillGrid: backfill checks bf_interval (30 s) after its last
// cycle and then every second until some job changed; while jobs wait
// each cycle leaves work for the next, so cycles keep a 30-s grid from
// slurmctld's start at 0. On 10 processors job 1 holds 9 from 3 to 2003
// and job 2 (10) waits behind it. Job 3 (1 processor, 100 s), submitted
// at 40, is started by the cycle at 60, not at its submission (the main
// scheduler stops at job 2). After a quiet spell with nothing waiting, a
// job is backfilled at the first check after its submission: at once.
func TestBackfillGrid(t *testing.T) {
	jobs := []swf.Job{mkJob(1, 0, 1, 9, 2000, 2000), mkJob(2, 1, 1, 10, 100, 100), mkJob(3, 40, 2, 1, 100, 100)}
	res, _ := run(t, slurm.Config{}, sched.Config{MachineSize: 10}, jobs)
	if s := starts(res); s[1] != 3 || s[3] != 60 || s[2] != 2003 {
		t.Errorf("waiting: jobs 1, 3, 2 start at %d, %d, %d; want 3, 60, 2003", s[1], s[3], s[2])
	}
	jobs = []swf.Job{mkJob(1, 0, 1, 9, 2000, 2000), mkJob(2, 1000, 1, 10, 100, 100), mkJob(3, 1000, 2, 1, 100, 100)}
	res, _ = run(t, slurm.Config{}, sched.Config{MachineSize: 10}, jobs)
	if s := starts(res); s[1] != 3 || s[3] != 1000 || s[2] != 2003 {
		t.Errorf("quiet: jobs 1, 3, 2 start at %d, %d, %d; want 3, 1000, 2003", s[1], s[3], s[2])
	}
}
