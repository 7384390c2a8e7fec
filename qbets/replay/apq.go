package replay

import (
	"errors"
	"fmt"
	"math"

	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/swf"
)

// APQ is Hariharan et al.'s adaptive point predictor (package qbets/apq)
// as a Predictor: it keeps the waiting and running jobs (an apq.System),
// describes each job at its arrival by the state it meets, adds it to the
// history when it starts, and predicts its wait at submission (a point, no
// interval). A job's size is swf.Job.Size, its estimate ReqTime. It keys
// jobs by number: two live jobs under one number are an error, and Run
// numbers the jobs that have none (Run's doc).
type APQ struct {
	p    *apq.Predictor
	sys  *apq.System
	pts  map[int64]apq.Point
	last apq.Prediction
}

// NewAPQ returns an APQ predictor with cfg (zero: the paper's defaults).
func NewAPQ(cfg apq.Config) (*APQ, error) {
	p, err := apq.New(cfg)
	if err != nil {
		return nil, err
	}
	return &APQ{p: p, sys: new(apq.System), pts: map[int64]apq.Point{}}, nil
}

func apqJob(j *swf.Job) apq.Job {
	return apq.Job{ID: j.ID, Submit: j.Submit, Start: j.Submit + j.Wait, Req: j.Size(), ERT: j.ReqTime, User: j.User, Queue: j.Queue}
}

// Observe feeds the event to the System and the history.
func (a *APQ) Observe(ev Event, j *swf.Job) error {
	switch ev {
	case Arrive:
		aj := apqJob(j)
		a.pts[j.ID] = a.p.Describe(aj, j.Submit, a.sys)
		return a.sys.Submit(aj)
	case Start:
		if err := a.sys.Start(j.ID, j.Submit+j.Wait); err != nil {
			return err
		}
		pt, ok := a.pts[j.ID]
		if !ok {
			return fmt.Errorf("replay: APQ: job %d started without arriving", j.ID)
		}
		delete(a.pts, j.ID)
		return a.p.Add(pt, float64(j.Wait))
	case End:
		return a.sys.End(j.ID)
	}
	return nil
}

// Predict is APQ's point prediction at submission; it declines an empty
// history and any later (snapshot) question.
func (a *APQ) Predict(j *swf.Job, now int64) (Prediction, error) {
	if now != j.Submit {
		return Prediction{Reason: "APQ predicts at submission only"}, nil
	}
	pt, ok := a.pts[j.ID]
	if !ok {
		return Prediction{}, fmt.Errorf("replay: APQ: job %d predicted before it arrived", j.ID)
	}
	pr, err := a.p.Predict(pt)
	if errors.Is(err, apq.ErrEmpty) {
		return Prediction{Reason: err.Error()}, nil
	}
	if err != nil {
		return Prediction{}, err
	}
	a.last = pr
	return Prediction{OK: true, Point: pr.Wait, Lower: math.NaN(), Upper: math.NaN()}, nil
}

// Last is the last prediction APQ answered (its method and case).
func (a *APQ) Last() apq.Prediction { return a.last }
