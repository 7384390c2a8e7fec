package karnak

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/ibl"
)

// Prediction answers kwait/kstart (a queued job) or kwouldwait/kwouldstart
// (a hypothetical job at one location). Waits are seconds from Now; starts
// are Unix seconds on the system's clock. Each method's part is nil when
// it could not predict, with the reason given instead.
type Prediction struct {
	System     string `json:"system" xml:"system"`
	Queue      string `json:"queue" xml:"queue"`
	Job        *int64 `json:"job,omitempty" xml:"job,omitempty"`
	Submit     int64  `json:"submit,omitempty" xml:"submit,omitempty"` // queued job only
	Cores      int64  `json:"cores" xml:"cores"`
	WallTime   int64  `json:"wallTime" xml:"wallTime"`
	Now        int64  `json:"now" xml:"now"`
	Quantile   int    `json:"quantile" xml:"quantile"`
	Confidence int    `json:"confidence" xml:"confidence"`

	// QBETS (spec qbets-varq-coalloc §2): an upper bound, at the given
	// confidence, on the quantile of the wait from Now.
	QBETS       *BoundPart `json:"qbets,omitempty" xml:"qbets,omitempty"`
	QBETSReason string     `json:"qbetsReason,omitempty" xml:"qbetsReason,omitempty"`
	// Within and ProbWithin (§2.7): the largest quantile whose bound is ≤
	// Within, at the confidence of the service's first level for a
	// hypothetical job (Config.Levels; ProbWithinReason says why there
	// is none at another confidence), at the pair asked for a queued job
	// when it is one of Config.Levels.
	Within           int64    `json:"within,omitempty" xml:"within,omitempty"`
	ProbWithin       *float64 `json:"probWithin,omitempty" xml:"probWithin,omitempty"`
	ProbWithinReason string   `json:"probWithinReason,omitempty" xml:"probWithinReason,omitempty"`
	// Conditional is set for a queued job, which has waited Waited
	// seconds (Now − Submit): its QBETS answers are conditional on it
	// (qbets.Predictor.ForecastWaited). QBETS bounds the rest of its wait
	// given that it has waited so long, from the waits of the history at
	// least Waited long; ProbWithin is P(it starts within Within more |
	// it has not started after Waited). Conditional, because the
	// answers about the total wait mislead for a job that has waited
	// longer than most: they would show it "waits at most 00:00:00", and
	// its chance of starting within an hour as a newly submitted job's.
	Conditional bool  `json:"conditional,omitempty" xml:"conditional,omitempty"`
	Waited      int64 `json:"waited,omitempty" xml:"waited,omitempty"`
	// IBL (Karnak, spec karnak-ibl-service §4): the kernel-regression
	// estimate with a Confidence% interval ±HalfWidth.
	IBL       *EstimatePart `json:"ibl,omitempty" xml:"ibl,omitempty"`
	IBLReason string        `json:"iblReason,omitempty" xml:"iblReason,omitempty"`
	// Slurm is the scheduler's own estimate where a Slurm feed sends one
	// (nil otherwise): see SlurmPart.
	Slurm *SlurmPart `json:"slurm,omitempty" xml:"slurm,omitempty"`
	// Forecast is the start by forward simulation of the system as it is
	// now, with its calibrated interval (forecast.go); nil with the
	// reason when there is none. A reason (IBLReason too) is the
	// service's own words; a failure of the library it calls is
	// "no forecast: internal error N (…)", its cause in the operator's
	// log under N, as a 500's (Error).
	Forecast       *ForecastPart `json:"forecast,omitempty" xml:"forecast,omitempty"`
	ForecastReason string        `json:"forecastReason,omitempty" xml:"forecastReason,omitempty"`

	// Error, for one location of a hypothetical request, says why it has
	// no prediction (§2.3); the other fields then echo the request.
	Error string `json:"error,omitempty" xml:"error,omitempty"`

	// enc is the JSON encoding of the fields above, made once for a
	// prediction the cache keeps, so that its hits are not encoded again
	// (MarshalJSON).
	enc []byte
}

// plainPrediction is Prediction without its methods: the default
// encoding of its fields.
type plainPrediction Prediction

// MarshalJSON is the default encoding of p's fields (the json tags
// above), made once for a prediction from the cache.
func (p Prediction) MarshalJSON() ([]byte, error) { return p.encoded() }

// BoundPart is the QBETS upper bound as a wait from now and as a start
// time, with the lower confidence bound on the same quantile when the
// history allows one, and where the bound came from.
type BoundPart struct {
	Wait      int64  `json:"wait" xml:"wait"`
	Start     int64  `json:"start" xml:"start"`
	LowerWait *int64 `json:"lowerWait,omitempty" xml:"lowerWait,omitempty"`
	Cluster   int    `json:"cluster" xml:"cluster"`
	Fallback  bool   `json:"fallback,omitempty" xml:"fallback,omitempty"` // queue-level history: the cluster's was too short
	History   int    `json:"history" xml:"history"`                       // waits the bound was taken from
}

// bound turns a Forecast of the wait from now (a hypothetical job's, or
// a queued job's conditional rest of its wait) into a BoundPart.
func bound(f qbets.Forecast, now int64) *BoundPart {
	b := &BoundPart{Wait: max(f.Upper, 0), Start: now + max(f.Upper, 0), Cluster: f.Cluster, Fallback: f.Fallback, History: f.History}
	if f.LowerOK {
		lw := max(f.Lower, 0)
		b.LowerWait = &lw
	}
	return b
}

// EstimatePart is the IBL estimate as a wait from now and a start time.
// Its interval is Wait ± HalfWidth, symmetric as Karnak's, but a wait is
// never below 0: Low and High are the interval's ends as shown, Low
// clamped at 0 (LowClamped says it was: Wait − HalfWidth < 0, or the
// interval is unbounded), High -1 when it is unbounded. Every format
// shows the clamped ends: "waits 00:18:28 ±01:20:48" would put the
// interval's start before the question.
type EstimatePart struct {
	Wait       float64 `json:"wait" xml:"wait"`
	Start      int64   `json:"start" xml:"start"`
	HalfWidth  float64 `json:"halfWidth" xml:"halfWidth"` // +Inf is written as -1 in JSON
	Low        float64 `json:"low" xml:"low"`
	High       float64 `json:"high" xml:"high"` // -1: unbounded
	LowClamped bool    `json:"lowClamped,omitempty" xml:"lowClamped,omitempty"`
	Neighbors  int     `json:"neighbors" xml:"neighbors"`
}

// newEstimate is the estimate wait ± half (half < 0: unbounded) at now,
// with its interval's ends clamped at no wait.
func newEstimate(wait, half float64, neighbors int, now int64) *EstimatePart {
	e := &EstimatePart{Wait: wait, Start: now + int64(math.Round(wait)), HalfWidth: half, Low: max(wait-half, 0), High: wait + half, Neighbors: neighbors}
	e.LowClamped = wait-half < 0
	if half < 0 {
		e.Low, e.High, e.LowClamped = 0, -1, true
	}
	return e
}

// Defaults of a prediction request (Karnak: confidence 90; QBETS: the
// 0.95 quantile).
const (
	defaultConfidence = 90
	defaultQuantile   = 95
)

// predCache memoizes predictions per system state: an entry is used
// only until the next event on the system or the next minute of its
// clock. A gateway polling the same few configurations many times a
// second (the users) costs one computation per minute and state
// change. Karnak itself refreshed its predictor every 2–15 minutes (§3
// [S]). A system's state only moves forward, so entries of an earlier
// state are never hit again: each system keeps only the entries of its
// current state, and the first entry of a newer state drops the rest.
type predCache struct {
	mu sync.Mutex
	m  map[*system]*stateCache
	// hits and misses are reported by /karnak/stats.
	hits, misses int64
	off          bool
	// n is the entries of every system together, at most cacheMax.
	n int
}

// stateCache holds one system's predictions for one state.
type stateCache struct {
	gen    uint64
	minute int64
	m      map[reqKey]Prediction
}

// predKey is the state of a system (its event generation and the minute
// of its clock) and a request.
type predKey struct {
	sys    *system
	gen    uint64
	minute int64
	req    reqKey
}

type reqKey struct {
	job         int64
	queued      bool
	queue       string
	cores, wall int64
	q, c        int
	within      int64
	// who, of a hypothetical job: its user and account (PredictRequest).
	user, account string
}

// cacheMax bounds the entries of every system together (distinct
// requests within one minute and state): beyond it the other systems'
// entries are dropped, and past it for one system alone predictions are
// computed but not kept. The bound is on all systems together, not on
// each: anonymous requests, each naming up to maxLocations systems and a
// user and an account of 256 bytes, could otherwise hold cacheMax
// entries per system, times up to MaxSystems systems.
const cacheMax = 1 << 14

func (c *predCache) get(k predKey) (Prediction, bool) {
	if c.off {
		return Prediction{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var p Prediction
	ok := false
	if sc := c.m[k.sys]; sc != nil && sc.gen == k.gen && sc.minute == k.minute {
		p, ok = sc.m[k.req]
	}
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	return p, ok
}

// drop forgets a system's entries (it was dropped or rewound).
func (c *predCache) drop(sys *system) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sc := c.m[sys]; sc != nil {
		c.n -= len(sc.m)
	}
	delete(c.m, sys)
}

// marshalJSON is json.Marshal(v), but a prediction, or a list of them,
// is written from its own encoding (the cache's, or one made here) as
// it is: json.Marshal would call MarshalJSON and scan and copy its
// result again (compacting a Marshaler's output), which was a third of
// the cost of a cached answer.
func marshalJSON(v any) ([]byte, error) {
	switch v := v.(type) {
	case Prediction:
		if v.enc != nil {
			return v.enc, nil
		}
		return json.Marshal(plainPrediction(v))
	case []Prediction:
		encs := make([][]byte, len(v))
		n := 2 + len(v)
		for i := range v {
			var err error
			if encs[i], err = v[i].encoded(); err != nil {
				return nil, err
			}
			n += len(encs[i])
		}
		b := make([]byte, 0, n)
		b = append(b, '[')
		for i, e := range encs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, e...)
		}
		return append(b, ']'), nil
	}
	return json.Marshal(v)
}

// encoded is p's JSON encoding: the cache's, else made now.
func (p *Prediction) encoded() ([]byte, error) {
	if p.enc != nil {
		return p.enc, nil
	}
	return json.Marshal((*plainPrediction)(p))
}

// put keeps p for k, encoded (MarshalJSON), and returns it so encoded.
func (c *predCache) put(k predKey, p Prediction) Prediction {
	if c.off {
		return p
	}
	enc, _ := json.Marshal(plainPrediction(p)) // cannot fail: plain fields
	// Clipped: an append to it (write adds a newline) copies rather than
	// writing past its end in memory that concurrent hits share.
	p.enc = slices.Clip(enc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if k.sys.retired.Load() {
		return p // replaced since it was looked up: drop has emptied the cache of it
	}
	if c.m == nil {
		c.m = map[*system]*stateCache{}
	}
	sc := c.m[k.sys]
	switch {
	case sc == nil || k.gen > sc.gen || k.gen == sc.gen && k.minute > sc.minute:
		if sc != nil {
			c.n -= len(sc.m)
		}
		sc = &stateCache{gen: k.gen, minute: k.minute, m: map[reqKey]Prediction{}}
		c.m[k.sys] = sc
	case k.gen != sc.gen || k.minute != sc.minute:
		return p // computed for a state already left behind
	}
	if _, ok := sc.m[k.req]; ok {
		return p
	}
	if c.n >= cacheMax {
		// The other systems' entries go (a cache: they are computed
		// again when asked), so that a system asked about for a minute
		// and then left alone does not hold the bound for ever.
		for other, o := range c.m {
			if other != k.sys {
				c.n -= len(o.m)
				delete(c.m, other)
			}
		}
		if c.n >= cacheMax {
			return p
		}
	}
	sc.m[k.req] = p
	c.n++
	return p
}

// Location is one queue@system pair of a hypothetical request.
type Location struct {
	System string `json:"system" xml:"system"`
	Queue  string `json:"queue" xml:"queue"`
}

func (l Location) String() string { return l.Queue + "@" + l.System }

// PredictRequest is a hypothetical job (kwouldwait / kwouldstart). Over
// HTTP (Handler) its body is JSON, the keys its fields' names (case aside:
// json.Marshal of a PredictRequest is one), wallTime and within whole
// seconds or "hh:mm:ss", each location "queue@system" or a Location object,
//
//	{"cores": 16, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1"]}
//
// or Karnak's text form (§2.3), one field a line, location repeatable;
// errors name the field:
//
//	processors 16
//	requestedWallTime 01:00:00
//	confidence 90
//	quantile 95
//	within 00:30:00
//	location <system> <queue>
//	user <name>
//	account <name>
type PredictRequest struct {
	Cores      int64
	WallTime   int64 // seconds
	Confidence int   // percent, 10–95
	Quantile   int   // percent, 1–99
	Within     int64 // seconds; 0 = no probability asked
	Locations  []Location
	// User and Account (optional) say who would submit the job. Where
	// the feed sends the scheduler's priorities (Event.Priority), the
	// forecast places the job where the user's most recent waiting job
	// is in the scheduler's order (else the account's, Event.Project),
	// as fair share would; without them, or without such a job, it
	// goes behind every waiting job.
	User, Account string
}

// PredictHypothetical answers every location of r. As in Karnak (§2.3),
// a location that fails (unknown system or queue, cores or wall time
// beyond the queue's limits) gets an error message instead of a
// prediction, naming the location's index and the field, and the others
// are still answered: a gateway asking about ten machines should not
// lose nine answers to one queue's limit. Only when every location
// fails is the request an error, with the first failure's status and
// every location's message.
//
// A request the HTTP interface would refuse is refused here too, before
// any location is asked, as an *Error with Code 400 naming the field
// (PredictRequest's ranges: cores ≥ 1, a wall time, confidence 10–95 and
// quantile 1–99, within ≥ 0, one to 100 locations); so is a nil r.
func (s *Service) PredictHypothetical(r *PredictRequest) ([]Prediction, error) {
	if r == nil {
		return nil, badRequest("request: nil, want a PredictRequest")
	}
	if err := r.validate(); err != nil {
		return nil, badRequest("%v", err)
	}
	return s.predictHypothetical(r, nil)
}

// predictHypothetical is PredictHypothetical, paying for the forecasts'
// simulations with pay (nil: free); when pay refuses, the request is its
// error (a 429), whatever the other locations.
func (s *Service) predictHypothetical(r *PredictRequest, pay payFunc) ([]Prediction, error) {
	out := make([]Prediction, 0, len(r.Locations))
	var errs []string
	status := 0
	for i, loc := range r.Locations {
		p, err := s.predictAt(loc, r, pay)
		if errors.Is(err, errPayRefused) {
			return nil, err
		}
		if err != nil {
			err = wrapField(err, fmt.Sprintf("locations[%d] (%s)", i, loc))
			if status == 0 {
				status = statusOf(err)
			}
			errs = append(errs, err.Error())
			p = Prediction{System: loc.System, Queue: loc.Queue, Cores: r.Cores, WallTime: r.WallTime,
				Quantile: r.Quantile, Confidence: r.Confidence, Within: r.Within, Error: err.Error()}
		}
		out = append(out, p)
	}
	if len(errs) == len(out) {
		return nil, &Error{Code: status, Message: strings.Join(errs, "; ")}
	}
	return out, nil
}

func wrapField(err error, prefix string) error {
	var he *Error
	if errors.As(err, &he) {
		return &Error{Code: he.Code, Message: prefix + ": " + he.Message, err: he.err}
	}
	return fmt.Errorf("%s: %w", prefix, err)
}

func (s *Service) predictAt(loc Location, r *PredictRequest, pay payFunc) (Prediction, error) {
	sys, err := s.lookup(loc.System)
	if err != nil {
		return Prediction{}, err
	}
	sys.mu.RLock()
	defer sys.mu.RUnlock()
	q := sys.queues[loc.Queue]
	if q == nil {
		return Prediction{}, notFound("queue: %q is not a queue of system %q", loc.Queue, loc.System)
	}
	if r.Cores > q.maxCores {
		return Prediction{}, badRequest("cores: %d exceeds queue %s's maximum %d", r.Cores, loc, q.maxCores)
	}
	if r.WallTime > q.maxWall {
		return Prediction{}, badRequest("wallTime: %s exceeds queue %s's maximum %s", hms(r.WallTime), loc, hms(q.maxWall))
	}
	now := s.clockOf(sys)
	ck := predKey{sys, sys.gen, now / 60, reqKey{queue: q.name, cores: r.Cores, wall: r.WallTime, q: r.Quantile, c: r.Confidence, within: r.Within, user: r.User, account: r.Account}}
	if p, ok := s.cache.get(ck); ok {
		return p, nil
	}
	p := Prediction{System: sys.name, Queue: q.name, Cores: r.Cores, WallTime: r.WallTime, Now: now,
		Quantile: r.Quantile, Confidence: r.Confidence, Within: r.Within}
	s.qbetsPart(&p, q)
	in := sys.feat.NotQueued(ibl.Job{Queue: q.name, Cores: r.Cores, ReqTime: r.WallTime}, now)
	p.IBL, p.IBLReason = estimateAt(sys, sys.notQueued, in, r.Confidence, now, "no job has started on this system yet")
	p.Slurm = q.slurm.forJob(r.Cores, r.WallTime, now)
	if err := sys.forecastHypothetical(&p, now, r.User, r.Account, pay); err != nil {
		return Prediction{}, err // not cached: it has no forecast for want of tokens
	}
	return s.cache.put(ck, p), nil
}

// qbetsPart fills p's QBETS bound, or the reason it has none, for a
// hypothetical job of p's shape submitted at p.Now at the level
// p asks for, and, when p.Within is asked, the probability of a wait of
// at most p.Within. That probability is 0 when the Forecast at the
// system's clock had no bound: ProbWithin judges availability at the
// last start it saw, which may be earlier than now, and the two answers
// should agree. The caller holds the system's lock.
func (s *Service) qbetsPart(p *Prediction, q *queue) {
	lv := Level{p.Quantile, p.Confidence}
	first := s.opt.Levels[0]
	if !slices.Contains(s.opt.Levels, lv) {
		p.QBETSReason = s.levelsReason(lv)
	} else {
		qf, cf := lv.fractions()
		if f := q.pred.Forecast(qbets.Request{Nodes: int(p.Cores), Walltime: p.WallTime, At: p.Now, Quantile: qf, Confidence: cf}); f.OK {
			p.QBETS = bound(f, p.Now)
		} else {
			p.QBETSReason = noBound(q, lv, f.Reason)
		}
	}
	if p.Within <= 0 {
		return
	}
	if p.Confidence != first.Confidence {
		p.ProbWithinReason = fmt.Sprintf("the probability of starting within a time is answered at %d%% confidence only (the first of the service's levels, %s)", first.Confidence, setting("Levels"))
		return
	}
	pw := 0.0
	if p.QBETS != nil {
		pw, _ = q.pred.ProbWithin(int(p.Cores), p.WallTime, p.Within)
	}
	p.ProbWithin = &pw
}

// levelsReason says why a pair the service does not answer has no
// QBETS bound: which pairs it answers, and who chooses them.
func (s *Service) levelsReason(lv Level) string {
	return fmt.Sprintf("no QBETS bound: the %d%% quantile at %d%% confidence is not among the quantile/confidence pairs this service answers, %s (%s)",
		lv.Quantile, lv.Confidence, levelList(s.opt.Levels), setting("Levels"))
}

// qbetsWaited fills p's QBETS part for a queued job that has waited
// p.Waited: the conditional bound on the rest of its wait and, when
// p.Within is asked, P(start within p.Within more | not started after
// p.Waited), at the pair asked for when it is one of Config.Levels, else
// (the probability only) at the first level if its confidence is the
// one asked. The caller holds the system's lock.
func (s *Service) qbetsWaited(p *Prediction, q *queue) {
	lv := Level{p.Quantile, p.Confidence}
	first := s.opt.Levels[0]
	at := lv
	if !slices.Contains(s.opt.Levels, lv) {
		p.QBETSReason = s.levelsReason(lv)
		if p.Within <= 0 {
			return
		}
		if p.Confidence != first.Confidence {
			p.ProbWithinReason = fmt.Sprintf("the probability of starting within a time is answered at the confidences of the service's levels only (%d%% for a pair not among them; %s)", first.Confidence, setting("Levels"))
			return
		}
		at = first
	}
	qf, cf := at.fractions()
	f, pw, pwOK := q.pred.ForecastWaited(qbets.Request{Nodes: int(p.Cores), Walltime: p.WallTime, At: p.Now, Quantile: qf, Confidence: cf}, p.Waited, p.Within)
	if at == lv {
		if f.OK {
			p.QBETS = bound(f, p.Now)
		} else {
			p.QBETSReason = noBoundWaited(q, lv, f, p.Waited)
		}
	}
	if p.Within <= 0 {
		return
	}
	switch {
	case pwOK:
		p.ProbWithin = &pw
	case f.Reason == qbets.MachineDown:
		p.ProbWithinReason = "availability inference marks the machine as possibly down"
	default:
		p.ProbWithinReason = fmt.Sprintf("no wait in queue %s's history is as long as this job's so far (%s)", q.name, hms(p.Waited))
	}
}

// noBoundWaited says why a queued job has no conditional bound.
func noBoundWaited(q *queue, lv Level, f qbets.Forecast, waited int64) string {
	if f.Reason == qbets.MachineDown || f.Reason == qbets.BadRequest {
		return noBound(q, lv, f.Reason)
	}
	qf, cf := lv.fractions()
	return fmt.Sprintf("no QBETS bound: %d waits in queue %s's history are at least as long as this job's so far (%s); the %d%% bound at %d%% confidence on the rest of its wait needs %d",
		f.History, q.name, hms(waited), lv.Quantile, lv.Confidence, qbets.Level{Quantile: qf, Confidence: cf}.MinHistory())
}

// noBound says why there is no bound; the waits counted are the ones the
// predictor has learned from.
func noBound(q *queue, lv Level, r qbets.Reason) string {
	if r == qbets.MachineDown {
		return "no QBETS bound: availability inference marks the machine as possibly down (no job has started for unusually long)"
	}
	qf, cf := lv.fractions()
	return fmt.Sprintf("no QBETS bound (%v): queue %s has %d observed waits, the %d%% bound at %d%% confidence needs %d",
		r, q.name, q.pred.Stats().Releases, lv.Quantile, lv.Confidence, qbets.Level{Quantile: qf, Confidence: cf}.MinHistory())
}

// estimateAt asks sys's base b; empty says why a base without
// experiences is empty (the queued-job base learns only from jobs a
// snapshot saw waiting). Any other error is the service's (failed).
func estimateAt(sys *system, b *ibl.Base, in []ibl.Value, level int, now int64, empty string) (*EstimatePart, string) {
	pr, err := b.Predict(in, level)
	if err != nil {
		if errors.Is(err, ibl.ErrEmpty) {
			return nil, "no IBL estimate: " + empty
		}
		return nil, sys.failed("no IBL estimate", err)
	}
	half := pr.HalfWidth
	// The library reports +Inf when the spread is undefined (one
	// neighbour: an interval of ±0 would promise certainty), as Karnak
	// did (§4.4 [S]).
	if math.IsInf(half, 1) {
		half = -1 // JSON has no infinity; -1 means "unbounded"
	}
	return newEstimate(pr.Wait, half, pr.Neighbors, now), ""
}

// PredictJob answers kwait / kstart for a waiting job.
func (s *Service) PredictJob(system string, id int64, quantile, confidence int, within int64) (Prediction, error) {
	switch {
	case id < 0:
		return Prediction{}, badRequest("jobId: %d, want a job id ≥ 0", id)
	case within < 0 || within > maxSpan:
		return Prediction{}, badRequest("within: %d s, want 0 to %d s", within, int64(maxSpan))
	}
	if err := checkLevels(quantile, confidence); err != nil {
		return Prediction{}, badRequest("%v", err)
	}
	sys, err := s.lookup(system)
	if err != nil {
		return Prediction{}, err
	}
	sys.mu.RLock()
	defer sys.mu.RUnlock()
	j := sys.jobs[id]
	if j == nil || j.start >= 0 {
		return Prediction{}, notFound("jobId: %d is not waiting on system %q", id, system)
	}
	q := sys.queues[j.Queue]
	now := s.clockOf(sys)
	ck := predKey{sys, sys.gen, now / 60, reqKey{job: id, queued: true, q: quantile, c: confidence, within: within}}
	if p, ok := s.cache.get(ck); ok {
		return p, nil
	}
	jid := id
	p := Prediction{System: sys.name, Queue: q.name, Job: &jid, Submit: j.Submit, Cores: j.Cores, WallTime: j.ReqTime,
		Now: now, Quantile: quantile, Confidence: confidence, Within: within, Conditional: true, Waited: max(now-j.Submit, 0)}
	s.qbetsWaited(&p, q)
	if in, ok := sys.feat.Queued(id, now); ok {
		p.IBL, p.IBLReason = estimateAt(sys, sys.queued, in, confidence, now, "no job seen waiting at a 5-minute snapshot has started yet")
	}
	p.Slurm = slurmOfJob(j, now)
	sys.forecastJob(&p, j, now)
	return s.cache.put(ck, p), nil
}
