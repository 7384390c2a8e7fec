package molding

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/batchq/batchq/estmodel/rangeset"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// WaitPredictor predicts the queue wait (seconds) of job j if it were
// submitted at j.Submit into the machine state st. The APQ predictor of
// qbets/apq is the paper's; anything with this method will do. The state
// may be a projected one (delayed submission asks about a future moment).
type WaitPredictor interface {
	PredictWait(j swf.Job, st sched.QueueState) (float64, error)
}

// Config configures a molder. The zero value is the paper's set-up as
// the spec resolves it: range sets per rangeset.Config's defaults,
// loads predicted from the previous week in 30-minute slots, Eq. 5 scores.
type Config struct {
	Range rangeset.Config
	Load  rangeset.LoadWindow
	// ProbWeighted is NOT the paper's: it scores a response range set by
	// Σ p_i · (mean gain over range i), so that the range probabilities
	// count (the paper's score ignores them, H18; see ChooseSize).
	ProbWeighted bool
	// MaxLimit is the machine's runtime limit (the maxLimit of §VI-C);
	// 0 means the largest ERT seen so far.
	MaxLimit int64
	// Seed drives the roulette-wheel runtime draws.
	Seed uint64
	// ScaledRuntime is NOT the paper's: a job molded to a new size runs its
	// own runtime times the ratio of the user's mean runtimes at the new
	// and the original size, so it keeps its length relative to the
	// user's other jobs. By default it runs the paper's (§VI-C): a uniform
	// draw over the user's previous runtimes at the new size (the job's
	// work is not conserved: it becomes whatever the user ran at that
	// size). The simulation needs one; the trace has only the original.
	ScaledRuntime bool
	// NoGrow is NOT the paper's: a diagnostic that drops the candidate
	// sizes above the original, to tell the effect of growing jobs (whose
	// waits a size-blind wait predictor underestimates) from the rest.
	NoGrow bool
}

// Validate names the first parameter out of range.
func (c Config) Validate() error {
	if err := c.Range.Validate(); err != nil {
		return err
	}
	if err := c.Load.Validate(); err != nil {
		return err
	}
	if c.MaxLimit < 0 {
		return fmt.Errorf("molding: Config.MaxLimit = %d, need ≥ 0", c.MaxLimit)
	}
	return nil
}

// userSize is one user's jobs at one size: the largest ERT given and the
// actual runtimes, for §VI-C's ERT rule and roulette wheel.
type userSize struct {
	maxERT   int64
	runtimes []int64
	sum      float64 // of runtimes
}

func (u *userSize) mean() float64 { return u.sum / float64(len(u.runtimes)) }

type userSizeKey struct{ user, size int64 }

// molder holds what molding and delayed submission learn while the machine
// runs — the load profile, the runtime range history, each user's sizes —
// and makes their decisions. Feed it every start and end (Started, Ended),
// in time order. Not safe for concurrent use.
type molder struct {
	cfg    Config
	prof   *rangeset.LoadProfile
	pred   rangeset.Predictor
	wait   WaitPredictor
	us     map[userSizeKey]*userSize
	sizes  map[int64][]int64 // user → sizes, in first-use order
	starts map[int64]int64   // running job → start
	ends   map[int64]int64   // running job → predicted end (TrackRunning)
	rng    *rand.Rand
	maxERT int64
	// TrackRunning predicts every job's runtime at its start, so that
	// delayed submission knows when running jobs should end.
	TrackRunning bool
	// Estimate is the estimate the scheduler gives a job without one
	// (sched.Sim.EstimateFor; RunStrategy sets it); nil means its run
	// time, the rule of a log without estimates. It limits a molded job's
	// runtime as a real estimate would (Decide).
	Estimate func(j *swf.Job) int64
}

// newMolder returns a molder for a machine of P processors with the given
// load functions and wait predictor.
func newMolder(P int64, funcs []rangeset.LoadFunc, wait WaitPredictor, cfg Config) (*molder, error) {
	if wait == nil {
		return nil, errors.New("molding: newMolder needs a WaitPredictor")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	prof, err := rangeset.NewLoadProfile(P, nil)
	if err != nil {
		return nil, err
	}
	return &molder{
		cfg:  cfg,
		prof: prof,
		pred: rangeset.Predictor{Funcs: funcs, History: new(rangeset.History), Config: cfg.Range},
		wait: wait, us: map[userSizeKey]*userSize{}, sizes: map[int64][]int64{},
		starts: map[int64]int64{}, ends: map[int64]int64{},
		rng: rand.New(rand.NewPCG(cfg.Seed, 0x4d4f4c44)),
	}, nil
}

// Profile is the machine's load profile as fed so far.
func (m *molder) Profile() *rangeset.LoadProfile { return m.prof }

// PredictedLoad is the predicted load of a job submitted at t (§3.1).
func (m *molder) PredictedLoad(t int64) float64 { return m.prof.PredictedLoad(t, m.cfg.Load) }

// Started records that j started at t.
func (m *molder) Started(j *swf.Job, t int64) error {
	if err := m.prof.Add(t, j.Size()); err != nil {
		return err
	}
	m.starts[j.ID] = t
	if m.TrackRunning {
		p := float64(j.ReqTime)
		if rs, ok, err := m.pred.Predict(rangeset.KeyOf(j), m.PredictedLoad(t)); err != nil {
			return err
		} else if ok {
			p = rs.Point()
		}
		if j.ReqTime > 0 {
			p = min(p, float64(j.ReqTime)) // the scheduler kills it at its estimate
		}
		m.ends[j.ID] = t + int64(math.Round(max(p, 0)))
	}
	return nil
}

// Ended records that j ended at t: its usage leaves the profile and its
// runtime and actual load join the history.
func (m *molder) Ended(j *swf.Job, t int64) error {
	start, ok := m.starts[j.ID]
	if !ok {
		return fmt.Errorf("molding: molder: job %d ended without starting", j.ID)
	}
	delete(m.starts, j.ID)
	delete(m.ends, j.ID)
	if err := m.prof.Add(t, -j.Size()); err != nil {
		return err
	}
	load := m.prof.JobLoad(rangeset.Execution{Start: start, End: t, Procs: j.Size()})
	k := rangeset.KeyOf(j)
	if err := m.pred.History.Add(rangeset.LoadSample{Key: k, Runtime: float64(t - start), Load: load}); err != nil {
		return err
	}
	uk := userSizeKey{j.User, j.Size()}
	u := m.us[uk]
	if u == nil {
		u = &userSize{}
		m.us[uk] = u
		m.sizes[j.User] = append(m.sizes[j.User], j.Size())
	}
	u.maxERT = max(u.maxERT, j.ReqTime)
	u.runtimes = append(u.runtimes, t-start)
	u.sum += float64(t - start)
	m.maxERT = max(m.maxERT, j.ReqTime)
	return nil
}

// PredictedEnd is the predicted end of running job id (TrackRunning).
func (m *molder) PredictedEnd(id int64) (int64, bool) {
	e, ok := m.ends[id]
	return e, ok
}

// moldDecision is what molding chose for one job.
type moldDecision struct {
	Job        swf.Job // the job to submit: size, ERT and runtime as molded
	Changed    bool    // a size other than the original was chosen
	Score      float64
	Wait       float64      // predicted wait at the chosen size (s)
	Exec       rangeset.Set // predicted runtime range set at the chosen size
	Candidates int
}

// Point is the decision's point prediction of the response time: the
// predicted wait plus the runtime range set's Σ p·median (§IV-B).
func (d moldDecision) Point() float64 { return d.Wait + d.Exec.Point() }

// Decide molds j (submitted at j.Submit into state st, at predicted load
// load): every size the user has run at is a candidate if its key has a
// runtime history. ok is false when the original size itself has no
// history (it cannot be compared), in which case j is to be submitted as
// it is. A job without a user (SWF's −1) has no history, as a user never
// seen: the user-less jobs of a trace (every Alibaba GPU pod) are not one
// user whose sizes and run times each of them could take.
func (m *molder) Decide(j swf.Job, st sched.QueueState, load float64) (d moldDecision, ok bool, err error) {
	orig := j.Size()
	origKey := rangeset.KeyOf(&j)
	if j.User < 0 || m.pred.History.Len(origKey) == 0 {
		return moldDecision{Job: j}, false, nil
	}
	sizes := slices.Clone(m.sizes[j.User])
	if !slices.Contains(sizes, orig) {
		sizes = append(sizes, orig)
	}
	slices.Sort(sizes)
	var cands []Candidate
	var jobs []swf.Job
	for _, s := range sizes {
		if m.cfg.NoGrow && s > orig {
			continue
		}
		k := origKey
		k.Size = s
		rs, ok, err := m.pred.Predict(k, load)
		if err != nil {
			return d, false, err
		}
		if !ok {
			continue
		}
		h := j
		if s != orig {
			h = m.resize(j, s)
		}
		w, err := m.wait.PredictWait(h, st)
		if err != nil {
			return d, false, err
		}
		cands = append(cands, Candidate{Size: s, Wait: max(w, 0), Exec: rs})
		jobs = append(jobs, h)
	}
	best, scores, err := chooseSize(cands, orig, m.cfg.ProbWeighted)
	if err != nil {
		return d, false, err
	}
	d = moldDecision{Job: jobs[best], Changed: cands[best].Size != orig, Score: scores[best],
		Wait: cands[best].Wait, Exec: cands[best].Exec, Candidates: len(cands)}
	if d.Changed {
		u := m.us[userSizeKey{j.User, cands[best].Size}]
		uo := m.us[userSizeKey{j.User, orig}]
		var prev []int64
		if u != nil {
			prev = u.runtimes
		}
		kill := d.Job.ReqTime // EASY kills a job at its estimate
		if j.ReqTime <= 0 {
			kill = m.impliedEstimate(j, cands[best].Size)
		}
		// The wheel is drawn in every mode (the scaled runtime may
		// override it), so the random stream does not depend on Runtime.
		r := j.RunTime
		switch draw, ok := moldedRuntime(m.rng, prev, kill); {
		case m.cfg.ScaledRuntime && u != nil && uo != nil && uo.mean() > 0:
			// Capped before the conversion (sanitize.MaxTime, 2^40 s): a
			// tiny mean at the original size could scale past int64.
			r = int64(math.Round(min(float64(j.RunTime)*u.mean()/uo.mean(), 1<<40)))
		case ok:
			r = draw
		}
		if kill > 0 {
			r = min(r, kill)
		}
		d.Job.RunTime = r
	}
	return d, true, nil
}

// impliedEstimate is the runtime limit of job j, which has no estimate,
// molded to size s: §VI-C's ERT rule applied to the estimate the scheduler
// gives j (Estimate; on a log without estimates its run time, e := r, sched's H6).
// A grown job keeps that limit, so the roulette wheel cannot turn it into
// one of the user's long runs at that size (a user's 50-s jobs into 3.5-h
// jobs on SDSC Paragon). The molded job itself keeps no estimate (see
// moldedEstimate).
func (m *molder) impliedEstimate(j swf.Job, s int64) int64 {
	est := j.RunTime
	if m.Estimate != nil {
		est = m.Estimate(&j)
	}
	return m.moldedEstimate(j, s, est)
}

// moldedEstimate is §VI-C's ERT of j, whose estimate is origERT, molded to
// size s: the user's largest estimate at s and the machine's limit are the
// candidates (moldedEstimate).
func (m *molder) moldedEstimate(j swf.Job, s, origERT int64) int64 {
	var maxPrev int64
	if u := m.us[userSizeKey{j.User, s}]; u != nil {
		maxPrev = u.maxERT
	}
	limit := m.cfg.MaxLimit
	if limit == 0 {
		limit = m.maxERT
	}
	return moldedEstimate(j.Size(), s, origERT, maxPrev, limit)
}

// resize is j at size s with the ERT of §VI-C (runtime still the
// original's; Decide draws the molded one only for the chosen size).
func (m *molder) resize(j swf.Job, s int64) swf.Job {
	h := j
	h.ReqProcs, h.AllocProcs = s, s
	h.ReqTime = m.moldedEstimate(j, s, j.ReqTime)
	return h
}
