package replay

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

// Config selects the experiment, the BM predictor and the training period
// of Replay.
type Config struct {
	// Plain is the experiment of Table 4.1: full history, no trimming,
	// clustering or availability (it overrides the Predictor's NoTrim,
	// Cluster and NoAvailability). By default it is Table 4.2's: trimming,
	// clustering and availability, the Predictor config as given (zero:
	// full QBETS).
	Plain bool
	// Predictor configures the qbets.Predictor (BM). Its zero value is
	// full QBETS.
	// TrainArrivals 0 means the training length, so the first clustering
	// happens at the end of training (Q10).
	Predictor     qbets.Config
	TrainFraction float64 // 0 means 0.10 (Q12, docs/decisions.md)
	// Comparators adds LogN, LogU and Weibull (and a BM run of the same
	// mirror pipeline, as a cross-check) to the result; the pipeline is
	// then the thesis's: no forecast while the machine may be down
	// (qbets.Config.Withhold).
	Comparators bool
	// OnForecast, when not nil, is called once per job, in replay (submit)
	// order, training jobs included, with the job and the Predictor's (BM)
	// forecast for it, so that a caller can draw per-job bounds (thesis
	// Figure 4.1) without a second replay. It sees the job's true wait, but
	// the forecast was made before that wait was released. It does not
	// change the scoring.
	OnForecast func(j *swf.Job, f qbets.Forecast)
	// BeforeArrival, when not nil, is called at each job's arrival, after
	// every wait released by then has been observed and before the job is
	// submitted, with the live Predictor: a caller can ask it other
	// questions mid-replay (plan a VARQ request, say) without a second
	// replay. It must not feed the Predictor. A non-nil error ends the
	// replay with that error.
	BeforeArrival func(p *qbets.Predictor, j *swf.Job) error
}

// Validate checks the training fraction and the predictor config.
func (c Config) Validate() error {
	if c.TrainFraction < 0 || c.TrainFraction >= 1 || math.IsNaN(c.TrainFraction) {
		return fmt.Errorf("replay: TrainFraction %v must be in [0, 1)", c.TrainFraction)
	}
	return c.Predictor.Validate()
}

// Result is the score of one queue by Replay. The embedded Score is BM's
// (the qbets.Predictor's).
type Result struct {
	Score
	Jobs         int // jobs replayed
	NoHistory    int // scored jobs refused for too short a history
	Down         int // scored jobs refused because the machine may be down (§2.5)
	ChangePoints int // BM change points
	Stats        qbets.Stats
	Clusters     []qbets.ClusterInfo // at the end of the replay
	// Methods has one score per Method (index = Method) when
	// Config.Comparators is set, and Trims their change points;
	// Methods[BM] is the mirror pipeline's BM, which must agree with the
	// Predictor (a cross-check of the mirror).
	Methods []Score
	Trims   []int
}

// Of returns method m's score (BM, or no comparators: the Predictor's).
func (r *Result) Of(m Method) *Score {
	if m == BM || int(m) >= len(r.Methods) {
		return &r.Score
	}
	return &r.Methods[m]
}

// Ratio is the thesis's accuracy ratio RMS_BM / RMS_m (higher = m
// tighter); +Inf when m never over-predicts, NaN when either has no
// correct prediction.
func (r *Result) Ratio(m Method) float64 {
	s := r.Of(m)
	if r.Correct() == 0 || s.Correct() == 0 {
		return math.NaN()
	}
	return r.RMS() / s.RMS()
}

// Replay scores full QBETS (or the Plain experiment) on one queue's jobs
// (any order; sorted by submit time, stably) with Run: one
// qbets.Predictor, and with Comparators the three parametric methods
// inside its pipeline. Jobs with an unknown wait are an error: Queues
// drops them.
func Replay(jobs []swf.Job, cfg Config) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	train := int(float64(len(jobs)) * cmp.Or(cfg.TrainFraction, 0.10))
	q, err := newQBETSRun(cfg, train)
	if err != nil {
		return Result{}, err
	}
	ps := []Predictor{q}
	for _, mi := range q.mirrors {
		ps = append(ps, &mirrorPred{q, mi})
	}
	if len(jobs) == 0 {
		return Result{}, errNoJobs
	}
	opt := Options{From: train, To: len(jobs), PredictAll: cfg.OnForecast != nil}
	if cfg.BeforeArrival != nil {
		opt.BeforeArrival = func(_ int, j *swf.Job) error { return cfg.BeforeArrival(q.p, j) }
	}
	scores, err := Run(context.Background(), jobs, opt, ps...)
	if err != nil {
		return Result{}, err
	}
	r := Result{Score: scores[0], Jobs: len(jobs)}
	r.Down = r.Refused[qbets.MachineDown.String()]
	r.NoHistory = r.Refused[qbets.NoHistory.String()]
	r.Stats = q.p.Stats()
	r.ChangePoints = r.Stats.ChangePoints
	r.Clusters = q.p.Clusters()
	for k, mi := range q.mirrors {
		r.Methods = append(r.Methods, scores[1+k])
		r.Trims = append(r.Trims, mi.trims)
	}
	return r, nil
}

// held is a released job of the full history H_all, for the mirrors.
type held struct {
	nodes int
	wall  int64
	wait  int64
}

// qbetsRun is the Predictor of Replay: the qbets.Predictor and the
// comparators' mirror pipeline.
type qbetsRun struct {
	p          *qbets.Predictor
	onForecast func(j *swf.Job, f qbets.Forecast)
	train      int
	arrivals   int
	mirrors    []*mirror
	all        []held // released, not excluded: the full history H_all
	reclust    int
	down       bool // the last forecast: machine may be down
	bi         int  // the last forecast job's mirror box
}

func newQBETSRun(cfg Config, train int) (*qbetsRun, error) {
	pc := cfg.Predictor
	if cfg.Plain {
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
		return nil, err
	}
	q := &qbetsRun{p: p, onForecast: cfg.OnForecast, train: train}
	if cfg.Comparators {
		eff := p.Config()
		e := newEnv(eff.Quantile, eff.Confidence, !pc.NoTrim)
		for m := range Weibull + 1 {
			q.mirrors = append(q.mirrors, newMirror(m, e, p.Clusters(), pc.Cluster != qbets.ClusterNone))
		}
	}
	return q, nil
}

func (q *qbetsRun) Observe(ev Event, j *swf.Job) error {
	switch ev {
	case Arrive:
		q.arrivals++
		if err := submit(q.p, j); err != nil {
			return err
		}
		if q.mirrors != nil {
			if st := q.p.Stats(); st.Reclusterings != q.reclust {
				q.reclust = st.Reclusterings
				boxes := q.p.Clusters()
				var of []int
				for _, mi := range q.mirrors {
					of = mi.recluster(boxes, q.all, of)
				}
			}
		}
	case Start:
		before := 0
		if q.mirrors != nil {
			before = q.p.Stats().DownExcluded
		}
		if err := observe(q.p, j); err != nil {
			return err
		}
		if q.mirrors != nil && q.p.Stats().DownExcluded == before {
			h := held{nodes(j), j.ReqTime, j.Wait}
			q.all = append(q.all, h)
			bi := boxIndex(q.mirrors[0].boxes, h.nodes, h.wall)
			for _, mi := range q.mirrors {
				mi.add(bi, h.wait)
			}
		}
	}
	return nil
}

func (q *qbetsRun) Predict(j *swf.Job, now int64) (Prediction, error) {
	f := q.p.Forecast(qbets.Request{Nodes: nodes(j), Walltime: walltime(j), At: now})
	if q.onForecast != nil {
		q.onForecast(j, f)
	}
	q.down = !f.OK && f.Reason == qbets.MachineDown
	q.bi = -1
	if q.mirrors != nil && !q.down {
		q.bi = boxIndex(q.mirrors[0].boxes, nodes(j), j.ReqTime)
	}
	if !f.OK {
		return Prediction{Reason: f.Reason.String()}, nil
	}
	return bound(float64(f.Upper)), nil
}

// mirrorPred scores one mirror: qbetsRun feeds it, and it answers after
// qbetsRun has forecast the same job (Run asks in order).
type mirrorPred struct {
	q  *qbetsRun
	mi *mirror
}

func (m *mirrorPred) Observe(Event, *swf.Job) error { return nil }

func (m *mirrorPred) Predict(*swf.Job, int64) (Prediction, error) {
	if m.q.arrivals <= m.q.train {
		return Prediction{Reason: "training"}, nil // not scored; a bound now would move the Weibull refits
	}
	if m.q.down {
		return Prediction{Reason: qbets.MachineDown.String()}, nil
	}
	b, ok := m.mi.predict(m.q.bi)
	if !ok {
		return Prediction{Reason: qbets.NoHistory.String()}, nil
	}
	return bound(b), nil
}

// Queues splits an SWF log by queue (field 15), keeping jobs with a known
// wait and submit time; skipped counts the others. A log without queue
// numbers yields one queue, -1.
func Queues(jobs []swf.Job) (byQueue map[int64][]swf.Job, skipped int) {
	byQueue = map[int64][]swf.Job{}
	for _, j := range jobs {
		if j.Wait < 0 || j.Submit < 0 {
			skipped++
			continue
		}
		byQueue[j.Queue] = append(byQueue[j.Queue], j)
	}
	return byQueue, skipped
}

// All merges every queue of a split log into one (the thesis's "/ALL").
func All(byQueue map[int64][]swf.Job) ([]swf.Job, error) {
	var out []swf.Job
	for _, q := range slices.Sorted(maps.Keys(byQueue)) { // a fixed order, so equal submit times tie the same way every run
		out = append(out, byQueue[q]...)
	}
	if len(out) == 0 {
		return nil, errNoJobs
	}
	slices.SortStableFunc(out, func(a, b swf.Job) int { return cmp.Compare(a.Submit, b.Submit) })
	return out, nil
}

// NewQBETS returns full QBETS (cfg; zero: the qbets default) as a
// Predictor for Run: one qbets.Predictor per queue (SWF field 15, created
// at the queue's first arrival) with perQueue, else one for all jobs. It
// answers with the upper bound at arrival, or declines with the
// qbets.Reason. Replay is the same for one queue with the thesis's
// training period and comparators.
func NewQBETS(cfg qbets.Config, perQueue bool) (Predictor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &qbetsQueues{cfg: cfg, perQueue: perQueue, m: map[int64]*qbets.Predictor{}}, nil
}

type qbetsQueues struct {
	cfg      qbets.Config
	perQueue bool
	m        map[int64]*qbets.Predictor
}

func (q *qbetsQueues) get(j *swf.Job) (*qbets.Predictor, error) {
	k := int64(0)
	if q.perQueue {
		k = j.Queue
	}
	p := q.m[k]
	if p == nil {
		var err error
		if p, err = qbets.New(q.cfg); err != nil {
			return nil, err
		}
		q.m[k] = p
	}
	return p, nil
}

func (q *qbetsQueues) Observe(ev Event, j *swf.Job) error {
	if ev == End {
		return nil
	}
	p, err := q.get(j)
	if err != nil {
		return err
	}
	if ev == Arrive {
		return submit(p, j)
	}
	return observe(p, j)
}

func (q *qbetsQueues) Predict(j *swf.Job, now int64) (Prediction, error) {
	p, err := q.get(j)
	if err != nil {
		return Prediction{}, err
	}
	f := p.Forecast(qbets.Request{Nodes: nodes(j), Walltime: walltime(j), At: now})
	if !f.OK {
		return Prediction{Reason: f.Reason.String()}, nil
	}
	return bound(float64(f.Upper)), nil
}
