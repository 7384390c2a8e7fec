package karnak

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/batchq/batchq/qbets/conformal"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// The forecast beside QBETS, IBL and Slurm (issue 36): when will the job
// start, by forward simulation of the system as it is now (package
// sched/forecast: EASY on the users' estimates, playing the run times a
// learned predictor expects, forecast.UserRatio), with an interval
// calibrated on what happened (package qbets/conformal: adaptive
// conformal inference on the log-ratio residuals, per power-of-two size
// class).
//
// The snapshot is the system's live jobs: the running ones (their start,
// so elapsed time, their size and time limit) and the waiting ones in the
// scheduler's order, which is the priority a feed sends (Event.Priority,
// highest first; slurmfeed sends squeue's), then the submission order.
// The machine is one pool of the largest queue's cores: partitions that
// share their nodes, as Slurm's usually do, are simulated right; disjoint
// ones are not (a known limit, said on every answer's page).
//
// Cost: one simulation of at most Config.MaxForecastJobs live jobs (2,000
// by default; a system with more gets no forecast, and the reason): for
// the queued jobs, one per system state and minute, shared by every job's
// prediction; for a hypothetical job, one per shape, state and minute
// (the prediction cache). A request never costs more than one
// simulation of a bounded snapshot, whatever it asks.
//
// Calibration: every 5 minutes of the system's clock (the IBL snapshot,
// system.go) the jobs submitted since the last one and still waiting are
// forecast, and when such a job starts its wait from then is compared
// with the forecast; the residual calibrates its size class. All of it is
// a function of the event log, so a restart rebuilds it from the stored
// events (after a pruning, from those kept: the last week at least).
//
// Users are hashed into userBuckets run-time histories, so that no feed
// can grow the predictor without bound: two users in one bucket share a
// history.

// ForecastPart is the forecast start of a job by forward simulation, and
// its calibrated interval: the job waits Wait seconds from Now, so starts
// at Start, and at Level percent its wait is in [Low, High] (High −1:
// unbounded, until enough starts have calibrated it). Calibrated is the
// number of started jobs the interval learned from, Jobs the number of
// jobs (running and waiting) the simulation played.
type ForecastPart struct {
	Wait       int64 `json:"wait" xml:"wait"`
	Start      int64 `json:"start" xml:"start"`
	Level      int   `json:"level" xml:"level"`
	Low        int64 `json:"low" xml:"low"`
	High       int64 `json:"high" xml:"high"`
	Calibrated int   `json:"calibrated" xml:"calibrated"`
	Jobs       int   `json:"jobs" xml:"jobs"`
}

const (
	// defaultForecastJobs is Config.MaxForecastJobs's default: a
	// simulation of 1,000 jobs costs about 4 ms (sched/forecast).
	defaultForecastJobs = 2000
	// maxForecastJobs bounds Config.MaxForecastJobs.
	maxForecastJobs = 1 << 16
	// userBuckets bounds the run-time histories per system.
	userBuckets = 1024
)

// forecastLevels are the calibrated levels; a prediction shows the one
// of its confidence, else 90%.
var forecastLevels = []float64{0.5, 0.8, 0.9}

// forecaster is a system's forward simulation and its calibration. Its
// mu guards everything: requests hold the system's read lock, and
// several may forecast at once.
type forecaster struct {
	mu       sync.Mutex
	max      int // Config.MaxForecastJobs (> 0)
	f        *forecast.Forecaster
	cal      *conformal.Calibrator
	outcomes int
	snap     forecast.Snapshot
	// The queued jobs' forecast for one state (gen, minute): job → start.
	gen    uint64
	minute int64
	have   bool
	starts map[int64]int64
	why    string // no forecast of the state, and why
	jobs   int
}

func newForecaster(max int) (*forecaster, error) {
	f, err := forecast.New(forecast.Config{Runtime: &forecast.UserRatio{}})
	if err != nil {
		return nil, err
	}
	c, err := conformal.NewCalibrator(conformal.Config{Levels: forecastLevels})
	if err != nil {
		return nil, err
	}
	return &forecaster{max: max, f: f, cal: c}, nil
}

// userOf is a user's run-time history bucket.
func userOf(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name)) //nolint:errcheck // cannot fail
	return int64(h.Sum64() % userBuckets)
}

// sizeClassOf is the calibration class of a job of n cores.
func sizeClassOf(n int64) int64 {
	if n <= 1 {
		return 0
	}
	return int64(bits.Len64(uint64(n - 1)))
}

// swfJob is j as the simulation takes it.
func swfJob(j *job) swf.Job {
	s := swf.NewJob()
	s.ID, s.Submit, s.AllocProcs, s.User = j.ID, j.Submit, j.Cores, userOf(j.User)
	if j.ReqTime > 0 {
		s.ReqTime = j.ReqTime
	}
	if j.start >= 0 {
		s.Wait = j.start - j.Submit
	}
	return s
}

// machine is the pool the simulation plays: the largest queue's cores.
func (s *system) machine() int64 {
	m := int64(0)
	for _, q := range s.queues {
		m = max(m, q.maxCores)
	}
	return m
}

// snapshot fills fc.snap with the system at now: its running jobs (by
// id) and its waiting ones in the scheduler's order; false and why when
// the system has none to forecast or more live jobs than the bound. The
// caller holds the system's lock and fc.mu.
func (fc *forecaster) snapshot(s *system, now int64) (bool, string) {
	if n := len(s.jobs); n > fc.max {
		return false, fmt.Sprintf("no forecast: %d live jobs on %s, more than the %d a forecast simulates (%s)", n, s.name, fc.max, setting("MaxForecastJobs"))
	}
	m := s.machine()
	if m <= 0 {
		return false, "no forecast: no queue declared"
	}
	fc.snap = forecast.Snapshot{Now: now, MachineSize: m, Running: fc.snap.Running[:0], Waiting: fc.snap.Waiting[:0]}
	var waiting []*job
	for _, j := range s.jobs {
		if j.start >= 0 {
			fc.snap.Running = append(fc.snap.Running, swfJob(j))
		} else {
			waiting = append(waiting, j)
		}
	}
	slices.SortFunc(fc.snap.Running, func(a, b swf.Job) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(waiting, func(a, b *job) int {
		return cmp.Or(cmp.Compare(b.priority, a.priority), cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
	})
	for _, j := range waiting {
		fc.snap.Waiting = append(fc.snap.Waiting, swfJob(j))
	}
	return true, ""
}

// queued returns the forecast start of every waiting job of s at now
// (job → start; −1 for a job the simulation cannot place), computed once
// per state and minute. The caller holds the system's lock and fc.mu.
func (fc *forecaster) queued(s *system, now int64) (map[int64]int64, string) {
	if fc.have && fc.gen == s.gen && fc.minute == now/60 {
		return fc.starts, fc.why
	}
	fc.gen, fc.minute, fc.have = s.gen, now/60, true
	fc.starts, fc.why = nil, ""
	if ok, why := fc.snapshot(s, now); !ok {
		fc.why = why
		return nil, why
	}
	st, err := fc.f.Forecast(context.Background(), &fc.snap)
	if err != nil {
		fc.why = "no forecast: " + err.Error()
		return nil, fc.why
	}
	fc.starts = make(map[int64]int64, len(st))
	for i := range st {
		fc.starts[fc.snap.Waiting[i].ID] = st[i]
	}
	fc.jobs = len(fc.snap.Running) + len(fc.snap.Waiting)
	return fc.starts, ""
}

// part is the ForecastPart of a job of cores forecast to start at start
// (at now), at the level of confidence (percent) if calibrated, else 90%.
func (fc *forecaster) part(cores, start, now int64, confidence, jobs int) *ForecastPart {
	li := len(forecastLevels) - 1
	for i, l := range forecastLevels {
		if int(math.Round(l*100)) == confidence {
			li = i
		}
	}
	w := max(start-now, 0)
	lo, hi := fc.cal.Interval(sizeClassOf(cores), float64(w), li)
	p := &ForecastPart{Wait: w, Start: now + w, Level: int(math.Round(forecastLevels[li] * 100)), Low: int64(math.Floor(lo)), High: -1,
		Calibrated: fc.outcomes, Jobs: jobs}
	if !math.IsInf(hi, 1) && hi < maxSpan {
		p.High = int64(math.Ceil(hi))
	}
	p.Low = min(p.Low, w)
	if p.High >= 0 {
		p.High = max(p.High, w)
	}
	return p
}

// forecastJob fills p's forecast of the waiting job j. The caller holds
// the system's lock.
func (s *system) forecastJob(p *Prediction, j *job, now int64) {
	fc := s.fc
	if fc == nil {
		p.ForecastReason = "no forecast: turned off on this service (" + setting("MaxForecastJobs") + ")"
		return
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	starts, why := fc.queued(s, now)
	if starts == nil {
		p.ForecastReason = why
		return
	}
	st, ok := starts[j.ID]
	if !ok || st < 0 {
		p.ForecastReason = "no forecast: the simulation cannot place the job (larger than the machine)"
		return
	}
	p.Forecast = fc.part(j.Cores, st, now, p.Confidence, fc.jobs)
}

// forecastHypothetical fills p's forecast of a job of p's shape
// submitted now, behind every waiting job. The caller holds the system's
// lock.
func (s *system) forecastHypothetical(p *Prediction, now int64) {
	fc := s.fc
	if fc == nil {
		p.ForecastReason = "no forecast: turned off on this service (" + setting("MaxForecastJobs") + ")"
		return
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if len(s.jobs)+1 > fc.max {
		p.ForecastReason = fmt.Sprintf("no forecast: %d live jobs on %s and this one, more than the %d a forecast simulates (%s)", len(s.jobs), s.name, fc.max, setting("MaxForecastJobs"))
		return
	}
	if ok, why := fc.snapshot(s, now); !ok {
		p.ForecastReason = why
		return
	}
	j := swf.NewJob()
	j.ID, j.Submit, j.AllocProcs, j.ReqTime, j.User = -1, now, p.Cores, p.WallTime, -1
	if j.ReqTime <= 0 {
		j.ReqTime = -1
	}
	st, err := fc.f.WhatIf(context.Background(), &fc.snap, j)
	switch {
	case err != nil:
		p.ForecastReason = "no forecast: " + err.Error()
	case st < 0:
		p.ForecastReason = "no forecast: the simulation cannot place the job (larger than the machine)"
	default:
		p.Forecast = fc.part(p.Cores, st, now, p.Confidence, len(fc.snap.Running)+len(fc.snap.Waiting)+1)
	}
}

// recordForecasts forecasts, at a snapshot at now, the fresh jobs still
// waiting, for the calibration. The caller holds the system's write
// lock.
func (s *system) recordForecasts(now int64) {
	fc := s.fc
	if fc == nil {
		return
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	need := false
	for _, id := range s.fresh {
		if j := s.jobs[id]; j != nil && j.start < 0 && j.fcAt == 0 {
			need = true
			break
		}
	}
	if !need {
		return
	}
	fc.have = false // the state of the last requests is not this one
	if ok, _ := fc.snapshot(s, now); !ok {
		return
	}
	st, err := fc.f.Forecast(context.Background(), &fc.snap)
	if err != nil {
		return
	}
	at := make(map[int64]int64, len(st))
	for i := range st {
		at[fc.snap.Waiting[i].ID] = st[i]
	}
	for _, id := range s.fresh {
		if j := s.jobs[id]; j != nil && j.start < 0 && j.fcAt == 0 {
			if t, ok := at[id]; ok && t >= 0 {
				j.fcAt, j.fcWait = now, t-now
			}
		}
	}
}

// forecastStarted calibrates with a job that started at t. The caller
// holds the system's write lock.
func (s *system) forecastStarted(j *job, t int64) {
	if s.fc == nil || j.fcAt == 0 {
		return
	}
	s.fc.mu.Lock()
	defer s.fc.mu.Unlock()
	s.fc.cal.Update(sizeClassOf(j.Cores), float64(j.fcWait), float64(max(t-j.fcAt, 0)))
	s.fc.outcomes++
}

// forecastEnded teaches the run-time predictor a job's run. The caller
// holds the system's write lock.
func (s *system) forecastEnded(j *job, t int64) {
	if s.fc == nil || j.start < 0 {
		return
	}
	s.fc.mu.Lock()
	defer s.fc.mu.Unlock()
	sj := swfJob(j)
	sj.RunTime = max(t-j.start, 0)
	s.fc.f.Terminated(&sj, t)
}
