package main

import (
	"cmp"
	"container/heap"
	"math"
	"slices"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/sched"
)

// qjob is one started job of the simulated queue.
type qjob struct {
	submit, wait int64
	nodes        int
	walltime     int64
}

// score is the thesis's evaluation of one predictor (Nurmi §4.3): the
// fraction of jobs after the training period whose wait was within the
// bound made at their submission.
type score struct {
	scored, predicted, noPrediction, correct int
	rms                                      float64 // RMS over-prediction of the correct bounds, seconds
	changePoints                             int
}

func (s score) correctness() float64 {
	if s.predicted == 0 {
		return 0
	}
	return float64(s.correct) / float64(s.predicted)
}

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
	jobs   []qjob
	bounds [][]int64 // [method][job]: bound at submission; -1: none
	scores []score
	down   int // scored jobs full QBETS refused as "machine may be down"
	train  int // jobs in the training period
	plan   planResult
}

// trainFraction is the share of jobs that only feed the history (spec §5.1).
const trainFraction = 0.10

// replayQBETS feeds the predictors the simulated queue causally, as
// package qbets/replay does: at each arrival, every job that has started by
// then enters the history in start order, then the arrival is recorded
// (Submit) and the new job is forecast; its own wait stays hidden until it
// starts. At the first arrival at or after planAt, before that job is
// seen, the VARQ request is planned against full QBETS.
func replayQBETS(recs []sched.Record, planAt int64, plan func(f *qbets.Predictor, now int64) (planResult, error), set func(float64)) (*qbetsRun, error) {
	var js []qjob
	for _, r := range recs {
		if r.Start >= 0 {
			js = append(js, qjob{submit: r.Job.Submit, wait: r.Wait, nodes: int(r.Job.Size()), walltime: r.Job.ReqTime})
		}
	}
	slices.SortStableFunc(js, func(a, b qjob) int { return cmp.Compare(a.submit, b.submit) })
	out := &qbetsRun{jobs: js, scores: make([]score, len(methods)), train: int(float64(len(js)) * trainFraction)}
	ps := make([]*qbets.Predictor, len(methods))
	sq := make([]float64, len(methods))
	for k, m := range methods {
		// The first clustering happens when training ends, as package
		// qbets/replay does it (spec A10).
		cfg := m.cfg
		cfg.TrainArrivals = max(out.train, 1)
		p, err := qbets.New(cfg)
		if err != nil {
			return nil, err
		}
		ps[k] = p
		out.bounds = append(out.bounds, make([]int64, len(js)))
	}
	var h startHeap
	planned := false
	for i, j := range js {
		for len(h) > 0 && h[0].submit+h[0].wait <= j.submit {
			d := heap.Pop(&h).(qjob)
			o := qbets.Observation{Submit: d.submit, Start: d.submit + d.wait, Nodes: d.nodes, Walltime: d.walltime}
			for _, p := range ps {
				p.Observe(o)
			}
		}
		if !planned && plan != nil && j.submit >= planAt {
			planned = true
			var err error
			if out.plan, err = plan(ps[mQBETS], j.submit); err != nil {
				return nil, err
			}
		}
		scored := i >= out.train
		for k, p := range ps {
			p.Submit(j.submit)
			f := p.Forecast(qbets.Request{Nodes: j.nodes, Walltime: j.walltime})
			out.bounds[k][i] = out.scores[k].add(f, j.wait, scored, &sq[k])
			if k == mQBETS && scored && f.Reason == qbets.MachineDown {
				out.down++
			}
		}
		heap.Push(&h, j)
		if i%1024 == 0 {
			set(float64(i) / float64(len(js)))
		}
	}
	for k, p := range ps {
		if c := out.scores[k].correct; c > 0 {
			out.scores[k].rms = math.Sqrt(sq[k] / float64(c))
		}
		out.scores[k].changePoints = p.Stats().ChangePoints
	}
	return out, nil
}

// add scores forecast f of a job that waited wait (when scored) and
// returns the bound, -1 if none.
func (s *score) add(f qbets.Forecast, wait int64, scored bool, sq *float64) int64 {
	b := f.Upper
	if !f.OK {
		b = -1
	}
	if !scored {
		return b
	}
	s.scored++
	switch {
	case !f.OK:
		s.noPrediction++
	case wait <= b:
		s.predicted++
		s.correct++
		d := float64(b - wait)
		*sq += d * d
	default:
		s.predicted++
	}
	return b
}

// startHeap orders started-but-unseen jobs by start time.
type startHeap []qjob

func (h startHeap) Len() int           { return len(h) }
func (h startHeap) Less(i, j int) bool { return h[i].submit+h[i].wait < h[j].submit+h[j].wait }
func (h startHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *startHeap) Push(x any)        { *h = append(*h, x.(qjob)) }
func (h *startHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	*h = old[:len(old)-1]
	return j
}
