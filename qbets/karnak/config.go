package karnak

import (
	"fmt"
	"log"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/ibl"
)

// Config is the service's settings; the zero value is the default
// service. New validates it (Validate) and fills in the defaults.
type Config struct {
	// Now is the service's wall clock in Unix seconds: "now" for live
	// systems and the reference of MaxSkew; nil means time.Now. Its
	// values are clamped to the events' range, 0 to 2^40.
	Now func() int64
	// NoCache computes every prediction (no per-state, per-minute cache).
	NoCache bool

	// Bounds on what clients may store (0 means the default shown).
	//
	// MaxSkew: how far an event's time may be ahead of Now, seconds
	// (300: clocks a few minutes apart; an event further ahead is refused).
	// MaxBackstep: how far an event may go back before its system's last
	// event, seconds; such an event is stored and applied at the last
	// event's time, and counted (/karnak/stats). The default is MaxSkew:
	// one event ahead of its time by at most MaxSkew (a feed's clock
	// running fast) then never locks its system's real events out, nor
	// needs a repair; < 0: events must arrive in time order. MaxSystems
	// (256), MaxQueues per system (64) and MaxLiveJobs, the jobs submitted
	// and not ended per system (262,144): every system full must fit in
	// 1 TiB (19.9 MiB a system, 80 KiB a queue, 1.5 KiB a live job;
	// 102 GiB at the defaults), or Validate refuses them.
	MaxSkew, MaxBackstep               int64
	MaxSystems, MaxQueues, MaxLiveJobs int

	// Tokens, when any is given, are required on the write path: an
	// event batch needs a token scoped to each of its systems, the
	// repair operations (Drop, Rewind) an admin token. Without tokens
	// the handler takes event batches from loopback clients only (a
	// request forwarded by a proxy is not one) and repairs from nobody:
	// closed by default. examples/qserve makes a write and an admin token
	// at its first start.
	Tokens []Token
	// Rate limits each client to Rate requests per second with bursts of
	// Burst, answering 429 with Retry-After; a hypothetical job's
	// prediction counts as one request per location, and its forecast's
	// simulation, when it runs one, one more per 100 jobs it simulates
	// (the burst at most, in each case).
	// 0 means 100 a second with bursts of 1,000 (a browser asks for a page, its stylesheet and its
	// icon; a feed's poll may ask about a thousand waiting jobs at once);
	// < 0: no limit. Burst 0 means max(2·Rate, 1,000 when Rate is the
	// default).
	Rate  float64
	Burst int
	// TrustedProxies are the addresses or prefixes (such as 10.0.0.0/8)
	// of the reverse proxies in front of the handler. A request from one
	// is the client's that ClientHeader names (default X-Forwarded-For;
	// or X-Real-IP), for the rate limit; from any other peer that header
	// is ignored, since a client may write it. A request from a trusted
	// proxy is never loopback's (Tokens), whatever client it names, and
	// one whose proxy names none (no header, or not an address) is an
	// unknown client's: so a proxy on loopback named here takes loopback
	// writes away from every peer at its address (without tokens, feed
	// from another loopback address, such as ::1).
	TrustedProxies []string
	ClientHeader   string

	// Levels are the QBETS (quantile, confidence) pairs, in percent, that
	// predictions answer: each queue has one QBETS predictor (package
	// qbets) fed once and answering every pair (qbets.Config.Levels). A
	// request for another pair gets the IBL estimate and no QBETS bound,
	// with the reason. The probability of starting within a time
	// (PredictRequest.Within) is answered at the first pair's confidence
	// only (qbets.Predictor.ProbWithin). nil means DefaultLevels.
	Levels []Level
	// History bounds what a queue's QBETS predictor remembers: it
	// forgets the oldest started jobs once it holds more than about
	// History of them (qbets.Config.MaxHistory: History to 9/8·History).
	// 0 means 2^19.
	History int
	// Neighbors is the IBL neighbour count N per system, both experience
	// bases; the key "" applies to every system not named. A system in
	// neither gets ibl.DefaultN (Karnak's 56).
	Neighbors map[string]int
	// MaxForecastJobs bounds the forward-simulation forecast
	// (forecast.go): a system with more live jobs (running and waiting)
	// gets no forecast, and the reason, so that no request costs more
	// than one simulation of that many jobs per system it names while the
	// system's state and clock stand (one per location at most). 0 means 2,000 (7–10 ms a
	// simulation); < 0 turns the forecast off.
	MaxForecastJobs int
	// PruneEvery is the number of stored events between two prunings of
	// the store (retain.go); 0 means 10,000, < 0 never prunes.
	PruneEvery int
	// Logf reports what the service does in the background (prunings and
	// their errors); nil means log.Printf.
	Logf func(format string, a ...any)

	baseSize int // IBL experience-base capacity; 0 = ibl.DefaultMaxSize (tests shrink it)
	// ignore names one bound on the cut that retainFrom leaves out, for
	// the test that shows each is needed; "" in the service.
	ignore string
	// eager prunes every PruneEvery events, however many the last
	// pruning read (tests: more prunings, more chances to go wrong).
	eager bool
}

const defaultPruneEvery = 10000

// What MaxSystems, MaxQueues and MaxLiveJobs let the feeds make the
// service hold, at worst (every system with its queues and live jobs,
// its IBL bases full), must fit in maxLimitsBytes: more than one
// server's memory is a setting no service can honour, and nothing else
// bounds it (the limits are counts, checked as events arrive; nothing
// is allocated for them up front). The costs are upper bounds of what
// TestLimitCosts measures: a system 300 KB empty and 19.9 MiB with its
// two IBL bases full (ibl.DefaultMaxSize experiences each, about 0.9 KB
// an experience with the history of the job that made it); a queue
// 70 KB (its QBETS predictor and statistics); a waiting job 1 KB.
// The queues' QBETS histories grow with the jobs that started, up to
// Config.History each, and are not counted. The defaults, 256 systems
// of 64 queues and 262,144 live jobs, come to 102 GiB
// (TestLimitsBounded).
const (
	systemBytes      = emptySystemBytes + 2*ibl.DefaultMaxSize*experienceBytes
	emptySystemBytes = 352 << 10
	experienceBytes  = 1024
	queueBytes       = 80 << 10
	liveJobBytes     = 1536
	maxLimitsBytes   = 1 << 40 // 1 TiB
)

// limitsBytes is the memory of systems systems of queues queues and
// live live jobs each, at the costs above (float64: the product of
// three ints may not fit an int).
func limitsBytes(systems, queues, live int) float64 {
	return float64(systems) * (systemBytes + float64(queues)*queueBytes + float64(live)*liveJobBytes)
}

// bytesText is b in the largest binary unit under which it is ≥ 1.
func bytesText(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for ; b >= 1024 && i < len(units)-1; i++ {
		b /= 1024
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	return fmt.Sprintf("%.3g %s", b, units[i])
}

// Defaults of the clock skew and the rate limit (Config).
const (
	defaultSkew  = 300
	defaultRate  = 100
	defaultBurst = 1000
)

// Validate reports the first bad setting, naming it.
func (o Config) Validate() error {
	_, err := o.withDefaults()
	return err
}

// withDefaults validates o and fills in the defaults; errors name the
// setting (its serve flag).
func (o Config) withDefaults() (Config, error) {
	// Bounded above too: QBETS trims at History + History/8, which
	// wrapped negative near the int limit (-history 9223372036854775807
	// was accepted).
	if o.History < 0 || o.History > maxHistoryLimit {
		return o, fmt.Errorf("karnak: history: %d, want 1–%d started jobs per queue (0 = %d)", o.History, maxHistoryLimit, maxHistory)
	}
	if o.History == 0 {
		o.History = maxHistory
	}
	if o.Levels == nil {
		o.Levels = DefaultLevels()
	}
	if len(o.Levels) == 0 || len(o.Levels) > maxLevels {
		return o, fmt.Errorf("karnak: levels: %d quantile/confidence pairs, want 1–%d", len(o.Levels), maxLevels)
	}
	o.Levels = slices.Clone(o.Levels)
	for i, l := range o.Levels {
		if err := checkLevels(l.Quantile, l.Confidence); err != nil {
			return o, fmt.Errorf("karnak: levels[%d].%v", i, err)
		}
		if slices.Index(o.Levels, l) < i {
			return o, fmt.Errorf("karnak: levels[%d]: %d/%d is given twice", i, l.Quantile, l.Confidence)
		}
	}
	if _, err := qbets.New(qbetsConfig(&o)); err != nil {
		return o, fmt.Errorf("karnak: history: %d: %v", o.History, err)
	}
	if o.PruneEvery == 0 {
		o.PruneEvery = defaultPruneEvery
	}
	switch {
	case o.MaxForecastJobs == 0:
		o.MaxForecastJobs = defaultForecastJobs
	case o.MaxForecastJobs > maxForecastJobs:
		return o, fmt.Errorf("karnak: MaxForecastJobs: %d, want at most %d (< 0: no forecast)", o.MaxForecastJobs, maxForecastJobs)
	}
	if o.baseSize == 0 {
		o.baseSize = ibl.DefaultMaxSize
	}
	if o.Logf == nil {
		o.Logf = log.Printf
	}
	if o.Now == nil {
		o.Now = func() int64 { return time.Now().Unix() }
	}
	for _, d := range []struct {
		name string
		v    *int64
		def  int64
	}{{"MaxSkew", &o.MaxSkew, defaultSkew}, {"MaxBackstep", &o.MaxBackstep, 0}} {
		if *d.v > maxSpan || *d.v < 0 && d.name == "MaxSkew" {
			return o, fmt.Errorf("karnak: %s: %d, want 0–%d seconds", d.name, *d.v, int64(maxSpan))
		}
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	switch {
	case o.MaxBackstep == 0: // the default (not a sentinel a caller could also write)
		o.MaxBackstep = o.MaxSkew
	case o.MaxBackstep < 0: // strict time order, -1 included
		o.MaxBackstep = 0
	}
	for _, d := range []struct {
		name string
		v    *int
		def  int
	}{{"MaxSystems", &o.MaxSystems, 256}, {"MaxQueues", &o.MaxQueues, 64}, {"MaxLiveJobs", &o.MaxLiveJobs, 1 << 18}} {
		if *d.v < 0 {
			return o, fmt.Errorf("karnak: %s: %d, want ≥ 0", d.name, *d.v)
		}
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	if b := limitsBytes(o.MaxSystems, o.MaxQueues, o.MaxLiveJobs); b > maxLimitsBytes {
		return o, fmt.Errorf("karnak: MaxSystems %d, MaxQueues %d and MaxLiveJobs %d: every system full would hold %s, more than %s (about %s a system, %s a queue, %s a live job): lower one",
			o.MaxSystems, o.MaxQueues, o.MaxLiveJobs, bytesText(b), bytesText(maxLimitsBytes), bytesText(systemBytes), bytesText(queueBytes), bytesText(liveJobBytes))
	}
	if math.IsNaN(o.Rate) || math.IsInf(o.Rate, 0) || o.Burst < 0 || o.Burst > 1<<30 {
		return o, fmt.Errorf("karnak: Rate %v and Burst %d, want a finite rate (< 0: no limit) and a burst in 0–2^30", o.Rate, o.Burst)
	}
	if o.Rate == 0 {
		o.Rate = defaultRate
		if o.Burst == 0 {
			o.Burst = defaultBurst
		}
	}
	if o.Rate > 0 && o.Burst == 0 {
		o.Burst = int(min(max(2*o.Rate, 1), 1<<30))
	}
	if _, err := parseProxies(o.TrustedProxies); err != nil {
		return o, err
	}
	switch h := http.CanonicalHeaderKey(o.ClientHeader); {
	case len(o.TrustedProxies) == 0 && h != "":
		return o, fmt.Errorf("karnak: ClientHeader: %q without TrustedProxies: any client may write it", o.ClientHeader)
	case len(o.TrustedProxies) > 0 && h == "":
		o.ClientHeader = "X-Forwarded-For"
	case h != "" && h != "X-Forwarded-For" && h != "X-Real-Ip":
		return o, fmt.Errorf("karnak: ClientHeader: %q, want X-Forwarded-For or X-Real-IP", o.ClientHeader)
	}
	secrets := map[string]bool{}
	for i, tk := range o.Tokens {
		if secrets[tk.Secret] {
			return o, fmt.Errorf("karnak: Tokens[%d].Secret: the secret of an earlier token", i)
		}
		secrets[tk.Secret] = true
		if len(tk.Secret) < 16 {
			return o, fmt.Errorf("karnak: Tokens[%d].Secret: %d bytes, want at least 16", i, len(tk.Secret))
		}
		for _, sys := range tk.Systems {
			if sys != "*" && !validName(sys) {
				return o, fmt.Errorf("karnak: Tokens[%d].Systems: %q is not a system name (or *)", i, sys)
			}
		}
	}
	names := make([]string, 0, len(o.Neighbors))
	for name := range o.Neighbors {
		names = append(names, name)
	}
	slices.Sort(names) // the first bad one, deterministically
	for _, name := range names {
		if err := checkNeighbors(name, o.Neighbors[name], o.baseSize); err != nil {
			return o, err
		}
	}
	return o, nil
}

// checkNeighbors validates one neighbour count: at least 1, and at most
// the experience base's capacity (beyond it every estimate would average
// the whole base).
func checkNeighbors(system string, n, baseSize int) error {
	field := "neighbors"
	if system != "" {
		if !validName(system) {
			return fmt.Errorf("karnak: neighbors: %q is not a system name", system)
		}
		field = "neighbors[" + system + "]"
	}
	if n < 1 || n > baseSize {
		return fmt.Errorf("karnak: %s: %d, want a neighbour count in 1–%d (the experience base's size)", field, n, baseSize)
	}
	return nil
}

// neighborsFor is the IBL neighbour count of a system.
func (o *Config) neighborsFor(system string) int {
	if n, ok := o.Neighbors[system]; ok {
		return n
	}
	if n, ok := o.Neighbors[""]; ok {
		return n
	}
	return ibl.DefaultN
}

// Level is a QBETS (quantile, confidence) pair in percent: quantile in
// 1–99, confidence in 10–95 (the ranges of a request).
type Level struct{ Quantile, Confidence int }

func (l Level) String() string { return fmt.Sprintf("%d/%d", l.Quantile, l.Confidence) }

// DefaultLevels are the pairs answered by default: the default request's
// 95% quantile at 90% confidence first, then the 50%, 75%, 90% and 95%
// quantiles at 90% and 95% confidence. Each pair keeps its own trimmed
// histories: feeding a queue's predictor with these 8 pairs costs about
// 4× one pair (100,000 synthetic jobs: 9.0 µs a job against 2.1 µs).
func DefaultLevels() []Level {
	return []Level{{95, 90}, {50, 90}, {75, 90}, {90, 90}, {50, 95}, {75, 95}, {90, 95}, {95, 95}}
}

// maxLevels bounds Config.Levels: each pair costs feed time and memory
// in every queue.
const maxLevels = 32

// maxHistory is the default Config.History: a service that runs for
// years must not keep every job it has seen. 2^19 jobs (up to 9/8 of it
// held) is years of a busy queue.
const maxHistory = 1 << 19

// maxHistoryLimit bounds Config.History (2^30 jobs a queue, some GB).
const maxHistoryLimit = 1 << 30

// qbetsConfig is the configuration of every queue's QBETS predictor
// under o (with its defaults): full QBETS at o's levels, the first one
// primary, remembering o.History started jobs.
func qbetsConfig(o *Config) qbets.Config {
	c := qbets.Config{MaxHistory: o.History}
	for i, l := range o.Levels {
		q, conf := l.fractions()
		if i == 0 {
			c.Quantile, c.Confidence = q, conf
		} else {
			c.Levels = append(c.Levels, qbets.Level{Quantile: q, Confidence: conf})
		}
	}
	return c
}

// fractions is the pair as qbets takes it; every caller converts the
// same way, so a request's pair compares equal to the configured one.
func (l Level) fractions() (q, c float64) {
	return float64(l.Quantile) / 100, float64(l.Confidence) / 100
}
