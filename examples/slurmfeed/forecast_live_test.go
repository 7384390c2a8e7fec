package main

import (
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

// The live forecast check (issue 36): a workload of short jobs on the
// private Slurm, each asked about at its submission — the service's
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
	forecastRegion     = "live-forecast"
	// forecastFloor: the jobs run for seconds, so waits are floored at
	// 10 s before the ratios (the archive tables floor at 60 s).
	forecastFloor = 10
	forecastJobs  = 105
	forecastCPUs  = 32 // the node as declared: more than the host has
)

// forecastRecord is one job of the live run: its shape, when it was
// submitted and started (sacct), and each method's predicted wait from
// its submission (−1: no answer), with the forecast's 90% interval (high
// −1: unbounded).
type forecastRecord struct {
	Job      string `json:"job"`
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
}

// forecastTap is the service as the collector feeds it, noting the submit
// and start of each job (for the naive baseline) and Slurm's first
// expected start of each waiting job.
type forecastTap struct {
	svc    *karnak.Service
	mu     sync.Mutex
	submit map[int64]int64
	cores  map[int64]int64
	slurm  map[int64]int64 // job → Slurm's first expected start
	naive  forecast.Naive
}

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
			}
		}
	}
	return ack, nil
}

func (f *forecastTap) PredictJob(system string, id int64, q, c int, within int64) (karnak.Prediction, error) {
	return f.svc.PredictJob(system, id, q, c, within)
}

// TestLiveForecast runs the workload and scores the methods (see above).
func TestLiveForecast(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the live forecast test takes about three minutes")
	}
	t.Setenv("SLURM_CLUSTER_CPUS", strconv.Itoa(forecastCPUs))
	dir, env := slurmtest.Start(t)
	svc, err := karnak.New(nil, karnak.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	tp := &forecastTap{svc: svc, submit: map[int64]int64{}, cores: map[int64]int64{}, slurm: map[int64]int64{}}
	c, err := slurmfeed.New(slurmfeed.Config{System: "live", Service: tp, Runner: envRunner{env},
		Cursor: filepath.Join(dir, "forecast-cursor.json"), Poll: time.Second, Delay: time.Second, ProbeEvery: 30 * time.Minute, Logf: func(string, ...any) {}})
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

	// The workload: sizes 1–16 CPUs, run times of 4–15 s or, for every
	// other job, 2–6 s (two kinds of users, as far as run times go), under
	// a limit of a minute (Slurm's estimate plays the limit), arriving
	// about every 0.7 s: about 1.5 times what the 32 CPUs serve, so that
	// the queue grows to about a minute of work by the last submission.
	rng := rand.New(rand.NewPCG(36, 2026))
	sizes := []int64{1, 1, 2, 2, 4, 4, 8, 8, 16}
	var recs []forecastRecord
	for i := range forecastJobs {
		cores := sizes[rng.IntN(len(sizes))]
		run := int64(4 + rng.IntN(12))
		if i%2 == 1 {
			run = int64(2 + rng.IntN(5))
		}
		r := forecastRecord{Cores: cores, Run: run, Limit: 60, Forecast: -1, Low: -1, High: -1, Naive: -1, Slurm: -1}
		now := time.Now().Unix()
		ps, err := svc.PredictHypothetical(&karnak.PredictRequest{Cores: cores, WallTime: r.Limit, Quantile: 95, Confidence: 90,
			Locations: []karnak.Location{{System: "live", Queue: "short"}}})
		if err == nil && ps[0].Forecast != nil {
			f := ps[0].Forecast
			r.Forecast, r.Low, r.High = f.Wait, f.Low, f.High
		}
		tp.mu.Lock()
		if p, _ := tp.naive.Predict(&swf.Job{AllocProcs: cores}, now); p.OK {
			r.Naive = int64(math.Round(p.Point))
		}
		tp.mu.Unlock()
		out, err := envRunner{env}.Run(context.Background(), "sbatch", "--parsable", "-p", "short", "-c", strconv.FormatInt(cores, 10),
			"-t", "1", "-J", fmt.Sprintf("fc-%d", i), "-D", dir, "-o", "/dev/null", "--wrap", fmt.Sprintf("sleep %d", run))
		if err != nil {
			t.Fatal(err)
		}
		r.Job = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
		recs = append(recs, r)
		time.Sleep(time.Duration(float64(time.Second) * 0.7 * rng.ExpFloat64()))
	}
	// Wait (bounded) until Slurm is done and the feed has sent every end.
	for end := time.Now().Add(120 * time.Second); ; time.Sleep(time.Second) {
		out, err := envRunner{env}.Run(context.Background(), "squeue", "-h", "-o", "%i")
		if err != nil {
			t.Fatal(err)
		}
		r := c.Report()
		if len(strings.TrimSpace(string(out))) == 0 && r.Events["end"] >= int64(forecastJobs) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the workload did not finish within the bound: squeue shows %q", out)
		}
	}
	stop()
	<-done
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
		r.Submit, r.Start = sj.submit, sj.start
		id, _ := strconv.ParseInt(r.Job, 10, 64)
		if s, ok := tp.slurm[id]; ok {
			r.Slurm = max(s-r.Submit, 0)
		}
	}
	tp.mu.Unlock()
	scores := scoreForecasts(recs)
	for _, s := range scores[:1] {
		if s.jobs < forecastJobs*9/10 {
			t.Errorf("the forecast answered %d of %d jobs", s.jobs, forecastJobs)
		}
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
	score := func(name string, pred func(r *forecastRecord) int64, only func(r *forecastRecord) bool, interval bool) forecastScore {
		s := forecastScore{name: name, intervals: interval}
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
			if interval {
				in := r.Low <= actual && (r.High < 0 || actual <= r.High)
				if in {
					covered++
				}
				if r.High >= 0 {
					s.bounded++
					if in {
						s.covBound++
					}
					widths = append(widths, float64(r.High-r.Low))
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
	return []forecastScore{
		score("forecast (karnak: forward simulation, 90% interval calibrated)", fc, all, true),
		score("naive baseline (median wait of the last 100 of the size class)", func(r *forecastRecord) int64 { return r.Naive }, all, false),
		score("Slurm's expected start (squeue, first read by the feed)", func(r *forecastRecord) int64 { return r.Slurm }, all, false),
		score("forecast, on the jobs Slurm answered", fc, slurmAnswered, true),
		score("naive baseline, on the jobs Slurm answered", func(r *forecastRecord) int64 { return r.Naive }, slurmAnswered, false),
	}
}

// forecastTable is the README's table of a live run.
func forecastTable(recs []forecastRecord) string {
	var b strings.Builder
	waits := make([]int64, 0, len(recs))
	for _, r := range recs {
		waits = append(waits, r.Start-r.Submit)
	}
	slices.Sort(waits)
	med := int64(0)
	if len(waits) > 0 {
		med = waits[len(waits)/2]
	}
	fmt.Fprintf(&b, "%d jobs; real waits (sacct): median %d s, longest %d s. Waits floored at %d s.\n\n", len(recs), med, waits[len(waits)-1], forecastFloor)
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
	b.WriteString("\nAn interval is unbounded (it covers, infinitely wide) until 19 forecast jobs have started: the service records a forecast of the jobs submitted in each 10 s of its clock, and learns from them as they start.\n")
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
	readme.Check(t, "README.md", forecastRegion, []byte(forecastTable(recs)))
}
