package sanitize

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/flurrytest"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// background is a steady synthetic workload: n users submitting varied
// jobs uniformly at random over weeks.
func background(rng *rand.Rand, weeks int, perWeek int) []swf.Job {
	var jobs []swf.Job
	n := weeks * perWeek
	for i := 0; i < n; i++ {
		sz := int64(1) << rng.IntN(6)
		jobs = append(jobs, swf.Job{
			ID: int64(i + 1), Submit: rng.Int64N(int64(weeks) * week), RunTime: 60 + rng.Int64N(7200),
			AllocProcs: sz, ReqProcs: sz, ReqTime: 600 * (1 + rng.Int64N(12)), User: 1 + rng.Int64N(50),
		})
	}
	slices.SortStableFunc(jobs, func(a, b swf.Job) int { return int(a.Submit - b.Submit) })
	return jobs
}

// injectDetect injects s into jobs and detects the flurries of the result
// with the default configuration. t is a *testing.T or a *rapid.T.
func injectDetect(t interface {
	Helper()
	Fatal(...any)
}, jobs []swf.Job, s flurrytest.Synthetic, rng *rand.Rand) ([]swf.Job, []int64, Candidates) {
	t.Helper()
	inj, ids, err := flurrytest.Inject(jobs, s, rng)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := DetectFlurries(inj, FlurryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return inj, ids, cs
}

func TestDetectInjectedSynthetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	jobs := background(rng, 20, 300)
	base, err := DetectFlurries(jobs, FlurryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if len(base) != 0 {
		t.Errorf("steady random workload: %d candidates, want 0: %+v", len(base), base)
	}
	s := flurrytest.Synthetic{User: 999, Jobs: 375, Start: 8*week + 3*hour, Duration: 10 * hour, Size: 32, ReqTime: 300, RunMin: 60, RunMax: 120}
	inj, ids, cs := injectDetect(t, jobs, s, rng)
	if len(cs) != 1 {
		t.Fatalf("%d candidates, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	if c.User != 999 || c.Jobs != 375 || c.Size != 32 || c.ReqTime != 300 || c.SizeShare != 1 || c.ReqTimeShare != 1 {
		t.Errorf("candidate %+v", c)
	}
	if c.FirstID != ids[0] || c.LastID != ids[len(ids)-1] || c.First != s.Start || c.Last != s.Start+s.Duration {
		t.Errorf("span/IDs: %+v, want %d..%d", c, ids[0], ids[len(ids)-1])
	}
	kept, removed := cs.Filters().Apply(inj)
	if !reflect.DeepEqual(kept, jobs) || removed[0] != 375 {
		t.Errorf("the candidate's filter removed %v, want exactly the 375 injected jobs", removed)
	}
	// Detection does not modify its input; removal happens only on request.
	if len(inj) != len(jobs)+375 {
		t.Error("input modified")
	}
	// The filter survives a round trip through a filter file.
	var b strings.Builder
	if err := cs.Filters().Write(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ParseFilters(strings.NewReader(b.String()))
	if err != nil || !reflect.DeepEqual(back, cs.Filters()) {
		t.Errorf("round trip of %q: %v %v", b.String(), back, err)
	}
}

// A heavy user doing varied work is not a flurry, however busy.
func TestHeterogeneousBurstIsNotAFlurry(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	jobs := background(rng, 20, 300)
	for k := 0; k < 400; k++ {
		sz := int64(1) << rng.IntN(7)
		jobs = append(jobs, swf.Job{ID: int64(10000 + k), Submit: 5*week + rng.Int64N(day), RunTime: 100, AllocProcs: sz, ReqTime: 60 * (1 + rng.Int64N(100)), User: 777})
	}
	cs, err := DetectFlurries(jobs, FlurryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.User == 777 {
			t.Errorf("varied burst flagged: %+v", c)
		}
	}
}

// A multi-week flurry: thousands of small jobs at random times, mixed into
// other work, found as one candidate covering them all.
func TestDetectMultiWeek(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	jobs := background(rng, 30, 300)
	s := flurrytest.Synthetic{User: 7, Jobs: 1800, Start: 10 * week, Duration: 3 * week, Size: 1, ReqTime: 600, RunMin: 5, RunMax: 60, Random: true}
	inj, ids, cs := injectDetect(t, jobs, s, rng)
	var hit *Candidate
	for i := range cs {
		if cs[i].User == 7 {
			if hit != nil {
				t.Errorf("flurry split: %+v and %+v", *hit, cs[i])
			}
			hit = &cs[i]
		}
	}
	if hit == nil {
		t.Fatalf("not found; candidates %+v", cs)
	}
	n := 0
	for i := range inj {
		if inj[i].ID >= ids[0] && hit.Filter.Match(&inj[i]) {
			n++
		}
	}
	if n != len(ids) || !hit.By.Jobs() {
		t.Errorf("covers %d of %d injected jobs (by %v)", n, len(ids), hit.By)
	}
}

// A process flurry: few jobs by count, but huge in Σ sizes.
func TestProcessFlurry(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	jobs := background(rng, 20, 300)
	s := flurrytest.Synthetic{User: 5000, Jobs: 120, Start: 12 * week, Duration: 20 * hour, Size: 128, ReqTime: 300, RunMin: 60, RunMax: 120}
	_, _, cs := injectDetect(t, jobs, s, rng)
	if len(cs) != 1 || cs[0].User != 5000 || !cs[0].By.Procs() || cs[0].Jobs != 120 {
		t.Fatalf("candidates %+v", cs)
	}
}

// §8.1's scale: a burst that dominates its day but adds only a third of a
// normal week is not a flurry by default (WeekLift 1), and is reported
// with the test off; a burst that adds more than a normal week is.
func TestWeekLift(t *testing.T) {
	jobs := quietLog(6)
	small := flurrytest.Synthetic{User: 41, Jobs: 300, Start: week + day, Duration: 5 * hour, Size: 1, ReqTime: 300, RunMin: 60, RunMax: 60}
	big := flurrytest.Synthetic{User: 42, Jobs: 1000, Start: 4*week + day, Duration: 10 * hour, Size: 1, ReqTime: 300, RunMin: 60, RunMax: 60}
	jobs, _, _ = flurrytest.Inject(jobs, small, nil)
	jobs, _, _ = flurrytest.Inject(jobs, big, nil)
	users := func(cfg FlurryConfig) map[int64]float64 {
		cs, err := DetectFlurries(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out := map[int64]float64{}
		for _, c := range cs {
			out[c.User] = c.WeekLift
		}
		return out
	}
	def := users(FlurryConfig{})
	if len(def) != 1 || math.Abs(def[42]-1000.0/840) > 1e-9 {
		t.Errorf("default: candidates (user: week lift) %v, want only user 42 at %.3f", def, 1000.0/840)
	}
	off := users(FlurryConfig{WeekLift: -1})
	if len(off) != 2 || math.Abs(off[41]-300.0/840) > 1e-9 {
		t.Errorf("WeekLift off: candidates %v, want users 41 (%.3f) and 42", off, 300.0/840)
	}
	if strict := users(FlurryConfig{WeekLift: 1.5}); len(strict) != 0 {
		t.Errorf("WeekLift 1.5: candidates %v, want none", strict)
	}
}

// Two bursts of one kind five days apart are one flurry, unless the user's
// varied work between them would make the whole inhomogeneous: then they
// stay two candidates, each of one kind (S30 step 3 holds for what is
// reported).
func TestMergeKeepsHomogeneity(t *testing.T) {
	base := quietLog(6)
	burst := func(start int64) flurrytest.Synthetic {
		return flurrytest.Synthetic{User: 41, Jobs: 150, Start: start, Duration: 3 * hour, Size: 1, ReqTime: 300, RunMin: 60, RunMax: 60}
	}
	jobs, _, _ := flurrytest.Inject(base, burst(2*week), nil)
	jobs, _, _ = flurrytest.Inject(jobs, burst(2*week+5*day), nil)
	cs, err := DetectFlurries(jobs, FlurryConfig{WeekLift: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Jobs != 300 {
		t.Fatalf("two same-kind bursts 5 days apart: %d candidates %+v, want one of 300 jobs", len(cs), cs)
	}
	// 400 varied jobs of the same user in the gap.
	for k := int64(0); k < 400; k++ {
		jobs = append(jobs, swf.Job{ID: 100000 + k, Submit: 2*week + day + k*600, RunTime: 600, AllocProcs: 2 + k%7, ReqTime: 600 * (1 + k%5), User: 41})
	}
	slices.SortStableFunc(jobs, func(a, b swf.Job) int { return int(a.Submit - b.Submit) })
	cs, err = DetectFlurries(jobs, FlurryConfig{WeekLift: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("with varied work between them: %d candidates %+v, want the two bursts apart", len(cs), cs)
	}
	for _, c := range cs {
		if c.Jobs != 150 || c.SizeShare < 0.8 || c.ReqTimeShare < 0.8 {
			t.Errorf("candidate %+v, want 150 jobs of one kind", c)
		}
	}
}

// A strong burst joined by weaker ones of the same kind 6 days before and
// after is still reported: the merged span's rate (1,300 jobs over 12 days,
// 0.87 of a median week per week) would fall below WeekLift 1, but the
// whole keeps its strongest piece's lift (here the first two pieces, 1,150
// jobs within a week: 1.37).
func TestMergeKeepsStrongestLift(t *testing.T) {
	jobs := quietLog(6)
	for _, b := range []struct {
		start int64
		n     int
	}{{week, 150}, {week + 6*day, 1000}, {week + 12*day, 150}} {
		jobs, _, _ = flurrytest.Inject(jobs, flurrytest.Synthetic{User: 41, Jobs: b.n, Start: b.start, Duration: 10 * hour, Size: 1, ReqTime: 300, RunMin: 60, RunMax: 60}, nil)
	}
	cs, err := DetectFlurries(jobs, FlurryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Jobs != 1300 || cs[0].WeekLift < 1000.0/840 {
		t.Fatalf("candidates %+v, want one of 1300 jobs with at least the strong piece's lift %.3f", cs, 1000.0/840)
	}
}

// quietLog is 10 users submitting one job each every 2 h for the given
// weeks: 840 jobs and 4,620 processes a week, varied sizes and estimates.
func quietLog(weeks int64) []swf.Job {
	var jobs []swf.Job
	for k := int64(0); k < weeks*week/(2*hour); k++ {
		for u := int64(1); u <= 10; u++ {
			jobs = append(jobs, swf.Job{ID: k*10 + u, Submit: k*2*hour + u*60, RunTime: 600, AllocProcs: u, ReqTime: 600 * u, User: u})
		}
	}
	return jobs
}

func TestFlurryConfigValidate(t *testing.T) {
	for _, c := range []FlurryConfig{{Bins: []int64{0}}, {Quantile: 1.5}, {Factor: -1}, {Share: 2}, {Homogeneity: -0.1}, {MinJobs: -1}, {WeekLift: math.NaN()}, {WeekLift: math.Inf(1)}} {
		if _, err := DetectFlurries([]swf.Job{{Submit: 1}}, c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if cs, err := DetectFlurries(nil, FlurryConfig{}); err != nil || cs != nil {
		t.Errorf("empty log: %v %v", cs, err)
	}
}

// Candidates are a deterministic function of the set of jobs, not of their
// order, and every candidate's filter matches exactly Jobs of them.
func TestDetectProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 1))
		jobs := background(rng, 4, 100)
		s := flurrytest.Synthetic{User: 90, Jobs: rapid.IntRange(1, 400).Draw(t, "n"), Start: rapid.Int64Range(0, 3*week).Draw(t, "at"),
			Duration: rapid.Int64Range(0, 3*day).Draw(t, "dur"), Size: 4, ReqTime: 60, RunMin: 1, RunMax: 10}
		inj, _, cs := injectDetect(t, jobs, s, rng)
		shuffled := slices.Clone(inj)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		cs2, err := DetectFlurries(shuffled, FlurryConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(cs, cs2) {
			t.Fatalf("order-dependent:\n%+v\n%+v", cs, cs2)
		}
		for _, c := range cs {
			n := 0
			for i := range inj {
				if c.Filter.Match(&inj[i]) {
					n++
				}
			}
			if n != c.Jobs || c.Jobs < 100 || c.SizeShare < 0.8 || c.ReqTimeShare < 0.8 {
				t.Fatalf("filter matches %d, candidate %+v", n, c)
			}
		}
	})
}

// The real-trace assertion that runs in plain go test: the thesis's
// 375-job flurry injected into the cleaned SDSC-SP2 log on its 581st day
// (where the PWA filter took the real one out) is found, named and removed
// whole by the detector's filter, and nothing else is new.
func TestDetectSDSCSP2Injected(t *testing.T) {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.SDSCSP2))
	if err != nil {
		t.Fatal(err)
	}
	base, err := DetectFlurries(jobs, FlurryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s := flurrytest.Synthetic{User: 328, Jobs: 375, Start: 580*day + 8*hour, Duration: 10 * hour, Size: 32, ReqTime: 300, RunMin: 60, RunMax: 120}
	_, ids, cs := injectDetect(t, jobs, s, rand.New(rand.NewPCG(581, 0)))
	if len(cs) != len(base)+1 {
		t.Errorf("%d candidates after injection, %d before; want one more", len(cs), len(base))
	}
	found := false
	for _, c := range cs {
		if c.User != 328 {
			continue
		}
		found = true
		if c.Jobs != 375 || c.FirstID != ids[0] || c.LastID != ids[374] || !c.By.Jobs() || !c.By.Procs() {
			t.Errorf("candidate %+v", c)
		}
		if c.JobShare < 0.8 {
			t.Errorf("a 375-job flurry in 10 h on SDSC-SP2 (about 3.4 jobs/h) should dominate its span; share %.2f", c.JobShare)
		}
	}
	if !found {
		t.Fatalf("user 328 not found among %d candidates", len(cs))
	}
}

func BenchmarkDetectFlurriesBlue(b *testing.B) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := DetectFlurries(jobs, FlurryConfig{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// Arbitrary (also nonsensical) jobs never make the detector panic, and
// every candidate it returns is consistent with its filter.
func TestDetectArbitraryJobs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 400).Draw(t, "n")
		jobs := make([]swf.Job, n)
		for i := range jobs {
			jobs[i] = swf.Job{
				ID: rapid.Int64Range(-1, 50).Draw(t, "id"), Submit: rapid.Int64Range(-1, 3*day).Draw(t, "s"),
				RunTime: rapid.Int64Range(-1, 100).Draw(t, "r"), AllocProcs: rapid.Int64Range(-1, 4).Draw(t, "p"),
				ReqProcs: rapid.Int64Range(-1, 4).Draw(t, "q"), ReqTime: rapid.Int64Range(-1, 2).Draw(t, "e"), User: rapid.Int64Range(-1, 3).Draw(t, "u"),
			}
		}
		cfg := FlurryConfig{MinJobs: rapid.IntRange(1, 50).Draw(t, "min"), Bins: []int64{rapid.Int64Range(1, day).Draw(t, "bin")}}
		cs, err := DetectFlurries(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			m := 0
			for i := range jobs {
				if c.Filter.Match(&jobs[i]) {
					m++
				}
			}
			if m != c.Jobs || c.Jobs < cfg.MinJobs || c.First > c.Last {
				t.Fatalf("filter matches %d, candidate %+v", m, c)
			}
		}
	})
}

// Submissions more than 100 years apart (a corrupt submit time of
// 2^63 − 1) panicked (makeslice: len out of range); they are an error.
// 100 years exactly, unknown submit times aside, are detected.
func TestDetectCorruptSpan(t *testing.T) {
	job := func(id, submit int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, User: 1, AllocProcs: 1, RunTime: 1}
	}
	if _, err := DetectFlurries([]swf.Job{job(1, 0), job(2, 1<<63-1000)}, FlurryConfig{}); err == nil || !strings.Contains(err.Error(), "more than 100 years") {
		t.Errorf("got %v, want an error naming the span", err)
	}
	if _, err := DetectFlurries([]swf.Job{job(1, -1), job(2, 5), job(3, 5+maxSpan)}, FlurryConfig{}); err != nil {
		t.Errorf("100 years: %v", err)
	}
}

// The bins a width makes over the span are bounded (maxBins): bins of 1 s
// over two submissions ten years apart asked for 3·10^8 bins of 40 bytes
// (12 GB, twice), memory that grew with the width rather than the jobs.
func TestDetectTooManyBins(t *testing.T) {
	job := func(id, submit int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, User: 1, AllocProcs: 1, RunTime: 1}
	}
	// (Small enough that, without the bound, the detection runs: 4·10^6
	// bins, 170 MB.)
	for _, c := range []struct{ span, bin int64 }{{maxBins, 1}, {3 * maxBins, 3}} {
		_, err := DetectFlurries([]swf.Job{job(1, 0), job(2, c.span)}, FlurryConfig{Bins: []int64{week, c.bin}})
		if err == nil || !strings.Contains(err.Error(), "a wider bin?") {
			t.Errorf("bins of %d s over %d s: %v, want an error naming the bins", c.bin, c.span, err)
		}
	}
	for _, c := range []struct {
		span, bin int64
		ok        bool
	}{
		{maxBins - 1, 1, true}, {maxBins, 1, false},
		{10 * 365 * day, 1, false}, {maxSpan, 60, false},
		{maxSpan, 2 * maxSpan / maxBins, true}, {maxSpan, maxSpan / maxBins, false},
	} {
		err := checkSpan([]swf.Job{job(1, 0), job(2, c.span)}, []int64{c.bin})
		if (err == nil) != c.ok {
			t.Errorf("bins of %d s over %d s: %v, want accepted %v", c.bin, c.span, err, c.ok)
		}
	}
}

// Σ sizes saturate: 120 jobs of a corrupt size 2^62 summed to 0 modulo
// 2^64, and the process flurry they make was not seen. With the sums
// saturating at 2^63 − 1 it is, and its Procs says "at least 2^63 − 1".
func TestProcessSumSaturates(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	jobs := background(rng, 20, 300)
	s := flurrytest.Synthetic{User: 5000, Jobs: 120, Start: 12 * week, Duration: 20 * hour, Size: 1 << 62, ReqTime: 300, RunMin: 60, RunMax: 120}
	_, _, cs := injectDetect(t, jobs, s, rng)
	if len(cs) != 1 || cs[0].User != 5000 || !cs[0].By.Procs() || cs[0].Jobs != 120 || cs[0].Procs != math.MaxInt64 || cs[0].ProcShare != 1 {
		t.Fatalf("candidates %+v; want user 5000's 120 jobs by procs, Procs 2^63 − 1", cs)
	}
}

// Jobs without a user (SWF's −1) are no user's flurry: a burst in a trace
// without users is the machine's, not one user's, and is not flagged;
// user 0 is a user, whose burst is (checked: fails without the fix in
// flagBins, a candidate of user −1).
func TestDetectNoUser(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := flurrytest.Synthetic{Jobs: 375, Start: 8*week + 3*hour, Duration: 10 * hour, Size: 32, ReqTime: 300, RunMin: 60, RunMax: 120}
	for _, u := range []int64{-1, 0} {
		jobs := background(rng, 20, 300)
		if u < 0 {
			for i := range jobs {
				jobs[i].User = -1
			}
		}
		s.User = u
		_, _, cs := injectDetect(t, jobs, s, rng)
		want := 1
		if u < 0 {
			want = 0
		}
		if len(cs) != want {
			t.Errorf("a burst of user %d: %d candidates, want %d: %+v", u, len(cs), want, cs)
		} else if want == 1 && cs[0].User != 0 {
			t.Errorf("a burst of user 0: candidate of user %d", cs[0].User)
		}
	}
}
