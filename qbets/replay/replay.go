// Package replay scores QBETS wait predictions by replaying a trace
// causally, one queue at a time (Nurmi's thesis §4.3; spec
// qbets-varq-coalloc §5.1–5.2): at each arrival, every job whose start is
// at or before the arrival time enters the history in start order, then
// the predictor is asked for the new job's bound. The job's own wait stays
// hidden until it starts. Predictions during the training period (the
// first 10% of jobs by default) are not scored.
package replay

import (
	"container/heap"
	"errors"
	"math"
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

// Config selects the predictor and the training period.
type Config struct {
	Predictor     qbets.Config
	TrainFraction float64 // 0 means 0.10 (spec §5.1 [S003])
}

// Validate checks the training fraction and the predictor config.
func (c Config) Validate() error {
	if c.TrainFraction < 0 || c.TrainFraction >= 1 {
		return errors.New("replay: TrainFraction must be in [0, 1)")
	}
	return c.Predictor.Validate()
}

// Result is the score of one queue.
type Result struct {
	Jobs         int     // jobs replayed
	Scored       int     // jobs after the training period
	Predicted    int     // scored jobs that got a bound
	NoPrediction int     // scored jobs without a bound (history too short)
	Correct      int     // predicted jobs with wait ≤ bound
	RMS          float64 // RMS over-prediction over correct jobs, seconds (spec §5.2)
	ChangePoints int     // trims performed
}

// Correctness is the fraction of predicted jobs whose wait was within the bound.
func (r Result) Correctness() float64 {
	if r.Predicted == 0 {
		return 0
	}
	return float64(r.Correct) / float64(r.Predicted)
}

type pending []Job // min-heap on start time

func (h pending) Len() int           { return len(h) }
func (h pending) Less(i, j int) bool { return h[i].Submit+h[i].Wait < h[j].Submit+h[j].Wait }
func (h pending) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *pending) Push(x any)        { *h = append(*h, x.(Job)) }
func (h *pending) Pop() any {
	old := *h
	j := old[len(old)-1]
	*h = old[:len(old)-1]
	return j
}

// Replay runs one queue's jobs (any order; they are sorted by submit time).
func Replay(jobs []Job, cfg Config) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	if cfg.TrainFraction == 0 {
		cfg.TrainFraction = 0.10
	}
	p, err := qbets.New(cfg.Predictor)
	if err != nil {
		return Result{}, err
	}
	js := append([]Job(nil), jobs...)
	sort.SliceStable(js, func(a, b int) bool { return js[a].Submit < js[b].Submit })
	train := int(float64(len(js)) * cfg.TrainFraction)
	var h pending
	var r Result
	var sq float64
	for i, j := range js {
		for len(h) > 0 && h[0].Submit+h[0].Wait <= j.Submit {
			d := heap.Pop(&h).(Job)
			p.Observe(qbets.Observation{Submit: d.Submit, Start: d.Submit + d.Wait, Nodes: d.Nodes, Walltime: d.Walltime})
		}
		b, ok := p.Predict(j.Nodes, j.Walltime)
		if i >= train {
			r.Scored++
			switch {
			case !ok:
				r.NoPrediction++
			case j.Wait <= b:
				r.Predicted++
				r.Correct++
				d := float64(b - j.Wait)
				sq += d * d
			default:
				r.Predicted++
			}
		}
		heap.Push(&h, j)
	}
	r.Jobs = len(js)
	if r.Correct > 0 {
		r.RMS = math.Sqrt(sq / float64(r.Correct))
	}
	r.ChangePoints = p.Trims()
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
		byQueue[j.Queue] = append(byQueue[j.Queue], Job{Submit: j.Submit, Wait: j.Wait, Nodes: int(j.Size()), Walltime: j.ReqTime})
	}
	return byQueue, skipped
}
