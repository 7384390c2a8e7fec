// Package replay scores QBETS wait predictions by replaying a trace
// causally, one queue at a time (Nurmi's thesis §4.3; spec
// qbets-varq-coalloc §5.1–5.2). Jobs arrive in submit order; before each
// arrival at t, every pending job whose start is ≤ t is released to the
// predictor in start order (Observe), then the arrival is announced
// (Submit) and the job is forecast. Its own wait stays hidden until it
// starts. Predictions in the training period (the first 10% of jobs by
// default) are not scored.
//
// Two experiments, as the thesis's Tables 4.1 and 4.2:
//
//   - Plain: the four predictors (BM, log-normal, log-uniform, Weibull) on
//     the full history — no trimming, clustering or availability.
//   - QBETS: full QBETS as qbets.Config{} runs it (trimming, fixed
//     processor-count clusters, availability; Config.Predictor selects others).
//     BM is the qbets.Predictor itself; each comparator runs inside the same
//     pipeline (the Predictor's clusters, its queue-level fallback, its
//     availability decisions) with trimming driven by its own bound, as the
//     thesis varies "only the predictor used during the simulation".
//
// A correct prediction is bound ≥ wait; the RMS over-prediction of each
// method is over its own correct predictions (A21); ratios are
// RMS_BM / RMS_X (higher = X tighter).
package replay

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

// Job is one job of a queue as the replay needs it.
type Job struct {
	Submit, Wait int64
	Nodes        int
	Walltime     int64
}

// Experiment selects the table.
type Experiment int

const (
	// QBETS is Table 4.2: trimming, clustering and availability (the
	// Predictor config as given, zero = full QBETS).
	QBETS Experiment = iota
	// Plain is Table 4.1: full history, no trimming, clustering or
	// availability (those Predictor switches are forced off).
	Plain
)

func (e Experiment) String() string {
	if e == Plain {
		return "plain (Table 4.1)"
	}
	return "QBETS (Table 4.2)"
}

// Config selects the experiment, the BM predictor and the training period.
type Config struct {
	Experiment Experiment
	// Predictor configures the qbets.Predictor (BM). Its zero value is
	// full QBETS; Plain overrides NoTrim, Cluster and NoAvailability.
	// TrainArrivals 0 means the training length, so the first clustering
	// happens at the end of training (A10).
	Predictor     qbets.Config
	TrainFraction float64 // 0 means 0.10 (spec §5.1 [S003])
	// Comparators adds LogN, LogU and Weibull (and a BM run of the same
	// mirror pipeline, as a cross-check) to the result. The pipeline is
	// then the thesis's: no forecast while the machine may be down
	// (qbets.Config.Withhold).
	Comparators bool
	// OnForecast, when not nil, is called once per job, in replay (submit)
	// order, training jobs included, with the job and the Predictor's (BM)
	// forecast for it, so that a caller can draw per-job bounds (thesis
	// Figure 4.1) without a second replay. It sees the job's true wait, but
	// the forecast was made before that wait was released. It does not
	// change the scoring.
	OnForecast func(j Job, f qbets.Forecast)
	// BeforeArrival, when not nil, is called at each job's arrival, after
	// every wait released by then has been observed and before the job is
	// submitted, with the live Predictor: a caller can ask it other
	// questions mid-replay (plan a VARQ request, say) without a second
	// replay. It must not feed the Predictor. A non-nil error ends the
	// replay with that error.
	BeforeArrival func(p *qbets.Predictor, j Job) error
}

// Validate checks the training fraction and the predictor config.
func (c Config) Validate() error {
	if c.TrainFraction < 0 || c.TrainFraction >= 1 || math.IsNaN(c.TrainFraction) {
		return fmt.Errorf("replay: TrainFraction %v must be in [0, 1)", c.TrainFraction)
	}
	if c.Experiment != QBETS && c.Experiment != Plain {
		return fmt.Errorf("replay: unknown Experiment %d", int(c.Experiment))
	}
	return c.Predictor.Validate()
}

// Score is one method's score on one queue.
type Score struct {
	Method       Method
	Predicted    int     // scored jobs that got a bound
	NoPrediction int     // scored jobs without a bound (history too short or machine down)
	Correct      int     // predicted jobs with wait ≤ bound
	RMS          float64 // RMS over-prediction over this method's correct jobs, seconds
	ChangePoints int     // trims of this method's cluster histories
}

// Correctness is the fraction of predicted jobs whose wait was within the bound.
func (s Score) Correctness() float64 {
	if s.Predicted == 0 {
		return 0
	}
	return float64(s.Correct) / float64(s.Predicted)
}

// Result is the score of one queue. The top-level counts are BM's (the
// qbets.Predictor).
type Result struct {
	Jobs         int     // jobs replayed
	Scored       int     // jobs after the training period
	Predicted    int     // scored jobs that got a BM bound
	NoPrediction int     // = NoHistory + Down
	NoHistory    int     // scored jobs refused for too short a history
	Down         int     // scored jobs refused because the machine may be down (§2.5)
	Correct      int     // predicted jobs with wait ≤ bound
	RMS          float64 // BM RMS over-prediction over its correct jobs, seconds (spec §5.2)
	ChangePoints int     // BM change points
	Stats        qbets.Stats
	Clusters     []qbets.ClusterInfo // at the end of the replay
	// Scores has one entry per method (index = Method) when
	// Config.Comparators is set; Scores[BM] is the mirror pipeline's BM,
	// which must agree with the Predictor (a cross-check of the mirror).
	Scores []Score
}

// Correctness is the fraction of predicted jobs whose wait was within the BM bound.
func (r Result) Correctness() float64 {
	return r.BMScore().Correctness()
}

// BMScore is the qbets.Predictor's score as a Score.
func (r Result) BMScore() Score {
	return Score{Method: BM, Predicted: r.Predicted, NoPrediction: r.NoPrediction, Correct: r.Correct, RMS: r.RMS, ChangePoints: r.ChangePoints}
}

// Score returns method m's score (BM: the Predictor's).
func (r Result) Score(m Method) Score {
	if m == BM || int(m) >= len(r.Scores) {
		return r.BMScore()
	}
	return r.Scores[m]
}

// Ratio is the thesis's accuracy ratio RMS_BM / RMS_m (higher = m
// tighter); +Inf when m never over-predicts, NaN when either has no
// correct prediction.
func (r Result) Ratio(m Method) float64 {
	s := r.Score(m)
	if r.Correct == 0 || s.Correct == 0 {
		return math.NaN()
	}
	return r.RMS / s.RMS
}

// pending is a binary min-heap of queued jobs on start time, written out
// rather than through container/heap so a push does not box the Job.
type pending []Job

func start(j Job) int64 { return j.Submit + j.Wait }

func (h *pending) push(j Job) {
	*h = append(*h, j)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if start(a[p]) <= start(a[i]) {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *pending) pop() Job {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && start(a[l]) < start(a[m]) {
			m = l
		}
		if l+1 < n && start(a[l+1]) < start(a[m]) {
			m = l + 1
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}

type tally struct {
	Score
	sq float64
}

func (t *tally) score(b float64, ok bool, wait int64) {
	if !ok {
		t.NoPrediction++
		return
	}
	t.Predicted++
	if float64(wait) <= b {
		t.Correct++
		d := b - float64(wait)
		t.sq += d * d
	}
}

func (t *tally) done() Score {
	if t.Correct > 0 {
		t.RMS = math.Sqrt(t.sq / float64(t.Correct))
	}
	return t.Score
}

// Replay runs one queue's jobs (any order; they are sorted by submit
// time, stably). Jobs with a negative wait are an error: Queues drops them.
func Replay(jobs []Job, cfg Config) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	for i, j := range jobs {
		if j.Wait < 0 {
			return Result{}, fmt.Errorf("replay: job %d has negative wait %d", i, j.Wait)
		}
	}
	if cfg.TrainFraction == 0 {
		cfg.TrainFraction = 0.10
	}
	js := append([]Job(nil), jobs...)
	sort.SliceStable(js, func(a, b int) bool { return js[a].Submit < js[b].Submit })
	train := int(float64(len(js)) * cfg.TrainFraction)
	pc := cfg.Predictor
	if cfg.Experiment == Plain {
		pc.NoTrim, pc.Cluster, pc.NoAvailability = true, qbets.ClusterNone, true
	}
	if cfg.Comparators {
		pc.Withhold = true // the mirrors have no history of the DOWN-submitted jobs to answer from
	}
	if pc.TrainArrivals == 0 && train > 0 {
		pc.TrainArrivals = train
	}
	p, err := qbets.New(pc)
	if err != nil {
		return Result{}, err
	}
	var mirrors []*mirror
	if cfg.Comparators {
		eff := p.Config()
		e := newEnv(eff.Quantile, eff.Confidence, !pc.NoTrim)
		for _, m := range Methods {
			mirrors = append(mirrors, newMirror(m, e, p.Clusters(), pc.Cluster != qbets.ClusterNone))
		}
	}
	var (
		h       pending
		r       Result
		bm      tally
		tallies = make([]tally, len(mirrors))
		all     []Job // released, not excluded: the full history H_all
		reclust int
	)
	for i, j := range js {
		for len(h) > 0 && start(h[0]) <= j.Submit {
			d := h.pop()
			before := 0
			if mirrors != nil {
				before = p.Stats().DownExcluded
			}
			if err := p.Observe(qbets.Observation{Submit: d.Submit, Start: d.Submit + d.Wait, Nodes: d.Nodes, Walltime: d.Walltime}); err != nil {
				return Result{}, err
			}
			if mirrors != nil && p.Stats().DownExcluded == before {
				all = append(all, d)
				bi := boxIndex(mirrors[0].boxes, d.Nodes, d.Walltime)
				for _, mi := range mirrors {
					mi.add(bi, d.Wait)
				}
			}
		}
		if cfg.BeforeArrival != nil {
			if err := cfg.BeforeArrival(p, j); err != nil {
				return Result{}, err
			}
		}
		if err := p.Submit(j.Submit); err != nil {
			return Result{}, err
		}
		if mirrors != nil {
			if st := p.Stats(); st.Reclusterings != reclust {
				reclust = st.Reclusterings
				boxes := p.Clusters()
				var of []int
				for _, mi := range mirrors {
					of = mi.recluster(boxes, all, of)
				}
			}
		}
		f := p.Forecast(qbets.Request{Nodes: j.Nodes, Walltime: j.Walltime, At: j.Submit})
		if cfg.OnForecast != nil {
			cfg.OnForecast(j, f)
		}
		down := !f.OK && f.Reason == qbets.MachineDown
		if i >= train {
			r.Scored++
			switch {
			case down:
				r.Down++
			case !f.OK:
				r.NoHistory++
			}
			bm.score(float64(f.Upper), f.OK, j.Wait)
			bi := -1
			if mirrors != nil && !down {
				bi = boxIndex(mirrors[0].boxes, j.Nodes, j.Walltime)
			}
			for k, mi := range mirrors {
				if down {
					tallies[k].score(0, false, j.Wait)
					continue
				}
				b, ok := mi.predict(bi)
				tallies[k].score(b, ok, j.Wait)
			}
		}
		h.push(j)
	}
	s := bm.done()
	r.Jobs = len(js)
	r.Predicted, r.NoPrediction, r.Correct, r.RMS = s.Predicted, s.NoPrediction, s.Correct, s.RMS
	r.Stats = p.Stats()
	r.ChangePoints = r.Stats.ChangePoints
	r.Clusters = p.Clusters()
	for k, mi := range mirrors {
		tallies[k].Method = mi.m
		tallies[k].ChangePoints = mi.trims
		r.Scores = append(r.Scores, tallies[k].done())
	}
	return r, nil
}

// Queues splits an SWF log by queue (field 15), keeping jobs with a known
// wait; skipped counts jobs dropped for an unknown (negative) wait or
// submit time. A log without queue numbers yields one queue, -1.
func Queues(jobs []swf.Job) (byQueue map[int64][]Job, skipped int) {
	byQueue = map[int64][]Job{}
	for _, j := range jobs {
		if j.Wait < 0 || j.Submit < 0 {
			skipped++
			continue
		}
		// An unknown (−1) size or requested time is 0 to the predictor.
		byQueue[j.Queue] = append(byQueue[j.Queue], Job{Submit: j.Submit, Wait: j.Wait, Nodes: int(max(j.Size(), 0)), Walltime: max(j.ReqTime, 0)})
	}
	return byQueue, skipped
}

var errNoJobs = errors.New("replay: no jobs")

// All merges every queue of a split log into one (the thesis's "/ALL").
func All(byQueue map[int64][]Job) ([]Job, error) {
	var out []Job
	for _, q := range slices.Sorted(maps.Keys(byQueue)) { // a fixed order, so equal submit times tie the same way every run
		out = append(out, byQueue[q]...)
	}
	if len(out) == 0 {
		return nil, errNoJobs
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Submit < out[b].Submit })
	return out, nil
}
