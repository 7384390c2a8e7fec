package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/batchq/batchq/estmodel/rangeset"
	"github.com/batchq/batchq/swf"
)

// Tables VI and VII: execution-time range sets (success rate, coverage)
// and point predictions (AAE), ours against the same-key [min, max]
// baseline and the Smith and Li comparators (spec §6, H19–H21).

func init() {
	tables["VI"] = table6
	tables["VII"] = table7
}

// paperVI: baseline SR, Smith SR, Smith C, Li SR, Li C, ours SR, ours C.
var paperVI = map[string][7]float64{
	"CEA Curie":    {88, 58, 218, 62, 206, 72, 23},
	"SDSC Blue":    {85, 67, 326, 71, 302, 83, 14},
	"SDSC Paragon": {89, 70, 145, 75, 113, 78, 8},
	"SDSC SP2":     {79, 69, 339, 76, 213, 81, 26},
}

// paperVII: point AAE in minutes, Smith, Li, ours.
var paperVII = map[string][3]float64{
	"CEA Curie":    {66, 76, 116},
	"SDSC Blue":    {44, 48, 41},
	"SDSC Paragon": {41, 58, 36},
	"SDSC SP2":     {56, 69, 43},
}

// The exec-time splits of §V (H21): load functions from jobs #15000–19999,
// history from job #5000 on, tests from #20001 on.
const (
	rsValFrom, rsValTo = 14999, 19999
	rsHistFrom         = 4999
	rsTestFrom         = 20000
)

// rsRun is the outcome of the exec-time evaluation on one trace; it is
// computed once and shared by Tables VI and VII.
type rsRun struct {
	from, to, tested int // test range and jobs with a same-key history
	noHist           int
	sr               [4]float64 // baseline, Smith, Li, ours: success counts
	cov              [4]float64 // coverage ratios summed over covN jobs
	covN             int
	aae              [3]float64 // Smith, Li, ours: Σ|error| (s)
	ranges           float64    // Σ ranges per set
	covTot           [4]float64 // Σ range lengths over covN jobs (baseline in [0])
	covAll           [4][]float64
	fs               []rangeset.LoadFunc // the load functions learned
	ratioSR          float64             // the RatioShift variant (not in the paper)
	ratioCov         []float64
	elapsed          time.Duration
}

var rsCache = map[*trace]*rsRun{}

// rsConfig is the range-set configuration of the tables (the paper's).
var rsConfig = rangeset.Config{}

func rsFor(e *env, tr *trace) (*rsRun, error) {
	if r := rsCache[tr]; r != nil {
		return r, nil
	}
	t0 := time.Now()
	r, err := runRangeEval(e, tr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.File, err)
	}
	r.elapsed = time.Since(t0)
	fmt.Fprintf(e.Log, "%s: range sets for %d jobs in %v\n", tr.File, r.tested, r.elapsed.Round(time.Millisecond))
	rsCache[tr] = r
	return r, nil
}

func table6(w io.Writer, e *env) error {
	fmt.Fprintln(w, "Execution-time ranges on the test jobs (#20001 on; fewer with -quick or short logs). Each cell: ours (paper).")
	fmt.Fprintln(w, "SR = % of jobs whose runtime falls in the predicted range(s); C = range length as % of the baseline [min, max] of same-key history runtimes.")
	fmt.Fprintln(w, "Smith and Li are point predictors turned into ranges of length = their AAE on the key's history, centred on their prediction (H19).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | test jobs | baseline SR | Smith SR | Smith C | Li SR | Li C | ours SR | ours C |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	var runs []*rsRun
	for _, tr := range e.Traces {
		r, err := rsFor(e, tr)
		if err != nil {
			return err
		}
		runs = append(runs, r)
		p := paperVI[tr.Name]
		n := float64(max(r.tested, 1))
		cn := float64(max(r.covN, 1))
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", tr.Name, r.tested,
			rsCell(100*r.sr[0]/n, p[0]), rsCell(100*r.sr[1]/n, p[1]), rsCell(100*r.cov[1]/cn, p[2]),
			rsCell(100*r.sr[2]/n, p[3]), rsCell(100*r.cov[2]/cn, p[4]),
			rsCell(100*r.sr[3]/n, p[5]), rsCell(100*r.cov[3]/cn, p[6]))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | test range | load functions | jobs without same-key history (skipped) | jobs with a nonzero baseline (C averaged over) | mean ranges per set |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for i, r := range runs {
		fmt.Fprintf(w, "| %s | #%d–%d | %d | %d | %d | %.1f |\n", e.Traces[i].Name, r.from+1, r.to, len(r.fs), r.noHist, r.covN,
			r.ranges/float64(max(r.tested, 1)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Coverage two other ways (the per-job mean above is dominated by keys whose baseline is a few seconds wide): median per-job ratio, and total length / total baseline length, in %, Smith / Li / ours.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The last two columns are a variant that is NOT the paper's: load functions applied as a ratio, e_h·f(L̂)/f(L_h), instead of the paper's additive shift.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | median C | ratio of totals C | ratio-shift SR | ratio-shift median C |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for i, r := range runs {
		b := max(r.covTot[0], 1e-9)
		fmt.Fprintf(w, "| %s | %s / %s / %s | %.1f / %.1f / %.1f | %.1f | %s |\n", e.Traces[i].Name,
			medianPct(r.covAll[1]), medianPct(r.covAll[2]), medianPct(r.covAll[3]),
			100*r.covTot[1]/b, 100*r.covTot[2]/b, 100*r.covTot[3]/b,
			100*r.ratioSR/float64(max(r.tested, 1)), medianPct(r.ratioCov))
		fmt.Fprintf(e.Log, "%s load functions: %v\n", e.Traces[i].Name, r.fs)
	}
	return nil
}

func table7(w io.Writer, e *env) error {
	fmt.Fprintln(w, "Execution-time point predictions: AAE in minutes on the same test jobs as Table VI. Each cell: ours (paper).")
	fmt.Fprintln(w, "Ours is the range set's Σ p·median (§3.7).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | test jobs | Smith | Li | ours |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, tr := range e.Traces {
		r, err := rsFor(e, tr)
		if err != nil {
			return err
		}
		p := paperVII[tr.Name]
		n := 60 * float64(max(r.tested, 1))
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", tr.Name, r.tested, rsCell(r.aae[0]/n, p[0]), rsCell(r.aae[1]/n, p[1]), rsCell(r.aae[2]/n, p[2]))
	}
	return nil
}

func rsCell(ours, paper float64) string { return fmt.Sprintf("%.1f (%.0f)", ours, paper) }

func execOf(j *swf.Job) rangeset.Execution {
	s := j.Submit + j.Wait
	return rangeset.Execution{Start: s, End: s + j.RunTime, Procs: j.Size()}
}

// traceProfile is the load profile of the trace's own schedule.
func traceProfile(tr *trace) (*rangeset.LoadProfile, error) {
	ex := make([]rangeset.Execution, len(tr.Jobs))
	for i := range tr.Jobs {
		ex[i] = execOf(&tr.Jobs[i])
	}
	return rangeset.NewLoadProfile(tr.Procs, ex)
}

// loadSamples are the jobs [from, to) as load-function training samples.
func loadSamples(tr *trace, prof *rangeset.LoadProfile, from, to int) []rangeset.LoadSample {
	var ss []rangeset.LoadSample
	for i := from; i < min(to, len(tr.Jobs)); i++ {
		j := &tr.Jobs[i]
		ss = append(ss, rangeset.LoadSample{Key: rangeset.KeyOf(j), Runtime: float64(j.RunTime), Load: prof.JobLoad(execOf(j))})
	}
	return ss
}

// rsSplits scales the paper's splits down for short logs or quick runs.
func rsSplits(n int, quick bool) (valFrom, valTo, histFrom, testFrom, testTo int) {
	valFrom, valTo, histFrom, testFrom, testTo = rsValFrom, rsValTo, rsHistFrom, rsTestFrom, n
	if n < rsTestFrom+5000 { // too short: same proportions over n
		f := float64(n) / float64(rsTestFrom+5000)
		valFrom, valTo, histFrom, testFrom = int(float64(rsValFrom)*f), int(float64(rsValTo)*f), int(float64(rsHistFrom)*f), int(float64(rsTestFrom)*f)
	}
	if quick {
		testTo = min(testTo, testFrom+3000)
	}
	return
}

// runRangeEval replays the trace causally: a test job submitted at T is
// predicted from the jobs (from #5000 on) that ended by T, at the load
// predicted from the week before T.
func runRangeEval(e *env, tr *trace) (*rsRun, error) {
	valFrom, valTo, histFrom, testFrom, testTo := rsSplits(len(tr.Jobs), e.Quick)
	if testTo <= testFrom {
		return nil, fmt.Errorf("only %d jobs, too few for the exec-time splits", len(tr.Jobs))
	}
	prof, err := traceProfile(tr)
	if err != nil {
		return nil, err
	}
	funcs, err := rangeset.BuildLoadFuncs(loadSamples(tr, prof, valFrom, valTo), rangeset.LoadFuncConfig{})
	if err != nil {
		return nil, err
	}
	r := &rsRun{from: testFrom, to: testTo, fs: funcs}
	hist := new(rangeset.History)
	pred := &rangeset.Predictor{Funcs: funcs, History: hist, Config: rsConfig}
	ratioCfg := rsConfig
	ratioCfg.RatioShift = true
	ratio := &rangeset.Predictor{Funcs: funcs, History: hist, Config: ratioCfg}
	smith := newSmith()
	li := newLi(tr.Jobs[histFrom:testTo])
	// Per key, the absolute errors of the comparators' predictions for
	// the key's finished jobs (their AAE sets the range length).
	type keyErr struct{ smith, li float64 }
	errs := map[rangeset.Key]*struct {
		n   int
		sum keyErr
	}{}
	type guess struct{ smith, li float64 }
	guesses := map[int]guess{} // job index → comparators' predictions
	// Jobs from histFrom on, by end time, join the history when they end.
	byEnd := make([]int, 0, testTo-histFrom)
	for i := histFrom; i < testTo; i++ {
		byEnd = append(byEnd, i)
	}
	end := func(i int) int64 { return tr.Jobs[i].Submit + tr.Jobs[i].Wait + tr.Jobs[i].RunTime }
	slices.SortStableFunc(byEnd, func(a, b int) int { return cmp.Compare(end(a), end(b)) })
	next := 0
	for i := histFrom; i < testTo; i++ {
		j := &tr.Jobs[i]
		T := j.Submit
		for ; next < len(byEnd) && end(byEnd[next]) <= T; next++ {
			h := &tr.Jobs[byEnd[next]]
			k := rangeset.KeyOf(h)
			if err := hist.Add(rangeset.LoadSample{Key: k, Runtime: float64(h.RunTime), Load: prof.JobLoad(execOf(h))}); err != nil {
				return nil, err
			}
			if g, ok := guesses[byEnd[next]]; ok {
				ke := errs[k]
				if ke == nil {
					ke = &struct {
						n   int
						sum keyErr
					}{}
					errs[k] = ke
				}
				ke.n++
				ke.sum.smith += math.Abs(g.smith - float64(h.RunTime))
				ke.sum.li += math.Abs(g.li - float64(h.RunTime))
				delete(guesses, byEnd[next])
			}
			smith.add(h)
			li.add(byEnd[next] - histFrom)
		}
		k := rangeset.KeyOf(j)
		g := guess{smith.predict(j), li.predict(j)}
		guesses[i] = g
		if i < testFrom {
			continue
		}
		lo, hi, ok := hist.Span(k)
		if !ok {
			r.noHist++
			continue
		}
		load := prof.PredictedLoad(T, rangeset.LoadWindow{})
		rs, _, err := pred.Predict(k, load)
		if err != nil {
			return nil, err
		}
		rr, _, err := ratio.Predict(k, load)
		if err != nil {
			return nil, err
		}
		x := float64(j.RunTime)
		if rr.Contains(x) {
			r.ratioSR++
		}
		if hi > lo {
			r.ratioCov = append(r.ratioCov, rr.Coverage()/(hi-lo))
		}
		r.tested++
		r.ranges += float64(len(rs))
		if x >= lo && x <= hi {
			r.sr[0]++
		}
		var aS, aL float64
		if ke := errs[k]; ke != nil {
			aS, aL = ke.sum.smith/float64(ke.n), ke.sum.li/float64(ke.n)
		}
		if math.Abs(x-g.smith) <= aS/2 {
			r.sr[1]++
		}
		if math.Abs(x-g.li) <= aL/2 {
			r.sr[2]++
		}
		if rs.Contains(x) {
			r.sr[3]++
		}
		if hi > lo {
			r.covN++
			r.cov[1] += aS / (hi - lo)
			r.cov[2] += aL / (hi - lo)
			r.cov[3] += rs.Coverage() / (hi - lo)
			for m, c := range [4]float64{hi - lo, aS, aL, rs.Coverage()} {
				r.covTot[m] += c
				r.covAll[m] = append(r.covAll[m], c/(hi-lo))
			}
		}
		r.aae[0] += math.Abs(g.smith - x)
		r.aae[1] += math.Abs(g.li - x)
		r.aae[2] += math.Abs(rs.Point() - x)
	}
	return r, nil
}

// smith is the template predictor of Smith, Foster and Taylor (2004) as
// far as the spec lets us build it: a fixed set of templates (no genetic
// search), each a subset of ⟨user, size, queue, group⟩ or the size's
// power-of-two class; the prediction is the mean runtime of the matching
// category whose 90% confidence interval of the mean is the narrowest
// (categories of ≥ 2 jobs), else the mean of any matching category, else
// the mean of every job seen.
type smith struct {
	cats      map[smithKey]*smithCat
	all       smithCat
	templates []uint8
}

type smithKey struct {
	t                        uint8
	user, size, queue, group int64
}

type smithCat struct{ n, sum, sumsq float64 }

const (
	tUser uint8 = 1 << iota
	tSize
	tSizeClass
	tQueue
	tGroup
)

func newSmith() *smith {
	return &smith{cats: map[smithKey]*smithCat{}, templates: []uint8{
		tUser | tSize | tQueue | tGroup, tUser | tSize, tUser | tSizeClass, tUser,
		tGroup | tSize, tQueue | tSize, tQueue | tSizeClass, tQueue,
	}}
}

func (s *smith) key(t uint8, j *swf.Job) smithKey {
	k := smithKey{t: t, user: -2, size: -2, queue: -2, group: -2}
	if t&tUser != 0 {
		k.user = j.User
	}
	if t&tSize != 0 {
		k.size = j.Size()
	}
	if t&tSizeClass != 0 {
		k.size = int64(math.Ilogb(float64(max(j.Size(), 1))))
	}
	if t&tQueue != 0 {
		k.queue = j.Queue
	}
	if t&tGroup != 0 {
		k.group = j.Group
	}
	return k
}

func (s *smith) add(j *swf.Job) {
	r := float64(j.RunTime)
	for _, t := range s.templates {
		k := s.key(t, j)
		c := s.cats[k]
		if c == nil {
			c = &smithCat{}
			s.cats[k] = c
		}
		c.n, c.sum, c.sumsq = c.n+1, c.sum+r, c.sumsq+r*r
	}
	s.all.n, s.all.sum = s.all.n+1, s.all.sum+r
}

func (s *smith) predict(j *swf.Job) float64 {
	best, bestCI, any := math.NaN(), math.Inf(1), math.NaN()
	for _, t := range s.templates {
		c := s.cats[s.key(t, j)]
		if c == nil || c.n == 0 {
			continue
		}
		m := c.sum / c.n
		if math.IsNaN(any) {
			any = m
		}
		if c.n < 2 {
			continue
		}
		v := max((c.sumsq-c.n*m*m)/(c.n-1), 0)
		if ci := 1.645 * math.Sqrt(v/c.n); ci < bestCI {
			best, bestCI = m, ci
		}
	}
	switch {
	case !math.IsNaN(best):
		return best
	case !math.IsNaN(any):
		return any
	case s.all.n > 0:
		return s.all.sum / s.all.n
	}
	return float64(max(j.ReqTime, 0))
}

// li is the instance-based runtime predictor of Li, Groep and Wolters
// (2005) as far as the spec lets us build it: the distance-weighted
// average (n-WA, kernel exp(−d²)) of the runtimes of the liK nearest of the
// last liWindow finished jobs under a heterogeneous Euclidean-overlap
// distance on user, group, queue (0/1) and log size and log ERT (scaled by
// the largest seen), equal weights (no genetic tuning).
type li struct {
	jobs   []swf.Job
	ring   []int
	next   int
	maxLS  float64
	maxLE  float64
	dist   []float64
	picked []int
}

const (
	liWindow = 1000
	liK      = 10
)

func newLi(jobs []swf.Job) *li { return &li{jobs: jobs, maxLS: 1, maxLE: 1} }

func (l *li) add(i int) {
	j := &l.jobs[i]
	l.maxLS = max(l.maxLS, math.Log1p(float64(j.Size())))
	l.maxLE = max(l.maxLE, math.Log1p(float64(max(j.ReqTime, 0))))
	if len(l.ring) < liWindow {
		l.ring = append(l.ring, i)
		return
	}
	l.ring[l.next] = i
	l.next = (l.next + 1) % liWindow
}

func (l *li) predict(j *swf.Job) float64 {
	if len(l.ring) == 0 {
		return float64(max(j.ReqTime, 0))
	}
	// The liK nearest, kept sorted by insertion (k is small).
	l.dist, l.picked = l.dist[:0], l.picked[:0]
	ls, le := math.Log1p(float64(j.Size())), math.Log1p(float64(max(j.ReqTime, 0)))
	for _, i := range l.ring {
		h := &l.jobs[i]
		var d float64
		if h.User != j.User {
			d++
		}
		if h.Group != j.Group {
			d++
		}
		if h.Queue != j.Queue {
			d++
		}
		ds := (math.Log1p(float64(h.Size())) - ls) / l.maxLS
		de := (math.Log1p(float64(max(h.ReqTime, 0))) - le) / l.maxLE
		d = math.Sqrt((d + ds*ds + de*de) / 5)
		if len(l.dist) == liK && d >= l.dist[liK-1] {
			continue
		}
		pos, _ := slices.BinarySearch(l.dist, d)
		l.dist = slices.Insert(l.dist, pos, d)
		l.picked = slices.Insert(l.picked, pos, i)
		if len(l.dist) > liK {
			l.dist, l.picked = l.dist[:liK], l.picked[:liK]
		}
	}
	var sw, s float64
	for n, i := range l.picked {
		w := math.Exp(-l.dist[n] * l.dist[n])
		sw += w
		s += w * float64(l.jobs[i].RunTime)
	}
	return s / sw
}

// medianPct is the median of x in percent, "–" when x is empty (no test
// job with a nonzero baseline: a short log's; it printed "NaN").
func medianPct(x []float64) string {
	if len(x) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*median(x))
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}
