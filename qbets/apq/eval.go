package apq

import (
	"fmt"
	"math"
)

// The paper's APQ test set (§6): jobs #20001–60000 of the log.
const (
	PaperTestFrom = 20000
	PaperTestTo   = 60000
)

// WaitClasses are the upper bounds, in seconds, of the paper's wait classes
// [0–100], [100–1000], [1000–10⁴], [10⁴–10⁵] and [>10⁵] (§6).
var WaitClasses = [...]float64{100, 1000, 1e4, 1e5, math.Inf(1)}

// Score accumulates the queue-wait metrics of §6 for one predictor.
type Score struct {
	Jobs      int
	sumAbs    float64
	sumScaled float64
	sumWait   float64
	classN    [len(WaitClasses)]int
	classAbs  [len(WaitClasses)]float64
}

// Add scores one prediction: pred and wait in seconds, run the job's run
// time. Scaled error divides by the response time wait + run, at least
// 1 s so that instant jobs stay finite.
func (s *Score) Add(pred, wait, run float64) {
	e := math.Abs(pred - wait)
	s.Jobs++
	s.sumAbs += e
	s.sumScaled += e / max(wait+run, 1)
	s.sumWait += wait
	c := 0
	for c < len(WaitClasses)-1 && wait > WaitClasses[c] {
		c++
	}
	s.classN[c]++
	s.classAbs[c] += e
}

// AAE is the mean absolute error in hours.
func (s *Score) AAE() float64 { return div(s.sumAbs, float64(s.Jobs)) / 3600 }

// ScaledAAE is the mean of |error| / response time (unitless).
func (s *Score) ScaledAAE() float64 { return div(s.sumScaled, float64(s.Jobs)) }

// MeanWait is the mean actual wait of the scored jobs, in hours.
func (s *Score) MeanWait() float64 { return div(s.sumWait, float64(s.Jobs)) / 3600 }

// Class returns the number of scored jobs in wait class c and their AAE in
// hours.
func (s *Score) Class(c int) (jobs int, aae float64) {
	return s.classN[c], div(s.classAbs[c], float64(s.classN[c])) / 3600
}

func div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// EvalConfig configures Evaluate.
type EvalConfig struct {
	Config Config
	// TestFrom and TestTo select the scored jobs by position in the input:
	// [TestFrom, TestTo). TestTo = 0 means min(PaperTestTo, len(jobs));
	// TestFrom = 0 with TestTo = 0 means PaperTestFrom.
	TestFrom, TestTo int
	// Progress, if set, is called after each scored job.
	Progress func(done, total int)
}

// Result is the outcome of Evaluate.
type Result struct {
	Score
	Methods [3]int // predictions by Method
	Cases   [3]int // predictions by Case
	// NoPrediction counts test jobs met with an empty history (not scored).
	NoPrediction int
}

// Evaluate replays jobs (in submit order) causally as §6 does: every job
// is described at its submission, enters the history when it starts, and
// the jobs in the test range are predicted at submission and scored.
// Only jobs[:TestTo] are replayed, since later jobs cannot affect the
// state a test job meets.
func Evaluate(jobs []TraceJob, cfg EvalConfig) (Result, error) {
	rs, err := EvaluateMany(jobs, []Config{cfg.Config}, cfg.TestFrom, cfg.TestTo, cfg.Progress)
	if err != nil {
		return Result{}, err
	}
	return rs[0], nil
}

// EvaluateMany is Evaluate for several configurations at once: one replay
// describes each job once and feeds the same Points to one Predictor per
// configuration. All configurations must share PerQueue (it changes the
// description). from and to are as EvalConfig's TestFrom and TestTo.
func EvaluateMany(jobs []TraceJob, cfgs []Config, from, to int, progress func(done, total int)) ([]Result, error) {
	if len(cfgs) == 0 {
		return nil, fmt.Errorf("apq: EvaluateMany: no configuration")
	}
	if to == 0 {
		to = min(PaperTestTo, len(jobs))
		if from == 0 {
			from = PaperTestFrom
		}
	}
	if from < 0 || to > len(jobs) || from >= to {
		return nil, fmt.Errorf("apq: test range [%d, %d) is empty or outside the %d jobs", from, to, len(jobs))
	}
	ps := make([]*Predictor, len(cfgs))
	for i, c := range cfgs {
		if c.PerQueue != cfgs[0].PerQueue {
			return nil, fmt.Errorf("apq: EvaluateMany: configuration %d has PerQueue = %v, configuration 0 has %v", i, c.PerQueue, cfgs[0].PerQueue)
		}
		p, err := New(c)
		if err != nil {
			return nil, fmt.Errorf("apq: configuration %d: %w", i, err)
		}
		ps[i] = p
	}
	res := make([]Result, len(cfgs))
	pending := map[int64]Point{}
	done := 0
	err := Replay(jobs[:to], func(ev Event, pos int, sys *System) error {
		j := &jobs[pos]
		switch ev {
		case Submitted:
			pt := ps[0].Describe(j.Job, j.Submit, sys)
			pending[j.ID] = pt
			if pos < from {
				return nil
			}
			for i, p := range ps {
				pr, err := p.Predict(pt)
				if err != nil {
					res[i].NoPrediction++
					continue
				}
				res[i].Add(pr.Wait, float64(j.Start-j.Submit), float64(j.Run))
				res[i].Methods[pr.Method]++
				res[i].Cases[pr.Case]++
			}
			done++
			if progress != nil {
				progress(done, to-from)
			}
		case Started:
			pt, ok := pending[j.ID]
			if !ok {
				return fmt.Errorf("apq: job %d started without a submission", j.ID)
			}
			delete(pending, j.ID)
			for _, p := range ps {
				if err := p.Add(pt, float64(j.Start-j.Submit)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return res, err
}
