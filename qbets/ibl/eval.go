package ibl

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// TraceJob is one finished job of a historical trace: a Job plus when it
// started and how long it ran.
type TraceJob struct {
	Job
	Start   int64 // ≥ Submit
	RunTime int64 // ≥ 0
}

// EvalConfig configures Evaluate. The zero value evaluates both workloads
// with the default base configuration at level 90 and 5-minute snapshots.
type EvalConfig struct {
	NotQueued Config // Features default to NotQueuedFeatures
	Queued    Config // Features default to QueuedFeatures
	Level     int    // percent; 0 means 90
	// Snapshot is the interval between queue snapshots, seconds; a job is
	// in the queued workload when it is still waiting at the first
	// snapshot after its submission. 0 means 300 ("several minutes", §3).
	Snapshot int64
}

// Score is one workload's row of Tables I/II, plus the relative mean
// error the issue asks for.
type Score struct {
	Jobs       int     // predicted and scored
	Skipped    int     // no experience yet when the prediction was due
	MeanWait   float64 // hours, of the scored jobs
	Accuracy   float64 // mean of Accuracy(E, A)
	RelError   float64 // mean |E − A| / mean A
	MeanHalf   float64 // mean CI half-width, hours (spec K8), of the bounded intervals
	InInterval float64 // percent of actual waits within E ± half-width (an unbounded interval holds it)
	Unbounded  int     // predictions with an unbounded interval (one neighbour), not in MeanHalf
	// AccuracyLong is the mean accuracy over the LongJobs jobs that
	// waited at least LongWait: the paper reports that leaving out the
	// shorter waits lowers Table I's accuracies by 0.10 on average (§V).
	AccuracyLong float64
	LongJobs     int
	sumAbs       float64
}

// LongWait is the paper's cut for "jobs that waited < 10 min" (§V).
const LongWait = 600

// Result holds both workloads of §5.1.
type Result struct {
	NotQueued, Queued Score
}

const (
	evEnd = iota
	evSubmit
	evStart
	evEndZero
)

type event struct {
	t    int64
	kind int // at equal times: ends of jobs that ran, submits, starts, ends of zero-length runs
	j    *TraceJob
}

// Evaluate replays a trace causally as §5.1 does: a not-yet-queued
// prediction just before each submission (Table III features), a queued
// prediction at the first snapshot that finds the job waiting (Table IV
// features, the wait counted from that snapshot); each experience enters
// its base when the job starts. Jobs must have Start ≥ Submit and
// RunTime ≥ 0; they need not be sorted.
func Evaluate(jobs []TraceJob, cfg EvalConfig) (Result, error) {
	if cfg.NotQueued.Features == nil {
		cfg.NotQueued.Features = NotQueuedFeatures
	}
	if cfg.Queued.Features == nil {
		cfg.Queued.Features = QueuedFeatures
	}
	level := cmp.Or(cfg.Level, DefaultLevel)
	snap := cmp.Or(cfg.Snapshot, 300)
	if snap < 0 {
		return Result{}, fmt.Errorf("ibl: EvalConfig.Snapshot = %d, want > 0", snap)
	}
	nq, err := New(cfg.NotQueued)
	if err != nil {
		return Result{}, err
	}
	qd, err := New(cfg.Queued)
	if err != nil {
		return Result{}, err
	}
	evs := make([]event, 0, 3*len(jobs))
	for i := range jobs {
		j := &jobs[i]
		if j.Start < j.Submit || j.RunTime < 0 {
			return Result{}, fmt.Errorf("ibl: job %d: start %d before submit %d or run time %d < 0", j.ID, j.Start, j.Submit, j.RunTime)
		}
		end := evEnd
		if j.RunTime == 0 {
			end = evEndZero
		}
		evs = append(evs, event{j.Submit, evSubmit, j}, event{j.Start, evStart, j}, event{j.Start + j.RunTime, end, j})
	}
	slices.SortFunc(evs, func(a, b event) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.kind, b.kind), cmp.Compare(a.j.ID, b.j.ID))
	})

	type pending struct {
		inNQ, inQ []Value
		snapAt    int64
	}
	sys := NewSystem()
	open := map[*TraceJob]*pending{}
	var fresh []*TraceJob // submitted since the last snapshot
	var res Result
	nextSnap := int64(math.MinInt64)

	snapshot := func(now int64) {
		for _, j := range fresh {
			p := open[j]
			if p == nil || p.inQ != nil {
				continue
			}
			q, ok := sys.Queued(j.ID, now)
			if !ok {
				continue // started before any snapshot saw it
			}
			p.inQ, p.snapAt = q, now
			pr, err := qd.Predict(q, level)
			if err != nil {
				res.Queued.Skipped++
				continue
			}
			res.Queued.add(pr, float64(j.Start-now))
		}
		fresh = fresh[:0]
	}

	for _, e := range evs {
		if nextSnap == math.MinInt64 {
			nextSnap = e.t - e.t%snap + snap
		}
		// A snapshot at s sees every event at times ≤ s.
		for nextSnap < e.t {
			snapshot(nextSnap)
			nextSnap += snap
		}
		j := e.j
		switch e.kind {
		case evSubmit:
			q := sys.NotQueued(j.Job, e.t)
			if pr, err := nq.Predict(q, level); err == nil {
				res.NotQueued.add(pr, float64(j.Start-j.Submit))
			} else {
				res.NotQueued.Skipped++
			}
			if err := sys.Submit(j.Job); err != nil {
				return res, err
			}
			open[j] = &pending{inNQ: q}
			fresh = append(fresh, j)
		case evStart:
			p := open[j]
			if err := nq.Insert(Experience{In: p.inNQ, Wait: float64(j.Start - j.Submit)}); err != nil {
				return res, err
			}
			if p.inQ != nil {
				if err := qd.Insert(Experience{In: p.inQ, Wait: float64(j.Start - p.snapAt)}); err != nil {
					return res, err
				}
			}
			if err := sys.Start(j.ID, e.t); err != nil {
				return res, err
			}
		case evEnd, evEndZero:
			delete(open, j)
			if err := sys.End(j.ID); err != nil {
				return res, err
			}
		}
	}
	res.NotQueued.finish()
	res.Queued.finish()
	return res, nil
}

func (s *Score) add(p Prediction, actual float64) {
	s.Jobs++
	s.MeanWait += actual
	s.Accuracy += Accuracy(p.Wait, actual)
	s.sumAbs += math.Abs(p.Wait - actual)
	if actual >= LongWait {
		s.LongJobs++
		s.AccuracyLong += Accuracy(p.Wait, actual)
	}
	if math.IsInf(p.HalfWidth, 1) {
		s.Unbounded++
	} else {
		s.MeanHalf += p.HalfWidth
	}
	if math.Abs(p.Wait-actual) <= p.HalfWidth {
		s.InInterval++
	}
}

func (s *Score) finish() {
	if s.Jobs == 0 {
		return
	}
	n := float64(s.Jobs)
	if s.MeanWait > 0 {
		s.RelError = s.sumAbs / s.MeanWait
	}
	s.MeanWait /= n * 3600
	s.Accuracy /= n
	if s.LongJobs > 0 {
		s.AccuracyLong /= float64(s.LongJobs)
	}
	if b := n - float64(s.Unbounded); b > 0 {
		s.MeanHalf /= b * 3600
	}
	s.InInterval *= 100 / n
}
