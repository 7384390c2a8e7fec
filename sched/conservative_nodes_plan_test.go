package sched

import (
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// consNodesRun simulates jobs under cfg (Conservative on nodes, shares
// kept) with cancels; noMemo makes every pass rebuild and place every job.
// It returns the result and the passes' scratch (its counts for the tests).
func consNodesRun(t *rapid.T, cfg Config, jobs []swf.Job, cancels []consCancel, noMemo bool) (*Result, *consNodes) {
	var sim *Sim
	res := runCancelled(t, cfg, jobs, cancels, func(s *Sim) {
		sim = s
		s.cons = s.newConsNodes()
		s.cons.noMemo = noMemo
	})
	return res, sim.cons
}

// sameNodeSchedule fails t at the first job whose record or shares differ
// between want (every pass rebuilt) and got.
func sameNodeSchedule(t interface{ Fatalf(string, ...any) }, want, got *Result) {
	if len(want.Records) != len(got.Records) {
		t.Fatalf("%d records rebuilt, %d with the plan", len(want.Records), len(got.Records))
	}
	for k := range want.Records {
		if w, g := want.Records[k], got.Records[k]; !reflect.DeepEqual(w, g) {
			t.Fatalf("job %d: rebuilt %+v, with the plan %+v", w.Job.ID, w, g)
		}
		if w, g := want.sharesOf(k), got.sharesOf(k); !reflect.DeepEqual(w, g) {
			t.Fatalf("job %d: rebuilt on %+v, with the plan on %+v", want.Records[k].Job.ID, w, g)
		}
	}
	if want.Refused != got.Refused {
		t.Fatalf("%d refused rebuilt, %d with the plan", want.Refused, got.Refused)
	}
}

// drawNodeCase draws a small machine of nodes (several kinds, GPUs,
// memory, a named resource) and jobs of every shape of demand with small
// gaps, estimates often exact (so that plans stand), sometimes above or
// below the run time (early ends, overruns), zero-length jobs.
func drawNodeCase(t *rapid.T) ([]swf.Node, []swf.Job) {
	models := []string{"A", "B"}
	var nodes []swf.Node
	for k := range rapid.IntRange(1, 4).Draw(t, "kinds") {
		n := swf.Node{Name: fmt.Sprint("k", k), Count: rapid.Int64Range(1, 4).Draw(t, "count"), Cores: rapid.Int64Range(1, 8).Draw(t, "cores"),
			Memory: rapid.Int64Range(0, 64).Draw(t, "memory")}
		if rapid.IntRange(0, 2).Draw(t, "gpu") == 0 {
			n.GPUs = rapid.Int64Range(1, 4).Draw(t, "gpus")
			n.GPUModel = rapid.SampledFrom(models).Draw(t, "model")
		}
		if rapid.IntRange(0, 3).Draw(t, "named") == 0 {
			n.Named = map[string]int64{"lic": rapid.Int64Range(1, 3).Draw(t, "lic")}
		}
		nodes = append(nodes, n)
	}
	var jobs []swf.Job
	var sub int64
	for id := range int64(rapid.IntRange(1, 50).Draw(t, "jobs")) {
		sub += rapid.SampledFrom([]int64{0, 0, 1, 5, 10, 20}).Draw(t, "gap")
		run := rapid.SampledFrom([]int64{0, 1, 5, 10, 20, 30, 60}).Draw(t, "run")
		est := max(run+rapid.SampledFrom([]int64{-10, 0, 0, 0, 0, 5, 20}).Draw(t, "slack"), 1)
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime = id+1, sub, run, est
		j.AllocProcs = rapid.Int64Range(1, 12).Draw(t, "size")
		j.ReqProcs, j.User = j.AllocProcs, rapid.Int64Range(1, 3).Draw(t, "user")
		switch rapid.IntRange(0, 3).Draw(t, "shape") {
		case 1: // spread, memory per core, perhaps whole nodes
			j.Demand = &swf.Demand{Memory: rapid.Int64Range(0, 8).Draw(t, "mpc"), Exclusive: rapid.IntRange(0, 4).Draw(t, "sx") == 0}
		case 2:
			j.Demand = drawNodesDemand(t, models)
		}
		jobs = append(jobs, j)
	}
	return nodes, jobs
}

// TestConservativeNodesPlanRapid: conservative backfilling on nodes that
// keeps the last pass's plan when it stands (consPlan) gives, job for job,
// the start, the record and the nodes and GPUs of passes that rebuild
// everything and place every job (noMemo), on random machines and
// demands, with early ends, overruns, kills at the estimate, predictors
// that correct and re-predict, cancellations while waiting and running,
// passes per event or per instant, first fit or best fit.
// The plan must keep jobs in some of the checks (20 under -short), and,
// in the plain run's 100, stand in some passes after a running job
// outlived its prediction or a reservation's time passed (S3: consPlan's
// Losses; 20 checks miss that about half the time, 100 about 2 runs in
// 1,000: then another 100 are drawn, up to 4 more times, rather than the
// test failing for a draw that checked less).
func TestConservativeNodesPlanRapid(t *testing.T) {
	kept, late := 0, 0
	for round := 0; round == 0 || late == 0 && !testing.Short() && round < 5; round++ {
		rapid.Check(t, func(t *rapid.T) {
			nodes, jobs := drawNodeCase(t)
			c := samePlanRapid(t, nodes, jobs, 1)
			kept, late = kept+c.kept, late+c.late
		})
	}
	if kept == 0 || late == 0 && !testing.Short() {
		t.Fatalf("%d jobs kept, %d passes standing after S3: the test checks nothing of the plan", kept, late)
	}
}

// TestConservativeNodesPlanDeepRapid is TestConservativeNodesPlanRapid
// on deeper queues (up to 150 jobs, arriving closer) on up to 18 nodes,
// with looser estimates: many passes keep a job through several gains,
// so its deficit and the moves after it carry over passes. Measured
// 2026-11-30 at 100 checks, seeds 1–5, with each of these shortcuts made
// unsound on purpose (TestConservativeNodesPlanRapid found each in 0 of
// the 5): a kept job's deficit not lessened by the gains' most (found in
// 3), the overdraw test off (4), a gain over the window at t on the job's
// own nodes ignored (2), an overdue reservation's hold at now noted as no
// loss (4); first fit's choice at t on a node before its last ignored: 5
// (TestConservativeNodesPlanRapid 2). It must keep
// jobs, and (not under -short: 20 checks missed it in 1 seed of 40)
// stand after S3.
func TestConservativeNodesPlanDeepRapid(t *testing.T) {
	kept, late := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		nodes, jobs := drawDeepNodeCase(t)
		c := samePlanRapid(t, nodes, jobs, 0)
		kept, late = kept+c.kept, late+c.late
	})
	if kept == 0 || late == 0 && !testing.Short() {
		t.Fatalf("%d jobs kept, %d passes standing after S3: the test checks nothing of the plan", kept, late)
	}
}

// TestConservativeNodesPlanDeepBestRapid is TestConservativeNodesPlanDeepRapid
// under best fit alone: deep queues on small machines, where losses and
// gains meet kept jobs' windows on nodes they could take (lossReaches).
func TestConservativeNodesPlanDeepBestRapid(t *testing.T) {
	kept := 0
	rapid.Check(t, func(t *rapid.T) {
		nodes, jobs := drawDeepNodeCase(t)
		c := samePlanRapid(t, nodes, jobs, 2)
		kept += c.kept
	})
	if kept == 0 {
		t.Fatal("no job kept under best fit: the test checks nothing of the plan")
	}
}

// drawDeepNodeCase draws TestConservativeNodesPlanDeepRapid's machine and
// queue.
func drawDeepNodeCase(t *rapid.T) ([]swf.Node, []swf.Job) {
	models := []string{"A", "B"}
	var nodes []swf.Node
	for k := range rapid.IntRange(1, 3).Draw(t, "kinds") {
		n := swf.Node{Name: fmt.Sprint("k", k), Count: rapid.Int64Range(1, 6).Draw(t, "count"), Cores: rapid.Int64Range(1, 4).Draw(t, "cores"),
			Memory: rapid.Int64Range(0, 16).Draw(t, "memory")}
		if rapid.IntRange(0, 3).Draw(t, "gpu") == 0 {
			n.GPUs = rapid.Int64Range(1, 2).Draw(t, "gpus")
			n.GPUModel = rapid.SampledFrom(models).Draw(t, "model")
		}
		nodes = append(nodes, n)
	}
	var jobs []swf.Job
	var sub int64
	for id := range int64(rapid.IntRange(1, 150).Draw(t, "jobs")) {
		sub += rapid.SampledFrom([]int64{0, 0, 0, 1, 2, 5}).Draw(t, "gap")
		run := rapid.SampledFrom([]int64{0, 1, 2, 3, 5, 8, 13, 20}).Draw(t, "run")
		est := max(run+rapid.SampledFrom([]int64{-5, -1, 0, 1, 3, 7, 15, 30}).Draw(t, "slack"), 1)
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime = id+1, sub, run, est
		j.AllocProcs = rapid.Int64Range(1, 10).Draw(t, "size")
		j.ReqProcs, j.User = j.AllocProcs, rapid.Int64Range(1, 3).Draw(t, "user")
		switch rapid.IntRange(0, 4).Draw(t, "shape") {
		case 1:
			j.Demand = &swf.Demand{Memory: rapid.Int64Range(0, 4).Draw(t, "mpc"), Exclusive: rapid.IntRange(0, 4).Draw(t, "sx") == 0}
		case 2:
			j.Demand = drawNodesDemand(t, models)
		}
		jobs = append(jobs, j)
	}
	return nodes, jobs
}

// samePlanRapid draws the options (predictor, kills, passes per event,
// best fit never (best 0), in one case of five (1) or always (2),
// cancellations), runs jobs on nodes with the plan and
// with every pass rebuilt, and fails t unless the plan's schedule checks
// and is the rebuilt one; it returns the plan's passes' scratch.
func samePlanRapid(t *rapid.T, nodes []swf.Node, jobs []swf.Job, best int) *consNodes {
	pred := rapid.IntRange(0, 3).Draw(t, "predictor")
	kill := rapid.Bool().Draw(t, "kill")
	perEvent := rapid.Bool().Draw(t, "perEvent")
	bestFit := best == 2 || best == 1 && rapid.IntRange(0, 4).Draw(t, "best") == 0
	cancels := drawCancels(t, 3, jobs[len(jobs)-1].Submit+60, len(jobs))
	run := func(noMemo bool) (*Result, *consNodes) {
		cfg := Config{Nodes: nodes, Scheduler: conservativeScheduler{}, KeepShares: true, KillAtEstimate: kill, PerEventPass: perEvent}
		if bestFit {
			cfg.Placement = BestFit
		}
		withPredictor(t, &cfg, pred)
		return consNodesRun(t, cfg, jobs, cancels, noMemo)
	}
	want, _ := run(true)
	got, c := run(false)
	if err := got.Check(); err != nil {
		t.Fatal(err)
	}
	sameNodeSchedule(t, want, got)
	return c
}

// The same on real logs, on nodes that match their size: KTH-SP2 on 100
// nodes of 1 core, SDSC-SP2 on 32 nodes of 4 cores, lublin_256 (no
// estimates: S6 makes them exact, a heavy queue) on 64 of 4, each as is,
// with kills at the estimate and with a pass per event. Skipped without
// the logs. The passes that rebuild are slow on long queues (the whole of
// KTH-SP2 and SDSC-SP2, each run twice, took about 13 minutes), so:
// under -short (CI's -race) the first 300 jobs of each, as is only; in the
// plain run (the README's test command) the first jobs of each log given
// by plain below, every option, each slice long enough for kills and
// early ends (checked: a slice without them would test nothing of the
// plan's gains); the whole logs only with BATCHQ_LONG=1 (not in CI).
func TestConservativeNodesPlanLogs(t *testing.T) {
	long := os.Getenv("BATCHQ_LONG") != ""
	cases := []struct {
		trace string
		nodes []swf.Node
		plain int // jobs in the plain run
	}{
		{tracetest.KTH, []swf.Node{{Count: 100, Cores: 1}}, 3000},
		{tracetest.SDSCSP2, []swf.Node{{Count: 32, Cores: 4}}, 5000},
		{tracetest.Lublin, []swf.Node{{Count: 64, Cores: 4}}, 2000},
	}
	for _, tc := range cases {
		for _, opt := range []string{"", "kill", "per-event"} {
			if testing.Short() && opt != "" {
				continue // (the rapid test has kills and passes per event)
			}
			if tc.trace == tracetest.Lublin && opt == "kill" {
				continue // (its estimates are its run times: no kill)
			}
			t.Run(fmt.Sprintf("%s/%s", tracetest.ShortName(tc.trace), opt), func(t *testing.T) {
				_, jobs, err := swf.ReadFile(tracetest.Path(t, tc.trace))
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case testing.Short(): // (CI's -race: 1,000 jobs took 190 s)
					jobs = jobs[:min(len(jobs), 300)]
				case !long:
					jobs = jobs[:min(len(jobs), tc.plain)]
				}
				cfg := Config{Nodes: tc.nodes, Scheduler: conservativeScheduler{}, KeepShares: true,
					KillAtEstimate: opt == "kill", PerEventPass: opt == "per-event"}
				want, _ := consNodesFixed(t, cfg, jobs, true)
				got, c := consNodesFixed(t, cfg, jobs, false)
				k := c.kept
				sameNodeSchedule(t, want, got)
				if k == 0 {
					t.Fatal("no pass kept a job")
				}
				early, killed := 0, 0
				for _, r := range got.Records {
					if r.Killed {
						killed++
					} else if r.Start >= 0 && r.RunTime < r.Estimate {
						early++
					}
				}
				if !testing.Short() && tc.trace != tracetest.Lublin && (early == 0 || opt == "kill" && killed == 0) {
					t.Fatalf("%d early ends, %d kills: the slice tests nothing of them", early, killed)
				}
				t.Logf("%d jobs, %d kept without a scan, %d passes standing after S3, %d early ends, %d killed", len(jobs), k, c.late, early, killed)
			})
		}
	}
}

// consNodesFixed runs jobs under cfg (Conservative on nodes, shares
// kept), with the plan (noMemo false) or every pass rebuilt, checks the
// schedule, and returns it and the passes' scratch (its counts).
func consNodesFixed(t *testing.T, cfg Config, jobs []swf.Job, noMemo bool) (*Result, *consNodes) {
	t.Helper()
	sim, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.cons = sim.newConsNodes()
	sim.cons.noMemo = noMemo
	if err := sim.Load(jobs); err != nil {
		t.Fatal(err)
	}
	res, err := sim.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(); err != nil {
		t.Fatal(err)
	}
	return res, sim.cons
}

// TestConservativeNodesPlanDueMoves: a pass from a standing plan where a
// job due later (A) starts now on other nodes than it reserved, after an
// early end, gives its old slot back; a later job (B) that no early end's
// gain can reach (it wants one node of 2 cores, the gained node has 1)
// must still move into that slot: the pass's own moves (gain) keep it
// from being settled. Node n0 has 1 core, n1 2; at 0 R (estimate 100,
// runs 10) takes n0 and L (50, exact) n1; A (1 core, 20 s, arrives at 1)
// reserves n1 at 50, B (1 node × 2 cores, 30 s, at 2) n1 at 70. R ends at
// 10: A starts on n0 at 10 and gives back n1 over [50, 70), so B starts
// at 50, not 70.
func TestConservativeNodesPlanDueMoves(t *testing.T) {
	nodes := []swf.Node{{Name: "n0", Count: 1, Cores: 1}, {Name: "n1", Count: 1, Cores: 2}}
	job := func(id, submit, run, est, procs int64, d *swf.Demand) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs, j.ReqProcs, j.User = id, submit, run, est, procs, procs, 1
		j.Demand = d
		return j
	}
	jobs := []swf.Job{
		job(1, 0, 10, 100, 1, nil),                            // R
		job(2, 0, 50, 50, 2, nil),                             // L
		job(3, 1, 20, 20, 1, nil),                             // A
		job(4, 2, 30, 30, 2, &swf.Demand{Nodes: 1, Cores: 2}), // B
	}
	cfg := Config{Nodes: nodes, Scheduler: conservativeScheduler{}, KeepShares: true}
	want, _ := consNodesFixed(t, cfg, jobs, true)
	got, c := consNodesFixed(t, cfg, jobs, false)
	for k, s := range []int64{0, 0, 10, 50} {
		if r := want.Records[k]; r.Start != s {
			t.Fatalf("rebuilt: job %d starts at %d, want %d (the case is not the one meant)", r.Job.ID, r.Start, s)
		}
	}
	sameNodeSchedule(t, want, got)
	if c.kept == 0 {
		t.Fatal("no pass kept a job: the case is not the one meant")
	}
}

// TestConservativeNodesPlanObserverRapid: the same with an observer that
// cancels jobs (waiting or running) and submits new ones from inside the
// passes (OnReservation, OnStart) and from an end (OnEnd), which the
// epochs of the plan must see (consPlan.epoch, qepoch).
func TestConservativeNodesPlanObserverRapid(t *testing.T) {
	kept, fired := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		nodes, jobs := drawNodeCase(t)
		n := int64(len(jobs))
		// on the reservation, start or end of job on (its ID), cancel
		// job id (once), or submit a copy of job id under ID 1000+k
		type act struct {
			on, id int64
			what   int
		}
		var acts []act
		for range rapid.IntRange(0, 4).Draw(t, "acts") {
			acts = append(acts, act{rapid.Int64Range(1, n).Draw(t, "on"), rapid.Int64Range(1, n).Draw(t, "id"), rapid.IntRange(0, 5).Draw(t, "what")})
		}
		kill := rapid.Bool().Draw(t, "kill")
		perEvent := rapid.Bool().Draw(t, "perEvent")
		run := func(noMemo bool) (*Result, int) {
			cfg := Config{Nodes: nodes, Scheduler: conservativeScheduler{}, KeepShares: true, KillAtEstimate: kill, PerEventPass: perEvent}
			var sim *Sim
			done := make([]bool, len(acts))
			fire := func(on int64, kind int) {
				for k, a := range acts {
					if done[k] || a.on != on || a.what%3 != kind {
						continue
					}
					done[k] = true
					if !noMemo {
						fired++
					}
					if a.what < 3 {
						sim.Cancel(a.id)
						continue
					}
					j := jobs[a.id-1]
					j.ID = 1000 + int64(k)
					sim.Submit(j)
				}
			}
			res := runCancelled(t, cfg, jobs, nil, func(s *Sim) {
				sim = s
				s.cons = s.newConsNodes()
				s.cons.noMemo = noMemo
				s.Observe(Hooks{
					Reservation: func(_ int64, j *swf.Job, _ int64) { fire(j.ID, 0) },
					Start:       func(_ int64, j *swf.Job, _ bool) { fire(j.ID, 1) },
					End:         func(_ int64, j *swf.Job, _ bool) { fire(j.ID, 2) },
				})
			})
			return res, sim.cons.kept
		}
		want, _ := run(true)
		got, k := run(false)
		if err := got.Check(); err != nil {
			t.Fatal(err)
		}
		sameNodeSchedule(t, want, got)
		kept += k
	})
	if kept == 0 || fired == 0 {
		t.Fatalf("%d jobs kept, %d observer actions: the test checks nothing", kept, fired)
	}
}

// drawNodesDemand draws a demand of whole shares on nodes: cores, memory,
// perhaps GPUs of a model among models, a named resource "lic", whole
// nodes (the rapid tests of conservative on nodes share it).
func drawNodesDemand(t *rapid.T, models []string) *swf.Demand {
	d := &swf.Demand{Nodes: rapid.Int64Range(1, 3).Draw(t, "nodes"), Cores: rapid.Int64Range(0, 4).Draw(t, "cpn"),
		Memory: rapid.Int64Range(0, 32).Draw(t, "mem"), Exclusive: rapid.IntRange(0, 5).Draw(t, "x") == 0}
	d.GPUs = rapid.SampledFrom([]int64{0, 0, 250, 500, 1000, 2000}).Draw(t, "g")
	if d.GPUs > 0 && rapid.Bool().Draw(t, "only") {
		d.GPUModels = []string{rapid.SampledFrom(models).Draw(t, "want")}
	}
	if rapid.IntRange(0, 3).Draw(t, "asklic") == 0 {
		d.Named = map[string]int64{"lic": rapid.Int64Range(1, 2).Draw(t, "nlic")}
	}
	return d
}

// TestConservativeNodesPlanBestRapid is TestConservativeNodesPlanRapid
// under best fit alone, whose plan stands too (consPlan's Best fit): it
// must keep jobs (it rebuilt every pass, lublin_256 on 64 nodes of 4
// cores with -placement best took over 400 s).
func TestConservativeNodesPlanBestRapid(t *testing.T) {
	kept := 0
	rapid.Check(t, func(t *rapid.T) {
		nodes, jobs := drawNodeCase(t)
		c := samePlanRapid(t, nodes, jobs, 2)
		kept += c.kept
	})
	if kept == 0 {
		t.Fatal("no job kept under best fit: the test checks nothing of the plan")
	}
}

// Under best fit the plan stands as under first fit (consPlan's Best
// fit): on a heavy queue with exact estimates (nothing happens but
// arrivals and ends as predicted) only the first pass rebuilds, and the
// passes keep more jobs than they place again; the schedule is the one of
// passes that rebuild every time. It counts passes and jobs, not time:
// with every pass rebuilt (as best fit was until 2026-12-01: lublin_256
// on 64 nodes of 4 cores with -placement best ran over 400 s) rebuilt is
// the number of passes and nothing is kept.
func TestConservativeNodesPlanBestCounts(t *testing.T) {
	var jobs []swf.Job
	x := uint64(1)
	next := func(n uint64) int64 { // a fixed LCG: the same workload on every machine
		x = x*6364136223846793005 + 1442695040888963407
		return int64(x >> 33 % n)
	}
	var sub int64
	for id := range int64(300) {
		sub += next(40)
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime = id+1, sub, 1+next(2000)
		j.ReqTime, j.AllocProcs = j.RunTime, 1+next(12)
		j.ReqProcs = j.AllocProcs
		jobs = append(jobs, j)
	}
	for _, spread := range []bool{true, false} {
		if !spread { // a node count: shares of 1 core on AllocProcs nodes
			for k := range jobs {
				jobs[k].Demand = &swf.Demand{Nodes: min(jobs[k].AllocProcs, 8), Cores: 1}
			}
		}
		cfg := Config{Nodes: []swf.Node{{Count: 16, Cores: 4}}, Scheduler: conservativeScheduler{}, KeepShares: true, Placement: BestFit}
		got, c := consNodesFixed(t, cfg, jobs, false)
		if !testing.Short() { // (every pass rebuilt: 20 s under -race)
			want, w := consNodesFixed(t, cfg, jobs, true)
			sameNodeSchedule(t, want, got)
			t.Logf("spread %v: %d passes rebuilt of %d", spread, c.rebuilt, w.rebuilt)
		}
		t.Logf("spread %v: %d passes rebuilt, %d jobs kept, %d placed", spread, c.rebuilt, c.kept, c.placed)
		if c.rebuilt != 1 || c.kept <= c.placed {
			t.Errorf("spread %v: %d passes rebuilt, %d jobs kept, %d placed again: best fit's plan does not stand",
				spread, c.rebuilt, c.kept, c.placed)
		}
	}
}

// Under best fit a job reserved in a pass is kept in the next one when
// nothing but its own new slot changed (it was placed without that slot:
// no loss to it). Two nodes of 1 core; a job of 2 cores runs from 0 to
// 100 (exact estimates); then a job of 1 core arrives at each second
// from 1 on, each reserved after it (at 100 or later); each pass places
// the arrival and keeps the jobs reserved before it. Without the own slot
// left out, each pass placed again the job the last one reserved (61
// placements, not 41).
func TestConservativeNodesPlanBestOwnSlot(t *testing.T) {
	var jobs []swf.Job
	add := func(sub, run, procs int64) {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = int64(len(jobs)+1), sub, run, run, procs
		j.ReqProcs = procs
		jobs = append(jobs, j)
	}
	add(0, 100, 2)
	const queued = 20
	for k := range int64(queued) {
		add(1+k, 10, 1)
	}
	cfg := Config{Nodes: []swf.Node{{Count: 2, Cores: 1}}, Scheduler: conservativeScheduler{}, KeepShares: true, Placement: BestFit}
	got, c := consNodesFixed(t, cfg, jobs, false)
	want, _ := consNodesFixed(t, cfg, jobs, true)
	sameNodeSchedule(t, want, got)
	t.Logf("%d passes rebuilt, %d jobs kept, %d placed", c.rebuilt, c.kept, c.placed)
	// nothing changes but arrivals (exact estimates): each queued job is
	// placed when it arrives and when it starts, never more (the first
	// job once, at 0)
	if most := 1 + 2*queued; c.placed > most {
		t.Errorf("%d placements, want at most %d (each queued job at its arrival and its start): a job's own slot read as a loss to it", c.placed, most)
	}
}

// Under first fit a job that moved in a pass is kept in the next one
// when nothing but its own old slot, given back as it moved, changed (it
// was placed without that slot: no gain to it). One node of 2 cores; R
// (2 cores, estimate 100) runs from 0 to 10; B1..B5 (2 cores, 100 s,
// exact) arrive at 1..5 and reserve 100, 200, …; R's early end at 10
// starts B1 and moves each other B 90 s earlier, its window still
// meeting its old slot on its node; then a job of 1 core (1,000 s)
// arrives at each second from 11 to 20, reserved after the Bs. Each job
// is placed at its arrival, at R's end if it waits then, and at its
// start, never more: with its old slot read as a gain each B moved was
// placed again at 11 (4 placements over the bound).
func TestConservativeNodesPlanFirstOwnOldSlot(t *testing.T) {
	var jobs []swf.Job
	add := func(sub, run, req, procs int64) {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = int64(len(jobs)+1), sub, run, req, procs
		j.ReqProcs = procs
		jobs = append(jobs, j)
	}
	add(0, 10, 100, 2)
	const queued = 5
	for k := range int64(queued) {
		add(1+k, 100, 100, 2)
	}
	const later = 10
	for k := range int64(later) {
		add(11+k, 1000, 1000, 1)
	}
	cfg := Config{Nodes: []swf.Node{{Count: 1, Cores: 2}}, Scheduler: conservativeScheduler{}, KeepShares: true}
	got, c := consNodesFixed(t, cfg, jobs, false)
	want, _ := consNodesFixed(t, cfg, jobs, true)
	sameNodeSchedule(t, want, got)
	t.Logf("%d passes rebuilt, %d jobs kept, %d placed", c.rebuilt, c.kept, c.placed)
	if most := 2*len(jobs) + queued; c.placed > most {
		t.Errorf("%d placements, want at most %d (each job at its arrival, at the early end if it waits, at its start): a job's own old slot read as a gain to it", c.placed, most)
	}
}
