package synth

import (
	"math"
	"math/rand/v2"

	"github.com/batchq/batchq/swf"
)

const (
	buckets         = 48
	bucketSeconds   = 1800
	maxLogRuntime   = 12 // TOO_MUCH_TIME
	maxLogInterval  = 13 // TOO_MUCH_ARRIVE_TIME
	cyclicDayStart  = 11
	maxRuntime      = 162754 // floor(e^12), the longest run time the model produces
	interactiveType = 0
	batchType       = 1
)

// maxRejects ends a rejection loop: Validate keeps at least 1/1,000 of
// the mass below the limit (65,536 rejections in a row: e^−65), and
// Jöhnk's step accepts more than π/4 of its pairs (100 rejections: below
// 10^−65), so only a broken Config.Source (one that repeats a value) gets
// there, and gets the limit instead of a hang.
const (
	maxRejects      = 1 << 16
	maxJohnkRejects = 100
)

// stream is the arrival state of one job type (§3.4).
type stream struct {
	p       TypeParams
	aarr    float64
	w       [buckets]float64
	clock   float64 // seconds since time 0 (floating: no §9 drift)
	bucket  int
	points  float64
	remain  float64
	stopped bool // typeless mode: the batch stream never fires
}

// Generator produces jobs of the model one at a time.
type Generator struct {
	cfg     Config
	rng     *rand.Rand
	s       [2]stream
	machine int64
	pow2Cap int64
	scale   float64
	next    int64
	// ShortEstimates counts jobs the Config.Estimator gave an estimate
	// below their run time.
	ShortEstimates int
}

// New returns a Generator for cfg.
func New(cfg Config) (*Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var src rand.Source = rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)
	if cfg.Drand48 {
		src = newDrand48(int64(cfg.Seed))
	}
	if cfg.Source != nil {
		src = cfg.Source
	}
	g := &Generator{cfg: cfg, rng: rand.New(src), machine: cfg.machine()}
	g.pow2Cap = int64(1) << uint(math.Floor(math.Log2(float64(g.machine))))
	params := cfg.params()
	g.scale = 1
	if cfg.ArrivalShapeScale > 0 {
		g.scale = cfg.ArrivalShapeScale
	}
	if cfg.TargetLoad > 0 {
		k, err := shapeScaleForLoad(params, cfg.Typeless, g.machine, cfg.TargetLoad)
		if err != nil {
			return nil, err
		}
		g.scale = k
	}
	for t := range g.s {
		s := &g.s[t]
		s.p = params[t]
		s.aarr = s.p.AArr * s.p.ARAR * g.scale
		s.w = cycleWeights(s.p.ANum, s.p.BNum)
		s.bucket = 2 * cfg.StartHour
	}
	// The reference advances batch, then interactive, before the first job
	// (§5 step 5); in typeless mode the batch stream is then switched off.
	g.advance(&g.s[batchType])
	g.advance(&g.s[interactiveType])
	g.s[batchType].stopped = cfg.Typeless
	return g, nil
}

// ShapeScale is the factor applied to the arrival gamma shape of every type.
func (g *Generator) ShapeScale() float64 { return g.scale }

// cycleWeights are the 48 half-hour weights of §3.4, normalised to mean 1.
func cycleWeights(anum, bnum float64) [buckets]float64 {
	var w [buckets]float64
	var sum float64
	for i := cyclicDayStart; i < cyclicDayStart+buckets; i++ {
		k := (i - 1) % buckets
		w[k] = gammaCDF(float64(i)+0.5, anum, bnum) - gammaCDF(float64(i)-0.5, anum, bnum)
		sum += w[k]
	}
	for k := range w {
		w[k] *= buckets / sum
	}
	return w
}

// advance moves a stream's clock to its next arrival: a gap of e^G seconds
// of weighted time, spent at the rate of the buckets it crosses.
func (g *Generator) advance(s *stream) {
	var lg float64
	for try := 0; ; try++ {
		lg = gammaRand(g.rng, s.aarr, s.p.BArr)
		if lg <= maxLogInterval {
			break
		}
		if try == maxRejects { // a Source that never draws a short gap
			lg = maxLogInterval
			break
		}
	}
	s.points += math.Exp(lg) / bucketSeconds
	var delta float64
	b := s.bucket
	for s.points > s.w[b] {
		s.points -= s.w[b]
		b = (b + 1) % buckets
		delta += bucketSeconds
	}
	r := s.points / s.w[b]
	delta += bucketSeconds * (r - s.remain)
	s.remain = r
	s.bucket = b
	s.clock += delta
	if g.cfg.CompatClock {
		s.clock = math.Trunc(s.clock)
	}
}

// size draws a job size (§3.2), capped at the machine (§7 safety net).
func (g *Generator) size(p *TypeParams) int64 {
	u := g.rng.Float64()
	if u <= p.SerialProb {
		return 1
	}
	lo, hi := p.UMed, p.UHi
	if g.rng.Float64() <= p.UProb {
		lo, hi = p.ULow, p.UMed
	}
	par := lo + g.rng.Float64()*(hi-lo)
	// Capped as floats, before the conversion: a user's UHi may give
	// sizes beyond int64.
	if u <= p.SerialProb+p.Pow2Prob {
		return int64(min(math.Floor(math.Pow(2, math.Floor(par+0.5))+0.5), float64(g.pow2Cap)))
	}
	return int64(min(math.Floor(math.Pow(2, par)+0.5), float64(g.machine)))
}

// runtime draws a run time for a job of n nodes (§3.3).
func (g *Generator) runtime(p *TypeParams, n int64) int64 {
	prob := min(max(p.PA*float64(n)+p.PB, 0), 1)
	for try := 0; ; try++ {
		var h float64
		if g.rng.Float64() <= prob {
			h = gammaRand(g.rng, p.A1, p.B1)
		} else {
			h = gammaRand(g.rng, p.A2, p.B2)
		}
		if h <= maxLogRuntime {
			return int64(math.Floor(math.Exp(h)))
		}
		if try == maxRejects { // a Source that never draws a short run time
			return maxRuntime
		}
	}
}

// Next returns the next job in submit order. Fields the model does not
// define are swf.Unknown; status is completed; field 15 is the type.
func (g *Generator) Next() swf.Job {
	t := interactiveType
	if !g.s[batchType].stopped && g.s[batchType].clock < g.s[interactiveType].clock {
		t = batchType
	}
	s := &g.s[t]
	submit := int64(math.Floor(s.clock))
	g.advance(s)
	n := g.size(&s.p)
	r := g.runtime(&s.p, n)
	g.next++
	u := int64(swf.Unknown)
	return swf.Job{ID: g.next, Submit: submit, Wait: u, RunTime: r, AllocProcs: n,
		AvgCPUTime: swf.Unknown, UsedMemory: swf.Unknown, ReqProcs: u, ReqTime: u, ReqMemory: swf.Unknown,
		Status: swf.StatusCompleted, User: u, Group: u, Executable: u, Queue: int64(t),
		Partition: u, PrecedingJob: u, ThinkTime: u}
}
