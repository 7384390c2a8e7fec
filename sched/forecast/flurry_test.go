package forecast

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// kthFlurry is KTH-SP2's first n jobs, all submitted in its first job's
// second (the flurries of the CHANGELOG's figures), and its machine size.
func kthFlurry(tb testing.TB, n int) ([]swf.Job, int64) {
	tb.Helper()
	h, jobs, err := swf.ReadFile(tracetest.Path(tb, tracetest.KTH))
	if err != nil {
		tb.Fatal(err)
	}
	P, err := h.MachineSize()
	if err != nil {
		tb.Fatal(err)
	}
	jobs = jobs[:n]
	for i := range jobs {
		jobs[i].Submit = jobs[0].Submit
	}
	return jobs, P
}

// randomFlurry is a log of a machine of 128 processors: 300 jobs over a
// day, then n jobs in one second (sizes, estimates and run times of many
// shapes, some without an estimate, some larger than the machine), then
// 100 more.
func randomFlurry(seed uint64, n int) ([]swf.Job, int64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var jobs []swf.Job
	add := func(at int64) {
		size := int64(1) << rng.IntN(8)
		if rng.IntN(50) == 0 {
			size = 129
		}
		est := 60 + rng.Int64N(20000)
		run := 1 + rng.Int64N(est)
		if rng.IntN(10) == 0 {
			est = -1
		}
		j := job(int64(len(jobs)+1), at, rng.Int64N(30000), run, size, est, rng.Int64N(12))
		jobs = append(jobs, j)
	}
	for i := range 300 {
		add(int64(i) * 288)
	}
	for range n {
		add(86400)
	}
	for i := range 100 {
		add(86401 + int64(i)*600)
	}
	return jobs, 128
}

// replayOnline replays jobs through an Online of cfg whose forecaster
// runs at most maxOwn simulations from Now at an instant (0: every
// question's own) and returns the answers (NoCorrection: the simulated
// waits) and the Online.
func replayOnline(tb testing.TB, cfg Config, P int64, jobs []swf.Job, maxOwn int) ([]float64, *Online) {
	tb.Helper()
	o, err := NewOnline(cfg, P)
	if err != nil {
		tb.Fatal(err)
	}
	o.f.live.maxOwn = maxOwn
	var got []float64
	opt := replay.Options{Train: 0.01, OnPredict: func(_ int, _ *swf.Job, _ int64, p []replay.Prediction) {
		got = append(got, p[0].Point)
	}}
	if _, err := replay.Run(context.Background(), jobs, opt, o); err != nil {
		tb.Fatal(err)
	}
	return got, o
}

// flurryConfigs are the configurations whose simulations go on: the
// estimates' (the scoreboard's estimates row) and the default run times
// without correction (its forecast row's simulated wait).
var flurryConfigs = []Config{{Estimates: true, NoCorrection: true}, {NoCorrection: true}}

// TestFlurryEqualsOwn checks that the questions of a flurry answered by
// going on with the simulation of the question before get the answers of
// their own simulations, every one, on random flurries and on KTH-SP2's
// first 1,500 jobs in one second, and that the flurries did go on.
func TestFlurryEqualsOwn(t *testing.T) {
	type log struct {
		name string
		jobs func() ([]swf.Job, int64)
	}
	logs := []log{}
	for seed := range uint64(4) {
		logs = append(logs, log{"random", func() ([]swf.Job, int64) { return randomFlurry(seed, 400) }})
	}
	logs = append(logs, log{"KTH", func() ([]swf.Job, int64) { return kthFlurry(t, 1500) }})
	for _, lg := range logs {
		for _, cfg := range flurryConfigs {
			jobs, P := lg.jobs()
			want, _ := replayOnline(t, cfg, P, jobs, 0)
			jobs, P = lg.jobs()
			got, o := replayOnline(t, cfg, P, jobs, 1<<30)
			if len(got) != len(want) {
				t.Fatalf("%s: %d answers, want %d", lg.name, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s %+v: answer %d is %v, its own simulation's %v", lg.name, cfg, i, got[i], want[i])
				}
			}
			if o.f.live.extended < len(got)/4 || o.Approximated() != 0 {
				t.Errorf("%s %+v: %d of %d questions went on, %d approximated", lg.name, cfg, o.f.live.extended, len(got), o.Approximated())
			}
			t.Logf("%s (estimates %v): %d of %d questions went on, %d simulated from Now", lg.name, cfg.Estimates, o.f.live.extended, len(got), o.f.live.own)
		}
	}
}

// TestFlurryLinear checks that a flurry's cost, in jobs given to the
// simulations and their steps (Forecaster.work), grows linearly with
// it: four times the jobs cost at most 5 times the work (it was 16, the
// quadratic 4², before the simulations went on), and that the questions
// past maxOwn are counted as approximated.
func TestFlurryLinear(t *testing.T) {
	for _, cfg := range flurryConfigs {
		work := func(jobs []swf.Job, P int64) (int64, int) {
			_, o := replayOnline(t, cfg, P, jobs, maxOwn)
			return o.f.work, o.Approximated()
		}
		small, _ := work(randomFlurry(1, 1000))
		large, approx := work(randomFlurry(1, 4000))
		if large > 5*small || approx == 0 {
			t.Errorf("estimates %v: random flurry of 4,000 jobs: work %d, of 1,000: %d (×%.1f); %d approximated", cfg.Estimates, large, small, float64(large)/float64(small), approx)
		}
		small, _ = work(kthFlurry(t, 750))
		large, approx = work(kthFlurry(t, 3000))
		if large > 5*small || approx == 0 {
			t.Errorf("estimates %v: KTH-SP2 flurry of 3,000 jobs: work %d, of 750: %d (×%.1f); %d approximated", cfg.Estimates, large, small, float64(large)/float64(small), approx)
		}
		t.Logf("estimates %v: KTH-SP2 flurry of 3,000 jobs: work %d, of 750: %d (×%.1f); %d approximated", cfg.Estimates, large, small, float64(large)/float64(small), approx)
	}
}

// featuresOf replays jobs through an Online of cfg, walking the queue
// and the running jobs at each question or not, and returns its answers
// and the features of each question (o.x after it).
func featuresOf(tb testing.TB, cfg Config, P int64, jobs []swf.Job, loop bool) ([]float64, [][nFeatures]float64) {
	tb.Helper()
	o, err := NewOnline(cfg, P)
	if err != nil {
		tb.Fatal(err)
	}
	o.loop = loop
	o.aheadOn = 16 // (the sums built, used and dropped many times over)
	var got []float64
	var xs [][nFeatures]float64
	opt := replay.Options{Train: 0.01, OnPredict: func(_ int, _ *swf.Job, _ int64, p []replay.Prediction) {
		got = append(got, p[0].Point)
		xs = append(xs, o.x)
	}}
	if _, err := replay.Run(context.Background(), jobs, opt, o); err != nil {
		tb.Fatal(err)
	}
	return got, xs
}

// TestRunSumsLinear counts the running jobs visited by the questions of
// a flurry of N one-processor jobs that all start at their arrival on a
// machine of 10^6 processors (a job array on a large machine): the walks
// of the running jobs at each question visited N² of them (the reference,
// o.loop), the sums kept (runsums.go) a few per job.
func TestRunSumsLinear(t *testing.T) {
	for _, n := range []int{1000, 4000} {
		var jobs []swf.Job
		for i := range n {
			jobs = append(jobs, job(int64(i+1), 1000, 0, 3600+int64(i), 1, 7200, int64(i%7)))
		}
		for _, loop := range []bool{false, true} {
			o, err := NewOnline(Config{}, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			o.loop = loop
			if _, err := replay.Run(context.Background(), jobs, replay.Options{Train: 0.01}, o); err != nil {
				t.Fatal(err)
			}
			t.Logf("a flurry of %d jobs starting at once, walked %v: %d running jobs visited", n, loop, o.runs.walks)
			if !loop && o.runs.walks > 4*n {
				t.Errorf("a flurry of %d jobs starting at once: %d running jobs visited, more than 4 a job", n, o.runs.walks)
			}
		}
	}
}

// TestFlurryCapped counts the work of the policies whose simulations the
// flurry note's proof does not cover — nodes, conservative backfilling,
// EASY++'s predictions — on a flurry: each question was simulated from
// Now, N²/2 simulated jobs (a flurry of 10,000 jobs of SDSC-BLUE on 144
// nodes of 8 cores took 77 s of CPU for the forecast row, 3,000 of them
// 11 s); past maxOwn simulations at the instant the last one goes on, the
// jobs appended to it (approximate, counted).
func TestFlurryCapped(t *testing.T) {
	cons, _ := sched.LookupPreset("conservative")
	easypp, _ := sched.LookupPreset("easy++")
	for name, pol := range map[string]sched.Config{
		"nodes":        {Nodes: []swf.Node{{Name: "n", Count: 16, Cores: 8}}},
		"conservative": cons.New(128),
		"easy++":       easypp.New(128),
	} {
		cfg := Config{Estimates: true, NoCorrection: true, Policy: pol}
		work := func(n int) (int64, int) {
			jobs, P := randomFlurry(1, n)
			for i := range jobs { // (on nodes a running job larger than the machine is an error)
				jobs[i].AllocProcs, jobs[i].ReqProcs = min(jobs[i].AllocProcs, P), min(jobs[i].ReqProcs, P)
			}
			_, o := replayOnline(t, cfg, P, jobs, maxOwn)
			return o.f.work, o.Approximated()
		}
		small, _ := work(1000)
		large, approx := work(4000)
		t.Logf("%s: random flurry of 4,000 jobs: work %d, of 1,000: %d (×%.1f); %d approximated", name, large, small, float64(large)/float64(small), approx)
		if large > 5*small || approx < 4000-2*maxOwn {
			t.Errorf("%s: random flurry of 4,000 jobs: work %d, of 1,000: %d (×%.1f); %d approximated", name, large, small, float64(large)/float64(small), approx)
		}
	}
}

// TestAheadEqualsLoop checks that the features and answers read from the
// waiting jobs' sums (ahead.go) are those of the walk of the queue, bit
// for bit, on random flurries with queues and partitions and on the
// first 6,000 jobs of KTH-SP2 and SDSC-Par (30 queues).
func TestAheadEqualsLoop(t *testing.T) {
	type log struct {
		name string
		jobs func() ([]swf.Job, int64)
	}
	var logs []log
	for seed := range uint64(3) {
		logs = append(logs, log{"random", func() ([]swf.Job, int64) {
			jobs, P := randomFlurry(seed, 500)
			rng := rand.New(rand.NewPCG(seed, 9))
			for i := range jobs {
				jobs[i].Queue, jobs[i].Partition = rng.Int64N(4)-1, rng.Int64N(3)-1
			}
			return jobs, P
		}})
	}
	// Times on a grid of minutes: jobs start and end at the instants of
	// the questions, between them (the running jobs' sums, runsums.go).
	logs = append(logs, log{"grid", func() ([]swf.Job, int64) {
		rng := rand.New(rand.NewPCG(5, 9))
		var jobs []swf.Job
		for i := range 3000 {
			est := 60 * (1 + rng.Int64N(30))
			jobs = append(jobs, job(int64(i+1), 60*int64(i/4), 60*rng.Int64N(3), 60*rng.Int64N(est/60+1), 1<<rng.IntN(5), est, rng.Int64N(5))) // (some run 0 s: they end at a question's instant)
		}
		return jobs, 64
	}})
	for _, name := range []string{tracetest.KTH, "SDSC-Par-1996-3.1-cln.swf.gz"} {
		logs = append(logs, log{name, func() ([]swf.Job, int64) {
			h, jobs, err := swf.ReadFile(tracetest.Path(t, name))
			if err != nil {
				t.Fatal(err)
			}
			P, _ := h.MachineSize()
			q, _ := replay.Queues(jobs[:6000])
			all, _ := replay.All(q)
			return all, P
		}})
	}
	nodes := Config{Policy: sched.Config{Nodes: []swf.Node{{Name: "n", Count: 16, Cores: 4}}}}
	for k, lg := range append(logs, logs[len(logs)-3]) {
		cfg := Config{}
		if k == len(logs) { // the grid log again, on nodes (Online.byStart)
			cfg, lg.name = nodes, "grid on nodes"
		}
		jobs, P := lg.jobs()
		want, wx := featuresOf(t, cfg, P, jobs, true)
		jobs, P = lg.jobs()
		got, gx := featuresOf(t, cfg, P, jobs, false)
		if len(got) != len(want) {
			t.Fatalf("%s: %d answers, want %d", lg.name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] || gx[i] != wx[i] {
				t.Fatalf("%s: question %d: answer %v, features %v; the walk's %v, %v", lg.name, i, got[i], gx[i], want[i], wx[i])
			}
		}
	}
}

// TestFlurryLogs measures, with FORECAST_FLURRY_LOGS set, the most
// questions of one instant that each archive log of examples/forecast's
// README simulates from Now, for the estimates' and the forecast's
// simulations, and fails if a log reaches maxOwn (its answers would be
// approximate): the figures of maxOwn's doc.
func TestFlurryLogs(t *testing.T) {
	if os.Getenv("FORECAST_FLURRY_LOGS") == "" {
		t.Skip("FORECAST_FLURRY_LOGS=1 replays every archive log (minutes)")
	}
	for _, name := range []string{tracetest.KTH, "SDSC-Par-1996-3.1-cln.swf.gz", "OSC-Clust-2000-3.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz",
		tracetest.CTC, "LANL-CM5-1994-4.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz", "CEA-Curie-2011-2.1-cln.swf.gz"} {
		h, jobs, err := swf.ReadFile(tracetest.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		q, _ := replay.Queues(jobs)
		all, _ := replay.All(q)
		P, _ := h.MachineSize()
		for _, cfg := range flurryConfigs {
			o, err := NewOnline(cfg, P)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := replay.Run(context.Background(), all, replay.Options{}, o); err != nil {
				t.Fatal(err)
			}
			l := &o.f.live
			t.Logf("%s (estimates %v): at most %d simulations from Now at an instant; %d questions went on, %d approximated", name, cfg.Estimates, l.maxSims, l.extended, l.approx)
			if l.maxSims >= maxOwn || l.approx > 0 {
				t.Errorf("%s (estimates %v): %d simulations from Now at an instant, %d approximated", name, cfg.Estimates, l.maxSims, l.approx)
			}
		}
	}
}

// BenchmarkOnlineFlurry replays a log with a flurry of 10,000 jobs in one
// second (randomFlurry) through Online and reports jobs/s: each
// question goes on with the simulation of the one before, or past maxOwn
// approximates (flurry.go).
func BenchmarkOnlineFlurry(b *testing.B) {
	jobs, P := randomFlurry(1, 10000)
	for b.Loop() {
		o, err := NewOnline(Config{}, P)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := replay.Run(context.Background(), jobs, replay.Options{Train: 0.01}, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}
