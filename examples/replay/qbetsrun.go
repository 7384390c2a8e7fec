package main

import (
	"cmp"
	"slices"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// method is one predictor configuration of the replay.
type method struct {
	name string
	cfg  qbets.Config
}

// methods are compared on the simulated queue: full QBETS as the library
// runs it by default (trimming, processor-range clusters, availability), the
// Binomial Method with trimming only, and the Binomial Method on the full
// history (Nurmi's Figure 4.1 compares the last two).
var methods = []method{
	{"QBETS (trimming, clustering, availability)", qbets.Config{}},
	{"binomial method, trimming", qbets.Config{Cluster: qbets.ClusterNone, NoAvailability: true}},
	{"binomial method, full history", qbets.Config{Cluster: qbets.ClusterNone, NoAvailability: true, NoTrim: true}},
}

// Indexes into methods.
const (
	mQBETS = iota
	mTrim
	mFull
)

// qbetsRun is the replay's outcome: per job (in submit order) the wait and
// each method's bound, the scores, and the VARQ plan made at planAt with
// the full QBETS predictor as it was then.
type qbetsRun struct {
	jobs   []swf.Job
	bounds [][]int64 // [method][job]: bound at submission; -1: none
	scores []replay.Result
	down   int // scored jobs full QBETS refused as "machine may be down"
	train  int // jobs in the training period
	plan   planResult
	// waited counts the jobs replayed whose simulated wait is not 0.
	// With none (a machine the workload never fills), a bound of 0 s
	// holds for every job and the scores say nothing of the methods: the
	// report says so, and -json's simulated_waited is 0.
	waited int
	// planAt is when VARQ plans: the submission of the middle job of
	// jobs (the jobs replayed, those that started under EASY; not the
	// middle of the log's lines, of which the rejected are no arrivals).
	planAt int64
}

// replayQBETS feeds each method's predictor the simulated queue causally
// with package qbets/replay (each job's wait stays hidden until it starts;
// the first 10% only train, spec §5.1) and keeps every job's bound for
// the figures. At the first arrival at or after planAt, before that job
// is seen, the VARQ request is planned against full QBETS.
func replayQBETS(recs []sched.Record, plan func(f *qbets.Predictor, now int64) (planResult, error), set func(float64)) (*qbetsRun, error) {
	var js []swf.Job
	for _, r := range recs {
		if r.Start >= 0 {
			js = append(js, r.SWF()) // as simulated: the wait is the simulated one
		}
	}
	// Replay sorts stably by submit time; the bounds are kept in that order.
	slices.SortStableFunc(js, func(a, b swf.Job) int { return cmp.Compare(a.Submit, b.Submit) })
	out := &qbetsRun{jobs: js}
	for i := range js {
		if js[i].Wait > 0 {
			out.waited++
		}
	}
	if len(js) > 0 {
		out.planAt = js[len(js)/2].Submit
	}
	for k, m := range methods {
		bounds := make([]int64, 0, len(js))
		cfg := replay.Config{Predictor: m.cfg, OnForecast: func(_ *swf.Job, f qbets.Forecast) {
			b := f.Upper
			if !f.OK {
				b = -1
			}
			bounds = append(bounds, b)
			if n := len(bounds); n%1024 == 0 {
				set((float64(k) + float64(n)/float64(len(js))) / float64(len(methods)))
			}
		}}
		if k == mQBETS && plan != nil {
			planned := false
			cfg.BeforeArrival = func(p *qbets.Predictor, j *swf.Job) error {
				if planned || j.Submit < out.planAt {
					return nil
				}
				planned = true
				var err error
				out.plan, err = plan(p, j.Submit)
				return err
			}
		}
		r, err := replay.Replay(js, cfg)
		if err != nil {
			return nil, err
		}
		out.bounds = append(out.bounds, bounds)
		out.scores = append(out.scores, r)
		if k == mQBETS {
			out.down, out.train = r.Down, r.Jobs-r.Scored
		}
	}
	return out, nil
}
