package replay

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"github.com/batchq/batchq/internal/swfname"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/swf"
)

// iblPredictor is NewIBL's Predictor.
type iblPredictor struct {
	nq, qd *ibl.Base
	level  int
	sys    *ibl.System
	open   map[int64]*iblOpen
}

type iblOpen struct {
	inNQ, inQ []ibl.Value
	snapAt    int64
}

// NewIBL returns Karnak's instance-based predictor (package qbets/ibl) as a
// Predictor, with its two experience bases (§5.1): at a job's arrival a
// "not queued" prediction (Table III features), and at a snapshot that
// finds it waiting (Options.Snapshot) a "queued" one (Table IV features,
// the wait counted from the snapshot); each experience enters its base
// when the job starts. The answer is the estimate as Point and the
// confidence interval as [Lower, Upper] (±Inf when unbounded). Symbolic
// features: Queue, User, Group as Project and Executable as job name, each
// a distinct value per SWF number. It keys jobs by number, as APQ does
// (Run numbers the jobs that have none). notQueued and
// queued configure the two bases (empty Features: Table III and Table IV;
// ibl's own zero Config is Table III, which the queued base's Table IV
// inputs do not fit), level is the interval's level in percent (0: 90,
// the paper's).
func NewIBL(notQueued, queued ibl.Config, level int) (Predictor, error) {
	if len(notQueued.Features) == 0 {
		notQueued.Features = ibl.NotQueuedFeatures()
	}
	if len(queued.Features) == 0 {
		queued.Features = ibl.QueuedFeatures()
	}
	nq, err := ibl.New(notQueued)
	if err != nil {
		return nil, err
	}
	qd, err := ibl.New(queued)
	if err != nil {
		return nil, err
	}
	return &iblPredictor{nq: nq, qd: qd, level: cmp.Or(level, 90), sys: new(ibl.System), open: map[int64]*iblOpen{}}, nil
}

// iblJob is the job as IBL sees it; an unknown (−1) size is 0 cores, as
// nodes gives QBETS, since ibl refuses negative cores. An unknown (−1)
// user, group or executable is "", which IBL reads as no such feature:
// as "u-1" every user-less job was one user, whose jobs were alike in
// that feature and counted in each other's UserCount and UserWork. A
// trace without queues (−1) is one queue, "q-1", as QBETS's.
func iblJob(j *swf.Job) ibl.Job {
	return ibl.Job{
		ID: j.ID, Queue: fmt.Sprint("q", j.Queue), User: swfname.Known("u", j.User),
		Project: swfname.Known("g", j.Group), Name: swfname.Known("x", j.Executable),
		Cores: max(j.Size(), 0), ReqTime: j.ReqTime, Submit: j.Submit,
	}
}

// Observe feeds the event to the System and the bases.
func (b *iblPredictor) Observe(ev Event, j *swf.Job) error {
	switch ev {
	case Arrive:
		ij := iblJob(j)
		b.open[j.ID] = &iblOpen{inNQ: b.sys.NotQueued(ij, j.Submit)}
		return b.sys.Submit(ij)
	case Start:
		o := b.open[j.ID]
		if o == nil {
			return fmt.Errorf("replay: IBL: job %d started without arriving", j.ID)
		}
		if err := b.nq.Insert(ibl.Experience{In: o.inNQ, Wait: float64(j.Wait)}); err != nil {
			return err
		}
		if o.inQ != nil {
			if err := b.qd.Insert(ibl.Experience{In: o.inQ, Wait: float64(j.Submit + j.Wait - o.snapAt)}); err != nil {
				return err
			}
		}
		return b.sys.Start(j.ID, j.Submit+j.Wait)
	case End:
		delete(b.open, j.ID)
		return b.sys.End(j.ID)
	}
	return nil
}

// Predict answers from the not-queued base at arrival and from the queued
// base at a snapshot; it declines while the base is empty.
func (b *iblPredictor) Predict(j *swf.Job, now int64) (Prediction, error) {
	o := b.open[j.ID]
	if o == nil {
		return Prediction{}, fmt.Errorf("replay: IBL: job %d predicted before it arrived", j.ID)
	}
	base, q := b.nq, o.inNQ
	if now != j.Submit {
		in, ok := b.sys.Queued(j.ID, now)
		if !ok {
			return Prediction{Reason: "not waiting"}, nil
		}
		o.inQ, o.snapAt = in, now
		base, q = b.qd, in
	}
	pr, err := base.Predict(q, b.level)
	if errors.Is(err, ibl.ErrEmpty) {
		return Prediction{Reason: err.Error()}, nil
	}
	if err != nil {
		return Prediction{}, err
	}
	lo, hi := pr.Wait-pr.HalfWidth, pr.Wait+pr.HalfWidth
	if math.IsInf(pr.HalfWidth, 1) {
		lo, hi = math.Inf(-1), math.Inf(1)
	}
	return Prediction{OK: true, Point: pr.Wait, Lower: lo, Upper: hi}, nil
}
