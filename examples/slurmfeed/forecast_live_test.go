package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/examples/internal/slurmtest"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// The live forecast check (issue 36): a workload of short jobs from
// several users in two accounts on the private Slurm, under multifactor
// priority with fair share (forecastSite), each asked about at its
// submission — the service's
// forecast for a job of its shape (a hypothetical job: "if I submit this
// now") with its 90% interval, the naive baseline (forecast.Naive: the
// median wait of the last 100 started jobs of its size class), and
// Slurm's own expected start (squeue's, as the feed first reads it) —
// then scored against the real start from sacct. The run writes what it
// measured to forecastRecordPath when BATCHQ_UPDATE_README=1, and the
// README's table is generated from that record (TestForecastLiveReadme,
// which needs no Slurm).

const (
	forecastRecordPath = "testdata/forecast-live.json"
	// forecastFeedPath is what the Slurm commands printed at every poll
	// of the recorded run (record.go's format): replayForecast feeds it
	// to the service again, so that the README's table is the service's
	// answers as the code gives them now, on the recorded run.
	forecastFeedPath = "testdata/forecast-live.jsonl.gz"
	forecastRegion   = "live-forecast"
	// forecastFloor: the jobs run for seconds, so waits are floored at
	// 10 s before the ratios (the archive tables floor at 60 s).
	forecastFloor = 10
	forecastJobs  = 105
	forecastCPUs  = 32 // the node as declared: more than the host has
	// forecastConf: multifactor priority, fair share weighted above age,
	// recomputed every minute (the least PriorityCalcPeriod) with a
	// half-life short enough for the run's usage to count, and the
	// accounts and limits enforced: only with limits does Slurm 22.05
	// charge a job's usage when it ends; without, it charges only the
	// jobs running at a recalculation, and jobs of seconds would hardly
	// count (sched/slurm's Config.EnforceLimits). The script's
	// partitions (short, the default) and backfill parameters stay.
	forecastConf = `PriorityType=priority/multifactor
PriorityWeightFairshare=2000
PriorityWeightAge=1000
PriorityCalcPeriod=1
PriorityDecayHalfLife=0-0:10
PriorityMaxAge=0-0:02
AccountingStorageEnforce=associations,limits
`
)

// forecastSite is the cluster of the live forecast: two accounts of equal
// shares, two users each, every user a Unix account that submits its own
// jobs (forecastUsers says how many).
func forecastSite() *slurmtest.Site {
	return &slurmtest.Site{CPUs: forecastCPUs, Conf: forecastConf, Accounts: []slurmtest.Account{
		{Name: "physics", Shares: 50, Users: []slurmtest.User{{Name: "bq-alice", Shares: 1}, {Name: "bq-bob", Shares: 1}}},
		{Name: "chem", Shares: 50, Users: []slurmtest.User{{Name: "bq-carol", Shares: 1}, {Name: "bq-dave", Shares: 1}}},
	}}
}

// forecastUsers: who submits, in proportion 4:2:3:1, so that physics
// (alice and bob) uses more than its share and chem's jobs overtake
// its once fair share counts; alice's and dave's jobs run 4–15 s,
// bob's and carol's 2–6 s (half the jobs each way, as before the
// workload had users: the same load).
var forecastUsers = []struct {
	name, account string
	weight        int
	long          bool
}{{"bq-alice", "physics", 4, true}, {"bq-bob", "physics", 2, false}, {"bq-carol", "chem", 3, false}, {"bq-dave", "chem", 1, true}}

// forecastRecord is one job of the live run: its shape, when it was
// submitted and started (sacct), and each method's predicted wait from
// its submission (−1: no answer), with the forecast's 90% interval (high
// −1: unbounded).
type forecastRecord struct {
	Job      string `json:"job"`
	User     string `json:"user"`
	Account  string `json:"account"`
	Cores    int64  `json:"cores"`
	Run      int64  `json:"run"`
	Limit    int64  `json:"limit"`
	Submit   int64  `json:"submit"`
	Start    int64  `json:"start"`
	Forecast int64  `json:"forecast"`
	Low      int64  `json:"low"`
	High     int64  `json:"high"`
	Naive    int64  `json:"naive"`
	Slurm    int64  `json:"slurm"`
	// The service's forecast of the queued job (wait from submission and
	// its 90% interval; −1: no answer), asked when the feed first read
	// Slurm's expected start of it: the same moment as Slurm's, with the
	// queue in Slurm's priority order (squeue's, which the feed sends).
	Queued     int64 `json:"queued"`
	QueuedLow  int64 `json:"queued_low"`
	QueuedHigh int64 `json:"queued_high"`
	// Named is the service's forecast of the hypothetical job asked with
	// its user and account (PredictRequest.User, Account), and its 90%
	// interval (high −1: unbounded), as Forecast, Low, High.
	Named     int64 `json:"named"`
	NamedLow  int64 `json:"named_low"`
	NamedHigh int64 `json:"named_high"`
	// Poll is the feed's poll (of the recording, from 0) during which
	// the hypothetical job was asked about: a replay asks after it.
	Poll int `json:"poll"`
}

// forecastTap is the service as the collector feeds it, noting the submit
// and start of each job (for the naive baseline), Slurm's first expected
// start of each waiting job, and the service's forecast of that job asked
// at that moment.
type forecastTap struct {
	svc    *karnak.Service
	mu     sync.Mutex
	submit map[int64]int64
	cores  map[int64]int64
	slurm  map[int64]int64        // job → Slurm's first expected start
	queued map[int64]queuedAnswer // job → the forecast asked then
	naive  forecast.Naive
}

// queuedAnswer is the service's forecast of a queued job: its start and
// its 90% interval as starts (high −1: unbounded).
type queuedAnswer struct{ start, low, high int64 }

func (f *forecastTap) IngestBatch(id string, evs []karnak.Event) (karnak.Ack, error) {
	ack, err := f.svc.IngestBatch(id, evs)
	if err != nil {
		return ack, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range evs {
		switch e.Kind {
		case karnak.KindSubmit:
			f.submit[e.Job], f.cores[e.Job] = e.Time, e.Cores
		case karnak.KindStart:
			j := swf.Job{ID: e.Job, AllocProcs: f.cores[e.Job], Wait: e.Time - f.submit[e.Job]}
			f.naive.Observe(replay.Start, &j) //nolint:errcheck // never fails
		case karnak.KindEstimate:
			if _, ok := f.slurm[e.Job]; !ok && e.Job != 0 && e.Start > 0 {
				f.slurm[e.Job] = e.Start
				if p, err := f.svc.PredictJob(e.System, e.Job, 95, 90, 0); err == nil && p.Forecast != nil {
					fc, a := p.Forecast, queuedAnswer{start: p.Forecast.Start, low: p.Now + p.Forecast.Low, high: -1}
					if fc.High >= 0 {
						a.high = p.Now + fc.High
					}
					f.queued[e.Job] = a
				}
			}
		}
	}
	return ack, nil
}

func newForecastTap(svc *karnak.Service) *forecastTap {
	return &forecastTap{svc: svc, submit: map[int64]int64{}, cores: map[int64]int64{}, slurm: map[int64]int64{}, queued: map[int64]queuedAnswer{}}
}

// forecastFeedConfig is the feed of the live forecast, live or replayed:
// polls every second, a reorder delay of a second.
func forecastFeedConfig(tp *forecastTap, r slurmfeed.Runner, now func() time.Time, cursor string) slurmfeed.Config {
	return slurmfeed.Config{System: "live", Service: tp, Runner: r, Now: now,
		Cursor: cursor, Poll: time.Second, Delay: time.Second, ProbeEvery: 30 * time.Minute, Logf: func(string, ...any) {}}
}

// ask fills r's hypothetical forecast and naive baseline, as a user
// asks before submitting a job of r's shape at now.
func (f *forecastTap) ask(r *forecastRecord, now int64) {
	ps, err := f.svc.PredictHypothetical(&karnak.PredictRequest{Cores: r.Cores, WallTime: r.Limit, Quantile: 95, Confidence: 90,
		Locations: []karnak.Location{{System: "live", Queue: "short"}}})
	if err == nil && ps[0].Forecast != nil {
		fc := ps[0].Forecast
		r.Forecast, r.Low, r.High = fc.Wait, fc.Low, fc.High
	}
	ps, err = f.svc.PredictHypothetical(&karnak.PredictRequest{Cores: r.Cores, WallTime: r.Limit, Quantile: 95, Confidence: 90,
		Locations: []karnak.Location{{System: "live", Queue: "short"}}, User: r.User, Account: r.Account})
	r.Named, r.NamedLow, r.NamedHigh = -1, -1, -1
	if err == nil && ps[0].Forecast != nil {
		fc := ps[0].Forecast
		r.Named, r.NamedLow, r.NamedHigh = fc.Wait, fc.Low, fc.High
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, _ := f.naive.Predict(&swf.Job{AllocProcs: r.Cores}, now); p.OK {
		r.Naive = int64(math.Round(p.Point))
	}
}

// fill fills each record's Slurm estimate and queued forecast from
// what the tap saw (their submit and start known).
func (f *forecastTap) fill(recs []forecastRecord) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range recs {
		r := &recs[i]
		r.Slurm, r.Queued, r.QueuedLow, r.QueuedHigh = -1, -1, -1, -1
		id, _ := strconv.ParseInt(r.Job, 10, 64)
		if s, ok := f.slurm[id]; ok {
			r.Slurm = max(s-r.Submit, 0)
		}
		if a, ok := f.queued[id]; ok {
			r.Queued, r.QueuedLow = max(a.start-r.Submit, 0), max(a.low-r.Submit, 0)
			if a.high >= 0 {
				r.QueuedHigh = max(a.high-r.Submit, 0)
			}
		}
	}
}

// replayForecast feeds the recorded run (forecastFeedPath) to a new
// service on the recorded clock and asks it again what the live run
// asked, at the same polls: recs with the service's answers (forecasts,
// intervals, the naive baseline, Slurm's estimate) replaced by the
// replay's; their shapes, submits and starts are the record's.
func replayForecast(t testing.TB, recs []forecastRecord) []forecastRecord {
	rec, err := readRecording(forecastFeedPath)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := karnak.New(nil, karnak.Config{Now: func() int64 { return rec.clock().Unix() }})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	tp := newForecastTap(svc)
	c, err := slurmfeed.New(forecastFeedConfig(tp, rec, rec.clock, ""))
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(recs)
	order := make([]int, len(out)) // the questions in the order asked
	for i := range out {
		out[i].Forecast, out[i].Low, out[i].High, out[i].Naive = -1, -1, -1, -1
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(out[a].Poll, out[b].Poll) })
	// A question asked during poll k is asked after the last replayed
	// poll numbered ≤ k (a poll that failed before its commands has no
	// lines, so is not replayed).
	next := 0
	for rec.cur = range rec.polls {
		rec.used = 0
		c.Poll(context.Background()) //nolint:errcheck // counted in the report, as live
		for ; next < len(order); next++ {
			if k := rec.cur + 1; k < len(rec.polls) && out[order[next]].Poll >= rec.polls[k][0].Poll {
				break
			}
			tp.ask(&out[order[next]], rec.clock().Unix())
		}
	}
	tp.fill(out)
	return out
}

func (f *forecastTap) PredictJob(system string, id int64, q, c int, within int64) (karnak.Prediction, error) {
	return f.svc.PredictJob(system, id, q, c, within)
}

// TestLiveForecast runs the workload and scores the methods (see above).
func TestLiveForecast(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the live forecast test takes about three minutes")
	}
	dir, env := forecastSite().Start(t)
	svc, err := karnak.New(nil, karnak.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	tp := newForecastTap(svc)
	rec, err := newRecorder(filepath.Join(dir, "forecast-live.jsonl.gz"), envRunner{env})
	if err != nil {
		t.Fatal(err)
	}
	c, err := slurmfeed.New(forecastFeedConfig(tp, rec, rec.clock, filepath.Join(dir, "forecast-cursor.json")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	// Until the feed has declared the partitions, the service knows no
	// queue: the first job waits for it.
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if _, err := svc.PredictHypothetical(&karnak.PredictRequest{Cores: 1, WallTime: 60, Quantile: 95, Confidence: 90,
			Locations: []karnak.Location{{System: "live", Queue: "short"}}}); err == nil {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the feed declared no partition within 20 s")
		}
	}

	// The workload: each job from a user drawn by forecastUsers' weights,
	// sizes 1–16 CPUs, run times of 4–15 s (alice, dave) or 2–6 s (bob,
	// carol), under a limit of a minute (Slurm's estimate plays the
	// limit), arriving about every 0.7 s: about 1.5 times what the 32
	// CPUs serve, so that the queue grows to about a minute of work by
	// the last submission.
	rng := rand.New(rand.NewPCG(36, 2026))
	sizes := []int64{1, 1, 2, 2, 4, 4, 8, 8, 16}
	var draw []int
	for k, u := range forecastUsers {
		for range u.weight {
			draw = append(draw, k)
		}
	}
	var recs []forecastRecord
	for i := range forecastJobs {
		u := forecastUsers[draw[rng.IntN(len(draw))]]
		cores := sizes[rng.IntN(len(sizes))]
		run := int64(2 + rng.IntN(5))
		if u.long {
			run = int64(4 + rng.IntN(12))
		}
		r := forecastRecord{User: u.name, Account: u.account, Cores: cores, Run: run, Limit: 60,
			Forecast: -1, Low: -1, High: -1, Naive: -1, Slurm: -1, Queued: -1, QueuedLow: -1, QueuedHigh: -1, Poll: rec.polled()}
		tp.ask(&r, time.Now().Unix())
		// As the user, charged to the account (slurmd runs the job as
		// its user; the working directory is one every user may enter).
		out, err := slurmtest.Cmd(context.Background(), env, u.name, "sbatch", "--parsable", "-A", u.account, "-p", "short",
			"-c", strconv.FormatInt(cores, 10), "-t", "1", "-J", fmt.Sprintf("fc-%d", i), "-D", os.TempDir(), "-o", "/dev/null",
			"--wrap", fmt.Sprintf("sleep %d", run))
		if err != nil {
			t.Fatal(err)
		}
		r.Job, _, _ = strings.Cut(strings.TrimSpace(out), ";")
		recs = append(recs, r)
		time.Sleep(time.Duration(float64(time.Second) * 0.7 * rng.ExpFloat64()))
	}
	// What Slurm made of the users when the queue was longest: each
	// user's usage and fair-share factor, and the waiting jobs' priority
	// factors (in the log, to see why one account's jobs overtook the
	// other's).
	for _, args := range [][]string{{"sshare", "-a", "-o", "Account,User,RawShares,RawUsage,EffectvUsage,FairShare"},
		{"sprio", "-o", "%.8i %.10u %.8Y %.8A %.8F"}} {
		out, err := slurmtest.Cmd(context.Background(), env, "", args[0], args[1:]...)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("at the last submission, %s:\n%s", args[0], out)
	}
	// Wait (bounded) until Slurm is done and the feed has sent every end.
	slurmtest.Drain(t, env, 120*time.Second, func() bool { return c.Report().Events["end"] >= int64(forecastJobs) })
	stop()
	<-done
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := envRunner{env}.Run(context.Background(), "sacct", "--parsable2", "--allusers", "--starttime", "now-1hour", "-o", sacctColumns)
	if err != nil {
		t.Fatal(err)
	}
	jobs := sacctJobs(t, out)
	tp.mu.Lock()
	for i := range recs {
		r := &recs[i]
		sj, ok := jobs[r.Job]
		if !ok || sj.start == 0 {
			t.Fatalf("job %s: not in sacct, or never started", r.Job)
		}
		if sj.user != r.User {
			t.Errorf("job %s: sacct says user %q, it was submitted as %s", r.Job, sj.user, r.User)
		}
		r.Submit, r.Start = sj.submit, sj.start
	}
	tp.mu.Unlock()
	tp.fill(recs)
	scores := scoreForecasts(recs)
	if scores[0].jobs < forecastJobs*9/10 {
		t.Errorf("the forecast answered %d of %d jobs", scores[0].jobs, forecastJobs)
	}
	if q, sl := scores[6].jobs, scores[3].jobs; q < sl*9/10 {
		t.Errorf("the forecast of the queued job answered %d of the %d jobs Slurm answered", q, sl)
	}
	t.Logf("live forecast scores:\n%s", forecastTable(recs))
	if os.Getenv(readme.UpdateEnv) == "1" {
		b, err := json.MarshalIndent(recs, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(forecastRecordPath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		feed, err := os.ReadFile(filepath.Join(dir, "forecast-live.jsonl.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(forecastFeedPath, feed, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s written; TestForecastLiveReadme regenerates the README's table from it", forecastRecordPath)
	}
}

// forecastScore is one method's figures over the jobs it answered.
type forecastScore struct {
	name      string
	jobs      int
	within2   float64
	meanLog   float64
	coverage  float64 // of every interval (an unbounded one covers)
	bounded   int     // intervals with an upper end
	covBound  float64 // coverage of those
	medWidth  float64 // their median width
	intervals bool
}

// scoreForecasts scores the forecast, the naive baseline and Slurm's
// estimate, each on the jobs it answered, and the forecast again on the
// jobs Slurm answered (the same jobs, side by side).
func scoreForecasts(recs []forecastRecord) []forecastScore {
	floor := func(w int64) float64 { return float64(max(w, forecastFloor)) }
	// iv is a method's 90% interval of a job's wait (high −1: unbounded),
	// nil for a method without intervals.
	type interval func(r *forecastRecord) (low, high int64)
	score := func(name string, pred func(r *forecastRecord) int64, only func(r *forecastRecord) bool, iv interval) forecastScore {
		s := forecastScore{name: name, intervals: iv != nil}
		var widths []float64
		covered := 0
		for i := range recs {
			r := &recs[i]
			p := pred(r)
			if p < 0 || !only(r) {
				continue
			}
			actual := r.Start - r.Submit
			s.jobs++
			e := math.Abs(math.Log10(floor(p) / floor(actual)))
			s.meanLog += e
			if e <= math.Log10(2)+1e-12 {
				s.within2++
			}
			if iv != nil {
				low, high := iv(r)
				in := low <= actual && (high < 0 || actual <= high)
				if in {
					covered++
				}
				if high >= 0 {
					s.bounded++
					if in {
						s.covBound++
					}
					widths = append(widths, float64(high-low))
				}
			}
		}
		if s.jobs > 0 {
			s.within2 /= float64(s.jobs)
			s.meanLog /= float64(s.jobs)
			s.coverage = float64(covered) / float64(s.jobs)
		}
		if len(widths) > 0 {
			slices.Sort(widths)
			s.medWidth = widths[len(widths)/2]
			s.covBound /= float64(s.bounded)
		}
		return s
	}
	all := func(*forecastRecord) bool { return true }
	slurmAnswered := func(r *forecastRecord) bool { return r.Slurm >= 0 }
	fc := func(r *forecastRecord) int64 { return r.Forecast }
	fcIv := func(r *forecastRecord) (int64, int64) { return r.Low, r.High }
	named := func(r *forecastRecord) int64 { return r.Named }
	namedIv := func(r *forecastRecord) (int64, int64) { return r.NamedLow, r.NamedHigh }
	queued := func(r *forecastRecord) int64 { return r.Queued }
	queuedIv := func(r *forecastRecord) (int64, int64) { return r.QueuedLow, r.QueuedHigh }
	naive := func(r *forecastRecord) int64 { return r.Naive }
	return []forecastScore{
		score("forecast (karnak: forward simulation, 90% interval calibrated)", fc, all, fcIv),
		score("naive baseline (median wait of the last 100 of the size class)", naive, all, nil),
		score("forecast asked with the user and account (placed in Slurm's priority order)", named, all, namedIv),
		score("Slurm's expected start (squeue, first read by the feed)", func(r *forecastRecord) int64 { return r.Slurm }, all, nil),
		score("forecast, on the jobs Slurm answered", fc, slurmAnswered, fcIv),
		score("naive baseline, on the jobs Slurm answered", naive, slurmAnswered, nil),
		score("forecast of the queued job, asked when Slurm's expected start was read (Slurm's priority order)", queued, slurmAnswered, queuedIv),
	}
}

// forecastTable is the README's table of a live run: the workload (its
// users and accounts from the record), every method on the whole mixed
// workload, then user by user.
func forecastTable(recs []forecastRecord) string {
	var b strings.Builder
	medWait := func(recs []forecastRecord) (med, longest int64) {
		waits := make([]int64, 0, len(recs))
		for _, r := range recs {
			waits = append(waits, r.Start-r.Submit)
		}
		slices.Sort(waits)
		if len(waits) == 0 {
			return 0, 0
		}
		return waits[len(waits)/2], waits[len(waits)-1]
	}
	// The users and accounts, by name.
	var users, accounts []string
	byUser := map[string][]forecastRecord{}
	jobsOf := map[string]int{}
	for _, r := range recs {
		if byUser[r.User] == nil {
			users = append(users, r.User)
		}
		byUser[r.User] = append(byUser[r.User], r)
		if jobsOf[r.Account] == 0 {
			accounts = append(accounts, r.Account)
		}
		jobsOf[r.Account]++
	}
	slices.Sort(users)
	slices.Sort(accounts)
	var who []string
	for _, u := range users {
		who = append(who, fmt.Sprintf("%s (%s) %d", u, byUser[u][0].Account, len(byUser[u])))
	}
	var acct []string
	for _, a := range accounts {
		acct = append(acct, fmt.Sprintf("%s %d", a, jobsOf[a]))
	}
	// A job overtook another when it was submitted later and started
	// earlier, while the other waited: Slurm's priority order or backfill.
	overtook := 0
	for _, r := range recs {
		for _, o := range recs {
			if o.Submit < r.Submit && r.Start < o.Start {
				overtook++
				break
			}
		}
	}
	med, longest := medWait(recs)
	fmt.Fprintf(&b, "%d jobs from %d users in %d accounts. Users (account) and their jobs: %s. Accounts: %s.\n\n",
		len(recs), len(users), len(accounts), strings.Join(who, ", "), strings.Join(acct, ", "))
	fmt.Fprintf(&b, "Real waits (sacct): median %d s, longest %d s; %d jobs started before a job submitted earlier (Slurm's priority order or backfill). Waits floored at %d s.\n\n",
		med, longest, overtook, forecastFloor)
	b.WriteString("| method | jobs answered | within ×2 | mean \\|log10\\| | 90% interval: coverage | bounded | their coverage | their median width |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range scoreForecasts(recs) {
		cov, bounded, covB, width := "–", "–", "–", "–"
		if s.intervals && s.jobs > 0 {
			cov, bounded = fmt.Sprintf("%.2f", s.coverage), strconv.Itoa(s.bounded)
			if s.bounded > 0 {
				covB, width = fmt.Sprintf("%.2f", s.covBound), fmt.Sprintf("%.0f s", s.medWidth)
			}
		}
		if s.jobs == 0 {
			fmt.Fprintf(&b, "| %s | 0 | – | – | – | – | – | – |\n", s.name)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f | %.2f | %s | %s | %s | %s |\n", s.name, s.jobs, s.within2, s.meanLog, cov, bounded, covB, width)
	}
	b.WriteString("\nThe service records a forecast of every job at its submission and learns from it when the job starts, ranking apart the residuals of forecasts of no wait, of a wait up to the floor (10 s) and of a longer one. With m residuals of the forecast's class, the 90% interval's upper end is the ⌈0.95(m+1)⌉-th smallest, finite only once m ≥ 19: before that the interval is [0, unbounded) (it covers, infinitely wide). Jobs still waiting past their forecast count as if they started at the question.\n")
	b.WriteString("\nUser by user (within ×2; Slurm's and the queued job's forecast on the jobs each answered, their number in brackets):\n\n")
	b.WriteString("| user (account) | jobs | median wait | forecast | forecast asked with the user | naive baseline | Slurm's expected start | forecast of the queued job |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	share := func(s forecastScore) string {
		if s.jobs == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f", s.within2)
	}
	for _, u := range users {
		ss := scoreForecasts(byUser[u])
		m, _ := medWait(byUser[u])
		fmt.Fprintf(&b, "| %s (%s) | %d | %d s | %s | %s | %s | %s (%d) | %s (%d) |\n", u, byUser[u][0].Account, len(byUser[u]), m,
			share(ss[0]), share(ss[2]), share(ss[1]), share(ss[3]), ss[3].jobs, share(ss[6]), ss[6].jobs)
	}
	return b.String()
}

// TestForecastLiveReadme regenerates the README's table from the recorded
// live run (TestLiveForecast with BATCHQ_UPDATE_README=1 records it).
func TestForecastLiveReadme(t *testing.T) {
	b, err := os.ReadFile(forecastRecordPath)
	if err != nil {
		t.Fatalf("%v (record it: BATCHQ_UPDATE_README=1 go test -run TestLiveForecast, as root with Slurm installed)", err)
	}
	var recs []forecastRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) < 100 {
		t.Fatalf("the record holds %d jobs, want ≥ 100", len(recs))
	}
	readme.Check(t, "README.md", forecastRegion, []byte(forecastTable(replayForecast(t, recs))))
}

// readForecastRecord reads the recorded live run.
func readForecastRecord(t *testing.T) []forecastRecord {
	b, err := os.ReadFile(forecastRecordPath)
	if err != nil {
		t.Fatal(err)
	}
	var recs []forecastRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

// The service's 90% intervals on the recorded live run, replayed, cover
// the jobs each kind of question asked about as a 90% interval does, to
// within two binomial standard deviations of the sample (0.84 of 100
// jobs), and no bounded one has no width.
func TestForecastLiveCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a replay of the recorded run (2 s, 20 s under -race); TestForecastLiveReadme replays it too")
	}
	recs := replayForecast(t, readForecastRecord(t))
	for _, s := range scoreForecasts(recs) {
		if !s.intervals {
			continue
		}
		t.Logf("%s: coverage %.2f; %d bounded, their coverage %.2f, median width %.0f s", s.name, s.coverage, s.bounded, s.covBound, s.medWidth)
		if least := 0.9 - 2*math.Sqrt(0.9*0.1/float64(s.jobs)); s.coverage < least {
			t.Errorf("%s: the 90%% intervals cover %.2f of %d jobs, want ≥ %.2f", s.name, s.coverage, s.jobs, least)
		}
	}
	for _, r := range recs {
		for _, iv := range [][3]int64{{r.Forecast, r.Low, r.High}, {r.Named, r.NamedLow, r.NamedHigh}} {
			if iv[0] > forecastFloor && iv[2] >= 0 && iv[2]-iv[1] <= 0 {
				t.Errorf("job %s: a forecast of %d s has the interval [%d, %d]", r.Job, iv[0], iv[1], iv[2])
			}
		}
	}
}
